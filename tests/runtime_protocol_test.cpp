// The rules every node follows: a node shared by several parents is entered, updated and left once,
// and a parent leaves only the children it holds; without an observer, plain nodes and composites
// take short paths that give the same sequences as the general ones; the limits of the 16-bit
// counters and 8-bit holder counts of a node's state. Each test asserts the exact
// Enter/Update/Leave sequence frame by frame (docs/semantics.md says why each order is what it is).

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

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
  REQUIRE(arrays(*h.graph).nodes()[2].plain_update);
  REQUIRE(arrays(*h.graph).nodes()[5].is_stub);
  REQUIRE(arrays(*h.graph).nodes()[5].plain_update);
  h.unobserved();
  CHECK(run() == observed);
  // C fails on its third update (frame 3); the loop runs A, the stub (two frames), then B, and
  // starts again with A on frame 5.
  CHECK(observed == Log{"enter A", "enter C", "update A", "update C", "update A", "leave A",
                        "update C", "update C", "leave C", "enter B", "update B", "leave B",
                        "enter A", "update A", "update A", "leave A"});
  // Composites without queries or transitions take a short Update too: the Simultaneous root
  // (from the active node array) and the Sequential inside it.
  CHECK(arrays(*h.graph).nodes()[0].plain_composite);
  CHECK(arrays(*h.graph).nodes()[1].plain_composite);
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
    REQUIRE(arrays(*h.graph).nodes()[node].plain_composite);
  h.unobserved();
  CHECK(run() == observed);
  CHECK(observed ==
        Log{"enter E", "update E", "leave E", "enter D", "update D", "update D", "leave D"});
  CHECK(h.instance->state() == CommandState::Succeeded);
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
