#pragma once

// A scenario scripts the world around a simulated actor: blackboard values set at chosen frames,
// command switches, how user node classes behave, what user EXB functions return, the seed.
// Format and examples: docs/simulation.md.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/runtime/node_class.hpp"

namespace ainb::simulation {

// A scenario that does not parse or does not fit the file it is run with. The message names the
// scenario and the JSON path ("patrol.json: /blackboard/0/value: ...").
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One user node class's scripted behaviour. Each update: Running for `running` updates after
// its Enter, then `result`; the outputs are written at every update. An override replaces the
// result and adds outputs in the frames it names. With `running_property`, the Running updates
// are each node's int or float property of that name times `running_scale`, rounded, read at its
// Enter (so an edit of the property shows in the trace). With `child`, each update instead runs
// the node's child plug of that name (NodeContext::run_child) and returns its result (a node
// without such a plug returns `result`); overrides still replace it. With `child_enum`, the
// `__CHILD_ENUM` plug carrying that enum value, else the `__CHILD_ENUM_OTHER` plug (the default).
// With `child_plug`, the child plug at that position (plugs may share a name).
struct NodeBehaviour {
  // The first frame the behaviour applies to (a debugger's intervention from a frame on); before
  // it the node runs as it would without it: an `at` node as its class's entry says, a class as
  // the stub it is. 0: from the start.
  std::uint64_t from = 0;
  std::optional<std::string> child;
  std::optional<std::uint32_t> child_enum;
  std::optional<std::uint32_t> child_plug;
  std::uint32_t running = 0;
  std::optional<std::string> running_property;
  double running_scale = 1.0;
  runtime::Result result = runtime::Result::Success;
  // "result": {"if": ENTRY, "then": R, "else": R}: in place of `result`, read at each update from
  // the node's file's blackboard entry ENTRY: `then` when it is true (a number other than 0, a
  // string not empty), else `otherwise` (also for a file without that entry).
  struct ResultIf {
    std::string entry;
    runtime::Result then = runtime::Result::Success;
    runtime::Result otherwise = runtime::Result::Failure;
  };
  std::optional<ResultIf> result_if;
  std::map<std::string, nlohmann::json> outputs;
  struct Override {
    std::uint64_t frame = 0;
    std::optional<runtime::Result> result;
    std::map<std::string, nlohmann::json> outputs;
  };
  std::vector<Override> overrides;
};

// The most frames a run takes (`ainb run --frames`, a scenario's "frames"): at 60 frames a second,
// six months of game time.
inline constexpr std::uint64_t kMaxFrames = 1'000'000'000;

struct Scenario {
  std::string name;  // the file it came from (messages)
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> frames;
  std::optional<std::string> command;
  std::optional<bool> restart;  // RunOptions::restart
  struct BlackboardSet {
    std::uint64_t frame = 0;
    std::string entry;
    nlohmann::json value;
    std::string path;  // JSON path, for messages
    // A module file's entry (Instance::set_module_value), set in every call of that file; empty:
    // the top file's.
    std::string file;
  };
  std::vector<BlackboardSet> blackboard;
  struct CommandSwitch {
    std::uint64_t frame = 0;
    std::string command;
    std::string path;
  };
  std::vector<CommandSwitch> commands;
  std::map<std::string, NodeBehaviour> nodes;  // by class name
  // One node's behaviour, in place of its class's: node `node` of `file` (a file of the actor as
  // traces name it; empty: the top file), whose class is `cls` (checked: it says which node is
  // meant to the reader, and which class the run scripts before the modules are loaded).
  struct NodeAt {
    std::string file;
    std::uint32_t node = 0;
    std::string cls;
    NodeBehaviour behaviour;
    std::string path;  // JSON path, for messages
  };
  std::vector<NodeAt> at;
  // Node `node` of `file` (empty: the top file; a module's in every call of it) returns `result`
  // at each update from frame `frame` on, for `frames` frames (all the rest without), without
  // running its own update (runtime::Instance::force; docs/semantics.md, "Forced results").
  struct Force {
    std::string file;
    std::uint32_t node = 0;
    runtime::Result result = runtime::Result::Success;
    std::uint64_t frame = 1;
    std::optional<std::uint64_t> frames;
    std::string path;  // JSON path, for messages
  };
  std::vector<Force> force;
  std::map<std::string, nlohmann::json> functions;  // by user function signature
};

// Throws ScenarioError naming `name` and the JSON path of the first problem.
Scenario parse_scenario(const nlohmann::json& json, const std::string& name);
Scenario load_scenario(const std::filesystem::path& path);
// The scenario as its file states it (parse_scenario reads it back to an equal scenario); keys
// that hold their defaults are left out.
nlohmann::ordered_json scenario_json(const Scenario& scenario);

}  // namespace ainb::simulation
