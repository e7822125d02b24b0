// The active node array, LimboAI style: transitions before the next calculation and post calc,
// transitions chosen by a class, Fork/Join with several InFlowNum values, and Element_StateEnd
// at the top level (docs/semantics.md, "Transitions, Fork and Join").

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

namespace {

// Patrol (node 0, the command's root) leads to Rest (node 1) by one transition of this word.
AinbSpec patrol_then_rest(std::uint32_t word = 1) {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode patrol = user("Patrol");
  patrol.plugs = {transition(1, 0)};
  spec.nodes = {patrol, user("Rest")};
  spec.transitions = {{word, ""}};
  return spec;
}

}  // namespace

TEST_CASE("a transition replaces its active root before the next calculation") {
  Harness h;
  h.probe("Patrol", {R, S});
  h.probe("Rest", {R});
  AinbSpec spec = patrol_then_rest();
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Patrol"});
  CHECK(h.tick() == Log{"update Patrol"});
  // Patrol finishes: it is left now; its transition waits for the next calculation.
  CHECK(h.tick() == Log{"update Patrol", "leave Patrol"});
  CHECK(h.instance->state() == CommandState::Running);
  CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{0});
  CHECK(h.tick() == Log{"transition Patrol -> Rest", "enter Rest", "update Rest"});
  CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{1});
  CHECK(h.tick() == Log{"update Rest"});

  SUBCASE("post calc: the target runs in the same frame") {
    spec.transitions = {{kPostCalc, ""}};
    h.load(spec);
    h.instance->start("Root");
    h.tick();
    CHECK(h.tick() == Log{"update Patrol", "leave Patrol", "transition Patrol -> Rest",
                          "enter Rest", "update Rest"});
  }
  SUBCASE("a transition deep in the tree replaces the whole root") {
    // Root: Sequential [Patrol -> Rest]; Patrol's transition replaces the Sequential.
    BuildNode seq{.type = NodeType::Sequential};
    seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 3, ""}};
    BuildNode inner = user("Patrol");
    inner.plugs = {transition(2, 0)};
    spec.nodes = {seq, inner, user("Rest"), user("Never")};
    spec.transitions = {{kPostCalc, ""}};
    h.probe("Never", {R});
    h.load(spec);
    h.instance->start("Root");
    h.tick();
    CHECK(h.tick() == Log{"update Patrol", "leave Patrol", "enter Never", "leave Never",
                          "transition Patrol -> Rest", "enter Rest", "update Rest"});
  }
}

TEST_CASE("transitions of plain nodes take the short path without an observer, alike") {
  // Without an observer a plain node with transitions is updated on the short path
  // (Instance::update_plain_transition), and a frame looks for post-calc transitions only when
  // one was requested (kPostRequested). Each file below runs observed and quiet: the quiet run
  // logs the same Enter, Update and Leave calls, frame by frame (the observer adds its
  // transition lines).
  Harness h;
  h.probe("Patrol", {R, S});
  h.probe("Rest", {R});
  h.probe("Ping", {S});
  h.probe("Pong", {S});
  AinbSpec patrol = patrol_then_rest(), patrol_post = patrol_then_rest(kPostCalc);
  AinbSpec mixed = patrol;  // Ping -> Pong before the next calculation, Pong -> Ping post calc
  BuildNode ping = user("Ping"), pong = user("Pong");
  ping.plugs = {transition(1, 0)};
  pong.plugs = {transition(0, 1)};
  mixed.nodes = {ping, pong};
  mixed.transitions = {{1, ""}, {kPostCalc, ""}};

  auto run = [&](const AinbSpec& spec, bool observed) {
    h.load(spec);
    if (!observed) h.unobserved();
    std::vector<Log> frames{h.step([&] { h.instance->start("Root"); })};
    for (int frame = 0; frame < 6; ++frame) {
      Log log = h.tick();
      std::erase_if(log, [](const std::string& e) { return e.starts_with("transition "); });
      frames.push_back(log);
    }
    return frames;
  };
  for (const auto* spec : {&patrol, &patrol_post, &mixed}) {
    CAPTURE(spec == &patrol ? "patrol" : spec == &patrol_post ? "patrol, post calc" : "mixed");
    CHECK(run(*spec, false) == run(*spec, true));
  }
  CHECK(run(patrol, false) == std::vector<Log>{{"enter Patrol"},
                                               {"update Patrol"},
                                               {"update Patrol", "leave Patrol"},
                                               {"enter Rest", "update Rest"},
                                               {"update Rest"},
                                               {"update Rest"},
                                               {"update Rest"}});
  CHECK(run(patrol_post, false)[2] ==
        Log{"update Patrol", "leave Patrol", "enter Rest", "update Rest"});
  // Ping finishes and waits for the next frame; then Pong runs, finishes, and Ping follows it
  // in the same frame.
  CHECK(
      run(mixed, false) ==
      std::vector<Log>{
          {"enter Ping"},
          {"update Ping", "leave Ping"},
          {"enter Pong", "update Pong", "leave Pong", "enter Ping", "update Ping", "leave Ping"},
          {"enter Pong", "update Pong", "leave Pong", "enter Ping", "update Ping", "leave Ping"},
          {"enter Pong", "update Pong", "leave Pong", "enter Ping", "update Ping", "leave Ping"},
          {"enter Pong", "update Pong", "leave Pong", "enter Ping", "update Ping", "leave Ping"},
          {"enter Pong", "update Pong", "leave Pong", "enter Ping", "update Ping", "leave Ping"}});
}

TEST_CASE("a node class chooses its transition, even while running") {
  struct Chooser : NodeClass {
    int updates = 0;
    Result update(NodeContext& c) override {
      if (++updates == 2) CHECK(c.transition(1));
      CHECK_FALSE(c.transition(7));  // no such plug
      return Result::Running;
    }
  };
  Harness h;
  h.registry.add("Chooser", std::make_shared<Chooser>());
  h.probe("Left", {R});
  h.probe("Right", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode chooser = user("Chooser");
  chooser.plugs = {transition(1, 0), transition(2, 1)};
  spec.nodes = {chooser, user("Left"), user("Right")};
  spec.transitions = {{1, ""}, {1, ""}};
  h.load(spec);
  h.instance->start("Root");
  CHECK(h.tick().empty());
  CHECK(h.tick().empty());  // asked for Right; applied before the next calculation
  CHECK(h.tick() == Log{"transition Chooser -> Right", "enter Right", "update Right"});
}

TEST_CASE("Fork starts its paths, and Join waits for InFlowNum of them") {
  // Fork -> {P1, P2, P3}; each path ends with a transition to the Join; Join -> End (post calc).
  Harness h;
  h.probe("P1", {S});
  h.probe("P2", {R, S});
  h.probe("P3", {R, R, S});
  h.probe("End", {S});
  auto spec_with = [](std::int32_t in_flow) {
    AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    BuildNode fork{.type = NodeType::Fork};
    fork.plugs = {transition(1, 0), transition(2, 1), transition(3, 2)};
    BuildNode join{.type = NodeType::Join};
    join.properties = {{ParamType::Int, "InFlowNum", in_flow}};
    join.plugs = {transition(5, 3)};
    spec.nodes = {fork, user("P1"), user("P2"), user("P3"), join, user("End")};
    for (std::uint32_t i = 1; i <= 3; ++i)
      spec.nodes[i].plugs = {transition(4, 4)};
    spec.transitions = {{1, ""}, {1, ""}, {1, ""}, {1, ""}, {1, ""}};
    return spec;
  };
  const Log start_paths{"transition Element_Fork -> P1",
                        "enter P1",
                        "transition Element_Fork -> P2",
                        "enter P2",
                        "transition Element_Fork -> P3",
                        "enter P3",
                        "update P1",
                        "leave P1",
                        "update P2",
                        "update P3"};

  SUBCASE("InFlowNum 3: the Join runs once all three paths arrived") {
    h.load(spec_with(3));
    h.instance->start("Root");
    CHECK(h.tick().empty());  // the Fork asked; its paths start before the next calculation
    CHECK(h.tick() == start_paths);
    CHECK(h.tick() == Log{"transition P1 -> Element_Join", "update P2", "leave P2", "update P3"});
    CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{4, 2, 3});
    CHECK(h.tick() == Log{"transition P2 -> Element_Join", "update P3", "leave P3"});
    CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{4, 4, 3});
    // The third arrival: one Join runs (the guard drops the other copies) and, post calc, End.
    CHECK(h.tick() == Log{"transition P3 -> Element_Join", "transition Element_Join -> End",
                          "enter End", "update End", "leave End"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
  SUBCASE("InFlowNum 2: the Join runs after two; the third arrival waits forever") {
    h.load(spec_with(2));
    h.instance->start("Root");
    h.tick();
    CHECK(h.tick() == start_paths);
    CHECK(h.tick() == Log{"transition P1 -> Element_Join", "update P2", "leave P2", "update P3"});
    CHECK(h.tick() == Log{"transition P2 -> Element_Join", "update P3", "leave P3",
                          "transition Element_Join -> End", "enter End", "update End",
                          "leave End"});
    CHECK(h.tick() == Log{"transition P3 -> Element_Join"});
    CHECK(h.tick().empty());
    CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{4});  // dormant
    CHECK(h.instance->state() == CommandState::Running);
    CHECK_FALSE(h.instance->is_active(4));
  }
  SUBCASE("InFlowNum 1: every arrival runs the Join") {
    h.load(spec_with(1));
    h.instance->start("Root");
    h.tick();
    h.tick();
    // Post-calc transitions are applied once every active root has been calculated.
    CHECK(h.tick() == Log{"transition P1 -> Element_Join", "update P2", "leave P2", "update P3",
                          "transition Element_Join -> End", "enter End", "update End",
                          "leave End"});
    CHECK(h.tick() == Log{"transition P2 -> Element_Join", "update P3", "leave P3",
                          "transition Element_Join -> End", "enter End", "update End",
                          "leave End"});
    CHECK(h.tick() == Log{"transition P3 -> Element_Join", "transition Element_Join -> End",
                          "enter End", "update End", "leave End"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
}

TEST_CASE("a Join completed by a post-calc push drops the older copy") {
  // Fork -> {P1, P2}; P1 reaches the Join by a plain transition, P2 a frame later by a post-calc
  // one, whose pass calculates only its fresh copy: the older copy must leave the array too, or
  // the command would never end.
  Harness h;
  h.probe("P1", {S});
  h.probe("P2", {R, S});
  h.probe("End", {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode fork{.type = NodeType::Fork};
  fork.plugs = {transition(1, 0), transition(2, 1)};
  BuildNode join{.type = NodeType::Join};
  join.properties = {{ParamType::Int, "InFlowNum", std::int32_t{2}}};
  join.plugs = {transition(4, 4)};
  spec.nodes = {fork, user("P1"), user("P2"), join, user("End")};
  spec.nodes[1].plugs = {transition(3, 2)};
  spec.nodes[2].plugs = {transition(3, 3)};
  spec.transitions = {{1, ""}, {1, ""}, {1, ""}, {kPostCalc, ""}, {1, ""}};
  h.load(spec);
  h.instance->start("Root");
  h.tick();
  CHECK(h.tick() == Log{"transition Element_Fork -> P1", "enter P1",
                        "transition Element_Fork -> P2", "enter P2", "update P1", "leave P1",
                        "update P2"});
  CHECK(h.tick() == Log{"transition P1 -> Element_Join", "update P2", "leave P2",
                        "transition P2 -> Element_Join", "transition Element_Join -> End",
                        "enter End", "update End", "leave End"});
  CHECK(h.instance->active_roots().empty());
  CHECK(h.instance->state() == CommandState::Succeeded);
}

TEST_CASE("a post-calc chain cut at its limit goes on before the next frame's calculation") {
  // Ping and Pong lead to each other, post calc, and finish at once: a cycle. The chain stops
  // after as many rounds as the file has nodes; the next frame takes the waiting transition
  // first, and never updates the root that finished.
  Harness h;
  h.probe("Ping", {S});
  h.probe("Pong", {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode ping = user("Ping"), pong = user("Pong");
  ping.plugs = {transition(1, 0)};
  pong.plugs = {transition(0, 1)};
  spec.nodes = {ping, pong};
  spec.transitions = {{kPostCalc, ""}, {kPostCalc, ""}};
  h.load(spec);
  h.instance->start("Root");
  const Log ping_to_pong{"transition Ping -> Pong", "enter Pong", "update Pong", "leave Pong"};
  const Log pong_to_ping{"transition Pong -> Ping", "enter Ping", "update Ping", "leave Ping"};
  auto chain = [](Log log, std::initializer_list<const Log*> steps) {
    for (const auto* step : steps)
      log.insert(log.end(), step->begin(), step->end());
    return log;
  };
  // Three rounds (the limit is the node count, 2, counted from 0).
  CHECK(h.tick() ==
        chain({"update Ping", "leave Ping"}, {&ping_to_pong, &pong_to_ping, &ping_to_pong}));
  // The waiting Pong -> Ping first: Ping is entered and calculated; then three rounds again.
  CHECK(h.tick() == chain({}, {&pong_to_ping, &ping_to_pong, &pong_to_ping, &ping_to_pong}));
  CHECK(h.instance->state() == CommandState::Running);
}

TEST_CASE("an array entry whose root finished holds it no more: its transition leaves nothing") {
  // Fork -> {Step, a selector}. Step finishes and asks for Next; in the same frame the selector
  // enters Step for itself. At the next frame the transition takes Step's entry to Next and
  // leaves Step running for the selector.
  Harness h;
  h.probe("Step", {R, S});
  h.probe("Idle", {R});
  h.probe("Next", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  BuildNode fork{.type = NodeType::Fork};
  fork.plugs = {transition(1, 0), transition(2, 1)};
  BuildNode step = user("Step");
  step.plugs = {transition(4, 2)};
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};
  choose.plugs = {{PlugKind::Child, 1, "True"}, {PlugKind::Child, 3, "False"}};
  spec.nodes = {fork, step, choose, user("Idle"), user("Next")};
  spec.transitions = {{1, ""}, {1, ""}, {1, ""}};
  h.load(spec);
  h.instance->start("Root");
  CHECK(h.tick().empty());  // the Fork asks
  CHECK(h.tick() == Log{"transition Element_Fork -> Step", "enter Step",
                        "transition Element_Fork -> Element_BoolSelector", "enter Idle",
                        "update Step", "update Idle"});
  h.instance->set_bool("Flag", true);
  CHECK(h.tick() == Log{"update Step", "leave Step", "leave Idle", "enter Step", "update Step"});
  CHECK(h.tick() ==
        Log{"transition Step -> Next", "enter Next", "update Next", "update Step", "leave Step"});
  CHECK(h.tick() == Log{"transition Step -> Next", "update Next"});
  CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{4, 4});
}

TEST_CASE("Element_StateEnd at the top level switches to the command it names, or ends") {
  Harness h;
  h.probe("Work", {S});
  h.probe("Idle", {R});
  AinbSpec spec;
  spec.commands = {{"Work", 0, {}}, {"Idle", 3, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode end{.type = NodeType::StateEnd};
  end.properties = {{ParamType::String, "TransitionCommand", std::string("Idle")}};
  spec.nodes = {seq, user("Work"), end, user("Idle")};
  h.load(spec);
  h.instance->start("Work");
  CHECK(h.tick() == Log{"update Work", "leave Work", "enter Idle"});
  CHECK(h.instance->command() == "Idle");
  CHECK(h.instance->state_end() == "Idle");
  CHECK(h.tick() == Log{"update Idle"});

  SUBCASE("a name that is no command ends the command with success") {
    spec.nodes[2].properties = {{ParamType::String, "TransitionCommand", std::string("Elsewhere")}};
    h.load(spec);
    h.instance->start("Work");
    h.tick();
    CHECK(h.instance->state() == CommandState::Succeeded);
    CHECK(h.instance->state_end() == "Elsewhere");
  }
}

TEST_CASE(
    "a file without transitions runs its root alone, with the active node array's sequences") {
  // No transition anywhere in the file (Graph::has_transitions()): nothing can add an entry to the
  // active node array, so a frame is its root's Update (Instance::calculate_root). A transition
  // elsewhere in the file, never taken, sends the same tree through the array's loop instead.
  Harness h;
  h.probe("Act", {R, F});
  h.probe("Spare", {R});
  AinbSpec single;
  single.commands = {{"Root", 0, {}}};
  single.nodes = {user("Act")};
  AinbSpec looped = single;
  BuildNode spare = user("Spare");
  spare.plugs = {transition(2, 0)};
  looped.nodes = {user("Act"), spare, user("Spare")};
  looped.transitions = {{1, ""}};
  for (const auto* spec : {&single, &looped}) {
    for (const bool observed : {true, false}) {
      CAPTURE(spec == &single);
      CAPTURE(observed);
      h.load(*spec);
      CHECK(arrays(*h.graph).has_transitions() == (spec == &looped));
      if (!observed) h.unobserved();
      CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Act"});
      CHECK(h.tick() == Log{"update Act"});
      CHECK(h.instance->active_roots() == std::vector<std::uint32_t>{0});
      CHECK(h.tick() == Log{"update Act", "leave Act"});
      CHECK(h.instance->state() == CommandState::Failed);
      CHECK(h.instance->active_roots().empty());
      CHECK(h.tick().empty());
      // A restart enters the root afresh; stop() leaves it.
      CHECK(h.step([&] { h.instance->start(std::size_t{0}); }) == Log{"enter Act"});
      CHECK(h.tick() == Log{"update Act"});
      CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Act"});
      CHECK(h.instance->state() == CommandState::Idle);
    }
  }
}

TEST_CASE("a Fork whose paths all finish in the frame it hands over ends the command then") {
  // Fork -> {P1, P2}, each path one node that succeeds at its first update, no transition.
  Harness h;
  h.probe("P1", {S});
  h.probe("P2", {S});
  auto spec_with = [](std::uint32_t word) {
    AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    BuildNode fork{.type = NodeType::Fork};
    fork.plugs = {transition(1, 0), transition(2, 1)};
    spec.nodes = {fork, user("P1"), user("P2")};
    spec.transitions = {{word, ""}, {word, ""}};
    return spec;
  };
  // Before the next calculation the paths run in frame 2, post calc in frame 1; either way the
  // command ends in the frame they run.
  for (const bool post : {false, true}) {
    for (const bool observed : {true, false}) {
      CAPTURE(post);
      CAPTURE(observed);
      h.load(spec_with(post ? kPostCalc : 1));
      if (!observed) h.unobserved();
      h.instance->start("Root");
      if (!post) {
        h.tick();
        CHECK(h.instance->state() == CommandState::Running);
      }
      const auto paths = h.tick();
      if (observed) {
        CHECK(paths == Log{"transition Element_Fork -> P1", "enter P1",
                           "transition Element_Fork -> P2", "enter P2", "update P1", "leave P1",
                           "update P2", "leave P2"});
      }
      CHECK(h.instance->state() == CommandState::Succeeded);
    }
  }
}
