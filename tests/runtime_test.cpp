// The scheduler, LimboAI style: probe nodes log every Enter/Update/Leave, and each test asserts
// the exact sequence frame by frame (docs/semantics.md says why each order is what it is).

#include <functional>
#include <map>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "ainb_builder.hpp"
#include "corpus.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

TEST_CASE("Sequential runs its children one after another") {
  Harness h;
  h.probe("A", {R, S});
  h.probe("B", {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {seq, user("A"), user("B")};
  h.load(spec);

  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A"});
  CHECK(h.instance->state() == CommandState::Running);
  CHECK(h.tick() == Log{"update A"});
  // A succeeds: it is left and B entered; B is updated next frame (IsUpdateNextInFrame false).
  CHECK(h.tick() == Log{"update A", "leave A", "enter B"});
  CHECK(h.tick() == Log{"update B", "leave B"});
  CHECK(h.instance->state() == CommandState::Succeeded);
  CHECK(h.tick().empty());

  SUBCASE("IsUpdateNextInFrame updates the next child in the same frame") {
    spec.nodes[0].properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
    h.load(spec);
    h.instance->start("Root");
    h.tick();
    CHECK(h.tick() == Log{"update A", "leave A", "enter B", "update B", "leave B"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
  SUBCASE("a failing child stops the sequence with Failure") {
    h.probe("A", {F});
    h.load(spec);
    h.instance->start("Root");
    CHECK(h.tick() == Log{"update A", "leave A"});
    CHECK(h.instance->state() == CommandState::Failed);
  }
  SUBCASE("IsLoop with NumLoop repeats the children") {
    spec.nodes[0].properties = {{ParamType::Bool, "IsLoop", true},
                                {ParamType::Bool, "IsUpdateNextInFrame", true},
                                {ParamType::Int, "NumLoop", std::int32_t{2}}};
    h.probe("A", {S});
    h.load(spec);
    h.instance->start("Root");
    CHECK(h.tick() == Log{"update A", "leave A", "enter B", "update B", "leave B", "enter A",
                          "update A", "leave A", "enter B", "update B", "leave B"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
  SUBCASE("an endless loop runs each child at most once per update, so it cannot hang a frame") {
    spec.nodes[0].properties = {{ParamType::Bool, "IsLoop", true},
                                {ParamType::Bool, "IsUpdateNextInFrame", true},
                                {ParamType::Int, "NumLoop", std::int32_t{0}}};
    h.probe("A", {S});
    h.probe("B", {R, S});
    h.load(spec);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A"});
    CHECK(h.tick() == Log{"update A", "leave A", "enter B", "update B"});
    // B finishes, the next round runs A and stops at B, the child this update began with.
    for (int round = 0; round < 3; ++round) {
      CHECK(h.tick() == Log{"update B", "leave B", "enter A", "update A", "leave A", "enter B"});
      CHECK(h.tick() == Log{"update B"});
    }
    h.probe("B", {S});  // every child finishes at once: one round a frame
    h.load(spec);
    h.instance->start("Root");
    for (int round = 0; round < 3; ++round) {
      CHECK(h.tick() == Log{"update A", "leave A", "enter B", "update B", "leave B", "enter A"});
    }
    CHECK(h.instance->state() == CommandState::Running);
  }
}

TEST_CASE("Simultaneous runs all children and succeeds when all have") {
  Harness h;
  h.probe("A", {S});
  h.probe("B", {R, R, S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode sim{.type = NodeType::Simultaneous};
  sim.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {sim, user("A"), user("B")};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A", "enter B"});
  CHECK(h.tick() == Log{"update A", "leave A", "update B"});
  CHECK(h.tick() == Log{"update B"});
  CHECK(h.tick() == Log{"update B", "leave B"});
  CHECK(h.instance->state() == CommandState::Succeeded);

  SUBCASE("one failure makes it fail, after every child finished") {
    h.probe("A", {F});
    h.load(spec);
    h.instance->start("Root");
    h.tick();
    h.tick();
    h.tick();
    CHECK(h.instance->state() == CommandState::Failed);
  }
}

namespace {

// An Element_BoolSelector reading the Bool blackboard entry 0 ("Flag"), leading to node 1 when it
// is true and to node 2 when it is false.
BuildNode flag_selector() {
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};
  choose.plugs = {{PlugKind::Child, 1, "True"}, {PlugKind::Child, 2, "False"}};
  return choose;
}

}  // namespace

TEST_CASE("selectors choose by their input and re-evaluate every frame") {
  Harness h;
  h.probe("Yes", {R});
  h.probe("No", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  const auto choose = flag_selector();
  spec.nodes = {choose, user("Yes"), user("No")};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No"});
  CHECK(h.tick() == Log{"update No"});
  h.instance->set_bool("Flag", true);
  // The choice changed: the old child is left, the new one entered and updated this frame.
  CHECK(h.tick() == Log{"leave No", "enter Yes", "update Yes"});
  CHECK(h.tick() == Log{"update Yes"});
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Yes"});

  SUBCASE("component bits on a Bool input are ignored: it reads the Bool entry") {
    // Only floats select a vec3f component (docs/semantics.md); fuzz regression
    // bool-input-component-bits.
    spec.nodes[0].inputs[0].flags = 0x80000000u | (2u << 26);  // blackboard 0, "component Y"
    spec.blackboard[0].value = true;
    h.load(spec);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Yes"});
  }

  SUBCASE(
      "a write between start and the first tick moves the choice: the entered child is "
      "left without an update") {
    // The first Update reads the input again, as every Update does (docs/semantics.md,
    // "selector re-evaluation"): the child the Enter chose is left having run no Update.
    h.load(spec);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No"});
    h.instance->set_bool("Flag", true);
    CHECK(h.tick() == Log{"leave No", "enter Yes", "update Yes"});
  }

  SUBCASE("IsNoSelectWhenChildBusy keeps a running child until it finishes") {
    h.probe("No", {R, S});
    spec.nodes[0].properties = {{ParamType::Bool, "IsNoSelectWhenChildBusy", true}};
    h.load(spec);
    h.instance->start("Root");
    CHECK(h.tick() == Log{"update No"});
    h.instance->set_bool("Flag", true);
    CHECK(h.tick() == Log{"update No", "leave No"});  // busy: not re-selected; then it finished
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
}

TEST_CASE("S32, F32 and String selectors, constants and blackboard conditions, defaults") {
  Harness h;
  for (const auto* name : {"One", "Two", "Other"})
    h.probe(name, {S});
  AinbSpec spec;
  spec.commands = {{"S32", 0, {}}, {"F32", 4, {}}, {"String", 5, {}}};
  spec.blackboard = {{BlackboardType::S32, "Mode", std::int32_t{1}},
                     {BlackboardType::S32, "Special", std::int32_t{7}},
                     {BlackboardType::F32, "Speed", 0.5f},
                     {BlackboardType::F32, "Max", 2.0f},
                     {BlackboardType::String, "Name", std::string("Burn")}};
  BuildNode s32{.type = NodeType::S32Selector};
  s32.inputs = {{ParamType::Int, "Input", -1, 0, 0x80000000u, std::int32_t{0}}};  // bb Mode
  s32.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(1)},
               {PlugKind::Child, 2, "", 0, s32_condition(0, 1)},  // == bb Special
               {PlugKind::Child, 3, "", 0, s32_condition(0)}};
  BuildNode f32{.type = NodeType::F32Selector};
  f32.inputs = {{ParamType::Float, "Input", -1, 0, 0x80000000u, 0.0f}};  // bb Speed
  f32.plugs = {{PlugKind::Child, 1, "", 0, f32_condition(0.0f, 1.0f)},
               {PlugKind::Child, 2, "", 0, f32_condition(1.0f, 0.0f, {}, 1)},  // [1, bb Max]
               {PlugKind::Child, 3, "", 0, std::vector<std::uint8_t>(0x20, 0), "その他"}};
  BuildNode str{.type = NodeType::StringSelector};
  str.inputs = {{ParamType::String, "Input", -1, 0, 0x80000000u, std::string("")}};
  str.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(0), "Burn"},
               {PlugKind::Child, 3, "", 0, s32_condition(0), "その他"}};
  spec.nodes = {s32, user("One"), user("Two"), user("Other"), f32, str};
  h.load(spec);
  auto first_entered = [&](const char* command) {
    h.instance->stop();
    h.log.clear();
    h.instance->start(command);
    return h.log.at(0);
  };
  CHECK(first_entered("S32") == "enter One");
  h.instance->set_int("Mode", 7);
  CHECK(first_entered("S32") == "enter Two");
  h.instance->set_int("Mode", 3);
  CHECK(first_entered("S32") == "enter Other");
  CHECK(first_entered("F32") == "enter One");
  h.instance->set_float("Speed", 1.5f);
  CHECK(first_entered("F32") == "enter Two");
  h.instance->set_float("Speed", 2.5f);
  CHECK(first_entered("F32") == "enter Other");
  CHECK(first_entered("String") == "enter One");
  h.instance->set_string("Name", "Freeze");
  CHECK(first_entered("String") == "enter Other");
}

TEST_CASE("selectors read a query's outputs of each type, and blackboard operands") {
  // One query writes an int, a float, a bool and a string from a table row the test picks;
  // four selectors choose by them (their typed reads of another node's output).
  struct Source : NodeClass {
    std::size_t row = 0;
    Result update(NodeContext& c) override {
      static constexpr std::int32_t kModes[] = {0, 7, 3};
      static constexpr float kSpeeds[] = {0.5f, 1.5f, 2.5f};
      static constexpr std::string_view kNames[] = {"Burn", "Freeze", "Burn"};
      c.write_int("Mode", kModes[row]);
      c.write_float("Speed", kSpeeds[row]);
      c.write_bool("Flag", row == 1);
      c.write_string("Name", kNames[row]);
      return Result::Success;
    }
  };
  Harness h;
  auto source = std::make_shared<Source>();
  h.registry.add("Source", source);
  const std::vector<std::string> names{"S0",     "S7", "SOther", "F1",   "F2",
                                       "FOther", "BT", "BF",     "Burn", "StrOther"};
  for (const auto& name : names)
    h.probe(name, {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::S32, "Seven", std::int32_t{7}},
                     {BlackboardType::F32, "One", 1.0f},
                     {BlackboardType::String, "Hot", std::string("Burn")}};
  constexpr std::uint32_t kSource = 5, kProbes = 6;  // node indices
  auto plug = [&](std::uint32_t probe, std::vector<std::uint8_t> data,
                  std::optional<std::string> text = {}) {
    return BuildPlug{PlugKind::Child, kProbes + probe, "", 0, std::move(data), std::move(text)};
  };
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 1, ""},
               {PlugKind::Child, 2, ""},
               {PlugKind::Child, 3, ""},
               {PlugKind::Child, 4, ""}};
  BuildNode s32{.type = NodeType::S32Selector};
  s32.inputs = {{ParamType::Int, "Input", kSource, 0, 0, std::int32_t{0}}};
  s32.plugs = {plug(0, s32_condition(0)), plug(1, s32_condition(0, 0)),  // == bb Seven
               plug(2, s32_condition(0))};
  BuildNode f32{.type = NodeType::F32Selector};
  f32.inputs = {{ParamType::Float, "Input", kSource, 0, 0, 0.0f}};
  f32.plugs = {plug(3, f32_condition(0.0f, 1.0f)),
               plug(4, f32_condition(0.0f, 2.0f, 0)),  // [bb One, 2]
               plug(5, std::vector<std::uint8_t>(0x20, 0), "その他")};
  BuildNode boolean{.type = NodeType::BoolSelector};
  boolean.inputs = {{ParamType::Bool, "Input", kSource, 0, 0, false}};
  boolean.plugs = {{PlugKind::Child, kProbes + 6, "True"}, {PlugKind::Child, kProbes + 7, "False"}};
  BuildNode text{.type = NodeType::StringSelector};
  text.inputs = {{ParamType::String, "Input", kSource, 0, 0, std::string("")}};
  text.plugs = {plug(8, s32_condition(0, 0), ""),  // == bb Hot
                plug(9, s32_condition(0), "その他")};
  for (auto* selector : {&s32, &f32, &boolean, &text})
    selector->queries = {0};
  BuildNode query = user("Source");
  query.flags = node_flags::kIsQuery;
  query.outputs = {{ParamType::Int, "Mode"},
                   {ParamType::Float, "Speed"},
                   {ParamType::Bool, "Flag"},
                   {ParamType::String, "Name"}};
  spec.nodes = {all, s32, f32, boolean, text, query};
  for (const auto& name : names)
    spec.nodes.push_back(user(name));
  h.load(spec);

  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter S0", "enter F1", "enter BF", "enter Burn"});
  source->row = 1;  // 7 (the blackboard's Seven), 1.5, true, "Freeze"
  CHECK(h.tick() == Log{"leave S0", "enter S7", "update S7", "leave F1", "enter F2", "update F2",
                        "leave BF", "enter BT", "update BT", "leave Burn", "enter StrOther",
                        "update StrOther"});
  source->row = 2;  // 3, 2.5, false, "Burn"
  CHECK(h.tick() == Log{"leave S7", "enter SOther", "update SOther", "leave F2", "enter FOther",
                        "update FOther", "leave BT", "enter BF", "update BF", "leave StrOther",
                        "enter Burn", "update Burn"});
  // The blackboard operands are read at every choice.
  h.instance->set_int("Seven", 3);
  h.instance->set_float("One", 3.0f);
  h.instance->set_string("Hot", "Cold");
  CHECK(h.tick() == Log{"leave SOther", "enter S7", "update S7", "update FOther", "update BF",
                        "leave Burn", "enter StrOther", "update StrOther"});
}

TEST_CASE("RandomSelector draws by weight from the instance's seeded generator") {
  Harness h;
  h.probe("Rare", {S});
  h.probe("Common", {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode random{.type = NodeType::RandomSelector};
  random.plugs = {{PlugKind::Child, 1, "", 0, random_weight(1.0f)},
                  {PlugKind::Child, 2, "", 0, random_weight(3.0f)}};
  spec.nodes = {random, user("Rare"), user("Common")};
  auto draws = [&](std::uint64_t seed) {
    h.load(spec, seed);
    std::string picks;
    for (int i = 0; i < 400; ++i) {
      h.instance->stop();
      h.log.clear();
      h.instance->start("Root");
      picks += h.log.at(0) == "enter Rare" ? 'R' : 'C';
    }
    return picks;
  };
  const auto a = draws(42);
  CHECK(a == draws(42));  // the same seed gives the same choices
  CHECK(a != draws(43));
  // All 64 bits of the seed count (the generator's state is 31 bits).
  CHECK(a != draws(42 + (std::uint64_t{1} << 32)));
  CHECK(a != draws(42 + 2147483647u));
  const auto rare = std::count(a.begin(), a.end(), 'R');
  CHECK(rare > 60);  // about a quarter of 400
  CHECK(rare < 140);

  SUBCASE("a weight read from the blackboard; no weight at all picks the first plug") {
    spec.blackboard = {{BlackboardType::F32, "RareWeight", 0.0f}};
    spec.nodes[0].plugs[0].extra = random_weight(1.0f, 0);
    CHECK(draws(42) == std::string(400, 'C'));
    spec.nodes[0].plugs[1].extra = random_weight(-3.0f);  // negative: counts as 0
    CHECK(draws(42) == std::string(400, 'R'));
  }
}

TEST_CASE("SplitTiming runs Enter on enter, Update every frame, Leave on leave") {
  // Observed, the general path; without an observer, the plain Update child's short path.
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    Harness h;
    h.probe("OnEnter", {S});
    h.probe("OnUpdate", {R, S});
    h.probe("OnLeave", {S});
    AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    BuildNode split{.type = NodeType::SplitTiming};
    split.plugs = {{PlugKind::Child, 1, "Enter"},
                   {PlugKind::Child, 2, "Update"},
                   {PlugKind::Child, 3, "Leave"}};
    spec.nodes = {split, user("OnEnter"), user("OnUpdate"), user("OnLeave")};
    h.load(spec);
    if (!observed) h.unobserved();
    CHECK(h.step([&] { h.instance->start("Root"); }) ==
          Log{"enter OnEnter", "update OnEnter", "leave OnEnter", "enter OnUpdate"});
    CHECK(h.tick() == Log{"update OnUpdate"});
    CHECK(h.tick() == Log{"update OnUpdate", "leave OnUpdate", "enter OnLeave", "update OnLeave",
                          "leave OnLeave"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
}

TEST_CASE("commands: switching leaves every active node, and unknown names are reported") {
  Harness h;
  h.probe("Walk", {R});
  h.probe("Look", {R});
  h.probe("Attack", {R});
  AinbSpec spec;
  spec.commands = {{"Patrol", 0, {}}, {"Fight", 3, {}}};
  BuildNode sim{.type = NodeType::Simultaneous};
  sim.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {sim, user("Walk"), user("Look"), user("Attack")};
  h.load(spec);
  h.instance->start("Patrol");
  h.tick();
  CHECK(h.step([&] { h.instance->start("Fight"); }) ==
        Log{"leave Look", "leave Walk", "enter Attack"});
  CHECK(h.instance->command() == "Fight");
  CHECK_FALSE(h.instance->is_active(1));
  CHECK_THROWS_WITH(h.instance->start("Flee"),
                    "Test.root.ainb has no command \"Flee\" (it has: \"Patrol\", \"Fight\")");
  CHECK(h.step([&] { h.instance.reset(); }) == Log{"leave Attack"});
}

TEST_CASE("commands start by index as by name; a finished command restarts with a fresh Enter") {
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    Harness h;
    h.probe("Walk", {R, S});
    h.probe("Attack", {S});
    AinbSpec spec;
    spec.commands = {{"Patrol", 0, {}}, {"Fight", 2, {}}};
    BuildNode seq{.type = NodeType::Sequential};
    seq.plugs = {{PlugKind::Child, 1, ""}};
    spec.nodes = {seq, user("Walk"), user("Attack")};
    h.load(spec);
    if (!observed) h.unobserved();
    CHECK(h.graph->find_command("Fight") == std::optional<std::size_t>{1});
    CHECK(h.graph->find_command("Flee") == std::nullopt);
    CHECK(h.step([&] { h.instance->start(std::size_t{0}); }) == Log{"enter Walk"});
    CHECK(h.instance->command() == "Patrol");
    CHECK(h.tick() == Log{"update Walk"});
    // Switching by index leaves the running command first.
    CHECK(h.step([&] { h.instance->start(std::size_t{1}); }) == Log{"leave Walk", "enter Attack"});
    CHECK(h.tick() == Log{"update Attack", "leave Attack"});
    CHECK(h.instance->state() == CommandState::Succeeded);
    CHECK(h.tick().empty());  // an ended command stays ended
    // Restarting the ended command (nothing left to leave) enters its root afresh.
    CHECK(h.step([&] { h.instance->start(std::size_t{1}); }) == Log{"enter Attack"});
    CHECK(h.instance->state() == CommandState::Running);
    CHECK(h.tick() == Log{"update Attack", "leave Attack"});
    CHECK(h.step([&] { h.instance->start(std::size_t{0}); }) == Log{"enter Walk"});
    CHECK(h.tick() == Log{"update Walk"});  // Walk's second script: {R, S} again from its start
    CHECK(h.tick() == Log{"update Walk", "leave Walk"});
    CHECK(h.instance->state() == CommandState::Succeeded);
    CHECK_THROWS_WITH_AS(h.instance->start(std::size_t{2}),
                         "Test.root.ainb has no command 2 (it has 2)", std::out_of_range);
  }
}

TEST_CASE("a command's secondary root runs beside its main root, which alone decides the result") {
  Harness h;
  h.probe("Main", {R, S});
  h.probe("Watch", {S});
  h.probe("Rest", {R});
  AinbSpec spec;
  spec.commands = {{"Guard", 0, 1}, {"Idle", 2, {}}};
  spec.nodes = {user("Main"), user("Watch"), user("Rest")};
  h.load(spec);
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    if (!observed) h.unobserved();
    CHECK(h.step([&] { h.instance->start("Guard"); }) == Log{"enter Main", "enter Watch"});
    // Watch succeeds on every update and stays entered: the command runs on.
    CHECK(h.tick() == Log{"update Main", "update Watch"});
    CHECK(h.instance->state() == CommandState::Running);
    CHECK(h.tick() == Log{"update Main", "leave Main", "update Watch", "leave Watch"});
    CHECK(h.instance->state() == CommandState::Succeeded);
    CHECK(h.tick().empty());
    // A switch leaves the secondary root first, then the main tree.
    h.instance->start("Guard");
    CHECK(h.step([&] { h.instance->start("Idle"); }) ==
          Log{"leave Watch", "leave Main", "enter Rest"});
    CHECK(h.tick() == Log{"update Rest"});
  }
}

TEST_CASE("Logic files run every root every frame, from creation to destruction") {
  Harness h;
  h.probe("Lamp", {R});
  h.probe("Door", {R});
  AinbSpec spec;
  spec.category = "Logic";
  spec.nodes = {user("Lamp"), user("Door")};
  CHECK(h.step([&] { h.load(spec); }) == Log{"enter Lamp", "enter Door"});
  CHECK(h.tick() == Log{"update Lamp", "update Door"});
  CHECK(h.step([&] { h.instance.reset(); }) == Log{"leave Lamp", "leave Door"});
}

TEST_CASE("queries are calculated before their user's enter and each update") {
  Harness h;
  h.probe("IsNear", {S});
  h.probe("Chase", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode chase = user("Chase");
  chase.queries = {0};
  chase.inputs = {{ParamType::Int, "Near", 1, 0, 0, std::int32_t{0}}};
  BuildNode near = user("IsNear");
  near.flags = node_flags::kIsQuery;
  near.outputs = {{ParamType::Int, "Count"}};
  spec.nodes = {chase, near};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter IsNear", "update IsNear", "enter Chase"});
  CHECK(h.tick() == Log{"update IsNear", "update Chase"});
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Chase", "leave IsNear"});
}

TEST_CASE(
    "chained and shared queries: entered once, calculated after their own, left by the last user") {
  // User queries A and B; B queries A too; A queries C. Every calculation of A is preceded by
  // one of C, and A is entered once though two nodes use it.
  Harness h;
  h.probe("User", {R});
  for (const auto* name : {"A", "B", "C"})
    h.probe(name, {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode user_node = user("User");
  user_node.queries = {0, 1};  // query indices: A 0, B 1, C 2
  BuildNode a = user("A"), b = user("B"), c = user("C");
  a.queries = {2};
  b.queries = {0};
  for (auto* q : {&a, &b, &c})
    q->flags = node_flags::kIsQuery;
  spec.nodes = {user_node, a, b, c};
  h.load(spec);
  const Log entering{"enter A",  "enter C",  "update C", "update A",  "enter B",
                     "update C", "update A", "update B", "enter User"};
  CHECK(h.step([&] { h.instance->start("Root"); }) == entering);
  const Log updating{"update C", "update A", "update C", "update A", "update B", "update User"};
  CHECK(h.tick() == updating);
  CHECK(h.tick() == updating);
  // A stays while B still uses it; then B's leave takes A, and A's takes C.
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave User", "leave B", "leave A", "leave C"});
}

TEST_CASE("inputs read other nodes' outputs, the blackboard and defaults") {
  Harness h;
  struct Reader : NodeClass {
    std::vector<std::int32_t> seen;
    std::vector<float> speeds;
    Result update(NodeContext& c) override {
      seen.push_back(c.input_int("Count"));
      speeds.push_back(c.input_float("Speed"));
      return Result::Running;
    }
  };
  auto reader = std::make_shared<Reader>();
  h.registry.add("Reader", reader);
  h.probe("Counter", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Vec3f, "Velocity", Vec3f{1, 2, 3}}};
  BuildNode seq{.type = NodeType::Simultaneous};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode counter = user("Counter");
  counter.outputs = {{ParamType::Int, "Count"}};
  BuildNode read = user("Reader");
  read.inputs = {{ParamType::Int, "Count", 1, 0, 0, std::int32_t{-1}},
                 {ParamType::Float, "Speed", -1, 0, 0x88000000u, 0.0f}};  // Velocity.y
  spec.nodes = {seq, counter, read};
  h.load(spec);
  h.instance->start("Root");
  h.tick();
  h.tick();
  CHECK(reader->seen == std::vector<std::int32_t>{1, 2});
  CHECK(reader->speeds == std::vector<float>{2.0f, 2.0f});
}

TEST_CASE("unregistered classes: a stub by default, a load error in strict mode") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Mystery")};
  auto model = ainb::load(build(spec), "mystery.ainb");
  NodeRegistry registry;
  auto graph = std::make_shared<Graph>(model, registry);
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  CHECK(instance.state() == CommandState::Succeeded);  // the stub succeeds on its first update

  registry.unknown_classes = UnknownClassPolicy::Strict;
  CHECK_THROWS_WITH(Graph(model, registry),
                    "mystery.ainb: nodes at offset 0x8c: node 0 uses class \"Mystery\", which no "
                    "node class is registered for (strict policy)");
}

namespace {

// Checks the runtime's guarantees on every event (docs/semantics.md, "Frames, results and calls"),
// across the module sub-instances of an actor.
struct InvariantObserver : Observer {
  std::map<std::pair<const Instance*, std::uint32_t>, int> active;
  std::vector<std::string> violations;
  std::size_t events = 0, module_events = 0, switches = 0;
  std::string where(const Instance& i, std::uint32_t n) const {
    return fmt::format("{} node {} (frame {})", i.graph().file_name(), n, i.frame());
  }
  void count(const Instance& i) {
    ++events;
    if (i.parent() != nullptr) ++module_events;
  }
  void on_command(const Instance& i, std::string_view) override {
    if (i.parent() != nullptr) return;
    ++switches;  // a top-level command starts only after everything was left
    for (const auto& [key, a] : active) {
      if (a != 0) violations.push_back(where(*key.first, key.second) + " active at a switch");
    }
  }
  void on_enter(const Instance& i, std::uint32_t n) override {
    count(i);
    if (active[{&i, n}]++ != 0) violations.push_back(where(i, n) + " entered twice");
    // Only the states Graph::reached_states counts are entered (the epoch sweep skips the rest).
    if (i.graph().nodes()[n].state_index >= i.graph().reached_states())
      violations.push_back(where(i, n) + " entered, though its state is past the reached ones");
  }
  void on_update(const Instance& i, std::uint32_t n, Result) override {
    count(i);
    if (active[{&i, n}] == 0) violations.push_back(where(i, n) + " updated before enter");
  }
  void on_leave(const Instance& i, std::uint32_t n) override {
    count(i);
    if (active[{&i, n}]-- != 1) violations.push_back(where(i, n) + " left while inactive");
  }
};

// The corpus's module files are found beside the roots; the others run as stubs.
GraphOptions corpus_options(const DirectoryResolver& resolver) {
  return GraphOptions{.modules = &resolver, .missing_modules = MissingModulePolicy::Stub};
}

}  // namespace

TEST_CASE("every corpus file runs 600 frames with stub nodes, keeping the invariants") {
  std::size_t files = 0, module_events = 0;
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  // Stubs run no children, then pass through to their first (an event's Execute wrapper), so
  // the trees below user classes keep the invariants too.
  for (const bool stub_children : {false, true})
    for (const auto& path : ainb::test::corpus_ainb_files()) {
      CAPTURE(path.filename().string());
      CAPTURE(stub_children);
      const auto model = load_file(path);
      NodeRegistry registry;
      registry.stub_runs_first_child = stub_children;
      const auto graph = std::make_shared<Graph>(model, registry, corpus_options(resolver));
      InvariantObserver observer;
      {
        Instance instance(graph, InstanceOptions{1, nullptr, &observer});
        const auto& commands = model->commands;
        for (std::size_t frame = 0; frame < 600; ++frame) {
          // Cycle through the commands so every one runs, and switches happen mid-run.
          if (!commands.empty() && frame % 50 == 0) {
            instance.start(commands[(frame / 50) % commands.size()].name);
          }
          instance.tick();
        }
      }  // destruction leaves everything
      for (const auto& v : observer.violations)
        FAIL_CHECK(v);
      const auto still_active = std::count_if(observer.active.begin(), observer.active.end(),
                                              [](const auto& a) { return a.second != 0; });
      CHECK(still_active == 0);
      CHECK(observer.events > 0);
      CHECK(observer.switches == (model->commands.empty() ? 0u : 12u));
      module_events += observer.module_events;
      ++files;
    }
  // Toby.action.basicattack calls the corpus's _LocalModule_d0e7ebe89ded twice.
  CHECK(module_events > 0);
  MESSAGE(files << " runs of corpus files, 600 frames each; " << module_events
                << " events inside real module files");
}

TEST_CASE("node states are numbered in visit order: roots, then each node's queries and children") {
  // File order scrambled on purpose: the root is node 3, a Simultaneous with query 1 and
  // children 4 and 2; node 2 is a Sequential of 0 and 5; node 6 is reached by nothing.
  AinbSpec spec;
  spec.commands = {{"Root", 3, {}}};
  BuildNode query = user("Q");
  query.flags = node_flags::kIsQuery;
  BuildNode sequence{.type = NodeType::Sequential};
  sequence.plugs = {{PlugKind::Child, 0, ""}, {PlugKind::Child, 5, ""}};
  BuildNode root{.type = NodeType::Simultaneous};
  root.queries = {0};
  root.plugs = {{PlugKind::Child, 4, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {user("B1"), query, sequence, root, user("A"), user("B2"), user("Unused")};
  const Graph graph(ainb::load(build(spec), "order.ainb"), NodeRegistry{});
  std::vector<std::uint32_t> order;
  for (const auto& g : graph.nodes())
    order.push_back(g.state_index);
  // The root 0; its query and children together (1, 2, 3); the Sequential's children (4, 5);
  // then the unreachable node.
  CHECK(order == std::vector<std::uint32_t>{4, 1, 3, 0, 2, 5, 6});
  CHECK(graph.reached_states() == 6);

  // In every corpus file (and the modules it calls), each node has its own state.
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  const auto check_permutation = [](const Graph& g) {
    std::vector<std::uint32_t> seen;
    for (const auto& node : g.nodes())
      seen.push_back(node.state_index);
    std::ranges::sort(seen);
    for (std::uint32_t i = 0; i < seen.size(); ++i)
      REQUIRE(seen[i] == i);
  };
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const Graph g(load_file(path), NodeRegistry{}, corpus_options(resolver));
    check_permutation(g);
    for (const auto& call : g.module_calls())
      check_permutation(*call.graph);
  }
}

namespace {
// `parent` as node 0 of `spec`, over 100 user nodes (1 to 100) with a float output each.
void add_over_hundred_leaves(AinbSpec& spec, BuildNode parent) {
  for (std::uint32_t k = 1; k <= 100; ++k)
    parent.plugs.push_back({PlugKind::Child, k, ""});
  spec.nodes.push_back(std::move(parent));
  for (std::uint32_t k = 1; k <= 100; ++k) {
    BuildNode leaf = user("Leaf");
    leaf.outputs = {{ParamType::Float, "Out"}};
    spec.nodes.push_back(leaf);
  }
}
}  // namespace

TEST_CASE("a command's footprint: the states and outputs of the nodes its frames can reach") {
  // "Many": a composite of 100 user nodes with a float output each (nodes 0 to 100); "One": a
  // single node (101); node 102, with an output too, is reached by neither.
  const auto file = [](NodeType composite) {
    AinbSpec spec;
    spec.commands = {{"Many", 0, {}}, {"One", 101, {}}};
    add_over_hundred_leaves(spec, BuildNode{.type = composite});
    spec.nodes.push_back(user("Alone"));
    BuildNode unreached = user("Unreached");
    unreached.outputs = {{ParamType::Float, "Out"}};
    spec.nodes.push_back(unreached);
    return std::make_shared<Graph>(ainb::load(build(spec), "footprint.ainb"), NodeRegistry{});
  };
  const auto windows = [](const std::vector<ainb::Range>& ranges) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto r : ranges)
      out.emplace_back(r.base, r.count);
    return out;
  };
  using Windows = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  for (const auto composite : {NodeType::Simultaneous, NodeType::Sequential}) {
    CAPTURE(static_cast<int>(composite));
    const auto graph = file(composite);
    REQUIRE(graph->footprints().size() == 2);
    // States 0 to 100 in visit order (808 bytes: 13 lines), the 100 floats (4 bytes each) of
    // nodes 1 to 100 (7 lines or 8): over Graph::kMinFootprintLines.
    const auto& many = graph->footprints()[0];
    CHECK(windows(many.states) == Windows{{0, 101}});
    const auto floats = graph->output_offset(static_cast<std::size_t>(ParamType::Float));
    CHECK(windows(many.outputs) == Windows{{floats, 400}});
    // A Simultaneous updates all 100 children every frame; a Sequential one of them.
    CHECK(many.every_frame == (composite == NodeType::Simultaneous));
    // One node's 8 bytes: too little to be worth a prefetch.
    const auto& one = graph->footprints()[1];
    CHECK(one.states.empty());
    CHECK(one.outputs.empty());
    CHECK_FALSE(one.every_frame);
    CHECK(graph->worth_prefetching());

    // Prefetching changes nothing an instance does.
    Instance plain(graph), prefetched(graph);
    for (int frame = 0; frame < 3; ++frame) {
      prefetched.prefetch_object();
      prefetched.prefetch();
      if (frame == 0) {
        plain.start("Many");
        prefetched.start("Many");
      }
      plain.tick();
      prefetched.tick();
      CHECK(plain.state() == prefetched.state());
      CHECK(plain.active_roots() == prefetched.active_roots());
    }
  }
}

TEST_CASE("a stub's children: states after those frames reach, and out of its footprint") {
  // "Wrapped": a stub (no class is registered) over 100 nodes with a float output each (nodes 1
  // to 100), as an event's Execute wrapper; "Next": node 101.
  AinbSpec spec;
  spec.commands = {{"Wrapped", 0, {}}, {"Next", 101, {}}};
  add_over_hundred_leaves(spec, user("Wrapper"));
  spec.nodes.push_back(user("Next"));
  const auto model = ainb::load(build(spec), "wrapped.ainb");
  SUBCASE("a stub runs none of its children") {
    const Graph graph(model, NodeRegistry{});
    // Both roots first, the children after them; the wrapped command reads one state.
    CHECK(graph.nodes()[0].state_index == 0);
    CHECK(graph.nodes()[101].state_index == 1);
    CHECK(graph.nodes()[1].state_index == 2);
    CHECK(graph.nodes()[100].state_index == 101);
    CHECK(graph.reached_states() == 2);
    CHECK(graph.footprints()[0].states.empty());
    CHECK_FALSE(graph.worth_prefetching());
  }
  SUBCASE("a stub that passes through to its first child") {
    NodeRegistry registry;
    registry.stub_runs_first_child = true;
    const Graph graph(model, registry);
    CHECK(graph.nodes()[1].state_index == 1);
    CHECK(graph.nodes()[100].state_index == 100);
    CHECK(graph.nodes()[101].state_index == 101);
    CHECK(graph.reached_states() == 102);
    const auto& wrapped = graph.footprints()[0];
    REQUIRE(wrapped.states.size() == 1);
    CHECK(wrapped.states[0].base == 0);
    CHECK(wrapped.states[0].count == 101);
    CHECK(graph.worth_prefetching());
  }
}

TEST_CASE("the footprints of the corpus files lie within their instances' arrays") {
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::vector<std::string> prefetched, every_frame, evaluating;
  const auto check = [&](const Graph& g) {
    REQUIRE(g.footprints().size() == std::max<std::size_t>(g.model().commands.size(), 1));
    for (const auto& f : g.footprints()) {
      for (const auto w : f.states)
        REQUIRE(w.end() <= g.nodes().size());
      for (const auto w : f.outputs)
        REQUIRE(w.end() <= g.output_bytes());
      for (const auto w : f.expression_memory)
        REQUIRE(w.end() <= g.expression_memory());
      if (!f.expression_memory.empty()) REQUIRE(f.evaluates);
      if (f.evaluates) REQUIRE(g.program() != nullptr);
      if (f.states.empty()) REQUIRE((f.outputs.empty() && !f.evaluates));
    }
  };
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const Graph g(load_file(path), NodeRegistry{}, corpus_options(resolver));
    check(g);
    for (const auto& call : g.module_calls())
      check(*call.graph);
    const auto& f = g.footprints();
    CHECK(g.worth_prefetching() ==
          std::ranges::any_of(f, [](const auto& x) { return !x.states.empty(); }));
    if (g.worth_prefetching()) prefetched.push_back(path.stem().string());
    if (std::ranges::any_of(f, [](const auto& x) { return x.every_frame; }))
      every_frame.push_back(path.stem().string());
    if (std::ranges::any_of(f, [](const auto& x) { return x.evaluates; }))
      evaluating.push_back(path.stem().string());
  }
  // Of those, the trees whose commands evaluate expressions outside stubs (prefetch() asks for
  // the object's second line and the sites' static memory too).
  CHECK(evaluating ==
        std::vector<std::string>{"Toby.action.basicattack.module", "Toby.utility.root"});
  // The trees whose frames read enough to be worth a prefetch (docs/benchmarks.md).
  CHECK(prefetched == std::vector<std::string>{
                          "Horablin.action.interruptdiewallandceiling.module",
                          "Horablin.action.jumpoffceiling.module", "Horablin_Escape.actionseq.root",
                          "Toby.action.basicattack.module", "Toby.utility.root"});
  CHECK(every_frame == std::vector<std::string>{"Horablin_Escape.actionseq.root",
                                                "Toby.action.basicattack.module",
                                                "Toby.utility.root"});
}

TEST_CASE("a graph keeps its node classes alive after the registry is gone") {
  Log log;
  std::shared_ptr<const Graph> graph;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Probe")};
  {
    NodeRegistry registry;
    registry.add("Probe", std::make_shared<Probe>("Probe", log, std::vector<Result>{S}));
    graph = std::make_shared<Graph>(ainb::load(build(spec), "probe.ainb"), registry);
  }
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  CHECK(log == Log{"enter Probe", "update Probe", "leave Probe"});
}

TEST_CASE("a node shared by two parents is entered, updated and left once") {
  Harness h;
  h.probe("Shared", {R, S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode left{.type = NodeType::Sequential}, right{.type = NodeType::Sequential};
  left.plugs = {{PlugKind::Child, 3, ""}};
  right.plugs = {{PlugKind::Child, 3, ""}};
  spec.nodes = {both, left, right, user("Shared")};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Shared"});
  CHECK(h.tick() == Log{"update Shared"});                  // both parents asked; it ran once
  CHECK(h.tick() == Log{"update Shared", "leave Shared"});  // left when the last parent let go
  CHECK(h.instance->state() == CommandState::Succeeded);
}

TEST_CASE(
    "a parent leaves only the children it holds; a shared child stays entered for the other") {
  // Shared is a child of the Sequential (behind A) and of Other. When the selector drops the
  // Sequential, the Sequential leaves A, the one child it entered; Shared stays with Other.
  Harness h;
  h.probe("A", {R});
  h.probe("Shared", {R});
  h.probe("X", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", true}};
  BuildNode root{.type = NodeType::Simultaneous};
  root.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode choose = flag_selector();
  choose.plugs = {{PlugKind::Child, 3, "True"}, {PlugKind::Child, 6, "False"}};
  BuildNode other{.type = NodeType::Sequential}, sequence{.type = NodeType::Sequential};
  other.plugs = {{PlugKind::Child, 5, ""}};
  sequence.plugs = {{PlugKind::Child, 4, ""}, {PlugKind::Child, 5, ""}};
  spec.nodes = {root, choose, other, sequence, user("A"), user("Shared"), user("X")};
  h.load(spec);
  const auto run = [&] {
    h.instance->set_bool("Flag", true);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A", "enter Shared"});
    CHECK(h.tick() == Log{"update A", "update Shared"});
    h.instance->set_bool("Flag", false);
    CHECK(h.tick() == Log{"leave A", "enter X", "update X", "update Shared"});
    CHECK(h.tick() == Log{"update X", "update Shared"});
    CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Shared", "leave X"});
  };
  run();
  h.unobserved();
  run();
}

TEST_CASE("a Simultaneous does not run again a child it finished that another parent holds") {
  // A Logic file (roots are never left): Shared finishes under the Simultaneous, which leaves
  // it, but the selector still holds it and keeps updating it.
  Harness h;
  h.probe("Shared", {S});
  h.probe("A", {R});
  AinbSpec spec;
  spec.category = "Logic";
  spec.blackboard = {{BlackboardType::Bool, "Flag", true}};
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 2, ""}, {PlugKind::Child, 3, ""}};
  BuildNode choose = flag_selector();
  choose.plugs = {{PlugKind::Child, 2, "True"}, {PlugKind::Child, 3, "False"}};
  spec.nodes = {all, choose, user("Shared"), user("A")};
  const auto run = [&](const std::function<void()>& create) {
    CHECK(h.step(create) == Log{"enter Shared", "enter A"});
    CHECK(h.tick() == Log{"update Shared", "update A"});  // the selector's update is the same
    for (int frame = 0; frame < 3; ++frame)
      CHECK(h.tick() == Log{"update A", "update Shared"});
    CHECK(h.step([&] { h.instance.reset(); }) == Log{"leave A", "leave Shared"});
  };
  run([&] { h.load(spec); });
  run([&] { h.unobserved(); });
}

TEST_CASE("a Logic file's Sequential root that finished keeps its result and runs no child") {
  // Before, its next update read the child past the last one (a crash).
  Harness h;
  h.probe("A", {S});
  h.probe("Fails", {F});
  AinbSpec spec;
  spec.category = "Logic";
  BuildNode done{.type = NodeType::Sequential}, failed{.type = NodeType::Sequential};
  done.plugs = {{PlugKind::Child, 2, ""}};
  failed.plugs = {{PlugKind::Child, 3, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {done, failed, user("A"), user("Fails")};
  const auto run = [&](const std::function<void()>& create) {
    CHECK(h.step(create) == Log{"enter A", "enter Fails"});
    CHECK(h.tick() == Log{"update A", "leave A", "update Fails", "leave Fails"});
    for (int frame = 0; frame < 3; ++frame)
      CHECK(h.tick() == Log{});
    CHECK(h.step([&] { h.instance.reset(); }) == Log{});
  };
  run([&] { h.load(spec); });
  run([&] { h.unobserved(); });
}

TEST_CASE("across the wraps of the 8-bit epoch, shared nodes run once a tick, busy children stay") {
  // NodeState::epoch is a byte: every 254 ticks the instance marks earlier updates as epoch 1
  // (Instance::next_epoch). A shared node must still run once a tick, and a busy child must
  // still count as updated (a wrap through 0 would read as "never updated since entered" and
  // let IsNoSelectWhenChildBusy re-choose).
  Harness h;
  h.probe("Shared", {R});
  h.probe("Yes", {R});
  h.probe("No", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}, {PlugKind::Child, 3, ""}};
  BuildNode left{.type = NodeType::Sequential}, right{.type = NodeType::Sequential};
  left.plugs = {{PlugKind::Child, 4, ""}};
  right.plugs = {{PlugKind::Child, 4, ""}};
  BuildNode choose = flag_selector();
  choose.plugs = {{PlugKind::Child, 5, "True"}, {PlugKind::Child, 6, "False"}};
  choose.properties = {{ParamType::Bool, "IsNoSelectWhenChildBusy", true}};
  spec.nodes = {all, left, right, choose, user("Shared"), user("Yes"), user("No")};
  h.load(spec);
  const auto run = [&] {
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Shared", "enter No"});
    CHECK(h.tick() == Log{"update Shared", "update No"});
    h.instance->set_bool("Flag", true);  // No is busy (it ran, and said Running): it stays chosen
    std::size_t wrong = 0;
    for (int frame = 0; frame < 1000; ++frame) {
      if (h.tick() != Log{"update Shared", "update No"}) ++wrong;
    }
    CHECK(wrong == 0);
    CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave No", "leave Shared"});  // last first
  };
  run();
  h.unobserved();
  run();
}

TEST_CASE("across a wrap of the epoch, a child left waiting since the last cycle is updated") {
  // A class that runs its child on its first update and again on its K-th only, as a wrapper
  // that waits on something else may: in between, the child stays entered and is not updated.
  // Its state keeps the epoch of its one update; the sweep at the wrap (Instance::sweep_epochs)
  // marks it as older, so the K-th update is not taken for a second update in that epoch. One
  // of the K below meets the same epoch number again after the wrap.
  struct Sometimes : NodeClass {
    int updates = 0, again = 0;
    Result update(NodeContext& c) override {
      if (++updates == 1 || updates == again) c.run_child(0);
      return Result::Running;
    }
  };
  const auto sometimes = std::make_shared<Sometimes>();
  Harness h;
  h.registry.add("Sometimes", sometimes);
  h.probe("Child", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode wrapper = user("Sometimes");
  wrapper.plugs = {{PlugKind::Child, 1, "Child"}};
  spec.nodes = {wrapper, user("Child")};
  for (int again = 250; again <= 262; ++again) {
    CAPTURE(again);
    for (const bool observed : {true, false}) {
      if (observed)
        h.load(spec);
      else
        h.unobserved();
      sometimes->updates = 0;
      sometimes->again = again;
      h.instance->start("Root");
      CHECK(h.tick() == Log{"enter Child", "update Child"});
      for (int frame = 2; frame < again; ++frame)
        REQUIRE(h.tick().empty());
      CHECK(h.tick() == Log{"update Child"});
    }
  }
}

TEST_CASE("plain nodes take a short path without an observer, with the same sequences") {
  // A user node or stub with no queries, expression sites or XLink actions skips the general
  // Enter, Update and Leave when no observer is attached. The Harness attaches one, so every
  // other scheduler test runs the general path; this one runs a tree of each built-in parent
  // both ways. The stub (Running once, then Success) sits between A and B.
  Harness h;
  h.probe("A", {R, S});
  h.probe("B", {S});
  h.probe("C", {R, R, F});
  h.registry.stub_running_updates = 1;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 4, ""}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsLoop", true},
                    {ParamType::Int, "NumLoop", std::int32_t{2}}};
  seq.plugs = {{PlugKind::Child, 2, ""}, {PlugKind::Child, 5, ""}, {PlugKind::Child, 3, ""}};
  spec.nodes = {both, seq, user("A"), user("B"), user("C"), user("Stub")};
  h.load(spec);
  const auto run = [&] {
    Log all;
    for (const auto& line : h.step([&] { h.instance->start("Root"); }))
      all.push_back(line);
    for (int frame = 0; frame < 8; ++frame) {
      for (const auto& line : h.tick())
        all.push_back(line);
    }
    return all;
  };
  const auto observed = run();
  REQUIRE(h.graph->nodes()[2].plain_update);
  REQUIRE(h.graph->nodes()[5].is_stub);
  REQUIRE(h.graph->nodes()[5].plain_update);
  h.unobserved();
  CHECK(run() == observed);
  // C fails on its third update (frame 3); the loop runs A, the stub (two frames), then B, and
  // starts again with A on frame 5.
  CHECK(observed == Log{"enter A", "enter C", "update A", "update C", "update A", "leave A",
                        "update C", "update C", "leave C", "enter B", "update B", "leave B",
                        "enter A", "update A", "update A", "leave A"});
  // Composites without queries or transitions take a short Update too: the Simultaneous root
  // (from the active node array) and the Sequential inside it.
  CHECK(h.graph->nodes()[0].plain_composite);
  CHECK(h.graph->nodes()[1].plain_composite);
}

TEST_CASE("a selector's composite children take the short path, with the same sequences") {
  Harness h;
  h.probe("D", {R, S});
  h.probe("E", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  const auto choose = flag_selector();
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 3, ""}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 4, ""}};
  spec.nodes = {choose, seq, both, user("D"), user("E")};
  h.load(spec);
  const auto run = [&] {
    h.instance->set_bool("Flag", false);
    Log all = h.step([&] { h.instance->start("Root"); });
    for (int frame = 0; frame < 4; ++frame) {
      if (frame == 1) h.instance->set_bool("Flag", true);
      for (const auto& line : h.tick())
        all.push_back(line);
    }
    return all;
  };
  const auto observed = run();
  for (std::uint32_t node : {0u, 1u, 2u})
    REQUIRE(h.graph->nodes()[node].plain_composite);
  h.unobserved();
  CHECK(run() == observed);
  CHECK(observed ==
        Log{"enter E", "update E", "leave E", "enter D", "update D", "update D", "leave D"});
  CHECK(h.instance->state() == CommandState::Succeeded);
}

TEST_CASE("a node class that declares no enter or leave is not called for them") {
  struct Hooked : NodeClass {
    Log& log;
    Hooked(Log& l, Hooks hooks) : NodeClass(hooks), log(l) {}
    void enter(NodeContext&) override { log.push_back("enter"); }
    Result update(NodeContext&) override {
      log.push_back("update");
      return Result::Success;
    }
    void leave(NodeContext&) override { log.push_back("leave"); }
  };
  for (const auto& [hooks, expected] : std::vector<std::pair<NodeClass::Hooks, Log>>{
           {NodeClass::kEnterAndLeave, {"enter", "update", "leave"}},
           {NodeClass::kEnter, {"enter", "update"}},
           {NodeClass::kLeave, {"update", "leave"}},
           {NodeClass::kUpdateOnly, {"update"}}}) {
    CAPTURE(static_cast<int>(hooks));
    for (const bool observed : {true, false}) {
      Harness h;
      h.registry.add("Node", std::make_shared<Hooked>(h.log, hooks));
      AinbSpec spec;
      spec.commands = {{"Root", 0, {}}};
      spec.nodes = {user("Node")};
      h.load(spec);
      if (!observed) h.unobserved();
      h.instance->start("Root");
      h.instance->tick();
      CHECK(h.log == expected);
    }
  }
}

TEST_CASE("Element_Alert emits an alert event and returns its Result") {
  struct Alerts : Observer {
    std::vector<std::string> messages;
    void on_alert(const Instance&, std::uint32_t, std::string_view message) override {
      messages.emplace_back(message);
    }
  } alerts;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode alert{.type = NodeType::Alert};
  alert.properties = {{ParamType::Int, "Result", std::int32_t{3}}};
  alert.inputs = {{ParamType::String, "Message", -1, 0, 0, std::string("unexpected form")}};
  spec.nodes = {alert};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "alert.ainb"), NodeRegistry{});
  Instance instance(graph, InstanceOptions{0, nullptr, &alerts});
  instance.start("Root");
  instance.tick();
  CHECK(alerts.messages == std::vector<std::string>{"unexpected form"});
  CHECK(instance.state() == CommandState::Failed);  // Result 3 = Failure
}

#include <thread>

namespace {

struct Trace : Observer {
  std::vector<std::uint64_t> events;  // (kind << 32) | node
  void on_enter(const Instance&, std::uint32_t n) override { events.push_back((1ull << 32) | n); }
  void on_update(const Instance&, std::uint32_t n, Result r) override {
    events.push_back((static_cast<std::uint64_t>(2 + static_cast<int>(r)) << 32) | n);
  }
  void on_leave(const Instance&, std::uint32_t n) override { events.push_back((9ull << 32) | n); }
};

// Runs instance `i` of `graph` for 300 frames, restarting commands round robin.
std::vector<std::uint64_t> run_traced(const std::shared_ptr<const Graph>& graph, std::size_t i) {
  Trace trace;
  {
    Instance instance(graph, InstanceOptions{i, nullptr, &trace});
    const auto& commands = graph->model().commands;
    std::size_t next = i;
    for (int frame = 0; frame < 300; ++frame) {
      if (!commands.empty() && instance.state() != CommandState::Running) {
        instance.start(commands[next++ % commands.size()].name);
      }
      instance.tick();
    }
  }
  return trace.events;
}

}  // namespace

TEST_CASE(
    "many instances of several shared graphs on four threads give the same traces as on one") {
  // Every corpus file (module calls and EXB expressions among them) built once and shared: each
  // instance runs alone first, then all of them at once on four threads (TSan in CI: .ci/run).
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::vector<std::shared_ptr<const Graph>> graphs;
  std::size_t with_modules = 0, with_expressions = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    graphs.push_back(
        std::make_shared<Graph>(load_file(path), NodeRegistry{}, corpus_options(resolver)));
    with_modules += graphs.back()->module_calls().empty() ? 0 : 1;
    with_expressions += graphs.back()->program() != nullptr ? 1 : 0;
  }
  if (graphs.empty()) return;
  CHECK(with_modules > 0);
  CHECK(with_expressions > 0);
  constexpr std::size_t kThreads = 4;
  const std::size_t instances = 4 * graphs.size();
  std::vector<std::vector<std::uint64_t>> alone(instances), together(instances);
  for (std::size_t i = 0; i < instances; ++i)
    alone[i] = run_traced(graphs[i % graphs.size()], i);
  auto worker = [&](std::size_t first) {
    for (std::size_t i = first; i < instances; i += kThreads) {
      together[i] = run_traced(graphs[i % graphs.size()], i);
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (auto& t : threads)
    t.join();
  std::size_t events = 0;
  for (std::size_t i = 0; i < instances; ++i) {
    CHECK_MESSAGE(alone[i] == together[i], "instance " << i);
    events += alone[i].size();
  }
  CHECK(events > 0);
  MESSAGE(instances << " instances of " << graphs.size() << " graphs (" << with_modules
                    << " with module calls, " << with_expressions << " with expressions) on "
                    << kThreads << " threads: " << events << " identical events");
}

#include "ainb/exb/assembler.hpp"
#include "exb_assembler.hpp"

TEST_CASE("expressions: an Element_Expression node and an expression property") {
  // Function 0 (Element_Expression): UserOut bool[0] = UserIn int[0] + UserIn int[1] >= 10.
  // Function 1 (a float property): Out = In * 2.
  ExbSpec exb;
  exb.instructions = {{2, 3, 2, 10, 0, 0},                       // STR int GMem[0], UserIn[0]
                      {5, 3, 2, 10, 0, 1},                       // ADD int GMem[0], UserIn[1]
                      {19, 3, 2, 0, 0, 10},                      // GTE int GMem[0], 10
                      {2, 2, 9, 2, 0, 0},                        // STR bool UserOut[0], GMem[0]
                      {1, 0, 0, 0, 0, 0},   {2, 4, 2, 6, 0, 0},  // STR float GMem[0], In[0]
                      {7, 4, 2, 0, 0, 2},                        // MUL float GMem[0], 2
                      {2, 4, 5, 2, 0, 0},                        // STR float Out[0], GMem[0]
                      {1, 0, 0, 0, 0, 0}};
  exb.functions = {{-1, 0, 0, 5, 1, 1, 4, 0, 0}, {-1, 0, 5, 4, 4, 4, 4, 0, 0}};

  Harness h;
  h.probe("Counter", {R});
  struct Reader : NodeClass {
    std::vector<bool> ok;
    std::vector<float> speed;
    Result update(NodeContext& c) override {
      ok.push_back(c.input_bool("Ok"));
      speed.push_back(c.property_float("Speed"));
      return Result::Running;
    }
  };
  auto reader = std::make_shared<Reader>();
  h.registry.add("Reader", reader);

  AinbSpec spec;
  spec.exb = assemble(exb);
  spec.commands = {{"Root", 0, {}}};
  // As in the corpus, the Element_Expression is a query node of the node reading its output.
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 3, ""}};
  BuildNode counter = user("Counter");
  counter.outputs = {{ParamType::Int, "Count"}};
  BuildNode expression{.type = NodeType::Expression, .flags = node_flags::kIsQuery};
  expression.properties = {{ParamType::Int, "ExpressionBase", std::int32_t{0}, 0xC2000000u}};
  expression.inputs = {{ParamType::Int, "A", 1, 0, 0, std::int32_t{0}},
                       {ParamType::Int, "B", -1, 0, 0, std::int32_t{7}}};
  expression.outputs = {{ParamType::Bool, "Result", true}};
  BuildNode read = user("Reader");
  read.inputs = {{ParamType::Bool, "Ok", 2, 0, 0, false}};
  read.queries = {0};  // query node 0 = node 2, the expression
  read.properties = {{ParamType::Float, "Speed", 1.5f, 0xC2000001u}};
  spec.nodes = {all, counter, expression, read};
  h.load(spec);
  h.instance->start("Root");
  for (int i = 0; i < 4; ++i)
    h.tick();
  // Count is 1, 2, 3, 4; with B = 7 the sum reaches 10 in the third frame.
  CHECK(reader->ok == std::vector<bool>{false, false, true, true});
  CHECK(reader->speed == std::vector<float>{3.0f, 3.0f, 3.0f, 3.0f});
}

TEST_CASE("expressions: selector inputs, and setup blocks run at each Enter of their node") {
  // Function 0 feeds a Bool selector: its setup block zeroes a counter in static memory when the
  // selector is entered; its main block counts the evaluations and says whether the count has
  // reached 3. Function 1 feeds an S32 selector: GetBBCodeInt(5), a user function.
  exb::AssemblySource exb_source;
  exb_source.functions = {
      {.output_type = exb::DataType::Bool,
       .static_size = 8,
       .setup = std::vector<std::string>{"STR int GMem[0x0], int 0", "END"},
       .main = {"ADD int GMem[0x0], int 1", "STR int GMem[0x4], int GMem[0x0]",
                "GTE int GMem[0x4], int 3", "STR bool Out[0x0], bool GMem[0x4]", "END"}},
      {.output_type = exb::DataType::Int,
       .static_size = 4,
       .main = {"STR int GMem[0x0], int 5", "CFN GetBBCodeInt( Int, Int ), GMem[0x0]",
                "STR int Out[0x0], int GMem[0x0]", "END"}}};
  exb::UserFunctions functions;
  functions.add("GetBBCodeInt( Int, Int )", [](std::int32_t code) { return code * 10; });

  Harness h;
  for (const auto* name : {"Yes", "No", "Fifty", "Seven", "Other"})
    h.probe(name, {R});
  h.options.functions = &functions;
  AinbSpec spec;
  spec.exb = exb::assemble(exb_source);
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode counted{.type = NodeType::BoolSelector};
  counted.inputs = {{ParamType::Bool, "Input", -1, 0, 0xC2000000u, false}};
  counted.plugs = {{PlugKind::Child, 3, "True"}, {PlugKind::Child, 4, "False"}};
  BuildNode coded{.type = NodeType::S32Selector};
  coded.inputs = {{ParamType::Int, "Input", -1, 0, 0xC2000001u, std::int32_t{7}}};
  coded.plugs = {{PlugKind::Child, 5, "", 0, s32_condition(50)},
                 {PlugKind::Child, 6, "", 0, s32_condition(7)},
                 {PlugKind::Child, 7, "", 0, s32_condition(0)}};
  spec.nodes = {both,       counted,       coded,         user("Yes"),
                user("No"), user("Fifty"), user("Seven"), user("Other")};
  h.load(spec);
  // Only the selector whose expression has a setup block leaves the short paths.
  CHECK(h.graph->nodes()[1].runs_setup);
  CHECK_FALSE(h.graph->nodes()[1].plain_composite);
  CHECK_FALSE(h.graph->nodes()[2].runs_setup);
  CHECK(h.graph->nodes()[2].plain_composite);

  const auto run = [&] {
    // The Enter's choice is the first evaluation (count 1), each Update's the next.
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Fifty"});
    CHECK(h.tick() == Log{"update No", "update Fifty"});                            // 2
    CHECK(h.tick() == Log{"leave No", "enter Yes", "update Yes", "update Fifty"});  // 3
    // (A Simultaneous leaves its children last first.)
    CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Fifty", "leave Yes"});
    // A new Enter runs the setup block again: the count starts over.
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Fifty"});
  };
  SUBCASE("observed") {
    run();
  }
  SUBCASE("on the short paths") {
    h.unobserved();
    run();
  }
  SUBCASE("without the user function") {
    h.options.functions = nullptr;
    h.load(spec);
    SUBCASE("a failed evaluation gives the input's stored value") {
      CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Seven"});
    }
    SUBCASE("on the short paths too") {
      h.unobserved();
      CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No", "enter Seven"});
    }
  }
}

TEST_CASE("expressions: an Int parameter takes a UInt result's bits, on every path") {
  // EXB v3 functions may return UInt; the loader binds them to Int parameters. Without an input
  // the S32 selector reads the result typed, with one through Instance::evaluate: both see 1.
  for (const bool with_input : {false, true}) {
    exb::AssemblySource source;
    source.version = 3;
    source.functions = {{.input_type = with_input ? exb::DataType::Int : exb::DataType::None,
                         .output_type = exb::DataType::UInt,
                         .static_size = 4,
                         .main = {"STR uint Out[0x0], uint 1", "END"}}};
    Harness h;
    for (const auto* name : {"One", "Other"})
      h.probe(name, {R});
    AinbSpec spec;
    spec.exb = exb::assemble(source);
    spec.commands = {{"Root", 0, {}}};
    BuildNode s32{.type = NodeType::S32Selector};
    s32.inputs = {{ParamType::Int, "Input", -1, 0, 0xC2000000u, std::int32_t{0}}};
    s32.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(1)},
                 {PlugKind::Child, 2, "", 0, s32_condition(0)}};
    spec.nodes = {s32, user("One"), user("Other")};
    h.load(spec);
    CAPTURE(with_input);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter One"});
  }
}

TEST_CASE("expressions: the setup blocks of a query's expressions run when the query is entered") {
  // An Element_Expression query and a user query whose input is an expression: each setup block
  // sets a counter to 10, each main block adds 1 and gives it.
  exb::AssemblySource source;
  source.functions = {
      {.static_size = 4,
       .setup = std::vector<std::string>{"STR int GMem[0x0], int 10", "END"},
       .main = {"ADD int GMem[0x0], int 1", "STR int UserOut[0x0], int GMem[0x0]", "END"}},
      {.output_type = exb::DataType::Int,
       .static_size = 4,
       .setup = std::vector<std::string>{"STR int GMem[0x0], int 10", "END"},
       .main = {"ADD int GMem[0x0], int 1", "STR int Out[0x0], int GMem[0x0]", "END"}}};
  struct Reader : NodeClass {
    std::string input;
    std::vector<std::int32_t> seen;
    Reader(std::string name, Result result) : input(std::move(name)), result_(result) {}
    Result update(NodeContext& c) override {
      seen.push_back(c.input_int(input));
      return result_;
    }
    Result result_;
  };
  for (const bool observed : {true, false}) {
    auto reader = std::make_shared<Reader>("N", R);
    auto query_reader = std::make_shared<Reader>("M", S);
    Harness h;
    h.registry.add("Reader", reader);
    h.registry.add("QueryReader", query_reader);
    AinbSpec spec;
    spec.exb = exb::assemble(source);
    spec.commands = {{"Root", 0, {}}};
    BuildNode read = user("Reader");
    read.inputs = {{ParamType::Int, "N", 1, 0, 0, std::int32_t{0}}};
    read.queries = {0, 1};
    BuildNode expression{.type = NodeType::Expression, .flags = node_flags::kIsQuery};
    expression.properties = {{ParamType::Int, "ExpressionBase", std::int32_t{0}, 0xC2000000u}};
    expression.outputs = {{ParamType::Int, "Sum", true}};
    BuildNode query = user("QueryReader");
    query.flags = node_flags::kIsQuery;
    query.inputs = {{ParamType::Int, "M", -1, 0, 0xC2000001u, std::int32_t{0}}};
    spec.nodes = {read, expression, query};
    h.load(spec);
    if (!observed) h.unobserved();
    h.instance->start("Root");
    h.tick();
    CAPTURE(observed);
    // The queries are calculated at the reader's Enter (11) and again before its one Update
    // (12), which reads the expression's second result; without the setup blocks, 1 and 2.
    CHECK(reader->seen == std::vector<std::int32_t>{12});
    CHECK(query_reader->seen == std::vector<std::int32_t>{11, 12});
  }
}

TEST_CASE(
    "XLink actions and blackboard writes reach the observer, and attachments reach the node") {
  struct Events : Observer {
    std::vector<std::string> log;
    void on_xlink(const Instance&, std::uint32_t node, std::string_view slot,
                  std::string_view action) override {
      log.push_back(fmt::format("xlink {} {} {}", node, slot, action));
    }
    void on_blackboard(const Instance&, std::size_t entry) override {
      log.push_back(fmt::format("blackboard {}", entry));
    }
  } events;
  struct Attached : NodeClass {
    float range = 0;
    std::size_t count = 0;
    Result update(NodeContext& c) override {
      count = c.attachments().size();
      range = c.attachment_float(0, "Range");
      return Result::Success;
    }
  };
  auto attached = std::make_shared<Attached>();
  NodeRegistry registry;
  registry.add("Guard", attached);
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode guard = user("Guard");
  guard.attachments = {0};
  spec.nodes = {guard};
  spec.attachments = {{"Sight", {{ParamType::Float, "Range", 12.5f}}}};
  spec.xlink_actions = {{0, "Main", "Alert"}};
  spec.blackboard = {{BlackboardType::Bool, "Seen", false}};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "guard.ainb"), registry);
  Instance instance(graph, InstanceOptions{0, nullptr, &events});
  instance.start("Root");
  CHECK(instance.set_bool("Seen", true));
  instance.tick();
  CHECK(events.log == std::vector<std::string>{"xlink 0 Main Alert", "blackboard 0"});
  CHECK(attached->count == 1);
  CHECK(attached->range == 12.5f);
}

TEST_CASE("stubs run for the configured number of updates, then succeed") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Unknown")};
  NodeRegistry registry;
  registry.stub_running_updates = 2;
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "stub.ainb"), registry);
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  instance.tick();
  CHECK(instance.state() == CommandState::Running);
  instance.tick();
  CHECK(instance.state() == CommandState::Succeeded);
}

TEST_CASE("limits of the 16-bit counters: stub updates and Sequential loops") {
  AinbSpec spec;
  spec.file_name = "counters";
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Unknown")};
  NodeRegistry registry;
  registry.stub_running_updates = 300;  // past a byte: the counter is 16 bits
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "counters.ainb"), registry);
  Instance instance(graph);
  instance.start("Root");
  for (int frame = 0; frame < 300; ++frame)
    instance.tick();
  CHECK(instance.state() == CommandState::Running);
  instance.tick();
  CHECK(instance.state() == CommandState::Succeeded);

  registry.stub_running_updates = Graph::kMaxStubUpdates + 1u;
  CHECK_THROWS_WITH_AS(Graph(ainb::load(build(spec), "counters.ainb"), registry),
                       "NodeRegistry::stub_running_updates is 65536, over the limit of 65535 "
                       "(Graph::kMaxStubUpdates)",
                       std::invalid_argument);

  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}};
  seq.properties = {{ParamType::Bool, "IsLoop", true},
                    {ParamType::Int, "NumLoop", std::int32_t{Graph::kMaxLoops}}};
  spec.nodes = {seq, user("Unknown")};
  registry.stub_running_updates = 0;
  CHECK_NOTHROW(Graph(ainb::load(build(spec), "counters.ainb"), registry));
  spec.nodes[0].properties[1].value = std::int32_t{Graph::kMaxLoops + 1};
  CHECK_THROWS_WITH_AS(Graph(ainb::load(build(spec), "counters.ainb"), registry),
                       "counters.ainb: nodes at offset 0x8c: node 0 (Element_Sequential): NumLoop "
                       "65536 is over the limit of 65535 loops (Graph::kMaxLoops)",
                       LoadError);
}

TEST_CASE("limits of the 8-bit holder counts: parents of a node, users of a query") {
  // Node 2 is the child of two Simultaneous nodes through many plugs (a node has at most 255
  // child plugs of a kind): entered once per plug, it is active until the last parent leaves.
  auto shared_child = [](std::uint32_t second_parent_plugs) {
    AinbSpec spec;
    spec.file_name = "holders";
    spec.commands = {{"Root", 0, {}}};
    BuildNode first{.type = NodeType::Simultaneous}, second{.type = NodeType::Simultaneous};
    first.plugs.push_back({PlugKind::Child, 1, ""});
    for (int k = 0; k < 200; ++k)
      first.plugs.push_back({PlugKind::Child, 2, ""});
    for (std::uint32_t k = 0; k < second_parent_plugs; ++k)
      second.plugs.push_back({PlugKind::Child, 2, ""});
    spec.nodes = {first, second, user("Shared")};
    return spec;
  };
  auto graph =
      std::make_shared<Graph>(ainb::load(build(shared_child(55)), "holders.ainb"), NodeRegistry{});
  Instance instance(graph);
  instance.start("Root");
  CHECK(instance.is_active(2));
  instance.stop();
  CHECK_FALSE(instance.is_active(2));  // 255 holders, all gone: the count did not wrap
  CHECK_THROWS_WITH_AS(Graph(ainb::load(build(shared_child(56)), "holders.ainb"), NodeRegistry{}),
                       "holders.ainb: nodes at offset 0x104: node 2 can be entered by 256 parents "
                       "at once (child plugs, commands, transitions, module calls): over the "
                       "limit of 255 (Graph::kMaxHolders)",
                       LoadError);

  // A Logic file: node 0 is a query of every other node.
  auto shared_query = [](std::uint32_t users) {
    AinbSpec spec;
    spec.file_name = "holders";
    BuildNode query = user("Query");
    query.flags = node_flags::kIsQuery;
    spec.nodes = {query};
    for (std::uint32_t k = 0; k < users; ++k) {
      spec.nodes.push_back(user("User"));
      spec.nodes.back().queries = {0};
    }
    return spec;
  };
  CHECK_NOTHROW(Graph(ainb::load(build(shared_query(255)), "holders.ainb"), NodeRegistry{}));
  CHECK_THROWS_WITH_AS(Graph(ainb::load(build(shared_query(256)), "holders.ainb"), NodeRegistry{}),
                       "holders.ainb: nodes at offset 0x74: node 0 is a query of 256 nodes: over "
                       "the limit of 255 (Graph::kMaxHolders)",
                       LoadError);
}

namespace {

// Every node's active flag, the module calls' sub-instances' included, depth first.
void collect_active(const Instance& instance, std::vector<bool>& out) {
  for (std::uint32_t n = 0; n < instance.graph().nodes().size(); ++n) {
    out.push_back(instance.is_active(n));
    if (const auto* sub = instance.module_instance(n)) collect_active(*sub, out);
  }
}

}  // namespace

TEST_CASE("quiet and observed runs of every corpus file agree after every frame") {
  // Without an observer the instance takes its short paths (plain nodes, plain composites, the
  // flag byte of its first cache line); with one, the general paths. The same run must leave the
  // same command state, nodes active and blackboard after every frame either way.
  struct Watching : Observer {};  // attached, records nothing
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::size_t frames = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    for (const std::uint32_t stub_updates : {0u, 2u, 40u}) {
      CAPTURE(path.filename().string());
      CAPTURE(stub_updates);
      NodeRegistry registry;
      registry.stub_running_updates = stub_updates;
      const auto graph =
          std::make_shared<Graph>(load_file(path), registry, corpus_options(resolver));
      Watching watching;
      Instance quiet(graph, InstanceOptions{5, nullptr, nullptr});
      Instance observed(graph, InstanceOptions{5, nullptr, &watching});
      const auto& model = graph->model();
      std::size_t next = 0;
      for (int frame = 0; frame < 400; ++frame, ++frames) {
        if (!model.commands.empty() && quiet.state() != CommandState::Running) {
          const auto& name = model.commands[next++ % model.commands.size()].name;
          quiet.start(name);
          observed.start(name);
        }
        quiet.tick();
        observed.tick();
        CAPTURE(frame);
        REQUIRE(quiet.state() == observed.state());
        std::vector<bool> quiet_active, observed_active;
        collect_active(quiet, quiet_active);
        collect_active(observed, observed_active);
        REQUIRE(quiet_active == observed_active);
        for (const auto& entry : model.blackboard.entries)
          REQUIRE(*quiet.blackboard(entry.name) == *observed.blackboard(entry.name));
      }
    }
  }
  CHECK(frames == 400 * 3 * ainb::test::corpus_ainb_files().size());
}

#include "allocation_counter.hpp"

TEST_CASE("ticks allocate nothing: every corpus file with its modules, commands switching") {
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::size_t frames = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto graph =
        std::make_shared<Graph>(load_file(path), NodeRegistry{}, corpus_options(resolver));
    Instance instance(graph, InstanceOptions{3, nullptr, nullptr});
    const auto& commands = graph->model().commands;
    auto run = [&](std::size_t count) {
      for (std::size_t frame = 0; frame < count; ++frame, ++frames) {
        if (!commands.empty() && frame % 20 == 0) {
          instance.start(commands[(frame / 20) % commands.size()].name);
        }
        instance.tick();
      }
    };
    // A first pass through every command: once-only warnings (missing user functions,
    // Element_Alert messages) may allocate in the logger.
    run(20 * std::max<std::size_t>(commands.size(), 1));
    const auto before = ainb::test::allocations();
    run(600);
    CHECK(ainb::test::allocations() - before == 0);
  }
  MESSAGE(frames << " frames ticked");
}

TEST_CASE("a worker thread makes its EXB machines at its first evaluation, or when prepared") {
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  const auto graph = std::make_shared<Graph>(
      load_file(ainb::test::corpus_dir() / "ainb" / "Toby.utility.root.ainb"), NodeRegistry{},
      corpus_options(resolver));
  REQUIRE(graph->program() != nullptr);
  // Made (and warmed: once-only warnings) on this thread, ticked on others.
  Instance actor(graph, InstanceOptions{1, nullptr, nullptr});
  const auto ticks = [&] {  // the stubs succeed at once: a restart every frame
    for (int frame = 0; frame < 20; ++frame) {
      actor.start(0);
      actor.tick();
    }
  };
  ticks();
  std::size_t unprepared = 0, prepared = 0;
  std::thread([&] {
    const auto before = ainb::test::allocations();
    ticks();
    unprepared = ainb::test::allocations() - before;
  }).join();
  std::thread([&] {
    actor.prepare_thread();
    const auto before = ainb::test::allocations();
    ticks();
    prepared = ainb::test::allocations() - before;
  }).join();
  CHECK(unprepared >= 2);  // the thread's machine and its arena
  CHECK(prepared == 0);
}
