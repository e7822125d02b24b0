#pragma once

// Golden traces for a directory of files and scenarios (`ainb regress --record DIR` and
// `--check DIR`): record every file's traces once, then check a later version of the files
// against them, in a mod's CI for instance. Layout of DIR and rules: docs/simulation.md.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ainb/simulation/regress.hpp"

namespace ainb::simulation {

struct GoldenCase {
  std::string file;      // the file's key: its path relative to the input it was found under
  std::string scenario;  // the scenario's name in the golden set; empty: none
  enum class Status { Recorded, Same, Different, Missing, Error } status = Status::Recorded;
  std::size_t events = 0;  // recorded, or compared before the difference
  std::optional<Difference> difference;
  std::string error;  // Error: the message; Missing: where the file was looked for
};

struct GoldenReport {
  std::vector<GoldenCase> cases;
  std::vector<std::string> unrecorded;  // files found now that the golden set does not have
  bool has_errors() const;
  bool all_same() const;  // every case Recorded or Same
};

// Runs every `*.ainb` under `inputs` (files, or folders searched recursively) under the given
// scenarios and the `<name>*.scenario.json` files beside each file (no scenario when there are
// none), and writes the traces, copies of the scenarios and a manifest to `dir` (replacing a
// previous recording). Cases that fail to run are reported as errors and not recorded. Throws
// std::runtime_error when `dir` cannot be written or an input does not exist.
GoldenReport record_golden(const std::filesystem::path& dir,
                           const std::vector<std::filesystem::path>& inputs,
                           const std::vector<std::filesystem::path>& scenarios,
                           const RunOptions& options, const Progress& progress = {});

// Runs every recorded case again, with the recorded options and scenario copies, on the files
// found under `inputs` (empty: the recorded inputs, relative to the current directory) and
// compares the traces; the runs' warnings go to `log` (RunOptions::log, which the recording
// does not keep). Throws std::runtime_error when `dir` holds no readable recording.
GoldenReport check_golden(const std::filesystem::path& dir,
                          const std::vector<std::filesystem::path>& inputs,
                          const Progress& progress = {}, const runtime::LogSink* log = nullptr);

// A summary table, then each difference as `ainb regress` prints it.
void print_golden(const GoldenReport& report, std::ostream& out);

}  // namespace ainb::simulation
