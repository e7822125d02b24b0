#pragma once

// How a scenario acts on a run: user classes as its NodeBehaviour scripts them, and its values,
// checked against the types they are written to. `simulate` and explore share these, so that a
// scenario explore writes does in `ainb run` what it did while exploring.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/exb/section.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/node_class.hpp"
#include "ainb/simulation/scenario.hpp"

namespace ainb::simulation {

// A JSON value as a value of `type`, or nullopt when it is not one (an integer out of the 32-bit
// range, s32 or with `unsigned_int` u32, or a number past float's is not one either). Strings are
// views into the JSON, which must outlive the value.
std::optional<Value> json_value(const nlohmann::json& j, ParamType type, bool unsigned_int = false);
// What json_value accepts for `type`, for messages ("an integer from ...").
std::string_view expected(ParamType type, bool unsigned_int = false);

// What a user function returns for a scenario's `value`, as its result's bytes (a string as a
// pointer to the JSON's text, which must outlive the calls; nothing for a None result); nullopt
// when the value is not of type `result`.
std::optional<std::array<std::uint8_t, 12>> function_result(const nlohmann::json& value,
                                                            exb::DataType result);

// What a scripted node keeps between its updates (zeroed at its Enter).
struct ScriptedState {
  std::uint32_t updates;
  std::uint32_t running;  // Running updates after this Enter (read at the first)
};

// A NodeBehaviour ready to run: its output values converted once, to each type they fit (a node
// writes the one of its output's type), so that no update reads JSON. The behaviour must outlive
// it (strings are views into its JSON).
struct PreparedBehaviour {
  explicit PreparedBehaviour(const NodeBehaviour& behaviour);
  struct Write {
    ParamType type;
    std::string_view name;
    Value value;
  };
  struct Override {
    std::uint64_t frame;
    std::optional<runtime::Result> result;
    std::vector<Write> outputs;
  };
  const NodeBehaviour* source;
  std::vector<Write> outputs;
  std::vector<Override> overrides;
};

// The child plug a behaviour's "child" names on the node (its name, enum value or position),
// kNoPlug for none: names and enum values are compared, so a caller that can finds it once.
constexpr std::uint32_t kNoPlug = ~0u;
std::uint32_t chosen_plug(runtime::NodeContext& c, const NodeBehaviour& behaviour);

// A behaviour's Update for one node, running child plug `plug` (chosen_plug's) if any. (It needs
// no Enter: the runtime zeroes the state then.)
runtime::Result scripted_update(runtime::NodeContext& c, ScriptedState& state,
                                const PreparedBehaviour& behaviour, std::uint32_t plug);

// What a stub does at its Enter (writes the node definitions' output defaults, `stub_outputs`
// when there are any) and its Update (succeeds, or passes through to its first child with
// `stub_children`): a class that stands in for a stub does the same for the nodes it does not
// script.
void stub_enter(runtime::NodeContext& c, const runtime::StubOutputDefaults& stub_outputs);
runtime::Result stub_update(runtime::NodeContext& c, bool stub_children);

// A user class as a scenario scripts it: its class's behaviour, or one node's ("at"), which
// wins; nodes it scripts neither way run as its stubs would. The behaviours must outlive it.
class ScriptedClass : public runtime::StatefulNodeClass<ScriptedState> {
 public:
  // (Its own Leave does nothing: the runtime then calls none.)
  ScriptedClass(const NodeBehaviour* behaviour, runtime::StubOutputDefaults stub_outputs,
                bool stub_children)
      : StatefulNodeClass(kEnter),
        stub_outputs_(std::move(stub_outputs)),
        stub_children_(stub_children) {
    if (behaviour != nullptr) behaviour_.emplace(*behaviour);
  }
  // Node `node` of `file` (empty: the top file) runs `behaviour`.
  void add_node(std::string file, std::uint32_t node, const NodeBehaviour& behaviour) {
    at_.push_back({std::move(file), node, PreparedBehaviour(behaviour)});
  }
  void on_enter(runtime::NodeContext& c, ScriptedState& state) override;
  runtime::Result on_update(runtime::NodeContext& c, ScriptedState& state) override;

 private:
  const PreparedBehaviour* behaviour_of(runtime::NodeContext& c) const;
  struct At {
    std::string file;
    std::uint32_t node;
    PreparedBehaviour behaviour;
  };
  std::optional<PreparedBehaviour> behaviour_;
  std::vector<At> at_;
  runtime::StubOutputDefaults stub_outputs_;
  bool stub_children_;
};

// Checks what the scenario names against the files (entries and their values' types, the
// command, classes, outputs, running properties, user functions), so a typo fails before the run:
// throws ScenarioError naming the scenario and JSON path.
void validate_scenario(const Scenario& scenario, const runtime::Graph& graph);

// The scenario's blackboard values and command switches for `frame`, applied to `actor` (the
// scenario was checked against its file).
void apply_frame(runtime::Instance& actor, const Scenario& scenario, std::uint64_t frame);

// A run's frames: the scenario's frame 0, `command` started (unless the scenario started one),
// then each frame's scenario changes, an ended command started again (with `restart`) and a
// tick, until `frames` or a fault. `begin_frame(frame)` is called before each frame's changes.
struct Ticked {
  std::uint64_t ended_frame = 0;  // the last frame in which the command ended
  std::uint64_t restarts = 0;
};
template <typename BeginFrame>
Ticked run_frames(runtime::Instance& actor, const Scenario& scenario, std::string_view command,
                  std::uint64_t frames, bool restart, BeginFrame begin_frame) {
  using runtime::CommandState;
  Ticked ticked;
  apply_frame(actor, scenario, 0);
  if (!command.empty() && actor.command().empty()) actor.start(command);
  for (std::uint64_t frame = 1; frame <= frames; ++frame) {
    begin_frame(frame);
    apply_frame(actor, scenario, frame);
    if (actor.state() == CommandState::Faulted) break;
    const bool ended =
        actor.state() == CommandState::Succeeded || actor.state() == CommandState::Failed;
    if (restart && ended) {
      actor.start(actor.command());
      ++ticked.restarts;
    }
    const bool running = actor.state() == CommandState::Running;
    actor.tick();
    if (actor.state() == CommandState::Faulted) break;
    if (running && actor.state() != CommandState::Running) ticked.ended_frame = frame;
  }
  return ticked;
}

}  // namespace ainb::simulation
