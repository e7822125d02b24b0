#pragma once

// Regression testing of an edited file: both files run under the same scenarios, options and
// seed, and their traces are compared event by event (`ainb regress`).

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/simulation/diff.hpp"
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
  // Edits the traces could not see (they agree): on nodes the runs entered (a stub or scripted
  // class ignores them; register the real class to see their effect), on nodes no run entered
  // (no scenario tested the edit), new or deleted nodes, and edits of the file (commands,
  // blackboard entries, modules). Nodes are paired by GUID.
  std::vector<std::string> notes;
  // The edited side's properties not honoured (Summary::not_honoured): where the verdict may
  // differ from the game's. Not notes: --strict does not count them.
  std::vector<std::pair<std::string, std::string>> not_honoured;
};

// Per file: the top-level file under the original's name, each module both actors loaded
// under its own.
using NodePairings = std::map<std::string, NodePairing>;
NodePairings pair_files(const runtime::Graph& original, const runtime::Graph& edited);

// How an explanation names the two runs: an edit's, or a golden check's ("the recording",
// "this run").
struct RunLabels {
  std::string original = "the original";
  std::string edited = "the edited file";
};

// The first event where two runs differ (`original_file` and `edited_file` are the top-level
// files' names, which may differ), with context and an explanation; nullopt when they agree.
// With `pairings` an edited node is compared as the original node it is paired with (a node
// inserted or deleted before it shifts its index); without, by index.
std::optional<Difference> first_difference(const std::vector<TraceEvent>& original,
                                           const std::vector<TraceEvent>& edited,
                                           const std::string& original_file,
                                           const std::string& edited_file,
                                           const NodePairings* pairings = nullptr,
                                           const RunLabels& labels = {});
// The difference as `ainb regress` prints it; `original` and `edited` label the two runs.
void print_difference(const Difference& difference, std::ostream& out,
                      std::string_view original = "original", std::string_view edited = "edited");

// Every edit between two actors: the top-level file's, then each module both loaded, by name.
std::vector<Edit> actor_edits(const runtime::Graph& original, const runtime::Graph& edited,
                              const NodePairings& pairings);

// The two runs of one scenario, kept for a look at them (report::regress_page): the scenario
// that differed, else the last one. When the edited file does not fit the scenario, `edited`
// has no graph and no events.
struct RegressRuns {
  std::string scenario;
  std::string edited_scenario;  // the edited file's, which regress_scenarios lets differ
  Summary original, edited;
  std::vector<TraceEvent> original_events, edited_events;
};

// Throws what simulate() throws, for either file. With `kept`, the runs of the scenario shown
// are kept there.
RegressResult regress(const std::filesystem::path& original, const std::filesystem::path& edited,
                      const std::vector<Scenario>& scenarios, const RunOptions& options,
                      RegressRuns* kept = nullptr);
// The original under `first` and the edited file under `second` (a debugger's branch against the
// run it branched from: the same file twice): one comparison, as regress makes it, whose
// explanation names the runs by their scenarios.
RegressResult regress_scenarios(const std::filesystem::path& original,
                                const std::filesystem::path& edited, const Scenario& first,
                                const Scenario& second, const RunOptions& options,
                                RegressRuns* kept = nullptr);
void print_regress(const RegressResult& result, std::ostream& out);

}  // namespace ainb::simulation
