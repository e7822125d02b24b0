#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ainb::test {

// The real-data corpus (../shared/corpus). When the environment variable CI is set, a missing
// corpus fails the calling test instead of skipping it: CI must never pass without real data.
// Returns an empty path (after a doctest MESSAGE) when the corpus is absent outside CI.
std::filesystem::path corpus_dir();

// Every `*.ainb` in the corpus's ainb/ folder, sorted by name.
std::vector<std::filesystem::path> corpus_ainb_files();

// Every `*.ainb` of the bulk corpus (bulk/ainb/: 109 AI files of two TotK actor packs, each with
// the reference tool's `X.peer.json`), sorted by name.
std::vector<std::filesystem::path> corpus_bulk_ainb_files();
// Every real AI file: ainb/ then bulk/ainb/.
std::vector<std::filesystem::path> all_real_ainb_files();

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
