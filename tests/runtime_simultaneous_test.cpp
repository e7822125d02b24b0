// Element_Simultaneous: every child at once, its result once all have finished, and a finished
// child that another parent holds. Probe nodes log every Enter, Update and Leave; each test asserts
// the exact sequence frame by frame (docs/semantics.md says why each order is what it is).

#include <functional>

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

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
