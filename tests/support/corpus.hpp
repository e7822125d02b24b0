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

std::vector<std::uint8_t> read_file(const std::filesystem::path& path);

}  // namespace ainb::test
