// Parameters and the blackboard: inputs read other nodes' outputs (which a tool reads too), the
// blackboard (a vec3f component too) and defaults; multi-source inputs; the parameters a class
// declares, found in each node when the graph is built; blackboard writes and XLink actions
// reported to the observer, and attachments read by the node.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

TEST_CASE("inputs read other nodes' outputs, the blackboard and defaults") {
  Harness h;
  struct Reader : NodeClass {
    std::vector<std::int32_t> seen;
    std::vector<float> speeds;
    Result update(NodeContext& c) override {
      seen.push_back(c.input_int("Count"));
      speeds.push_back(c.input_float("Speed"));
      return Result::Running;
    }
  };
  auto reader = std::make_shared<Reader>();
  h.registry.add("Reader", reader);
  h.probe("Counter", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Vec3f, "Velocity", Vec3f{1, 2, 3}}};
  BuildNode seq{.type = NodeType::Simultaneous};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode counter = user("Counter");
  counter.outputs = {{ParamType::Int, "Count"}};
  BuildNode read = user("Reader");
  read.inputs = {{ParamType::Int, "Count", 1, 0, 0, std::int32_t{-1}},
                 {ParamType::Float, "Speed", -1, 0, 0x88000000u, 0.0f}};  // Velocity.y
  spec.nodes = {seq, counter, read};
  h.load(spec);
  h.instance->start("Root");
  h.tick();
  h.tick();
  CHECK(reader->seen == std::vector<std::int32_t>{1, 2});
  CHECK(reader->speeds == std::vector<float>{2.0f, 2.0f});
  // A tool reads what a node last wrote (Instance::output_value), and no output it lacks.
  CHECK(std::get<std::int32_t>(h.instance->output_value(1, ParamType::Int, 0)) == 2);
  CHECK_THROWS_WITH_AS(h.instance->output_value(1, ParamType::Float, 0),
                       "output_value: node 1 has 0 outputs of that type, not 1", std::out_of_range);
  CHECK_THROWS_WITH_AS(h.instance->output_value(3, ParamType::Int, 0),
                       "output_value: node 3 is past the file's 3 nodes", std::out_of_range);
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
  std::vector<std::string> by_handle, by_name, by_value, misuse;

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
    // By a type known at run time: the same write, and one whose value is not of that type.
    by_value.push_back(
        fmt::format("{} {}", c.write_value(ParamType::Int, "Out", c.property_int("Count") * 10),
                    c.write_value(ParamType::Int, "Out", 1.0f)));
    // Handles that do not fit the declaration read zero and write nothing: position 3 is the
    // property Count (not a float input), 99 is no position, and Out is an int.
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
  CHECK(arrays(*graph).declared_parameters(1).size() == 7);
  CHECK(arrays(*graph).declared_parameters(2)[2].index !=
        arrays(*graph).kNoParameter);  // b's Height
  CHECK(arrays(*graph).declared_parameters(1)[2].index ==
        arrays(*graph).kNoParameter);  // a has none
  // What each Mover lacks: a its Height and Missing; b its Count (a float there), Missing, Out.
  std::vector<std::string> unresolved;
  for (const auto& [node, position] : graph->unresolved_parameters())
    unresolved.push_back(fmt::format("{}:{}", node, mover->declared()[position].name));
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
  CHECK(mover->by_value ==
        std::vector<std::string>{"true false", "false false", "true false", "false false"});
  CHECK(mover->misuse == std::vector<std::string>(4, "0 0 false"));
  CHECK(reader->seen == std::vector<std::string>{"30/30", "30/30"});
}

TEST_CASE(
    "XLink actions and blackboard writes reach the observer, and attachments reach the node") {
  struct Events : Observer {
    std::vector<std::string> log;
    void on_xlink(const Instance&, std::uint32_t node, std::string_view slot,
                  std::string_view action) override {
      log.push_back(fmt::format("xlink {} {} {}", node, slot, action));
    }
    void on_blackboard(const Instance&, std::size_t entry) override {
      log.push_back(fmt::format("blackboard {}", entry));
    }
  } events;
  struct Attached : NodeClass {
    float range = 0;
    std::size_t count = 0;
    Result update(NodeContext& c) override {
      count = c.attachments().size();
      range = c.attachment_float(0, "Range");
      return Result::Success;
    }
  };
  auto attached = std::make_shared<Attached>();
  NodeRegistry registry;
  registry.add("Guard", attached);
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode guard = user("Guard");
  guard.attachments = {0};
  spec.nodes = {guard};
  spec.attachments = {{"Sight", {{ParamType::Float, "Range", 12.5f}}}};
  spec.xlink_actions = {{0, "Main", "Alert"}};
  spec.blackboard = {{BlackboardType::Bool, "Seen", false}};
  auto graph = std::make_shared<Graph>(ainb::load(build(spec), "guard.ainb"), registry);
  Instance instance(graph, InstanceOptions{0, nullptr, &events});
  instance.start("Root");
  CHECK(instance.set_bool("Seen", true));
  instance.tick();
  CHECK(events.log == std::vector<std::string>{"xlink 0 Main Alert", "blackboard 0"});
  CHECK(attached->count == 1);
  CHECK(attached->range == 12.5f);
}

TEST_CASE("a write by name reaches every entry of that name") {
  // Two s32 entries named Slot (real files list a name twice, each with its own parameter
  // file); the selector reads the second. A host's set_int("Slot") must steer it.
  Harness h;
  for (const auto* name : {"Five", "Other"})
    h.probe(name, {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::S32, "Slot", std::int32_t{0}},
                     {BlackboardType::S32, "Slot", std::int32_t{0}}};
  BuildNode s32{.type = NodeType::S32Selector};
  s32.inputs = {{ParamType::Int, "Input", -1, 0, 0x80000001u, std::int32_t{0}}};  // bb Slot #1
  s32.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(5)},
               {PlugKind::Child, 2, "", 0, s32_condition(0)}};
  spec.nodes = {s32, user("Five"), user("Other")};
  h.load(spec);
  CHECK(h.instance->set_int("Slot", 5));
  h.instance->start("Root");
  CHECK(h.log.at(0) == "enter Five");
}
