// Reliability (docs/robustness.md): the resource limits that are not tested beside their
// component, and the failure behaviour: host code (a user node class, a user EXB function, an
// observer) that throws stops its own instance with a fault naming the node, file and frame.

#include <filesystem>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/exb/user_functions.hpp"
#include "ainb/load_error.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/query_cycles.hpp"
#include "ainb/simulation/simulation.hpp"
#include "ainb_builder.hpp"
#include "commands.hpp"
#include "exb_assembler.hpp"
#include "runtime_probe.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

namespace {

// A user class that logs like a Probe, and throws from the call named in `throw_in` while the
// instance's host pointer is set (so one class serves a faulting and a healthy instance).
struct Bomb : NodeClass {
  Log& log;
  std::string throw_in;
  bool non_standard = false;
  Bomb(Log& l, std::string where) : log(l), throw_in(std::move(where)) {}
  void maybe_throw(NodeContext& c, const char* call) const {
    if (c.host() == nullptr || throw_in != call) return;
    if (non_standard) throw 42;
    throw std::runtime_error(fmt::format("boom in {}", call));
  }
  void enter(NodeContext& c) override {
    log.push_back("enter");
    maybe_throw(c, "enter");
  }
  Result update(NodeContext& c) override {
    log.push_back("update");
    if (c.instance().frame() >= 2) maybe_throw(c, "update");
    return Result::Running;
  }
  void leave(NodeContext& c) override {
    log.push_back("leave");
    maybe_throw(c, "leave");
  }
};

// Root: a Sequential whose one child is the Bomb (node 1).
AinbSpec bomb_file() {
  AinbSpec spec;
  spec.file_name = "bomb.root";
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}};
  spec.nodes = {seq, user("Bomb")};
  return spec;
}

std::shared_ptr<const Graph> graph_of(const AinbSpec& spec, const NodeRegistry& registry,
                                      GraphOptions options = {}) {
  return std::make_shared<Graph>(load(build(spec), spec.file_name + ".ainb"), registry, options);
}

// The LoadError building a graph of `model` throws (the tests check its section and offset).
LoadError graph_error(const std::shared_ptr<const Model>& model) {
  try {
    Graph graph(model, NodeRegistry{});
  } catch (const LoadError& e) {
    return e;
  }
  throw std::logic_error("expected a LoadError");
}

}  // namespace

// ---- limits -------------------------------------------------------------------------------

TEST_CASE("limit: LoadOptions::max_nodes refuses a file with more nodes, at the node count") {
  const auto bytes = build(bomb_file());  // 2 nodes
  LoadOptions options;
  options.max_nodes = 1;
  try {
    load(bytes, "many.ainb", options);
    FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    CHECK(std::string(e.what()) ==
          "many.ainb: nodes at offset 0x10: 2 nodes, over the limit of 1 (LoadOptions::max_nodes)");
  }
  options.max_nodes = 2;
  CHECK(load(bytes, "many.ainb", options)->nodes.size() == 2);
  CHECK(LoadOptions{}.max_nodes == 65535);
}

TEST_CASE("limit: a trace writer stops at its event limit with one truncated event") {
  std::ostringstream out;
  auto writer = simulation::make_trace_writer(simulation::TraceFormat::Jsonl, out, 2);
  for (std::uint64_t frame = 1; frame <= 5; ++frame) {
    writer->event(simulation::TraceEvent{
        .frame = frame, .event = "command", .file = "a.ainb", .detail = "Root"});
  }
  writer->finish();
  CHECK(out.str() ==
        "{\"frame\":1,\"event\":\"command\",\"file\":\"a.ainb\",\"detail\":\"Root\"}\n"
        "{\"frame\":2,\"event\":\"command\",\"file\":\"a.ainb\",\"detail\":\"Root\"}\n"
        "{\"frame\":3,\"event\":\"truncated\",\"file\":\"a.ainb\",\"detail\":\"trace truncated "
        "after 2 events (the limit; ainb run --max-trace-events)\"}\n");
  CHECK(writer->dropped() == 3);
  CHECK(simulation::kDefaultMaxTraceEvents == 10'000'000);
}

TEST_CASE("limit: an expression that loops forever stops at the instruction budget in a run") {
  // Function 0 (an int property): JMP 0, forever. The budget stops it; the property keeps the
  // value stored in the file and the instance runs on.
  ExbSpec exb;
  exb.instructions = {{29, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}};
  exb.functions = {{-1, 0, 0, 2, 3, 0, 4, 0, 0}};
  Log log;
  struct Reader : NodeClass {
    std::vector<std::int32_t> seen;
    Result update(NodeContext& c) override {
      seen.push_back(c.property_int("Count"));
      return Result::Running;
    }
  };
  auto reader = std::make_shared<Reader>();
  NodeRegistry registry;
  registry.add("Reader", reader);
  AinbSpec spec;
  spec.exb = assemble(exb);
  spec.commands = {{"Root", 0, {}}};
  BuildNode node = user("Reader");
  node.properties = {{ParamType::Int, "Count", std::int32_t{7}, 0xC2000000u}};
  spec.nodes = {node};
  Instance instance(graph_of(spec, registry));
  instance.start("Root");
  instance.tick();
  instance.tick();
  CHECK(reader->seen == std::vector<std::int32_t>{7, 7});
  CHECK(instance.state() == CommandState::Running);
}

TEST_CASE("limit: the expressions' static memory per instance") {
  // One function with the largest static size, used by 1100 int properties: each property is a
  // site with its own copy, 1100 x 0x1000C bytes, over the 64 MiB limit.
  ExbSpec exb;
  exb.instructions = {{1, 0, 0, 0, 0, 0}};
  exb.functions = {{-1, 0, 0, 1, 3, 0, 0x1000B, 0, 0}};
  AinbSpec spec;
  spec.file_name = "greedy";
  spec.exb = assemble(exb);
  spec.commands = {{"Root", 0, {}}};
  BuildNode node = user("Reader");
  for (int i = 0; i < 1100; ++i)
    node.properties.push_back(
        {ParamType::Int, fmt::format("P{}", i), std::int32_t{0}, 0xC2000000u});
  spec.nodes = {node};
  CHECK_THROWS_WITH(graph_of(spec, NodeRegistry{}),
                    "greedy.ainb: EXB at offset 0x0: the expressions need more than 67108864 bytes "
                    "of static memory per instance (the limit, Graph::kMaxExpressionMemory)");
  node.properties.resize(1000);  // 1000 x 0x1000C bytes fit
  spec.nodes = {node};
  CHECK(arrays(*graph_of(spec, NodeRegistry{})).expression_memory() == 1000u * 0x1000Cu);
}

TEST_CASE("a cycle of child plugs is refused when the graph is built (a fuzz finding)") {
  // Node 0 (Sequential) -> node 1 (Sequential) -> node 0: updating it recursed without end.
  AinbSpec spec;
  spec.file_name = "cycle";
  spec.commands = {{"Root", 0, {}}};
  BuildNode a{.type = NodeType::Sequential};
  a.plugs = {{PlugKind::Child, 1, ""}};
  BuildNode b{.type = NodeType::Sequential};
  b.plugs = {{PlugKind::Child, 0, ""}};
  spec.nodes = {a, b};
  const auto model = load(build(spec), "cycle.ainb");
  const auto e = graph_error(model);
  CHECK(e.section() == "nodes");
  CHECK(e.offset() == model->nodes[0].entry_offset);
  CHECK(e.reason() ==
        "node 0 is its own descendant through child plugs (from node 1): a cycle would never "
        "finish");
}

TEST_CASE("a query cycle builds: each walk stops at the query already on its path") {
  // Node 0 queries node 1, which queries node 2, which queries node 1 again: node 0's walk is
  // 1, 2 (whose query 1 is on the path: no step), then 1's calculation (docs/semantics.md,
  // "Query cycles").
  AinbSpec spec;
  spec.file_name = "loop";
  spec.commands = {{"Root", 0, {}}};
  BuildNode root = user("Root");
  root.queries = {0};
  BuildNode first = user("First"), second = user("Second");
  first.queries = {1};
  second.queries = {0};
  first.flags = second.flags = node_flags::kIsQuery;
  spec.nodes = {root, first, second};
  const auto model = load(build(spec), "loop.ainb");
  CHECK(query_cycles(*model) == std::vector<std::vector<std::uint32_t>>{{1, 2}});
  const auto graph = graph_of(spec, NodeRegistry{});
  const auto& graph_arrays = arrays(*graph);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> steps;  // node, within a cycle
  for (const auto& step : graph_arrays.query_plan(0))
    steps.emplace_back(step.node, step.within_cycle);
  CHECK(steps == std::vector<std::pair<std::uint32_t, std::uint32_t>>{{1, 0}, {2, 1}, {1, 0}});
  CHECK(graph_arrays.counts_as_user(0, 1));
  CHECK_FALSE(graph_arrays.counts_as_user(1, 2));
  CHECK_FALSE(graph_arrays.counts_as_user(2, 1));
  SUBCASE("a node that is its own query") {
    spec.nodes[1].queries = {0};
    spec.nodes[2].queries = {};
    const auto self = load(build(spec), "loop.ainb");
    CHECK(query_cycles(*self) == std::vector<std::vector<std::uint32_t>>{{1}});
    CHECK(describe_query_cycle({1}) == "node 1");
    CHECK(describe_query_cycle({14, 27, 28}) == "nodes 14, 27 and 28");
    const auto self_graph = graph_of(spec, NodeRegistry{});
    CHECK(arrays(*self_graph).query_plan(0).size() == 1);
  }
}

TEST_CASE("limit: queries that unroll past Graph::kMaxQuerySteps are refused") {
  // Each query uses the next one twice: calculating node 0 would take 2^k calculations of the
  // last one, so the graph refuses the file rather than letting a tick run for hours.
  constexpr std::uint16_t kChain = 21;
  AinbSpec spec;
  spec.file_name = "doubling";
  spec.commands = {{"Root", 0, {}}};
  BuildNode root = user("Root");
  root.queries = {0};
  spec.nodes = {root};
  for (std::uint16_t k = 0; k < kChain; ++k) {
    BuildNode q = user("Twice");
    q.flags = node_flags::kIsQuery;
    if (k + 1 < kChain)
      q.queries = {static_cast<std::uint16_t>(k + 1), static_cast<std::uint16_t>(k + 1)};
    spec.nodes.push_back(q);
  }
  CHECK_THROWS_WITH(graph_of(spec, NodeRegistry{}),
                    "doubling.ainb: nodes at offset 0x8c: node 0: the queries unroll to more "
                    "than 1048576 steps (the limit, Graph::kMaxQuerySteps): queries shared along "
                    "many paths or chained thousands deep");
  // 17 queries: node 0 calculates 2^17 - 1 of them, two steps each but one for each of the
  // 2^16 calculations of the last query, which has no queries
  spec.nodes.resize(18);
  spec.nodes.back().queries = {};
  const auto graph = graph_of(spec, NodeRegistry{});
  CHECK(arrays(*graph).query_plan(0).size() == 2u * ((1u << 17) - 1u) - (1u << 16));
}

// ---- failure behaviour ----------------------------------------------------------------------

TEST_CASE("a user node class that throws faults its instance; other instances keep running") {
  Log log;
  auto bomb = std::make_shared<Bomb>(log, "update");
  NodeRegistry registry;
  registry.add("Bomb", bomb);
  const auto graph = graph_of(bomb_file(), registry);
  int host = 0;
  Instance faulty(graph, InstanceOptions{.host = &host});
  Instance healthy(graph);
  faulty.start("Root");
  healthy.start("Root");
  faulty.tick();  // frame 1: runs
  CHECK(faulty.fault() == nullptr);
  log.clear();
  faulty.tick();                // frame 2: throws
  CHECK(log == Log{"update"});  // no Leave: nothing of the instance runs after the fault
  CHECK(faulty.state() == CommandState::Faulted);
  REQUIRE(faulty.fault() != nullptr);
  const auto& f = *faulty.fault();
  CHECK(f.source == Fault::Source::NodeClass);
  CHECK(f.file == "bomb.root.ainb");
  CHECK(f.node == 1);
  CHECK(f.node_name == "Bomb");
  CHECK(f.frame == 2);
  CHECK(f.call == "update");
  CHECK(f.message == "boom in update");
  CHECK(f.describe() ==
        "bomb.root.ainb: frame 2: node 1 (Bomb): user node class threw in update: boom in update");
  CHECK_FALSE(faulty.is_active(0));
  CHECK_FALSE(faulty.is_active(1));
  CHECK(faulty.active_roots().empty());
  // The reset keeps the record of what was entered (coverage reads it after a faulted run).
  CHECK(faulty.was_entered(0));
  CHECK(faulty.was_entered(1));
  CHECK_FALSE(Instance(graph).was_entered(1));

  // Ticking a faulted instance does nothing; the other instance of the same graph runs on.
  log.clear();
  faulty.tick();
  faulty.stop();
  CHECK(log.empty());
  CHECK(faulty.frame() == 2);
  for (int i = 0; i < 3; ++i)
    healthy.tick();
  CHECK(log == Log{"update", "update", "update"});
  CHECK(healthy.state() == CommandState::Running);
  CHECK(healthy.fault() == nullptr);

  // Starting a command again clears the fault.
  bomb->throw_in.clear();
  log.clear();
  faulty.start("Root");
  CHECK(faulty.fault() == nullptr);
  CHECK(faulty.state() == CommandState::Running);
  faulty.tick();
  CHECK(log == Log{"enter", "update"});
}

TEST_CASE("a node class throwing in enter, in leave, or something not a std::exception") {
  Log log;
  auto bomb = std::make_shared<Bomb>(log, "enter");
  NodeRegistry registry;
  registry.add("Bomb", bomb);
  const auto graph = graph_of(bomb_file(), registry);
  int host = 0;
  SUBCASE("enter, during start") {
    Instance instance(graph, InstanceOptions{.host = &host});
    instance.start("Root");
    CHECK(instance.state() == CommandState::Faulted);
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          "bomb.root.ainb: frame 0: node 1 (Bomb): user node class threw in enter: boom in enter");
  }
  SUBCASE("leave, during stop; the destructor then has nothing left to do") {
    bomb->throw_in = "leave";
    Instance instance(graph, InstanceOptions{.host = &host});
    instance.start("Root");
    instance.tick();
    instance.stop();
    CHECK(instance.state() == CommandState::Faulted);
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          "bomb.root.ainb: frame 1: node 1 (Bomb): user node class threw in leave: boom in leave");
  }
  SUBCASE("an exception of another type") {
    bomb->non_standard = true;
    Instance instance(graph, InstanceOptions{.host = &host});
    instance.start("Root");
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->message == "an exception that is not a std::exception");
  }
  SUBCASE("a leave that throws in the destructor is swallowed") {
    bomb->throw_in = "leave";
    {
      Instance instance(graph, InstanceOptions{.host = &host});
      instance.start("Root");
    }
    CHECK(log == Log{"enter", "leave"});
  }
}

TEST_CASE("a user EXB function that throws faults the instance, naming the expression's node") {
  // Function 0 (a float property): CFN Boom( Float ) into GMem[0], END.
  ExbSpec exb;
  exb.pool = std::string("Boom( Float )") + '\0';
  exb.signatures = {0};
  exb.instructions = {{27, 4, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}};
  exb.functions = {{-1, 0, 0, 2, 4, 0, 0x10, 0, 0}};
  exb::UserFunctions functions;
  functions.add("Boom( Float )", []() -> float { throw std::out_of_range("no such actor"); });
  struct Reader : NodeClass {
    Result update(NodeContext& c) override {
      (void)c.property_float("Speed");
      return Result::Running;
    }
  };
  NodeRegistry registry;
  registry.add("Reader", std::make_shared<Reader>());
  AinbSpec spec;
  spec.file_name = "expr";
  spec.exb = assemble(exb);
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}};
  BuildNode reader = user("Reader");
  reader.properties = {{ParamType::Float, "Speed", 1.5f, 0xC2000000u}};
  spec.nodes = {seq, reader};
  const auto graph = graph_of(spec, registry, GraphOptions{.functions = &functions});
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  CHECK(instance.state() == CommandState::Faulted);
  REQUIRE(instance.fault() != nullptr);
  CHECK(instance.fault()->source == Fault::Source::UserFunction);
  CHECK(instance.fault()->describe() ==
        "expr.ainb: frame 1: node 1 (Reader): user EXB function threw in an expression: no such "
        "actor");
}

TEST_CASE("a graph keeps the user functions it calls: their UserFunctions object may go first") {
  // Function 0 (a float property): CFN Speed( Float ) into GMem[0], STR float Out[0], GMem[0],
  // END.
  ExbSpec exb;
  exb.pool = std::string("Speed( Float )") + '\0';
  exb.signatures = {0};
  exb.instructions = {{27, 4, 0, 0, 0, 0}, {2, 4, 5, 2, 0, 0}, {1, 0, 0, 0, 0, 0}};
  exb.functions = {{-1, 0, 0, 3, 4, 0, 0x10, 0, 0}};
  struct Reader : NodeClass {
    std::vector<float> seen;
    Result update(NodeContext& c) override {
      seen.push_back(c.property_float("Speed"));
      return Result::Running;
    }
  };
  auto reader_class = std::make_shared<Reader>();
  NodeRegistry registry;
  registry.add("Reader", reader_class);
  AinbSpec spec;
  spec.file_name = "expr";
  spec.exb = assemble(exb);
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}};
  BuildNode reader = user("Reader");
  reader.properties = {{ParamType::Float, "Speed", 1.5f, 0xC2000000u}};
  spec.nodes = {seq, reader};
  const auto graph = [&] {
    exb::UserFunctions functions;  // gone when the graph is built
    float speed = 2.0f;
    functions.add("Speed( Float )", [speed]() mutable { return speed += 0.5f; });
    return graph_of(spec, registry, GraphOptions{.functions = &functions});
  }();
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  instance.tick();
  CHECK(instance.fault() == nullptr);
  // One function object, shared: its state carries from call to call.
  CHECK(reader_class->seen == std::vector<float>{2.5f, 3.0f});
}

TEST_CASE("misuse of the embedding API is refused with a message, not undefined behaviour") {
  NodeRegistry registry;
  CHECK_THROWS_WITH_AS(registry.add("Bomb", std::shared_ptr<NodeClass>()),
                       "NodeRegistry::add(\"Bomb\"): no class (a null pointer)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(Graph(nullptr, registry), "runtime::Graph: no model (a null pointer)",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(Instance(nullptr), "runtime::Instance: no graph (a null pointer)",
                       std::invalid_argument);

  struct Huge : NodeClass {
    std::size_t size;
    explicit Huge(std::size_t s) : size(s) {}
    Result update(NodeContext&) override { return Result::Running; }
    std::size_t state_size() const override { return size; }
  };
  registry.add("Bomb", std::make_shared<Huge>(Graph::kMaxNodeState));
  CHECK(arrays(*graph_of(bomb_file(), registry)).class_state_bytes() == 65520u);
  registry.add("Bomb", std::make_shared<Huge>(Graph::kMaxNodeState + 1));
  CHECK_THROWS_WITH_AS(graph_of(bomb_file(), registry),
                       "bomb.root.ainb: node 1 (Bomb): its class's state_size() is 65521 bytes, "
                       "over the limit of 65520 (Graph::kMaxNodeState)",
                       std::invalid_argument);
  // A size that wrapped the 32-bit offsets before the limit.
  registry.add("Bomb", std::make_shared<Huge>(0xFFFFFFF8u));
  CHECK_THROWS_AS(graph_of(bomb_file(), registry), std::invalid_argument);
}

TEST_CASE("observers are attached between ticks: set_observer from a node class faults it") {
  struct Attaching : NodeClass {
    Observer* observer = nullptr;
    Result update(NodeContext& context) override {
      if (observer != nullptr) context.instance().set_observer(observer);
      return Result::Running;
    }
  };
  struct Counting : Observer {
    int updates = 0;
    void on_update(const Instance&, std::uint32_t, Result) override { ++updates; }
  } counting;
  auto attaching = std::make_shared<Attaching>();
  attaching->observer = &counting;
  NodeRegistry registry;
  registry.add("Bomb", attaching);
  Instance instance(graph_of(bomb_file(), registry));
  instance.start("Root");
  instance.tick();
  REQUIRE(instance.fault() != nullptr);
  CHECK(instance.fault()->describe() ==
        "bomb.root.ainb: frame 1: node 1 (Bomb): user node class threw in update: bomb.root.ainb: "
        "set_observer during a tick or command change; attach or detach observers between ticks");
  CHECK(counting.updates == 0);
  // Between ticks it is allowed, and the next tick is traced: the Sequential and its child.
  attaching->observer = nullptr;
  instance.set_observer(&counting);
  instance.start("Root");
  instance.tick();
  CHECK(instance.fault() == nullptr);
  CHECK(counting.updates == 2);
}

TEST_CASE("start, stop and tick from a node class fault it instead of re-entering the scheduler") {
  // Each would leave nodes twice or (tick) recurse until the stack overflows.
  struct Reentering : NodeClass {
    std::string call;
    Result update(NodeContext& context) override {
      if (call == "start") context.instance().start("Root");
      if (call == "stop") context.instance().stop();
      if (call == "tick") context.instance().tick();
      return Result::Running;
    }
  };
  for (const std::string call : {"start", "stop", "tick"}) {
    CAPTURE(call);
    auto reentering = std::make_shared<Reentering>();
    reentering->call = call;
    NodeRegistry registry;
    registry.add("Bomb", reentering);
    Instance instance(graph_of(bomb_file(), registry));
    instance.start("Root");
    instance.tick();
    CHECK(instance.state() == CommandState::Faulted);
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          fmt::format("bomb.root.ainb: frame 1: node 1 (Bomb): user node class threw in update: "
                      "bomb.root.ainb: {} during a tick or command change; a node class cannot "
                      "start, stop or tick the instance that runs it",
                      call));
    CHECK_FALSE(instance.is_active(0));
    CHECK_FALSE(instance.is_active(1));
    // From the host, between frames, the same calls work.
    reentering->call.clear();
    instance.start("Root");
    instance.tick();
    CHECK(instance.state() == CommandState::Running);
    CHECK(instance.is_active(1));
    instance.stop();
    CHECK(instance.state() == CommandState::Idle);
    CHECK_FALSE(instance.is_active(1));
  }
}

TEST_CASE("an observer that throws faults the instance it observes") {
  struct Throwing : Observer {
    std::string in;
    void on_update(const Instance&, std::uint32_t, Result) override {
      if (in == "on_update") throw std::runtime_error("observer failed");
    }
    void on_blackboard(const Instance&, std::size_t) override {
      if (in == "on_blackboard") throw std::runtime_error("observer failed");
    }
    void on_command(const Instance&, std::string_view) override {
      if (in == "on_command") throw std::runtime_error("observer failed");
    }
  } observer;
  Log log;
  NodeRegistry registry;
  registry.add("Bomb", std::make_shared<Bomb>(log, ""));
  auto spec = bomb_file();
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  const auto graph = graph_of(spec, registry);
  Instance instance(graph, InstanceOptions{.observer = &observer});
  Instance other(graph);
  instance.start("Root");
  other.start("Root");
  SUBCASE("on_update, during a tick") {
    observer.in = "on_update";
    instance.tick();
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          "bomb.root.ainb: frame 1: node 1 (Bomb): observer threw in on_update: observer failed");
  }
  SUBCASE("on_blackboard, when the host writes an entry") {
    observer.in = "on_blackboard";
    CHECK(instance.set_bool("Flag", true));  // written, then the observer threw
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          "bomb.root.ainb: frame 0: observer threw in on_blackboard: observer failed");
    CHECK(instance.blackboard("Flag")->index() == Value(true).index());
  }
  SUBCASE("on_command, when the host starts a command") {
    observer.in = "on_command";
    instance.start("Root");
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          "bomb.root.ainb: frame 0: observer threw in on_command: observer failed");
    CHECK_FALSE(instance.is_active(1));  // the fault left the command's nodes
  }
  CHECK(instance.state() == CommandState::Faulted);
  other.tick();
  CHECK(other.state() == CommandState::Running);
}

TEST_CASE("ainb run stops on a fault (a trace write that fails) and exits 2") {
  if (!std::filesystem::exists("/dev/full")) return;
  // A Sequential looping forever over a stub: a few events every frame, so a write reaches
  // /dev/full when the stream's buffer fills, some frames into the run.
  AinbSpec spec;
  spec.file_name = "loop.root";
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsLoop", true},
                    {ParamType::Bool, "IsUpdateNextInFrame", true},
                    {ParamType::Int, "NumLoop", std::int32_t{0}}};
  seq.plugs = {{PlugKind::Child, 1, ""}};
  spec.nodes = {seq, user("Stub")};
  const auto path = ainb::test::write_scratch("ainb_robustness_loop.root.ainb", build(spec));
  std::ostringstream out, err;
  const int code = ainb::cli::run(
      {"run", path.string(), "--frames", "600", "--trace", "/dev/full", "--format", "jsonl"}, out,
      err);
  CHECK(code == 2);
  // The trace writer (the observer) throws when its buffer reaches /dev/full; the frame depends
  // on the standard library's buffer size, and the summary counts the same frames.
  std::smatch fault;
  const auto message = err.str();
  REQUIRE(std::regex_search(
      message, fault,
      std::regex("^error: the run stopped on a fault: (.+): frame ([0-9]+): node [01] "
                 "\\((Stub|Element_Sequential)\\): observer threw in on_(enter|update|leave): "
                 "cannot write the trace to /dev/full: No space left on device\n")));
  CHECK(fault[1] == path.string());
  CHECK(out.str().find("loop.root.ainb, command Root: faulted after " + fault[2].str() +
                       " frames") != std::string::npos);
}
