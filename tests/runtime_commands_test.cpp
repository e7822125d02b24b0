// Commands and frames: switching and restarting commands by name and by index, a command's
// secondary root, Logic files (every root every frame), and the 8-bit epoch that tells a node's
// update in this tick from older ones. Each test asserts the exact Enter/Update/Leave sequence
// frame by frame (docs/semantics.md says why each order is what it is).

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

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
