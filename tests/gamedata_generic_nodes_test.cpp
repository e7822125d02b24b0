// The generic node classes (docs/generic-nodes.md): math queries, blackboard writes, result
// setters, ExecuteOnce and OutputOnlyOnEnter, and --generic-nodes for `ainb run` and `regress`.

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "gamedata_dirs.hpp"
#include "scratch.hpp"

using namespace ainb;
namespace fs = std::filesystem;

using ainb::test::ainb_cli;
using ainb::test::temp_dir;
using ainb::test::write_file;

namespace {

// A Logic file whose roots are ExecuteBlackboardSet* nodes, each fed by one generic query with
// constant inputs: a frame runs every query and writes its result to the blackboard.
struct GenericCase {
  std::string query;                            // the query's class
  std::vector<test::BuildInput> inputs;         // constants
  std::vector<test::BuildProperty> properties;  // besides OutputOnlyOnEnter
  test::BuildOutput output;                     // the output the setter reads
  BlackboardType entry_type;
  std::string entry;
};

test::AinbSpec generic_file(const std::vector<GenericCase>& cases) {
  using namespace ainb::test;
  AinbSpec spec;
  spec.file_name = "Generic.logic";
  spec.category = "Logic";
  std::vector<BuildNode> setters, queries;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& c = cases[k];
    BuildNode query{.name = c.query, .flags = node_flags::kIsQuery};
    query.inputs = c.inputs;
    query.properties = c.properties;
    query.properties.push_back({ParamType::Bool, "OutputOnlyOnEnter", false});
    // Outputs of the query's other names come first in the real files; one is enough here.
    query.outputs = {c.output};
    queries.push_back(query);
    static const std::map<BlackboardType, std::pair<std::string, ParamType>> kSetter = {
        {BlackboardType::Bool, {"ExecuteBlackboardSetBool", ParamType::Bool}},
        {BlackboardType::S32, {"ExecuteBlackboardSetS32", ParamType::Int}},
        {BlackboardType::F32, {"ExecuteBlackboardSetF32", ParamType::Float}},
        {BlackboardType::Vec3f, {"ExecuteBlackboardSetVec3fToBlackBoard", ParamType::Vec3f}}};
    const auto& [setter_class, type] = kSetter.at(c.entry_type);
    const std::map<ParamType, std::string> kInput = {{ParamType::Bool, "Bool"},
                                                     {ParamType::Int, "S32"},
                                                     {ParamType::Float, "F32"},
                                                     {ParamType::Vec3f, "Vector"}};
    BuildValue zero = 0.0f;
    if (c.entry_type == BlackboardType::Bool) zero = false;
    if (c.entry_type == BlackboardType::S32) zero = std::int32_t{0};
    if (c.entry_type == BlackboardType::Vec3f) zero = Vec3f{};
    BuildNode setter{.name = setter_class};
    const auto query_node = static_cast<std::int16_t>(cases.size() + k);
    setter.inputs = {{type, kInput.at(type), query_node, 0, 0, zero}};
    setter.properties = {{ParamType::String, "BlackboardKey", c.entry},
                         {ParamType::Bool, "ExecuteOnce", false}};
    setter.queries = {static_cast<std::uint16_t>(k)};
    setters.push_back(setter);
    spec.blackboard.push_back({c.entry_type, c.entry, zero});
  }
  spec.nodes = setters;
  spec.nodes.insert(spec.nodes.end(), queries.begin(), queries.end());
  return spec;
}

}  // namespace

TEST_CASE("generic node classes: math queries, blackboard writes and result setters") {
  using test::BuildInput;
  using test::BuildOutput;
  const auto F = ParamType::Float;
  const auto V = ParamType::Vec3f;
  const auto I = ParamType::Int;
  const std::vector<GenericCase> cases = {
      {"QueryMathAddF32",
       {{F, "InputA", -1, 0, 0, 1.5f}, {F, "InputB", -1, 0, 0, 2.25f}},
       {},
       {F, "Result"},
       BlackboardType::F32,
       "Add"},
      {"QueryMathSubF32",
       {{F, "InputA", -1, 0, 0, 1.5f}, {F, "InputB", -1, 0, 0, 2.25f}},
       {},
       {F, "Result"},
       BlackboardType::F32,
       "Sub"},
      {"QueryMathMulF32",
       {{F, "InputA", -1, 0, 0, 1.5f}, {F, "InputB", -1, 0, 0, -4.0f}},
       {},
       {F, "Result"},
       BlackboardType::F32,
       "Mul"},
      {"QueryMathDivF32",
       {{F, "InputA", -1, 0, 0, 3.0f}, {F, "InputB", -1, 0, 0, 4.0f}},
       {},
       {F, "Result"},
       BlackboardType::F32,
       "Div"},
      {"QueryMathAddS32",
       {{I, "InputA", -1, 0, 0, std::int32_t{2147483647}},
        {I, "InputB", -1, 0, 0, std::int32_t{2}}},
       {},
       {I, "Result"},
       BlackboardType::S32,
       "Wrapped"},
      {"QueryMathLessF32",
       {{F, "F32", -1, 0, 0, 1.0f}, {F, "F32Base", -1, 0, 0, 1.0f}},
       {},
       {ParamType::Bool, "Bool"},
       BlackboardType::Bool,
       "Less"},
      {"QueryMathLessOrEqualF32",
       {{F, "F32", -1, 0, 0, 1.0f}, {F, "F32Base", -1, 0, 0, 1.0f}},
       {},
       {ParamType::Bool, "Bool"},
       BlackboardType::Bool,
       "LessOrEqual"},
      {"QueryMathClampUnderMax",
       {{F, "F32", -1, 0, 0, 7.0f}, {F, "Max", -1, 0, 0, 5.0f}},
       {},
       {F, "F32"},
       BlackboardType::F32,
       "Clamped"},
      {"QueryGenericCastS32ToF32",
       {{I, "Input", -1, 0, 0, std::int32_t{-3}}},
       {},
       {F, "Output"},
       BlackboardType::F32,
       "Cast"},
      {"QueryMathAddVector3f",
       {{V, "InputA", -1, 0, 0, Vec3f{1, 2, 3}}, {V, "InputB", -1, 0, 0, Vec3f{10, 20, 30}}},
       {},
       {V, "Result"},
       BlackboardType::Vec3f,
       "VecAdd"},
      {"QueryMathSubVector3f",
       {{V, "InputA", -1, 0, 0, Vec3f{1, 2, 3}}, {V, "InputB", -1, 0, 0, Vec3f{10, 20, 30}}},
       {},
       {V, "Result"},
       BlackboardType::Vec3f,
       "VecSub"},
      {"QueryMathCrossVector",
       {{V, "FromVector", -1, 0, 0, Vec3f{1, 0, 0}}, {V, "ToVector", -1, 0, 0, Vec3f{0, 1, 0}}},
       {},
       {V, "Vector"},
       BlackboardType::Vec3f,
       "Cross"},
      {"QueryMathMulF32AndVector3f",
       {{F, "F32", -1, 0, 0, 0.5f}, {V, "Vector", -1, 0, 0, Vec3f{2, 4, -6}}},
       {},
       {V, "Vector"},
       BlackboardType::Vec3f,
       "Scaled"},
      {"QueryMathMakeVector3fFromXYZ",
       {{F, "X", -1, 0, 0, 1.0f}, {F, "Y", -1, 0, 0, 2.0f}, {F, "Z", -1, 0, 0, 3.0f}},
       {},
       {V, "Vector3f"},
       BlackboardType::Vec3f,
       "Made"},
      {"QueryMathVector3fGetElements",
       {{V, "Vector", -1, 0, 0, Vec3f{4, 5, 6}}},
       {},
       {F, "f32_Y"},
       BlackboardType::F32,
       "ElementY"},
      {"QueryMathNormalizeVector",
       {{V, "Vector3f", -1, 0, 0, Vec3f{0, 3, 4}}},
       {},
       {V, "Vector3f"},
       BlackboardType::Vec3f,
       "Unit"},
      {"QueryMathNormalizeVector",
       {{V, "Vector3f", -1, 0, 0, Vec3f{0, 3, 4}}},
       {},
       {F, "Magnitude"},
       BlackboardType::F32,
       "Magnitude"},
      {"QueryMathCalcVectorDistance",
       {{V, "FromVector", -1, 0, 0, Vec3f{1, 1, 1}}, {V, "ToVector", -1, 0, 0, Vec3f{4, 9, 5}}},
       {{ParamType::Bool, "IsCalcSquareDistance", false},
        {ParamType::Bool, "IsCalcXZDistance", true}},
       {F, "F32"},
       BlackboardType::F32,
       "DistanceXZ"},
      {"QueryMathCalcVectorDistance",
       {{V, "FromVector", -1, 0, 0, Vec3f{1, 1, 1}}, {V, "ToVector", -1, 0, 0, Vec3f{4, 9, 5}}},
       {{ParamType::Bool, "IsCalcSquareDistance", true},
        {ParamType::Bool, "IsCalcXZDistance", false}},
       {F, "F32"},
       BlackboardType::F32,
       "DistanceSquared"},
  };
  runtime::NodeRegistry registry;
  registry.unknown_classes = runtime::UnknownClassPolicy::Strict;  // no stub hides a class
  gamedata::add_generic_nodes(registry);
  const auto model = load(test::build(generic_file(cases)), "generic.ainb");
  const auto graph = std::make_shared<const runtime::Graph>(model, registry);
  runtime::Instance actor(graph);
  actor.tick();
  std::map<std::string, Value> written;
  for (const auto& c : cases)
    written[c.entry] = *actor.blackboard(c.entry);
  CHECK(written == std::map<std::string, Value>{
                       {"Add", 3.75f},
                       {"Sub", -0.75f},
                       {"Mul", -6.0f},
                       {"Div", 0.75f},
                       {"Wrapped", std::int32_t{-2147483647}},
                       {"Less", false},
                       {"LessOrEqual", true},
                       {"Clamped", 5.0f},
                       {"Cast", -3.0f},
                       {"VecAdd", Vec3f{11, 22, 33}},
                       {"VecSub", Vec3f{-9, -18, -27}},
                       {"Cross", Vec3f{0, 0, 1}},
                       {"Scaled", Vec3f{1, 2, -3}},
                       {"Made", Vec3f{1, 2, 3}},
                       {"ElementY", 5.0f},
                       {"Unit", Vec3f{0, 0.6f, 0.8f}},
                       {"Magnitude", 5.0f},
                       {"DistanceXZ", 5.0f},
                       {"DistanceSquared", 89.0f},
                   });

  SUBCASE("every corpus node of a generic class has every parameter its class declares") {
    const auto corpus = test::corpus_dir();
    if (corpus.empty()) return;
    std::size_t checked = 0;
    for (const auto& path : test::corpus_ainb_files()) {
      runtime::NodeRegistry stubs_and_generic;
      gamedata::add_generic_nodes(stubs_and_generic);
      const auto file = runtime::Graph(
          load_file(path), stubs_and_generic,
          runtime::GraphOptions{.missing_modules = runtime::MissingModulePolicy::Stub});
      for (const auto& missing : file.unresolved_parameters())
        FAIL_CHECK(path.filename().string() << ": " << file.describe(missing));
      for (const auto& n : file.model().nodes)
        checked += stubs_and_generic.find(n.name) != nullptr ? 1 : 0;
    }
    CHECK(checked == 177);
  }
  SUBCASE("a class the host registered is kept") {
    struct Mine : runtime::NodeClass {
      runtime::Result update(runtime::NodeContext&) override { return runtime::Result::Failure; }
    };
    runtime::NodeRegistry own;
    const auto mine = std::make_shared<Mine>();
    own.add("QueryMathAddF32", mine);
    gamedata::add_generic_nodes(own);
    CHECK(own.find("QueryMathAddF32") == mine);
    CHECK(own.find("QueryMathSubF32") != nullptr);
  }
  SUBCASE("the names") {
    const auto names = gamedata::generic_node_names();
    CHECK(names.size() == 61);
    CHECK(std::ranges::is_sorted(names));
    CHECK(names.front() == "ExecuteBlackboardSetBool");
  }
}

namespace {

// A Logic file whose root, updated every frame and never left, sets Count (10 at the start) to
// Count + 1 through ExecuteBlackboardSetS32 and its QueryMathAddS32.
test::AinbSpec counter_spec(bool execute_once = false, bool only_on_enter = false) {
  using namespace ainb::test;
  const auto I = ParamType::Int;
  constexpr std::uint32_t kBlackboard0 = 0x80000000u;  // the input reads blackboard entry 0
  AinbSpec spec;
  spec.file_name = "Counter.logic";
  spec.category = "Logic";
  spec.blackboard = {{BlackboardType::S32, "Count", std::int32_t{10}}};
  BuildNode set{.name = "ExecuteBlackboardSetS32"};
  set.inputs = {{I, "S32", 1, 0, 0, std::int32_t{0}}};
  set.properties = {{ParamType::String, "BlackboardKey", std::string("Count")},
                    {ParamType::Bool, "ExecuteOnce", execute_once}};
  set.queries = {0};
  BuildNode add{.name = "QueryMathAddS32", .flags = node_flags::kIsQuery};
  add.inputs = {{I, "InputA", -1, 0, kBlackboard0, std::int32_t{0}},
                {I, "InputB", -1, 0, 0, std::int32_t{1}}};
  add.properties = {{ParamType::Bool, "OutputOnlyOnEnter", only_on_enter}};
  add.outputs = {{I, "Result"}};
  spec.nodes = {set, add};
  return spec;
}

}  // namespace

TEST_CASE("generic node classes: ExecuteOnce, OutputOnlyOnEnter and the result setters") {
  using namespace ainb::test;
  runtime::NodeRegistry registry;
  registry.unknown_classes = runtime::UnknownClassPolicy::Strict;
  gamedata::add_generic_nodes(registry);

  // Count = Count + 1, with the write once per Enter or every frame, and the sum from the
  // blackboard at each calculation or at the Enter only.
  const auto counter = [&](bool execute_once, bool only_on_enter) {
    runtime::Instance actor(std::make_shared<const runtime::Graph>(
        load(build(counter_spec(execute_once, only_on_enter)), "counter.ainb"), registry));
    for (int frame = 0; frame < 3; ++frame)
      actor.tick();
    return std::get<std::int32_t>(*actor.blackboard("Count"));
  };
  CHECK(counter(false, false) == 13);  // 11, 12, 13
  CHECK(counter(true, false) == 11);   // written at the first update only
  CHECK(counter(false, true) == 11);   // the sum of the Enter's moment, 10 + 1, every frame

  // A Sequential of two result setters: the command's result is the second one's.
  const auto sequence = [&](std::string first, std::string second) {
    AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    BuildNode seq{.type = NodeType::Sequential};
    seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
    spec.nodes = {seq, BuildNode{.name = std::move(first)}, BuildNode{.name = std::move(second)}};
    runtime::Instance actor(
        std::make_shared<const runtime::Graph>(load(build(spec), "results.ainb"), registry));
    actor.start("Root");
    for (int frame = 0; frame < 3; ++frame)
      actor.tick();
    return actor.state();
  };
  using runtime::CommandState;
  CHECK(sequence("ExecuteGenericSetResultSuccess", "ExecuteGenericSetResultBusy") ==
        CommandState::Running);
  CHECK(sequence("ExecuteGenericSetResultNone", "ExecuteGenericSetResultFailure") ==
        CommandState::Failed);
  CHECK(sequence("ExecuteGenericSetResultFailure", "ExecuteGenericSetResultBusy") ==
        CommandState::Failed);
  CHECK(sequence("ExecuteGenericSetResultNone", "ExecuteGenericSetResultSuccess") ==
        CommandState::Succeeded);
}

TEST_CASE("ainb run and regress --generic-nodes: the classes run instead of stubs") {
  using namespace ainb::test;
  auto spec = counter_spec();
  const auto dir = temp_dir("generic");
  const auto file = (dir / "counter.ainb").string();
  write_file(file, build(spec));
  const auto count = [](const std::string& out) { return out.substr(out.find("\n  Count ") + 1); };
  CHECK(count(ainb_cli({"run", file, "--frames", "3"}).out) ==
        "  Count                                    10\n");  // stubs
  CHECK(count(ainb_cli({"run", file, "--frames", "3", "--generic-nodes"}).out) ==
        "  Count                                    13\n");
  // A class the scenario scripts stays scripted.
  const auto scripted = dir / "scripted.scenario.json";
  write_file(scripted, std::string(R"({"nodes": {"ExecuteBlackboardSetS32": {}}})"));
  CHECK(count(ainb_cli({"run", file, "--frames", "3", "--generic-nodes", "--scenario",
                        scripted.string()})
                  .out) == "  Count                                    10\n");

  // An edit of the constant the query adds: equal to stubs, a difference with the classes.
  spec.nodes[1].inputs[1].value = std::int32_t{2};
  const auto edited = (dir / "edited.ainb").string();
  write_file(edited, build(spec));
  CHECK(ainb_cli({"regress", file, edited, "--frames", "3"}).code == 0);
  const auto found = ainb_cli({"regress", file, edited, "--frames", "3", "--generic-nodes"});
  CHECK(found.code == 1);
  CHECK(found.out.find("  a different blackboard write: Count=11 in the original, Count=12 in the "
                       "edited file\n") != std::string::npos);

  // Golden recordings keep the flag.
  fs::create_directories(dir / "mod");
  write_file(dir / "mod" / "counter.ainb", build(spec));
  const auto golden = (dir / "golden").string();
  CHECK(ainb_cli({"regress", "--record", golden, (dir / "mod").string(), "--frames", "3",
                  "--generic-nodes"})
            .code == 0);
  CHECK(ainb_cli({"regress", "--check", golden, (dir / "mod").string()}).code == 0);
}
