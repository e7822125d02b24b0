#pragma once

// Regression testing of an edited file: both files run under the same scenarios, options and
// seed, and their traces are compared event by event (`ainb regress`).

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/simulation/simulation.hpp"

namespace ainb::simulation {

struct Difference {
  std::string scenario;                        // the scenario's name, or "(no scenario)"
  std::size_t index = 0;                       // of the first differing event
  std::vector<TraceEvent> context;             // the events before it, common to both runs
  std::optional<TraceEvent> original, edited;  // nullopt: that run had no more events
  std::string explanation;
};

struct RegressResult {
  std::size_t scenarios = 0;
  std::size_t events = 0;  // compared, over every scenario
  std::optional<Difference> difference;
  // Stored property and input values that differ although the traces agree: on nodes the runs
  // entered (a stub or scripted class ignores them; register the real class to see their effect),
  // or on nodes no run entered (no scenario tested the edit).
  std::vector<std::string> notes;
};

// The first event where two runs differ (`original_file` and `edited_file` are the top-level
// files' names, which may differ), with context and an explanation; nullopt when they agree.
std::optional<Difference> first_difference(const std::vector<TraceEvent>& original,
                                           const std::vector<TraceEvent>& edited,
                                           const std::string& original_file,
                                           const std::string& edited_file);
// The difference as `ainb regress` prints it; `original` and `edited` label the two runs.
void print_difference(const Difference& difference, std::ostream& out,
                      std::string_view original = "original", std::string_view edited = "edited");

// Throws what simulate() throws, for either file.
RegressResult regress(const std::filesystem::path& original, const std::filesystem::path& edited,
                      const std::vector<Scenario>& scenarios, const RunOptions& options);
void print_regress(const RegressResult& result, std::ostream& out);

}  // namespace ainb::simulation
