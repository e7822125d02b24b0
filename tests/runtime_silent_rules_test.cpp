// Rules where the format's sources are silent (docs/semantics.md, each named there): selector
// conditions (S32, String) read from the blackboard, a module node's two kinds of transition, a
// Fork whose path fails, Alert results outside 0-3, NumLoop -1, and Element_StateEnd in a Logic
// file.

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

// Runs `select` (plug 0 leads to Match, plug 1, the default, to Other) under `blackboard`: the
// Enter's log, then the next frame's after `write` changed the blackboard.
template <typename F>
std::pair<Log, Log> rechosen(std::vector<BuildBlackboardEntry> blackboard, BuildNode select,
                             F write) {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = std::move(blackboard);
  spec.nodes = {std::move(select), user("Match"), user("Other")};
  Harness h;
  h.probe("Match", {R});
  h.probe("Other", {R});
  h.load(spec);
  auto entered = h.step([&] { h.instance->start("Root"); });
  REQUIRE(write(*h.instance));
  return {entered, h.tick()};
}

// Entered on the default; re-evaluated at the update, once the blackboard names the input's value.
const std::pair<Log, Log> kRechosen{Log{"enter Other"},
                                    Log{"leave Other", "enter Match", "update Match"}};

}  // namespace

TEST_CASE("an S32 selector's condition may read the blackboard") {
  // Input 7 (a constant); plug 0's condition is the blackboard's "Wanted".
  BuildNode select{.type = NodeType::S32Selector};
  select.inputs = {{ParamType::Int, "Input", -1, 0, 0, std::int32_t{7}}};
  select.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(0, 0)},
                  {PlugKind::Child, 2, "", 0, s32_condition(0)}};
  CHECK(rechosen({{BlackboardType::S32, "Wanted", std::int32_t{3}}}, select,
                 [](Instance& i) { return i.set_int("Wanted", 7); }) == kRechosen);
}

TEST_CASE("a String selector's condition may read the blackboard") {
  BuildNode select{.type = NodeType::StringSelector};
  select.inputs = {{ParamType::String, "Input", -1, 0, 0, std::string("Run")}};
  select.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(0, 0), ""},
                  {PlugKind::Child, 2, "", 0, s32_condition(0), "Default"}};
  CHECK(rechosen({{BlackboardType::String, "Wanted", std::string("Walk")}}, select,
                 [](Instance& i) { return i.set_string("Wanted", "Run"); }) == kRechosen);
}

TEST_CASE("a module node's StateEnd transition wins over its ordinary one") {
  // Root: Call.module, with an ordinary transition -> Plain and a type-0 one "Done" -> Done.
  // Call.module's command is an Element_StateEnd naming `name`.
  auto run = [](const std::string& name) {
    AinbSpec module;
    module.file_name = "Call.module";
    module.commands = {{"Run", 0, {}}};
    BuildNode end{.type = NodeType::StateEnd};
    end.properties = {{ParamType::String, "TransitionCommand", name}};
    module.nodes = {end};
    AinbSpec root;
    root.commands = {{"Root", 0, {}}};
    BuildNode call{.name = "Call.module", .flags = node_flags::kIsModule};
    call.plugs = {transition(1, 0), transition(2, 1)};
    root.nodes = {call, user("Plain"), user("Done")};
    root.transitions = {{1, ""}, {0, "Done"}};
    root.modules = {{"Call.module.ainb"}};
    MemoryResolver modules;
    modules.add("Call.module.ainb", ainb::load(build(module), "Call.module.ainb"));
    Harness h;
    h.options.modules = &modules;
    h.probe("Plain", {R});
    h.probe("Done", {R});
    h.load(root);
    h.instance->start("Root");
    h.tick();  // the module runs its StateEnd and returns; the transition waits a frame
    return h.tick();
  };
  CHECK(run("Done") == Log{"transition Call.module -> Done", "enter Done", "update Done"});
  // A name no type-0 transition carries: the ordinary transition, as for any finished node.
  CHECK(run("Elsewhere") == Log{"transition Call.module -> Plain", "enter Plain", "update Plain"});
}

TEST_CASE("a Fork whose path fails fails its command, whatever the other paths do") {
  auto run = [](Result p1, Result p2) {
    AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    BuildNode fork{.type = NodeType::Fork};
    fork.plugs = {transition(1, 0), transition(2, 1)};
    spec.nodes = {fork, user("P1"), user("P2")};
    spec.transitions = {{kPostCalc, ""}, {kPostCalc, ""}};
    Harness h;
    h.probe("P1", {p1});
    h.probe("P2", {R, p2});  // finishes a frame later
    h.load(spec);
    h.instance->start("Root");
    h.tick();
    h.tick();
    return h.instance->state();
  };
  CHECK(run(S, S) == CommandState::Succeeded);
  CHECK(run(F, S) == CommandState::Failed);  // the first path failed, the last succeeded
  CHECK(run(S, F) == CommandState::Failed);
  CHECK(run(F, F) == CommandState::Failed);
}

TEST_CASE("Element_Alert: a Result outside 0-3 succeeds, as None and Success do") {
  for (const std::int32_t result : {-1, 4, 99}) {
    CAPTURE(result);
    AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    BuildNode alert{.type = NodeType::Alert};
    alert.properties = {{ParamType::Int, "Result", result}};
    alert.inputs = {{ParamType::String, "Message", -1, 0, 0, std::string("odd")}};
    spec.nodes = {alert};
    auto graph = std::make_shared<Graph>(ainb::load(build(spec), "alert.ainb"), NodeRegistry{});
    Instance instance(graph);
    instance.start("Root");
    instance.tick();
    CHECK(instance.state() == CommandState::Succeeded);
  }
}

TEST_CASE("NumLoop -1 loops for ever, as 0 does, a round per update at most") {
  // IsLoop, IsUpdateNextInFrame, NumLoop -1; both children succeed at once.
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsLoop", true},
                    {ParamType::Bool, "IsUpdateNextInFrame", true},
                    {ParamType::Int, "NumLoop", std::int32_t{-1}}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {seq, user("A"), user("B")};
  Harness h;
  h.probe("A", {S});
  h.probe("B", {S});
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A"});
  for (int frame = 0; frame < 3; ++frame) {
    CHECK(h.tick() == Log{"update A", "leave A", "enter B", "update B", "leave B", "enter A"});
    CHECK(h.instance->state() == CommandState::Running);
  }
}

TEST_CASE("Element_StateEnd in a Logic file ends the file's run: every root is left") {
  // No commands: both roots run every frame; the StateEnd under the first ends the run.
  AinbSpec spec;
  spec.category = "Logic";
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode end{.type = NodeType::StateEnd};
  end.properties = {{ParamType::String, "TransitionCommand", std::string("Finish")}};
  spec.nodes = {seq, user("Step"), end, user("Other")};
  Harness h;
  h.probe("Step", {R, S});
  h.probe("Other", {R});
  CHECK(h.step([&] { h.load(spec); }) == Log{"enter Step", "enter Other"});
  CHECK(h.tick() == Log{"update Step", "update Other"});
  CHECK(h.tick() == Log{"update Step", "leave Step", "update Other", "leave Other"});
  CHECK(h.instance->state() == CommandState::Succeeded);
  CHECK(h.instance->state_end() == "Finish");
  CHECK(h.tick().empty());  // nothing runs until the file is started again
}
