#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ainb::test {

// Whether this build runs under AddressSanitizer: the heaviest corpus loops take fewer cases
// there (docs/building.md, "The sanitizer build's share of the corpus").
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// The real-data corpus (../shared/corpus). When the environment variable CI is set, a missing
// corpus fails the calling test instead of skipping it: CI must never pass without real data.
// Returns an empty path (after a doctest MESSAGE) when the corpus is absent outside CI.
std::filesystem::path corpus_dir();

// Every `*.ainb` in the corpus's ainb/ folder, sorted by name.
std::vector<std::filesystem::path> corpus_ainb_files();

// Every `*.ainb` of the bulk corpus (bulk/ainb/: 109 AI files of two TotK actor packs, each with
// the reference tool's `X.peer.json`), sorted by name.
std::vector<std::filesystem::path> corpus_bulk_ainb_files();
// The wide corpus (wide/ainb/: 478 AI and Logic files of 37 actor packs of three mods; 28 of them
// written or edited by the modders).
std::vector<std::filesystem::path> corpus_wide_ainb_files();
// The real files the loader refuses, by file name, with the reason argued for each
// (tests/corpus-refusals.txt: lines "NAME REASON"; the test "corpus refusals" pins them).
std::map<std::string, std::string> corpus_refusals();
// Every real AI file: ainb/, bulk/ainb/, then wide/ainb/, but the refused ones.
std::vector<std::filesystem::path> all_real_ainb_files();
// The folders those files are in, where their modules are found.
std::vector<std::filesystem::path> real_ainb_folders();
// The public files as a modders' tool writes them back (rewritten/<tool>/: "ainb2", "legacy").
std::vector<std::filesystem::path> corpus_rewritten_files(const std::string& tool);

// The files of a corpus folder (byml/, aamp/, packs/, zsdic/) whose names end with `suffix`,
// sorted by name; empty when the corpus is missing outside CI (in CI: the test fails).
std::vector<std::filesystem::path> corpus_files(const std::string& folder,
                                                const std::string& suffix);
// BYML and AAMP binaries (not their `.roead.yml` renderings), the zstd packs, and the folder of
// TotK zstd dictionaries (empty path when the corpus is missing outside CI).
std::vector<std::filesystem::path> corpus_byml_files();
std::vector<std::filesystem::path> corpus_aamp_files();
std::vector<std::filesystem::path> corpus_pack_files();
std::filesystem::path corpus_zsdic_dir();

std::vector<std::uint8_t> read_file(const std::filesystem::path& path);

}  // namespace ainb::test
