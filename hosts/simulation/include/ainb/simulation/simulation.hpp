#pragma once

// Offline simulation: runs a file (with its modules) for a number of frames under a scenario,
// streaming trace events and returning a summary. `ainb run` and `ainb regress` are built on it.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/runtime/instance.hpp"
#include "ainb/simulation/run_options.hpp"
#include "ainb/simulation/scenario.hpp"

namespace ainb::formats {
class NodeCatalogue;  // formats/node_definitions.hpp
}

namespace ainb::gamedata {
struct OpenedPack;
}

namespace ainb::simulation {

// A long batch's progress (golden traces, an exploration's runs): called with done of total and
// what it is on, and once at the end with total of total.
using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& label)>;

class Coverage;  // coverage.hpp

// How a file runs. The options a person sets are the table's rows (run_options.hpp); the rest
// are the host's.
struct RunOptions {
#define AINB_RUN_OPTION_FIELD(name, kind, value, most, takers, flag, help) \
  OptionValue<OptionKind::kind>::type name = value;
  AINB_RUN_OPTIONS(AINB_RUN_OPTION_FIELD)
#undef AINB_RUN_OPTION_FIELD
  // The host's node classes by class name (the Python module's, say): they run in place of
  // stubs and of the generic classes; a scenario's scripted class of the same name wins.
  std::vector<std::pair<std::string, std::shared_ptr<runtime::NodeClass>>> node_classes;
  // Packs opened by the caller (`ainb scan`'s): a module is looked up in the file's own pack,
  // then in these, then in the romfs (gamedata::FileSource).
  std::shared_ptr<const std::vector<gamedata::OpenedPack>> shared_packs;
  // Node definitions already read (explore's replays, a host's many runs): used instead of
  // reading `definitions` again.
  std::shared_ptr<const formats::NodeCatalogue> catalogue;
  // `ainb regress` and golden sets hold each run's trace in memory (a few hundred bytes an
  // event): a run past this many events stops with an error instead of exhausting it.
  std::uint64_t max_held_events = 1'000'000;
  // Where the run's warnings go as they arise (runtime::GraphOptions::log and
  // InstanceOptions::log: missing modules and user functions, alerts; and the run's own,
  // Summary::warnings, as LogKind::ParameterFile and Scenario). Null: nowhere; the summary
  // keeps its own. The simulation prints nothing itself.
  const runtime::LogSink* log = nullptr;
  // Keep the run's coverage (Summary::coverage; docs/simulation.md, "Coverage").
  bool coverage = false;
};

// Calls f(info, field) for each row of the run option table, `field` the member of `options`
// (const or not) the row describes.
template <class Options, class F>
void for_each_run_option(Options& options, F&& f) {
  const auto table = run_option_table();
  std::size_t row = 0;
#define AINB_RUN_OPTION_VISIT(name, kind, value, most, takers, flag, help) \
  f(table[row++], options.name);
  AINB_RUN_OPTIONS(AINB_RUN_OPTION_VISIT)
#undef AINB_RUN_OPTION_VISIT
}

// One event of a run, as the trace formats print it.
struct TraceEvent {
  std::uint64_t frame = 0;
  std::string event;  // command, enter, update, leave, transition, alert, xlink, blackboard
  std::string file;   // the file the node belongs to (a module's, inside a module call)
  std::int64_t node = -1;
  std::string type;         // built-in type name, or the user class name
  std::string name;         // the node's name where it has one (user class, module path)
  std::string result;       // update
  std::int64_t to = -1;     // transition target
  std::string detail;       // command name, alert message, "slot=action", entry
  std::uint32_t depth = 0;  // nesting, for the text form
  // The instance it came from (the actor 0, module calls' sub-instances numbered as they are
  // first seen): two calls of one module file run the same nodes at once.
  std::uint32_t instance = 0;
};

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void event(const TraceEvent& event) = 0;
  virtual void finish() {}
  // Events dropped by a trace writer's limit (0 when nothing was).
  virtual std::uint64_t dropped() const { return 0; }
  // A sink that shows values (a report page) takes each node's outputs after its updates: the
  // update event, then each output's name and value (format_value) in the file's order. The
  // trace writers take none, so a trace is the same with or without them.
  virtual bool takes_outputs() const { return false; }
  virtual void outputs(const TraceEvent& /*update*/,
                       const std::vector<std::pair<std::string_view, std::string>>& /*values*/) {}
};

// Keeps every event in memory (regress, golden traces, tests), at most `limit`: one more throws
// std::length_error, which stops the run as the observer's fault.
class TraceCollector : public TraceSink {
 public:
  explicit TraceCollector(std::uint64_t limit = UINT64_MAX) : limit_(limit) {}
  void event(const TraceEvent& e) override;
  std::vector<TraceEvent> events;

 private:
  std::uint64_t limit_;
};

enum class TraceFormat { Jsonl, Text, Chrome };
// The events a trace writer writes unless told otherwise (`ainb run --max-trace-events`): about
// 1.5 GB of JSON lines. A run that goes on writes one last event, "truncated", naming the limit,
// and drops the rest (counted by TraceSink::dropped); the simulation itself continues.
inline constexpr std::uint64_t kDefaultMaxTraceEvents = 10'000'000;
// Writes to `out` (which must outlive the sink).
std::unique_ptr<TraceSink> make_trace_writer(TraceFormat format, std::ostream& out,
                                             std::uint64_t max_events = kDefaultMaxTraceEvents);
// One line of a JSON-lines trace, as the writer prints it.
nlohmann::ordered_json trace_event_json(const TraceEvent& event);
// One line of a JSON-lines trace, read back (`depth` is not stored, so it is 0). Throws
// nlohmann::json::exception when the line is not such an event.
TraceEvent parse_trace_event(const nlohmann::json& line);

struct Summary {
  std::string file;
  std::string command;  // the one running (or last run) at the end
  std::string started;  // the one the run started with
  // Stub nodes (in every file of the actor) with child plugs they do not run, without
  // RunOptions::stub_children: the trees below them are not simulated.
  std::size_t stubs_with_children = 0;
  std::uint64_t frames = 0;
  std::uint64_t visits = 0;                               // update calls, every file of the actor
  std::map<std::string, std::uint64_t> updates_by_class;  // by class or built-in type name
  std::string state;                                      // the command's state at the end
  // The frame in which the command ended (state succeeded or failed), 0 while it runs.
  std::uint64_t ended_frame = 0;
  std::uint64_t restarts = 0;  // commands started again after they ended (RunOptions::restart)
  // "file #node Type" and its last result, by file and node number.
  std::vector<std::pair<std::string, std::string>> last_results;
  // "file #node Type" and the properties it sets that the runtime does not honour ("BusyPolicy
  // 2, ResultPolicy 1"), every file of the actor once (runtime/unhonoured.hpp).
  std::vector<std::pair<std::string, std::string>> not_honoured;
  std::vector<std::pair<std::string, std::string>> blackboard;  // at the end: name, value
  // The same entries' values as C++ values, a string's text owned (the instance is gone):
  // nullopt where `blackboard` prints "?". Python converts these, not the printed text.
  using StoredValue =
      std::variant<std::int32_t, bool, float, std::string, Vec3f, PointerValue, std::uint32_t>;
  std::vector<std::pair<std::string, std::optional<StoredValue>>> blackboard_values;
  // Blackboard parameter files that were missing or did not fit, and scenario steps the run never
  // reached (also sent to RunOptions::log).
  std::vector<std::string> warnings;
  // The file's Element_Alert messages: each node's message once, in the order first said.
  struct Alert {
    std::string file;
    std::uint32_t node = 0;
    std::string message;
    std::uint64_t first_frame = 0;
    std::uint64_t count = 0;
  };
  std::vector<Alert> alerts;
  // The instance's fault (runtime::Fault::describe), empty when none: the run stopped at the
  // frame it happened in, and `state` is "faulted".
  std::string fault;
  // The graph that ran: the file and, through its module calls, every module it loaded.
  std::shared_ptr<const runtime::Graph> graph;
  // What the run reached, with RunOptions::coverage (of `graph`, which keeps it valid).
  std::shared_ptr<Coverage> coverage;
};
void print_summary(const Summary& summary, std::ostream& out);
// The summary's `not_honoured` section ("not honoured, the run behaves as for 0 or false (...):"
// and a line per node); nothing when the list is empty.
void print_not_honoured(const std::vector<std::pair<std::string, std::string>>& nodes,
                        std::ostream& out);

// A command the run is asked to start (RunOptions::command, a scenario's "command") that the
// file does not have; the message lists the ones it has.
class NoSuchCommand : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Every file of an actor: the graph and its modules, once each, the graph first and each module
// where it is first called (tools that go through all of them: coverage, pages).
std::vector<const runtime::Graph*> actor_graphs(const runtime::Graph& graph);

// Loads `file` (a path, or PACK:MEMBER such as "Pack/Actor/X.pack.zs:AI/X.root.ainb"), resolves
// its modules and runs it. Throws LoadError (file or module),
// ScenarioError (a scenario that does not fit the file) or NoSuchCommand.
Summary simulate(const std::filesystem::path& file, const Scenario& scenario,
                 const RunOptions& options, TraceSink* trace);

// What the options say of a registry's node classes: the stubs' policies and the generic classes.
// Called after the host's own classes are added (they win over the generic ones); `simulate` and
// the Python module's actors share it.
void configure_registry(runtime::NodeRegistry& registry, const RunOptions& options);

}  // namespace ainb::simulation
