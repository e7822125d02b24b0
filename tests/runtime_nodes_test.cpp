// What the executable graph resolves once and user classes rely on: per-node state blocks,
// multi-source inputs, the outputs stubs write, and the child replacement table.

#include <doctest/doctest.h>

#include "corpus.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

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
  CHECK(graph->class_state_bytes() == 32);  // two 4-byte blocks, 16-byte aligned
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

TEST_CASE("multi-source inputs: the class reads every source, and a plain read gives the first") {
  struct Any : NodeClass {
    std::vector<std::string> seen;
    Result update(NodeContext& c) override {
      std::string s = std::to_string(c.input_source_count(ParamType::Bool, "MultiBool")) + ":";
      for (std::size_t k = 0; k < 3; ++k)
        s += c.input_bool("MultiBool", k) ? 'T' : 'f';
      s += c.input_bool("MultiBool") ? "/T" : "/f";
      seen.push_back(s);
      return Result::Running;
    }
  };
  struct Flag : NodeClass {
    bool value;
    explicit Flag(bool v) : value(v) {}
    Result update(NodeContext& c) override {
      c.write_bool("Value", value);
      return Result::Success;
    }
  };
  auto any = std::make_shared<Any>();
  NodeRegistry registry;
  registry.add("QueryGenericMultiBool", any);
  registry.add("Yes", std::make_shared<Flag>(true));
  registry.add("No", std::make_shared<Flag>(false));
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Alarm", true}};
  BuildNode multi = user("QueryGenericMultiBool");
  multi.queries = {0, 1};
  // Sources: No's output, Yes's output, and the blackboard's Alarm.
  multi.inputs = {{ParamType::Bool, "MultiBool", -100, 3, 0, false}};
  BuildNode no = user("No"), yes = user("Yes");
  no.flags = yes.flags = node_flags::kIsQuery;
  no.outputs = yes.outputs = {{ParamType::Bool, "Value", true}};
  spec.nodes = {multi, no, yes};
  spec.multi_sources = {{1, 0, 0}, {2, 0, 0}, {-1, 0, 0x80000000u}};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "multi.ainb"), registry);
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  instance.set_bool("Alarm", false);
  instance.tick();
  CHECK(any->seen == std::vector<std::string>{"3:fTT/f", "3:fTf/f"});
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
  CHECK(h.graph->children(0).size() == 2);
  CHECK(h.graph->children(0)[1] == 4);
  CHECK(h.graph->attachments(2).size() == 1);
  CHECK(h.graph->model().attachments[h.graph->attachments(2)[0]].name == "Sight");
  h.instance->start("Root");
  CHECK(h.tick() == Log{"update Real", "leave Real", "enter Spare", "update Spare", "leave Spare"});
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
  CHECK(graph->module_calls().size() == 2);  // the two calls of _LocalModule_d0e7ebe89ded
}

namespace {

// Declares its parameters once and reads them both ways: through the handles the graph resolved
// for each of its nodes, and by name.
struct Mover : NodeClass {
  const InputParam<float> speed = declare_input<float>("Speed");
  const InputParam<Vec3f> dir = declare_input<Vec3f>("Dir");
  const InputParam<float> height = declare_input<float>("Height");
  const PropertyParam<std::int32_t> count = declare_property<std::int32_t>("Count");
  const PropertyParam<std::string_view> label = declare_property<std::string_view>("Label");
  const InputParam<bool> missing = declare_input<bool>("Missing");
  const OutputParam<std::int32_t> out = declare_output<std::int32_t>("Out");
  std::vector<std::string> by_handle, by_name, misuse;

  Mover() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext& c) override {
    const Vec3f d = c.read(dir);
    const bool wrote = c.write(out, c.read(count) * 10);
    by_handle.push_back(fmt::format("{} {},{},{} {} {} {} {} {}", c.read(speed), d.x, d.y, d.z,
                                    c.read(height), c.read(count), c.read(label), c.read(missing),
                                    wrote));
    const Vec3f n = c.input_vec3f("Dir");
    const bool wrote_by_name = c.write_int("Out", c.property_int("Count") * 10);
    by_name.push_back(fmt::format("{} {},{},{} {} {} {} {} {}", c.input_float("Speed"), n.x, n.y,
                                  n.z, c.input_float("Height"), c.property_int("Count"),
                                  c.property_string("Label"), c.input_bool("Missing"),
                                  wrote_by_name));
    // Handles that do not fit the declaration read zero and write nothing: slot 3 is the
    // property Count (not a float input), 99 is no slot, and Out is an int.
    misuse.push_back(fmt::format("{} {} {}", c.read(InputParam<float>{count.position}),
                                 c.read(InputParam<float>{99}),
                                 c.write(OutputParam<float>{out.position}, 1.0f)));
    return Result::Running;
  }
};

struct InReader : NodeClass {
  const InputParam<std::int32_t> in = declare_input<std::int32_t>("In");
  std::vector<std::string> seen;
  InReader() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext& c) override {
    seen.push_back(fmt::format("{}/{}", c.read(in), c.input_int("In")));
    return Result::Running;
  }
};

}  // namespace

TEST_CASE(
    "declared parameters are found in each node when the graph is built, and read as by "
    "name") {
  auto mover = std::make_shared<Mover>();
  auto reader = std::make_shared<InReader>();
  CHECK(mover->declared().size() == 7);
  CHECK(mover->declared()[3].name == "Count");
  CHECK(mover->declared()[3].kind == ParamKind::Property);
  CHECK(mover->count.position == 3);
  NodeRegistry registry;
  registry.add("Mover", mover);
  registry.add("InReader", reader);
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::F32, "Pace", 0.75f},
                     {BlackboardType::Vec3f, "Where", Vec3f{4, 5, 6}}};
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}, {PlugKind::Child, 3, ""}};
  // Two nodes of one class whose parameters differ in order, source and presence.
  BuildNode a = user("Mover");
  a.properties = {{ParamType::Int, "Count", std::int32_t{3}},
                  {ParamType::String, "Label", std::string("alpha")}};
  a.inputs = {{ParamType::Float, "Speed", -1, 0, 0, 2.5f},              // stored value
              {ParamType::Vec3f, "Dir", -1, 0, 0x80000000u, Vec3f{}}};  // Where
  a.outputs = {{ParamType::Int, "Out"}};
  BuildNode b = user("Mover");
  b.properties = {{ParamType::String, "Label", std::string("beta")},
                  {ParamType::Float, "Count", 9.0f}};  // Count of another type: not the int
  b.inputs = {{ParamType::Int, "Extra", -1, 0, 0, std::int32_t{1}},
              {ParamType::Float, "Height", -1, 0, 0x88000000u, 0.0f},  // Where.y
              {ParamType::Vec3f, "Dir", -1, 0, 0, Vec3f{1, 2, 3}},
              {ParamType::Float, "Speed", -1, 0, 0x80000000u, 0.0f}};  // Pace
  BuildNode read = user("InReader");
  read.inputs = {{ParamType::Int, "In", 1, 0, 0, std::int32_t{-1}}};  // a's Out
  spec.nodes = {all, a, b, read};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "declared.ainb"), registry);
  CHECK(graph->declared_parameters(1).size() == 7);
  CHECK(graph->declared_parameters(2)[2].index != Graph::kNoParameter);  // b's Height
  CHECK(graph->declared_parameters(1)[2].index == Graph::kNoParameter);  // a has none
  // What each Mover lacks: a its Height and Missing; b its Count (a float there), Missing, Out.
  std::vector<std::string> unresolved;
  for (const auto& [node, slot] : graph->unresolved_parameters())
    unresolved.push_back(fmt::format("{}:{}", node, mover->declared()[slot].name));
  CHECK(unresolved ==
        std::vector<std::string>{"1:Height", "1:Missing", "2:Count", "2:Missing", "2:Out"});
  CHECK(graph->describe(graph->unresolved_parameters()[2]) ==
        "node 2 (Mover) has no int property \"Count\", which its class declares");
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  instance.set_float("Pace", 1.25f);
  instance.tick();
  CHECK(mover->by_handle == std::vector<std::string>{"2.5 4,5,6 0 3 alpha false true",
                                                     "0.75 1,2,3 5 0 beta false false",
                                                     "2.5 4,5,6 0 3 alpha false true",
                                                     "1.25 1,2,3 5 0 beta false false"});
  CHECK(mover->by_name == mover->by_handle);
  CHECK(mover->misuse == std::vector<std::string>(4, "0 0 false"));
  CHECK(reader->seen == std::vector<std::string>{"30/30", "30/30"});
}
