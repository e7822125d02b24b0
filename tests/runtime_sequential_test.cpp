// Element_Sequential: its children one after another, IsUpdateNextInFrame, IsLoop with NumLoop, and
// a finished root of a Logic file. Probe nodes log every Enter, Update and Leave; each test asserts
// the exact sequence frame by frame (docs/semantics.md says why each order is what it is).

#include <functional>

#include <doctest/doctest.h>

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

TEST_CASE("a Logic file's Sequential root that finished keeps its result and runs no child") {
  // Logic roots are never left: a finished Sequential must not look past its last child.
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
