// Module calls: a module node runs another file in its own sub-instance; inputs, outputs and
// child plugs cross through the ModuleIF nodes; Element_StateEnd returns to the caller's
// transition of that name (docs/semantics.md, "Modules").

#include <doctest/doctest.h>

#include "allocation_counter.hpp"
#include "corpus.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

namespace {

constexpr std::uint32_t kFromBlackboard = 0x80000000u;

BuildNode module_node(const std::string& path) {
  return BuildNode{.name = path, .flags = node_flags::kIsModule};
}
BuildNode module_if(NodeType type, const std::string& name, std::uint8_t flags = 0) {
  BuildNode n{.type = type, .flags = flags};
  n.properties = {{ParamType::String, "Name", name}};
  return n;
}
// Logs like a Probe and records the int input "Doubled" it reads at each update.
struct Watch : NodeClass {
  Log& log;
  std::vector<std::int32_t> seen;
  explicit Watch(Log& l) : log(l) {}
  void enter(NodeContext&) override { log.push_back("enter Watch"); }
  Result update(NodeContext& c) override {
    log.push_back("update Watch");
    seen.push_back(c.input_int("Doubled"));
    return Result::Running;
  }
  void leave(NodeContext&) override { log.push_back("leave Watch"); }
};

// Writes twice its input "In" to its output "Out" and succeeds.
struct Double : NodeClass {
  Log& log;
  explicit Double(Log& l) : log(l) {}
  void enter(NodeContext&) override { log.push_back("enter Double"); }
  Result update(NodeContext& c) override {
    log.push_back("update Double");
    c.write_int("Out", 2 * c.input_int("In"));
    return Result::Success;
  }
  void leave(NodeContext&) override { log.push_back("leave Double"); }
};

}  // namespace

TEST_CASE("modules three deep: inputs, outputs, child plugs and StateEnd") {
  // Root.root: Simultaneous [Mid.module (Level from the blackboard, Doubled out, child plug
  //            Callback -> RootChild, transition "Done" -> AfterModule), Watch reads Doubled]
  AinbSpec root;
  root.file_name = "Root.root";
  root.commands = {{"Main", 0, {}}};
  root.blackboard = {{BlackboardType::S32, "Level", std::int32_t{5}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode mid = module_node("Mid.module");
  mid.inputs = {{ParamType::Int, "Level", -1, 0, kFromBlackboard, std::int32_t{0}}};
  mid.outputs = {{ParamType::Int, "Doubled"}};
  mid.plugs = {{PlugKind::Child, 3, "Callback"}, {PlugKind::Transition, 4, "", 0}};
  BuildNode watch = user("Watch");
  watch.inputs = {{ParamType::Int, "Doubled", 1, 0, 0, std::int32_t{-1}}};
  root.nodes = {both, mid, watch, user("RootChild"), user("AfterModule")};
  root.transitions = {{0, "Done"}};
  root.modules = {{"Mid.module.ainb"}};

  // Mid.module: Sequential [Leaf.module (X from ModuleIF_Input "Level", child plug Inner ->
  //             ModuleIF_Child "Callback"), StateEnd "Done"]; ModuleIF_Output "Doubled" = Leaf's Y.
  AinbSpec middle;
  middle.file_name = "Mid.module";
  middle.commands = {{"Run", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 4, ""}};
  BuildNode leaf = module_node("Leaf.module");
  leaf.queries = {0};
  leaf.inputs = {{ParamType::Int, "X", 2, 0, 0, std::int32_t{0}}};
  leaf.outputs = {{ParamType::Int, "Y"}};
  leaf.plugs = {{PlugKind::Child, 5, "Inner"}};
  BuildNode level = module_if(NodeType::ModuleIFInputS32, "Level", node_flags::kIsQuery);
  level.outputs = {{ParamType::Int, "Value"}};
  BuildNode doubled = module_if(NodeType::ModuleIFOutputS32, "Doubled", node_flags::kIsQuery);
  doubled.inputs = {{ParamType::Int, "Result", 1, 0, 0, std::int32_t{0}}};
  BuildNode end{.type = NodeType::StateEnd};
  end.properties = {{ParamType::String, "TransitionCommand", std::string("Done")}};
  middle.nodes = {seq, leaf, level, doubled, end, module_if(NodeType::ModuleIFChild, "Callback")};
  middle.modules = {{"Leaf.module.ainb"}};

  // Leaf.module: Sequential [ModuleIF_Child "Inner", Double (In = ModuleIF_Input "X")];
  //              ModuleIF_Output "Y" = Double's Out.
  AinbSpec inner;
  inner.file_name = "Leaf.module";
  inner.commands = {{"Run", 0, {}}};
  BuildNode steps{.type = NodeType::Sequential};
  steps.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode twice = user("Double");
  twice.queries = {0};
  twice.inputs = {{ParamType::Int, "In", 3, 0, 0, std::int32_t{0}}};
  twice.outputs = {{ParamType::Int, "Out"}};
  BuildNode x = module_if(NodeType::ModuleIFInputS32, "X", node_flags::kIsQuery);
  x.outputs = {{ParamType::Int, "Value"}};
  BuildNode y = module_if(NodeType::ModuleIFOutputS32, "Y", node_flags::kIsQuery);
  y.inputs = {{ParamType::Int, "Result", 2, 0, 0, std::int32_t{0}}};
  inner.nodes = {steps, module_if(NodeType::ModuleIFChild, "Inner"), twice, x, y};

  MemoryResolver modules;
  modules.add("Mid.module.ainb", load_spec(middle));
  modules.add("Leaf.module.ainb", load_spec(inner));
  Harness h;
  h.options.modules = &modules;
  auto watcher = std::make_shared<Watch>(h.log);
  h.registry.add("Watch", watcher);
  h.registry.add("Double", std::make_shared<Double>(h.log));
  h.probe("RootChild", {R, S});
  h.probe("AfterModule", {R});
  h.load(root);

  // The leaf's ModuleIF_Child runs the middle's, which runs the root's Callback plug.
  CHECK(h.step([&] { h.instance->start("Main"); }) == Log{"enter RootChild", "enter Watch"});
  const auto* mid_instance = h.instance->module_instance(1);
  REQUIRE(mid_instance != nullptr);
  const auto* leaf_instance = mid_instance->module_instance(1);
  REQUIRE(leaf_instance != nullptr);
  CHECK(leaf_instance->graph().file_name() == "Leaf.module.ainb");
  CHECK(leaf_instance->parent() == mid_instance);
  CHECK(leaf_instance->command() == "Run");

  CHECK(h.tick() == Log{"update RootChild", "update Watch"});
  CHECK(h.tick() == Log{"update RootChild", "leave RootChild", "enter Double", "update Watch"});
  CHECK(leaf_instance->frame() == 2);  // a module reports its actor's frame
  // Double reads 5 through two ModuleIF_Inputs; 10 comes back through two ModuleIF_Outputs.
  CHECK(h.tick() == Log{"update Double", "leave Double", "update Watch"});
  CHECK(leaf_instance->state() == CommandState::Succeeded);
  CHECK_FALSE(leaf_instance->is_active(0));  // and left by its module node
  // StateEnd "Done" ends the middle module; the root continues on its "Done" transition.
  CHECK(h.tick() == Log{"update Watch"});
  CHECK(mid_instance->state_end() == "Done");
  CHECK(h.tick() == Log{"leave Watch", "transition Mid.module -> AfterModule", "enter AfterModule",
                        "update AfterModule"});
  CHECK(watcher->seen == std::vector<std::int32_t>{0, 0, 10, 10});

  // The actor and its two module sub-instances are one block: one allocation, of block_size().
  const auto before = ainb::test::allocations();
  {
    Instance another(h.graph);
    CHECK(another.memory_bytes() == sizeof(Instance) + Instance::block_size(*h.graph));
  }
  CHECK(ainb::test::allocations() - before == 1);

  // Given a memory resource (InstanceOptions::memory), the block comes from it and goes back to
  // it, and nothing comes from operator new.
  struct Recording : ainb::runtime::MemoryResource {
    struct Call {
      bool allocate;
      std::size_t bytes, align;
      void* at;
      bool operator==(const Call&) const = default;
    };
    std::vector<Call> calls;  // reserved: recording allocates nothing
    void* do_allocate(std::size_t bytes, std::size_t align) override {
      void* at = ::operator new(bytes, std::align_val_t(align));
      calls.push_back({true, bytes, align, at});
      return at;
    }
    void do_deallocate(void* at, std::size_t bytes, std::size_t align) override {
      calls.push_back({false, bytes, align, at});
      ::operator delete(at, std::align_val_t(align));
    }
    bool do_is_equal(const ainb::runtime::MemoryResource& o) const noexcept override {
      return this == &o;
    }
  } memory;
  memory.calls.reserve(4);
  const auto size = Instance::block_size(*h.graph);
  const auto align = alignof(std::max_align_t);
  const auto before_hosted = ainb::test::allocations();
  {
    Instance hosted(h.graph, InstanceOptions{.memory = &memory});
    CHECK(ainb::test::allocations() == before_hosted);
    REQUIRE(memory.calls.size() == 1);
    CHECK(memory.calls[0] == Recording::Call{true, size, align, memory.calls[0].at});
    CHECK(hosted.memory_bytes() == sizeof(Instance) + size);
    // It runs as the others do: the module sub-instances are carved from that block.
    CHECK(h.step([&] { hosted.start("Main"); }) == Log{"enter RootChild", "enter Watch"});
    REQUIRE(hosted.module_instance(1) != nullptr);
    CHECK(hosted.module_instance(1)->module_instance(1) != nullptr);
    h.log.clear();
  }
  REQUIRE(memory.calls.size() == 2);
  CHECK(memory.calls[1] == Recording::Call{false, size, align, memory.calls[0].at});
  // A resource that cannot give the block fails the construction with its own exception.
  struct Refusing : ainb::runtime::MemoryResource {
    void* do_allocate(std::size_t, std::size_t) override { throw std::bad_alloc(); }
    void do_deallocate(void*, std::size_t, std::size_t) override {}
    bool do_is_equal(const ainb::runtime::MemoryResource& o) const noexcept override {
      return this == &o;
    }
  } refusing;
  CHECK_THROWS_AS(Instance(h.graph, InstanceOptions{.memory = &refusing}), std::bad_alloc);
}

TEST_CASE("a module started in a frame calculates that frame in its start's epoch") {
  // The module's Simultaneous holds Shared and a SplitTiming whose Enter plug runs Shared once:
  // Shared is updated when the module starts. The module starts and is updated in the same frame
  // of the actor (the root's Sequential moves on to it at once), so Shared is not updated again.
  AinbSpec root;
  root.file_name = "Caller.root";
  root.commands = {{"Main", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  root.nodes = {seq, user("Step"), module_node("M.module")};
  root.modules = {{"M.module.ainb"}};
  AinbSpec called;
  called.file_name = "M.module";
  called.commands = {{"Run", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode split{.type = NodeType::SplitTiming};
  split.plugs = {{PlugKind::Child, 1, "Enter"}, {PlugKind::Child, 3, "Update"}};
  called.nodes = {both, user("Shared"), split, user("Other")};

  MemoryResolver modules;
  modules.add("M.module.ainb", load_spec(called));
  Harness h;
  h.options.modules = &modules;
  h.probe("Step", {S});
  h.probe("Shared", {R});
  h.probe("Other", {R});
  h.load(root);
  CHECK(h.step([&] { h.instance->start("Main"); }) == Log{"enter Step"});
  CHECK(h.tick() == Log{"update Step", "leave Step", "enter Shared", "update Shared", "enter Other",
                        "update Other"});
  CHECK(h.tick() == Log{"update Shared", "update Other"});
}

TEST_CASE("module errors: cycles name the chain, missing files and depth follow the policy") {
  auto caller = [](const std::string& name, const std::string& calls) {
    AinbSpec spec;
    spec.file_name = name;
    spec.commands = {{"Run", 0, {}}};
    spec.nodes = {module_node(calls)};
    spec.modules = {{calls + ".ainb"}};
    return spec;
  };
  MemoryResolver modules;
  modules.add("A.module.ainb", load_spec(caller("A.module", "B.module")));
  modules.add("B.module.ainb", load_spec(caller("B.module", "A.module")));
  NodeRegistry registry;
  GraphOptions options{.modules = &modules};
  CHECK_THROWS_WITH(Graph(load_spec(caller("A.module", "B.module")), registry, options),
                    "B.module.ainb: nodes at offset 0x8c: node 0 calls module \"A.module.ainb\", "
                    "which calls itself: A.module.ainb -> B.module.ainb -> A.module.ainb");
  // A copy saved under another name keeps its internal name: the chain follows the paths asked
  // for, so the copy calling itself is a cycle, not a nesting past the depth limit.
  MemoryResolver copies;
  copies.add("Copy.module.ainb", load_spec(caller("Original.module", "Copy.module")));
  CHECK_THROWS_WITH(Graph(load_spec(caller("Root.root", "Copy.module")), registry,
                          GraphOptions{.modules = &copies}),
                    "Original.module.ainb: nodes at offset 0x8c: node 0 calls module "
                    "\"Copy.module.ainb\", which calls itself: Root.root.ainb -> Copy.module.ainb "
                    "-> Copy.module.ainb");

  const auto lonely = load_spec(caller("Root.root", "Gone.module"));
  CHECK_THROWS_WITH(Graph(lonely, registry, options),
                    "Root.root.ainb: nodes at offset 0x8c: node 0 calls module "
                    "\"Gone.module.ainb\", which was not found (searched 2 module(s) held in "
                    "memory)");
  CHECK_THROWS_WITH(Graph(lonely, registry),
                    "Root.root.ainb: nodes at offset 0x8c: node 0 calls module "
                    "\"Gone.module.ainb\", which was not found (no module resolver was given)");
  const DirectoryResolver nowhere({"/nonexistent/romfs"});
  CHECK_THROWS_WITH(Graph(lonely, registry, GraphOptions{.modules = &nowhere}),
                    "Root.root.ainb: nodes at offset 0x8c: node 0 calls module "
                    "\"Gone.module.ainb\", which was not found (searched /nonexistent/romfs)");

  SUBCASE("the stub policy runs a missing module as a stub node") {
    options.missing_modules = MissingModulePolicy::Stub;
    auto graph = std::make_shared<Graph>(lonely, registry, options);
    CHECK(arrays(*graph).nodes()[0].is_stub);
    Instance instance(graph);
    instance.start("Run");
    instance.tick();
    CHECK(instance.state() == CommandState::Succeeded);
  }
  SUBCASE("module calls that multiply past the instance limit") {
    // Each file calls the next three times: 3 + 9 + 27 sub-instances below Root.
    auto fan = [&](const std::string& name, const std::string& calls) {
      auto spec = caller(name, calls);
      spec.nodes = {module_node(calls), module_node(calls), module_node(calls)};
      BuildNode all{.type = NodeType::Simultaneous};
      all.plugs = {{PlugKind::Child, 0, ""}, {PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
      spec.nodes.push_back(all);
      spec.commands = {{"Run", 3, {}}};
      return spec;
    };
    MemoryResolver files;
    files.add("F1.module.ainb", load_spec(fan("F1.module", "F2.module")));
    files.add("F2.module.ainb", load_spec(fan("F2.module", "F3.module")));
    auto leaf = fan("F3.module", "none");
    leaf.nodes = {user("Leaf")};
    leaf.modules.clear();
    leaf.commands = {{"Run", 0, {}}};
    files.add("F3.module.ainb", load_spec(leaf));
    const auto top = load_spec(fan("Root.root", "F1.module"));
    CHECK(Graph(top, registry, GraphOptions{.modules = &files, .max_module_instances = 39})
              .module_graphs()
              .size() == 3);
    CHECK_THROWS_WITH(
        Graph(top, registry, GraphOptions{.modules = &files, .max_module_instances = 38}),
        "Root.root.ainb: modules at offset 0x4a8: an actor of this file would hold 39 module "
        "instances (one per call, in every module called), past the limit of 38");
    // Past it inside a module: the error names the chain down to it.
    try {
      Graph(top, registry, GraphOptions{.modules = &files, .max_module_instances = 11});
      FAIL("expected a LoadError");
    } catch (const LoadError& e) {
      CHECK(std::string(e.what()).starts_with("F1.module.ainb: modules at offset "));
      CHECK(std::string(e.what()).ends_with(
          ": an actor of this file would hold 12 module instances (one per call, in every "
          "module called), past the limit of 11 (the chain: Root.root.ainb -> F1.module.ainb)"));
    }
  }
  SUBCASE("modules nested deeper than the limit") {
    MemoryResolver chain;
    chain.add("M1.module.ainb", load_spec(caller("M1.module", "M2.module")));
    chain.add("M2.module.ainb", load_spec(caller("M2.module", "M3.module")));
    chain.add("M3.module.ainb", load_spec(caller("M3.module", "M4.module")));
    const auto top = load_spec(caller("Root.root", "M1.module"));
    CHECK_THROWS_WITH(Graph(top, registry, GraphOptions{.modules = &chain, .max_module_depth = 2}),
                      "M2.module.ainb: nodes at offset 0x8c: node 0 calls module "
                      "\"M3.module.ainb\", nested deeper than the limit of 2 modules: "
                      "Root.root.ainb -> M1.module.ainb -> M2.module.ainb -> M3.module.ainb");
  }
}

TEST_CASE("module blackboards: inherited entries are the root's, others the module's own") {
  struct Raise : NodeClass {
    Result update(NodeContext& c) override {
      CHECK(c.instance().set_int("Alarm", 3));
      CHECK(c.instance().set_int("Local", 4));
      CHECK(c.instance().set_string("Note", std::string("raised by the module")));
      return Result::Running;
    }
  };
  AinbSpec sub;
  sub.file_name = "Sub.module";
  sub.commands = {{"Run", 0, {}}};
  sub.nodes = {user("Raise")};
  sub.blackboard = {{BlackboardType::S32, "Alarm", std::int32_t{0}, "", 0},     // from root
                    {BlackboardType::S32, "Local", std::int32_t{0}, "", 2},     // its own
                    {BlackboardType::String, "Note", std::string(""), "", 1}};  // from parent
  AinbSpec root;
  root.file_name = "Root.root";
  root.commands = {{"Main", 0, {}}};
  root.nodes = {module_node("Sub.module")};
  root.modules = {{"Sub.module.ainb"}};
  root.blackboard = {{BlackboardType::S32, "Alarm", std::int32_t{1}},
                     {BlackboardType::String, "Note", std::string("")}};
  MemoryResolver modules;
  modules.add("Sub.module.ainb", load_spec(sub));
  NodeRegistry registry;
  registry.add("Raise", std::make_shared<Raise>());
  auto graph =
      std::make_shared<Graph>(load_spec(root), registry, GraphOptions{.modules = &modules});
  Instance instance(graph);
  instance.start("Main");
  instance.tick();
  CHECK(std::get<std::int32_t>(*instance.blackboard("Alarm")) == 3);
  CHECK(std::get<std::string_view>(*instance.blackboard("Note")) == "raised by the module");
  CHECK(instance.blackboard("Local") == nullptr);
  CHECK(std::get<std::int32_t>(*instance.module_instance(0)->blackboard("Local")) == 4);
}

TEST_CASE("a host sets a module's own entries in every call of its file") {
  // Root.root: Simultaneous [Sub.module, Mid.module [Sub.module]]: two calls of Sub, one of them
  // a module deeper. Sub has its own Local (s32) and inherits Alarm from the root.
  AinbSpec sub;
  sub.file_name = "Sub.module";
  sub.commands = {{"Run", 0, {}}};
  sub.nodes = {user("Idle")};
  sub.blackboard = {{BlackboardType::S32, "Alarm", std::int32_t{0}, "", 0},  // from root
                    {BlackboardType::S32, "Local", std::int32_t{0}, "", 2}};
  AinbSpec mid;
  mid.file_name = "Mid.module";
  mid.commands = {{"Run", 0, {}}};
  mid.nodes = {module_node("Sub.module")};
  mid.modules = {{"Sub.module.ainb"}};
  AinbSpec root;
  root.file_name = "Root.root";
  root.commands = {{"Main", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  root.nodes = {both, module_node("Sub.module"), module_node("Mid.module")};
  root.modules = {{"Sub.module.ainb"}, {"Mid.module.ainb"}};
  root.blackboard = {{BlackboardType::S32, "Alarm", std::int32_t{1}}};
  MemoryResolver modules;
  modules.add("Sub.module.ainb", load_spec(sub));
  modules.add("Mid.module.ainb", load_spec(mid));
  auto graph =
      std::make_shared<Graph>(load_spec(root), NodeRegistry{}, GraphOptions{.modules = &modules});
  Instance instance(graph);
  const auto local = [&](const Instance& i) {
    return std::get<std::int32_t>(*i.blackboard("Local"));
  };
  const auto& direct = *instance.module_instance(1);
  const auto& nested = *instance.module_instance(2)->module_instance(0);
  CHECK(
      instance.set_module_value("Sub.module.ainb", "Local", BlackboardType::S32, std::int32_t{7}));
  CHECK(local(direct) == 7);
  CHECK(local(nested) == 7);
  // An inherited entry is written where it lives: the root's.
  CHECK(
      instance.set_module_value("Sub.module.ainb", "Alarm", BlackboardType::S32, std::int32_t{5}));
  CHECK(std::get<std::int32_t>(*instance.blackboard("Alarm")) == 5);
  // No such file, entry or type, or a value of another type: nothing is written.
  CHECK_FALSE(instance.set_module_value("Other.module.ainb", "Local", BlackboardType::S32,
                                        std::int32_t{1}));
  CHECK_FALSE(instance.set_module_value("Sub.module.ainb", "Nothing", BlackboardType::S32,
                                        std::int32_t{1}));
  CHECK_FALSE(instance.set_module_value("Sub.module.ainb", "Local", BlackboardType::F32, 1.0f));
  CHECK_FALSE(instance.set_module_value("Sub.module.ainb", "Local", BlackboardType::S32, 1.0f));
  CHECK(local(direct) == 7);
  // The value stays through the module's calls (it has no argument for it).
  instance.start("Main");
  instance.tick();
  instance.start("Main");
  CHECK(local(direct) == 7);
  CHECK(local(nested) == 7);
}

TEST_CASE("a real module file: the corpus's speed smoothing, called with its Ratio argument") {
  // _LocalModule_d0e7ebe89ded (TotK, called twice by Toby.action.basicattack) computes
  // ResultSpeed = Speed + (TargetSpeed - Speed) * Ratio * TotalStepRate from query nodes, with
  // TargetSpeed through a ModuleIF_Input_F32 and Ratio a blackboard entry that the caller's
  // property of the same name sets.
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  struct Constant : NodeClass {
    const char* output;
    float value;
    Constant(const char* o, float v) : output(o), value(v) {}
    Result update(NodeContext& c) override {
      c.write_float(output, value);
      return Result::Success;
    }
  };
  struct Math : NodeClass {
    char op;
    explicit Math(char o) : op(o) {}
    Result update(NodeContext& c) override {
      const auto a = c.input_float("InputA"), b = c.input_float("InputB");
      c.write_float("Result", op == '+' ? a + b : op == '-' ? a - b : a * b);
      return Result::Success;
    }
  };
  struct Reader : NodeClass {
    std::vector<float> speeds;
    Result update(NodeContext& c) override {
      speeds.push_back(c.input_float("Speed"));
      return Result::Running;
    }
  };
  NodeRegistry registry;
  registry.unknown_classes = UnknownClassPolicy::Strict;  // every node of the module is real
  registry.add("QueryPhysicsCctGetForwardSpeedMps", std::make_shared<Constant>("SpeedMps", 2.0f));
  registry.add("QueryGenericGetTotalStepRate", std::make_shared<Constant>("TotalStepRate", 1.5f));
  registry.add("QueryMathAddF32", std::make_shared<Math>('+'));
  registry.add("QueryMathSubF32", std::make_shared<Math>('-'));
  registry.add("QueryMathMulF32", std::make_shared<Math>('*'));
  auto reader = std::make_shared<Reader>();
  registry.add("Reader", reader);

  AinbSpec caller;
  caller.file_name = "Caller.root";
  caller.commands = {{"Root", 0, {}}};
  caller.blackboard = {{BlackboardType::F32, "AttackSpeed", 12.0f}};
  BuildNode read = user("Reader");
  read.queries = {0};
  read.inputs = {{ParamType::Float, "Speed", 1, 0, 0, 0.0f}};
  BuildNode call = module_node("_LocalModule_d0e7ebe89ded.module");
  call.flags |= node_flags::kIsQuery;
  call.properties = {{ParamType::Float, "Ratio", 0.2f}};
  call.inputs = {{ParamType::Float, "TargetSpeed", -1, 0, kFromBlackboard, 0.0f}};
  call.outputs = {{ParamType::Float, "ResultSpeed", true}};
  caller.nodes = {read, call};
  caller.modules = {{"_LocalModule_d0e7ebe89ded.module.ainb"}};

  const DirectoryResolver modules({dir / "ainb"});
  auto graph =
      std::make_shared<Graph>(load_spec(caller), registry, GraphOptions{.modules = &modules});
  Instance instance(graph);
  instance.start("Root");
  instance.tick();
  instance.set_float("AttackSpeed", 4.0f);
  instance.tick();
  // 2 + (12 - 2) * 0.2 * 1.5 = 5, then 2 + (4 - 2) * 0.2 * 1.5 = 2.6
  REQUIRE(reader->speeds.size() == 2);
  CHECK(reader->speeds[0] == doctest::Approx(5.0f));
  CHECK(reader->speeds[1] == doctest::Approx(2.6f));
}
