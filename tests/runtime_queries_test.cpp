// Query nodes: calculated before their user's Enter and each Update, chained, and shared (entered
// once, left with their last user). Each test asserts the exact Enter/Update/Leave sequence frame
// by frame (docs/semantics.md says why each order is what it is).

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

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
