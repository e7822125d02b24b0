// The committed regression corpus of the fuzz harnesses (fuzz/regressions/<harness>/): every input
// is replayed through the harness body the libFuzzer program runs (fuzz/targets/), in every
// build. An input that once crashed, hung or leaked an exception must now pass
// (docs/robustness.md).

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "ainb_fuzz_harnesses.hpp"
#include "build_paths.hpp"
#include "corpus.hpp"
#include "targets.hpp"

namespace {

// Replays every file of fuzz/regressions/<harness>/; returns how many there were.
std::size_t replay(const std::string& harness, void (*run)(ainb::fuzz::Bytes)) {
  const auto folder = ainb::test::source_dir() / "fuzz" / "regressions" / harness;
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(folder)) {
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.is_regular_file()) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    CAPTURE(file.filename().string());
    const auto bytes = ainb::test::read_file(file);
    CHECK_NOTHROW(run(ainb::fuzz::Bytes(bytes)));
  }
  return files.size();
}

}  // namespace

// One test per harness of fuzz/CMakeLists.txt; each must have committed inputs.
#define AINB_REPLAY_HARNESS(name)                                       \
  TEST_CASE("fuzz regression corpus replays cleanly: " #name) {         \
    const auto count = replay(#name, &ainb::fuzz::run_##name);          \
    CHECK(count > 0);                                                   \
    MESSAGE(count << " inputs of fuzz/regressions/" #name " replayed"); \
  }
AINB_FUZZ_HARNESSES(AINB_REPLAY_HARNESS)
