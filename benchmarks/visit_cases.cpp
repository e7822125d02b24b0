// The scheduler benchmarks' cases (visit_cases.hpp).

#include "visit_cases.hpp"

#include "ainb_builder.hpp"

namespace ainb::bench {

using namespace ainb::runtime;

namespace {

struct Succeed : NodeClass {
  Succeed() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext&) override { return Result::Success; }
};
struct Run : NodeClass {
  Run() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext&) override { return Result::Running; }
};

// A class that reads two inputs and a property and writes an output on each update, as a
// game's action does: by name, or through handles declared once (NodeContext::read and write).
struct ReadByName : NodeClass {
  ReadByName() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext& c) override {
    const Vec3f dir = c.input_vec3f("Dir");
    c.write_float("Out", c.input_float("Speed") * dir.x + c.property_float("Range"));
    return Result::Running;
  }
};
struct ReadByHandle : NodeClass {
  const InputParam<float> speed = declare_input<float>("Speed");
  const InputParam<Vec3f> dir = declare_input<Vec3f>("Dir");
  const PropertyParam<float> range = declare_property<float>("Range");
  const OutputParam<float> out = declare_output<float>("Out");
  ReadByHandle() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext& c) override {
    c.write(out, c.read(speed) * c.read(dir).x + c.read(range));
    return Result::Running;
  }
};

std::shared_ptr<const Graph> built_graph(const test::AinbSpec& spec) {
  NodeRegistry registry;
  registry.add("Succeed", std::make_shared<Succeed>());
  registry.add("Run", std::make_shared<Run>());
  registry.add("ReadByName", std::make_shared<ReadByName>());
  registry.add("ReadByHandle", std::make_shared<ReadByHandle>());
  return std::make_shared<Graph>(load(test::build(spec), spec.file_name + ".ainb"), registry);
}

test::BuildPlug transition(std::uint32_t target, std::uint32_t index) {
  return test::BuildPlug{PlugKind::Transition, target, "", index};
}

}  // namespace

// A composite of 100 user nodes of class `leaf`. With `general_frame` the file also holds a
// transition that is never taken (from a node nothing reaches), so the same tree runs through
// the active node array's loop instead of the single-root frame
// (docs/benchmarks-runtime-history.md, "The general frame").
std::shared_ptr<const Graph> hundred(NodeType type, const char* leaf, bool general_frame) {
  test::AinbSpec spec;
  spec.file_name = "hundred";
  spec.commands = {{"Root", 0, {}}};
  test::BuildNode parent{.type = type};
  parent.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  spec.nodes.push_back(parent);
  for (std::uint32_t i = 1; i <= 100; ++i) {
    spec.nodes[0].plugs.push_back({PlugKind::Child, i, ""});
    spec.nodes.push_back(test::BuildNode{.name = leaf});
  }
  if (general_frame) {
    test::BuildNode spare{.name = "Run"};
    spare.plugs = {transition(102, 0)};
    spec.nodes.push_back(spare);
    spec.nodes.push_back(test::BuildNode{.name = "Run"});
    spec.transitions = {{1, ""}};
  }
  return built_graph(spec);
}

// A Simultaneous of 100 running user nodes of class `reader`, each with a Speed input from the
// blackboard, a stored Dir, a Range property and an Out output, read and written every frame.
std::shared_ptr<const Graph> parameters100(const char* reader) {
  test::AinbSpec spec;
  spec.file_name = "parameters100";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::F32, "Pace", 1.5f}};
  spec.nodes.push_back(test::BuildNode{.type = NodeType::Simultaneous});
  for (std::uint32_t i = 1; i <= 100; ++i) {
    spec.nodes[0].plugs.push_back({PlugKind::Child, i, ""});
    test::BuildNode node{.name = reader};
    // Other parameters first, as real nodes have them: a search by name passes them.
    node.properties = {{ParamType::Float, "Radius", 1.0f}, {ParamType::Float, "Range", 2.0f}};
    node.inputs = {{ParamType::Float, "Height", -1, 0, 0, 0.0f},
                   {ParamType::Float, "Speed", -1, 0, 0x80000000u, 0.0f},
                   {ParamType::Vec3f, "Dir", -1, 0, 0, Vec3f{1, 0, 0}}};
    node.outputs = {{ParamType::Float, "Distance"}, {ParamType::Float, "Out"}};
    spec.nodes.push_back(node);
  }
  return built_graph(spec);
}

// A state machine: 100 user nodes that succeed at once, each leading to the next by a
// transition (the last to the first), taken before the next calculation: one state a frame.
std::shared_ptr<const Graph> ring100() {
  test::AinbSpec spec;
  spec.file_name = "ring100";
  spec.commands = {{"Root", 0, {}}};
  for (std::uint32_t i = 0; i < 100; ++i) {
    test::BuildNode state{.name = "Succeed"};
    state.plugs = {transition((i + 1) % 100, i)};
    spec.nodes.push_back(state);
    spec.transitions.push_back({1, ""});
  }
  return built_graph(spec);
}

// Fork and Join: an Element_Fork starts four paths, each a Sequential of 25 user nodes that
// succeed at once; each path then moves to an Element_Join (InFlowNum 4), which leads back to the
// Fork after the calculation (post calc). A round is two frames: the Fork's, then the paths'.
std::shared_ptr<const Graph> fork_join4x25() {
  constexpr std::uint32_t kPaths = 4, kSteps = 25;
  constexpr std::uint32_t kJoin = 1 + kPaths * (kSteps + 1);
  test::AinbSpec spec;
  spec.file_name = "fork_join4x25";
  spec.commands = {{"Root", 0, {}}};
  spec.nodes.push_back(test::BuildNode{.type = NodeType::Fork});
  for (std::uint32_t p = 0; p < kPaths; ++p) {
    const auto path = static_cast<std::uint32_t>(spec.nodes.size());
    spec.nodes[0].plugs.push_back(transition(path, p));
    test::BuildNode seq{.type = NodeType::Sequential};
    seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
    for (std::uint32_t k = 1; k <= kSteps; ++k)
      seq.plugs.push_back({PlugKind::Child, path + k, ""});
    seq.plugs.push_back(transition(kJoin, kPaths + p));
    spec.nodes.push_back(seq);
    for (std::uint32_t k = 1; k <= kSteps; ++k)
      spec.nodes.push_back(test::BuildNode{.name = "Succeed"});
  }
  test::BuildNode join{.type = NodeType::Join};
  join.properties = {{ParamType::Int, "InFlowNum", std::int32_t{kPaths}}};
  join.plugs = {transition(0, 2 * kPaths)};
  spec.nodes.push_back(join);
  spec.transitions.assign(2 * kPaths, {1, ""});
  spec.transitions.push_back({test::kPostCalc, ""});
  return built_graph(spec);
}

// The cases built here rather than read from the corpus, by name: each is a benchmark, and
// --profile takes its name.
const std::vector<std::pair<std::string, GraphFactory>>& built_cases() {
  static const std::vector<std::pair<std::string, GraphFactory>> cases = {
      {"sequence100", [] { return hundred(NodeType::Sequential, "Succeed"); }},
      {"simultaneous100", [] { return hundred(NodeType::Simultaneous, "Run"); }},
      {"general_frame/sequence100", [] { return hundred(NodeType::Sequential, "Succeed", true); }},
      {"general_frame/simultaneous100",
       [] { return hundred(NodeType::Simultaneous, "Run", true); }},
      {"general_frame/ring100", ring100},
      {"parameters/by_name", [] { return parameters100("ReadByName"); }},
      {"parameters/by_handle", [] { return parameters100("ReadByHandle"); }},
      {"general_frame/fork_join4x25", fork_join4x25},
  };
  return cases;
}

// Runs `frames` frames of `instance`, restarting commands as they end (round robin, by index as
// a game loop would: Instance::start(std::size_t)).
void drive(Instance& instance, std::uint64_t frames, std::size_t& next_command) {
  const auto commands = instance.graph().model().commands.size();
  for (std::uint64_t f = 0; f < frames; ++f) {
    if (commands != 0 && instance.state() != CommandState::Running) {
      // A compare, not `% commands`: the division would be timed with each restart
      // (docs/benchmarks.md, "The harness's round robin").
      instance.start(next_command);
      if (++next_command == commands) next_command = 0;
    }
    instance.tick();
  }
}

// The corpus trees as the benchmark runs them: user nodes are stubs, module files found beside
// the roots run for real, the others are stubs.
std::shared_ptr<const Graph> corpus_graph(const std::filesystem::path& path,
                                          std::uint32_t stub_running_updates) {
  NodeRegistry stubs;
  stubs.stub_running_updates = stub_running_updates;
  const DirectoryResolver modules({path.parent_path()});
  const GraphOptions options{.modules = &modules, .missing_modules = MissingModulePolicy::Stub};
  return std::make_shared<const Graph>(load_file(path), stubs, options);
}

}  // namespace ainb::bench
