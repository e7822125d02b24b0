// Registered node classes and stubs: per-node state blocks, the hooks a class declares, the child
// plugs a class runs, a graph keeping its classes alive, the child replacement table; unregistered
// classes (stubs by default, an error in strict mode), their updates and the outputs they write;
// and the README's embedding snippet on a corpus actor.

#include <doctest/doctest.h>

#include "corpus.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

namespace {

struct Tally {
  std::int32_t updates;
};

// Succeeds on its third update; counts in its node's state block, not in the shared object.
struct Counting : StatefulNodeClass<Tally> {
  Result on_update(NodeContext& c, Tally& t) override {
    c.write_int("Count", ++t.updates);
    return t.updates >= 3 ? Result::Success : Result::Running;
  }
};

}  // namespace

TEST_CASE("user classes keep per-node state in the instance, zeroed at each Enter") {
  NodeRegistry registry;
  registry.add("Counting", std::make_shared<Counting>());
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {both, user("Counting"), user("Counting")};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "tally.ainb"), registry);
  CHECK(arrays(*graph).class_state_bytes() == 32);  // two 4-byte blocks, 16-byte aligned
  Instance a(graph), b(graph);
  for (auto* instance : {&a, &b}) {
    instance->start("Root");
    instance->tick();
    instance->tick();
    CHECK(instance->state() == CommandState::Running);  // a shared counter would be at 4
    instance->tick();
    CHECK(instance->state() == CommandState::Succeeded);
  }
  a.start("Root");  // entered again: the counts start over
  a.tick();
  a.tick();
  CHECK(a.state() == CommandState::Running);

  SUBCASE("asking for more state than the class declared is an error") {
    struct Greedy : NodeClass {
      Result update(NodeContext& c) override {
        c.state<std::int64_t>() = 1;
        return Result::Success;
      }
    };
    NodeRegistry greedy;
    greedy.add("Counting", std::make_shared<Greedy>());
    Instance instance(std::make_shared<Graph>(ainb::load(build(spec), "tally.ainb"), greedy));
    instance.start("Root");
    // The error leaves the class's update: a fault of the instance (docs/robustness.md).
    instance.tick();
    CHECK(instance.state() == CommandState::Faulted);
    REQUIRE(instance.fault() != nullptr);
    CHECK(instance.fault()->describe() ==
          "tally.ainb: frame 1: node 1 (Counting): user node class threw in update: state<T>() "
          "asks for 8 bytes of state, but the class's state_size() is 0");
  }
}

TEST_CASE("a node class that declares no enter or leave is not called for them") {
  struct Hooked : NodeClass {
    Log& log;
    Hooked(Log& l, Hooks hooks) : NodeClass(hooks), log(l) {}
    void enter(NodeContext&) override { log.push_back("enter"); }
    Result update(NodeContext&) override {
      log.push_back("update");
      return Result::Success;
    }
    void leave(NodeContext&) override { log.push_back("leave"); }
  };
  for (const auto& pair : std::vector<std::pair<NodeClass::Hooks, Log>>{
           {NodeClass::kEnterAndLeave, {"enter", "update", "leave"}},
           {NodeClass::kEnter, {"enter", "update"}},
           {NodeClass::kLeave, {"update", "leave"}},
           {NodeClass::kUpdateOnly, {"update"}}}) {
    const auto& [hooks_value, expected] = pair;
    const NodeClass::Hooks hooks = hooks_value;  // CAPTURE cannot capture a binding in clang 14
    CAPTURE(static_cast<int>(hooks));
    for (const bool observed : {true, false}) {
      Harness h;
      // As a NodeClass, as an adapter whose hooks are chosen at run time is added (the C API's):
      // added as a Hooked, a class overriding hooks it leaves out is refused.
      h.registry.add("Node", std::shared_ptr<NodeClass>(std::make_shared<Hooked>(h.log, hooks)));
      AinbSpec spec;
      spec.commands = {{"Root", 0, {}}};
      spec.nodes = {user("Node")};
      h.load(spec);
      if (!observed) h.unobserved();
      h.instance->start("Root");
      h.instance->tick();
      CHECK(h.log == expected);
    }
  }
}

TEST_CASE("a user class runs its child plugs; a stub may pass through to its first") {
  // A wrapper in the manner of TotK's Selector* and Execute* classes: each update runs both of
  // its children and returns the first one's result.
  struct Wrapper : NodeClass {
    Log& log;
    explicit Wrapper(Log& l) : log(l) {}
    Result update(NodeContext& c) override {
      log.push_back(fmt::format("update Wrapper ({} children: {}, {})", c.child_count(),
                                c.child_name(0), c.child_name(1)));
      const auto first = c.run_child(0);
      c.run_child(1);
      CHECK(c.run_child(7) == Result::Success);  // no such child: nothing happens
      return first;
    }
    void leave(NodeContext&) override { log.push_back("leave Wrapper"); }
  };
  Harness h;
  h.registry.add("Wrapper", std::make_shared<Wrapper>(h.log));
  h.probe("A", {R, S});
  h.probe("B", {R});
  h.probe("Tail", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 4, ""}};
  BuildNode wrapper = user("Wrapper");
  wrapper.plugs = {{PlugKind::Child, 2, "A"}, {PlugKind::Child, 3, "B"}};
  spec.nodes = {seq, wrapper, user("A"), user("B"), user("Tail")};
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    h.load(spec);
    if (!observed) h.unobserved();
    h.instance->start("Root");
    CHECK(h.tick() ==
          Log{"update Wrapper (2 children: A, B)", "enter A", "update A", "enter B", "update B"});
    // A finishes and is left at once; the Wrapper finishes with it and leaves B, which it
    // still holds, before its own Leave.
    CHECK(h.tick() == Log{"update Wrapper (2 children: A, B)", "update A", "leave A", "update B",
                          "leave B", "leave Wrapper", "enter Tail", "update Tail"});
    // Stopping leaves what the Wrapper holds, too.
    h.tick();
    h.instance->start("Root");
    h.tick();
    CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave B", "leave A", "leave Wrapper"});
  }

  SUBCASE("a child's fault caught by the class (catch (...)) still faults the instance") {
    struct Swallow : NodeClass {
      Result update(NodeContext& c) override {
        try {
          return c.run_child(0);
        } catch (...) {
          CHECK(c.run_child(1) == Result::Failure);  // nothing more runs below it
          return Result::Failure;
        }
      }
    };
    struct Throw : NodeClass {
      Result update(NodeContext&) override { throw std::runtime_error("no target"); }
    };
    h.registry.add("Wrapper", std::make_shared<Swallow>());
    h.registry.add("A", std::make_shared<Throw>());
    h.load(spec);
    h.instance->start("Root");
    CHECK(h.tick().empty());  // B is never entered; A's class is not left
    REQUIRE(h.instance->fault() != nullptr);
    CHECK(h.instance->state() == CommandState::Faulted);
    CHECK(h.instance->fault()->describe() ==
          "Test.root.ainb: frame 1: node 2 (A): user node class threw in update: no target");
  }
  SUBCASE("a child run from leave() is left right after it") {
    struct Farewell : NodeClass {
      Farewell() : NodeClass(kLeave) {}
      Result update(NodeContext&) override { return Result::Success; }
      void leave(NodeContext& c) override { c.run_child(1); }
    };
    h.registry.add("Wrapper", std::make_shared<Farewell>());
    h.load(spec);
    h.instance->start("Root");
    CHECK(h.tick() == Log{"enter B", "update B", "leave B", "enter Tail", "update Tail"});
  }
  SUBCASE("stubs: no children by default; with stub_runs_first_child, the first one's result") {
    AinbSpec event;
    event.commands = {{"Root", 0, {}}};
    BuildNode execute = user("EventExecute");  // not registered: a stub
    execute.plugs = {{PlugKind::Child, 1, "Execute"}, {PlugKind::Child, 2, "Other"}};
    event.nodes = {execute, user("A"), user("B")};
    h.load(event);
    h.instance->start("Root");
    CHECK(h.tick().empty());
    CHECK(h.instance->state() == CommandState::Succeeded);
    h.registry.stub_runs_first_child = true;
    h.load(event);
    h.instance->start("Root");
    CHECK(h.tick() == Log{"enter A", "update A"});
    CHECK(h.instance->state() == CommandState::Running);
    CHECK(h.tick() == Log{"update A", "leave A"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
}

TEST_CASE("a graph keeps its node classes alive after the registry is gone") {
  Log log;
  std::shared_ptr<const Graph> graph;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Probe")};
  {
    NodeRegistry registry;
    registry.add("Probe", std::make_shared<Probe>("Probe", log, std::vector<Result>{S}));
    graph = std::make_shared<Graph>(ainb::load(build(spec), "probe.ainb"), registry);
  }
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  CHECK(log == Log{"enter Probe", "update Probe", "leave Probe"});
}

TEST_CASE("the child replacement table is applied once, when the graph is built") {
  Harness h;
  for (const auto* name : {"Debug", "Real", "Swapped", "Spare"})
    h.probe(name, {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}, {PlugKind::Child, 3, ""}};
  BuildNode real = user("Real");
  real.attachments = {0, 1};
  spec.nodes = {seq, user("Debug"), real, user("Swapped"), user("Spare")};
  spec.attachments = {{"DebugDraw", {}}, {"Sight", {}}};
  // Remove child 0 (Debug), replace child 2 (Swapped) by Spare, remove Real's attachment 0.
  spec.replacements = {{0, 0, 0, 0}, {1, 0, 2, 4}, {2, 2, 0, 0}};
  h.load(spec);
  CHECK(arrays(*h.graph).children(0).size() == 2);
  CHECK(arrays(*h.graph).children(0)[1] == 4);
  CHECK(arrays(*h.graph).attachments(2).size() == 1);
  CHECK(h.graph->model().attachments[arrays(*h.graph).attachments(2)[0]].name == "Sight");
  h.instance->start("Root");
  CHECK(h.tick() == Log{"update Real", "leave Real", "enter Spare", "update Spare", "leave Spare"});
}

TEST_CASE("unregistered classes: a stub by default, a load error in strict mode") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Mystery")};
  auto model = ainb::load(build(spec), "mystery.ainb");
  NodeRegistry registry;
  auto graph = std::make_shared<Graph>(model, registry);
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  CHECK(instance.state() == CommandState::Succeeded);  // the stub succeeds on its first update

  registry.unknown_classes = UnknownClassPolicy::Strict;
  CHECK_THROWS_WITH(Graph(model, registry),
                    "mystery.ainb: nodes at offset 0x8c: node 0 uses class \"Mystery\", which no "
                    "node class is registered for (strict policy)");
}

TEST_CASE("stubs run for the configured number of updates, then succeed") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {user("Unknown")};
  NodeRegistry registry;
  registry.stub_running_updates = 2;
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "stub.ainb"), registry);
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  instance.tick();
  CHECK(instance.state() == CommandState::Running);
  instance.tick();
  CHECK(instance.state() == CommandState::Succeeded);
}

TEST_CASE("stubs write the output defaults the registry gives them") {
  struct Reader : NodeClass {
    std::vector<std::string> seen;
    Result update(NodeContext& c) override {
      seen.push_back(fmt::format("{} {} {}", c.input_int("Count"), c.input_float("Range"),
                                 c.input_string("Label")));
      return Result::Running;
    }
  };
  auto reader = std::make_shared<Reader>();
  NodeRegistry registry;
  registry.add("Reader", reader);
  registry.stub_outputs = [](std::string_view node_class,
                             const Output& output) -> std::optional<Value> {
    if (node_class != "Unknown") return std::nullopt;
    if (output.name == "Count") return std::int32_t{7};
    if (output.name == "Label") return std::string_view("from definitions");
    return std::nullopt;  // Range keeps the type's zero
  };
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode unknown = user("Unknown");
  unknown.outputs = {
      {ParamType::Int, "Count"}, {ParamType::Float, "Range"}, {ParamType::String, "Label"}};
  BuildNode read = user("Reader");
  read.inputs = {{ParamType::Int, "Count", 1, 0, 0, std::int32_t{-1}},
                 {ParamType::Float, "Range", 1, 0, 0, 1.0f},
                 {ParamType::String, "Label", 1, 0, 0, std::string("")}};
  spec.nodes = {both, unknown, read};
  registry.stub_running_updates = 5;
  Instance instance(std::make_shared<Graph>(ainb::load(build(spec), "stub.ainb"), registry));
  instance.start("Root");
  instance.tick();
  CHECK(reader->seen == std::vector<std::string>{"7 0 from definitions"});
}

TEST_CASE("the README's embedding snippet runs a corpus actor with its modules") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  // As in README.md, "Running a file from C++" (paths adapted to the corpus).
  struct Wait : ainb::runtime::StatefulNodeClass<int> {
    ainb::runtime::Result on_update(ainb::runtime::NodeContext& c, int& frames) override {
      return ++frames >= c.property_int("Frames") ? ainb::runtime::Result::Success
                                                  : ainb::runtime::Result::Running;
    }
  };
  ainb::runtime::NodeRegistry registry;
  registry.add("ExecuteWait", std::make_shared<Wait>());
  ainb::runtime::DirectoryResolver modules({dir / "ainb"});
  auto graph = std::make_shared<const ainb::runtime::Graph>(
      ainb::load_file(dir / "ainb" / "Toby.action.basicattack.module.ainb"), registry,
      ainb::runtime::GraphOptions{.modules = &modules,
                                  .missing_modules = MissingModulePolicy::Stub});
  ainb::runtime::Instance actor(graph, {.seed = 7});
  actor.start(graph->model().commands[0].name);
  for (int frame = 0; frame < 600; ++frame)
    actor.tick();
  CHECK(actor.frame() == 600);
  CHECK(arrays(*graph).module_calls().size() == 2);  // the two calls of _LocalModule_d0e7ebe89ded
}
