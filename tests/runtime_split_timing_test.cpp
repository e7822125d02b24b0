// Element_SplitTiming: its Enter child runs at its Enter, its Update child every frame, its Leave
// child at its Leave, observed and on the short path (docs/semantics.md).

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

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
