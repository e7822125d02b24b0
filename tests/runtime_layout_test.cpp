// Graph layout, apart from what nodes do: the order of the node states (visit order, the reached
// ones first) and each command's footprint (the states, outputs and expression memory its frames
// can reach, which prefetch() asks for).

#include <algorithm>

#include <doctest/doctest.h>

#include "corpus.hpp"
#include "runtime_corpus.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

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
  for (const auto& g : arrays(graph).nodes())
    order.push_back(g.state_index);
  // The root 0; its query and children together (1, 2, 3); the Sequential's children (4, 5);
  // then the unreachable node.
  CHECK(order == std::vector<std::uint32_t>{4, 1, 3, 0, 2, 5, 6});
  CHECK(arrays(graph).reached_states() == 6);

  // In every corpus file (and the modules it calls), each node has its own state.
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  const auto check_permutation = [](const Graph& g) {
    std::vector<std::uint32_t> seen;
    for (const auto& node : arrays(g).nodes())
      seen.push_back(node.state_index);
    std::ranges::sort(seen);
    for (std::uint32_t i = 0; i < seen.size(); ++i)
      REQUIRE(seen[i] == i);
  };
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const Graph g(load_file(path), NodeRegistry{}, corpus_options(resolver));
    check_permutation(g);
    for (const auto& call : arrays(g).module_calls())
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
    REQUIRE(arrays(*graph).footprints().size() == 2);
    // States 0 to 100 in visit order (808 bytes: 13 lines), the 100 floats (4 bytes each) of
    // nodes 1 to 100 (7 lines or 8): over Graph::kMinFootprintLines.
    const auto& many = arrays(*graph).footprints()[0];
    CHECK(windows(many.states) == Windows{{0, 101}});
    const auto floats = arrays(*graph).output_offset(static_cast<std::size_t>(ParamType::Float));
    CHECK(windows(many.outputs) == Windows{{floats, 400}});
    // A Simultaneous updates all 100 children every frame; a Sequential one of them.
    CHECK(many.every_frame == (composite == NodeType::Simultaneous));
    // One node's 8 bytes: too little to be worth a prefetch.
    const auto& one = arrays(*graph).footprints()[1];
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
    CHECK(arrays(graph).nodes()[0].state_index == 0);
    CHECK(arrays(graph).nodes()[101].state_index == 1);
    CHECK(arrays(graph).nodes()[1].state_index == 2);
    CHECK(arrays(graph).nodes()[100].state_index == 101);
    CHECK(arrays(graph).reached_states() == 2);
    CHECK(arrays(graph).footprints()[0].states.empty());
    CHECK_FALSE(graph.worth_prefetching());
  }
  SUBCASE("a stub that passes through to its first child") {
    NodeRegistry registry;
    registry.stub_runs_first_child = true;
    const Graph graph(model, registry);
    CHECK(arrays(graph).nodes()[1].state_index == 1);
    CHECK(arrays(graph).nodes()[100].state_index == 100);
    CHECK(arrays(graph).nodes()[101].state_index == 101);
    CHECK(arrays(graph).reached_states() == 102);
    const auto& wrapped = arrays(graph).footprints()[0];
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
    REQUIRE(arrays(g).footprints().size() == std::max<std::size_t>(g.model().commands.size(), 1));
    for (const auto& f : arrays(g).footprints()) {
      for (const auto w : f.states)
        REQUIRE(w.end() <= arrays(g).nodes().size());
      for (const auto w : f.outputs)
        REQUIRE(w.end() <= arrays(g).output_bytes());
      for (const auto w : f.expression_memory)
        REQUIRE(w.end() <= arrays(g).expression_memory());
      if (!f.expression_memory.empty()) REQUIRE(f.evaluates);
      if (f.evaluates) REQUIRE(arrays(g).program() != nullptr);
      if (f.states.empty()) REQUIRE((f.outputs.empty() && !f.evaluates));
    }
  };
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const Graph g(load_file(path), NodeRegistry{}, corpus_options(resolver));
    check(g);
    for (const auto& call : arrays(g).module_calls())
      check(*call.graph);
    const auto& f = arrays(g).footprints();
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
