// Forced results (Instance::force, docs/semantics.md "Forced results"): a forced node's updates
// return the forced result without running its own update nor its children's; Enter and Leave
// stay its own; the instance takes the general paths while a node is forced, with or without an
// observer. Probe nodes log every call, frame by frame.

#include <optional>
#include <stdexcept>

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

// Sequential [A, B]: A runs one frame then succeeds, B succeeds.
AinbSpec sequence_of_two(Harness& h) {
  h.probe("A", {R, S});
  h.probe("B", {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {seq, user("A"), user("B")};
  return spec;
}

}  // namespace

TEST_CASE("a forced leaf returns its forced result without its own update, observed or not") {
  Harness h;
  const auto spec = sequence_of_two(h);
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    h.load(spec);
    if (!observed) h.unobserved();
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A"});
    h.instance->force(1, Result::Failure);
    // No "update A": the sequence sees Failure, leaves A and fails.
    CHECK(h.tick() == Log{"leave A"});
    CHECK(h.instance->state() == CommandState::Failed);
  }
}

TEST_CASE("a forced result holds until it is ended, then the node's own update runs again") {
  Harness h;
  h.load(sequence_of_two(h));
  h.instance->start("Root");
  h.instance->force(1, Result::Running);
  CHECK(h.tick().empty());
  CHECK(h.tick().empty());
  h.instance->force(1, std::nullopt);
  // A's own script starts where it was: its first update returns Running.
  CHECK(h.tick() == Log{"update A"});
  CHECK(h.tick() == Log{"update A", "leave A", "enter B"});
  // Forced to Success: B is not updated, the sequence succeeds.
  h.instance->force(2, Result::Success);
  CHECK(h.tick() == Log{"leave B"});
  CHECK(h.instance->state() == CommandState::Succeeded);
}

TEST_CASE("a forced composite runs none of its children; its Enter and Leave are its own") {
  Harness h;
  h.load(sequence_of_two(h));
  h.instance->force(0, Result::Running);
  // The Sequential's Enter enters its first child as always.
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter A"});
  CHECK(h.tick().empty());
  CHECK(h.instance->state() == CommandState::Running);
  h.instance->force(0, Result::Success);
  CHECK(h.tick() == Log{"leave A"});  // the command's root finished: its Leave leaves A
  CHECK(h.instance->state() == CommandState::Succeeded);
  CHECK_FALSE(h.instance->is_active(1));
}

TEST_CASE("force: a node the file does not have, a module file no node calls") {
  Harness h;
  h.load(sequence_of_two(h));
  CHECK_THROWS_WITH_AS(h.instance->force(3, Result::Success),
                       "Test.root.ainb: no node 3 (the file has 3)", std::out_of_range);
  CHECK(h.instance->force_in_module("Other.module.ainb", 0, Result::Success) == 0);
}
