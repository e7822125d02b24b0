// The generic classes of issue 55 part 5 (docs/generic-nodes.md): the new queries, blackboard
// reads and string writes, SelectorMath* and SelectorGenericForceResultOneToOne, the readings
// behind GenericNodeOptions::ambiguous_readings, every real file's nodes of a modelled class,
// and an edit of a modelled class's number found by `regress --explore` on a real file.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"

using namespace ainb;
using ainb::test::ainb_cli;

namespace {

constexpr std::uint32_t kBlackboard0 = 0x80000000u;  // an input that reads blackboard entry 0

// Every real AI file: ainb/, bulk/ainb/ and wide/ainb/.
runtime::NodeRegistry registry(bool readings = false) {
  runtime::NodeRegistry r;
  r.unknown_classes = runtime::UnknownClassPolicy::Strict;
  gamedata::add_generic_nodes(r, {.ambiguous_readings = readings});
  return r;
}

std::shared_ptr<const runtime::Graph> graph_of(const test::AinbSpec& spec, bool readings = false) {
  return std::make_shared<const runtime::Graph>(test::load_spec(spec), registry(readings));
}

// A Logic file whose root succeeds after calculating `query` (node 1, query 0, calculated at
// every update: OutputOnlyOnEnter false).
test::AinbSpec query_file(test::BuildNode query) {
  test::AinbSpec spec;
  spec.file_name = "Query.logic";
  spec.category = "Logic";
  test::BuildNode root{.name = "ExecuteGenericSetResultSuccess"};
  root.queries = {0};
  query.flags |= node_flags::kIsQuery;
  query.properties.push_back({ParamType::Bool, "OutputOnlyOnEnter", false});
  spec.nodes = {root, std::move(query)};
  return spec;
}

// The value a query computes from constant inputs: its output `output` after one frame of its
// query_file.
Value computed(std::string query, std::vector<test::BuildInput> inputs, test::BuildOutput output,
               std::vector<test::BuildProperty> properties = {},
               std::vector<test::BuildBlackboardEntry> blackboard = {}) {
  test::BuildNode q{.name = std::move(query)};
  q.inputs = std::move(inputs);
  q.properties = std::move(properties);
  q.outputs = {output};
  auto spec = query_file(std::move(q));
  spec.blackboard = std::move(blackboard);
  runtime::Instance actor(graph_of(spec));
  actor.tick();
  const auto value = actor.output_value(1, output.type, 0);
  // A String output views the graph's memory, which goes with `actor`: the caller gets a copy.
  if (const auto* text = std::get_if<std::string_view>(&value)) {
    static std::deque<std::string> kept;
    return std::string_view(kept.emplace_back(*text));
  }
  return value;
}

}  // namespace

TEST_CASE("generic classes: the comparisons, functions and vector queries") {
  const auto F = ParamType::Float, I = ParamType::Int, V = ParamType::Vec3f, B = ParamType::Bool;
  auto f32 = [&](std::string query, std::vector<test::BuildInput> inputs, std::string out) {
    return std::get<float>(computed(std::move(query), std::move(inputs), {F, std::move(out)}));
  };
  auto flag = [&](std::string query, std::vector<test::BuildInput> inputs, std::string out) {
    return std::get<bool>(computed(std::move(query), std::move(inputs), {B, std::move(out)}));
  };
  using I32 = std::int32_t;
  CHECK(flag("QueryMathEqualS32", {{I, "S32", -1, 0, 0, I32{6}}, {I, "S32Base", -1, 0, 0, I32{6}}},
             "Bool"));
  CHECK_FALSE(flag("QueryMathEqualS32",
                   {{I, "S32", -1, 0, 0, I32{6}}, {I, "S32Base", -1, 0, 0, I32{157}}}, "Bool"));
  CHECK(flag("QueryMathLessS32", {{I, "S32", -1, 0, 0, I32{5}}, {I, "S32Base", -1, 0, 0, I32{6}}},
             "Bool"));
  CHECK(flag("QueryMathLessOrEqualS32",
             {{I, "S32", -1, 0, 0, I32{0}}, {I, "S32Base", -1, 0, 0, I32{0}}}, "Result"));
  CHECK_FALSE(flag("QueryMathLessOrEqualS32",
                   {{I, "S32", -1, 0, 0, I32{200}}, {I, "S32Base", -1, 0, 0, I32{0}}}, "Result"));
  CHECK(flag("QueryMathEqualF32", {{F, "F32", -1, 0, 0, 0.5f}, {F, "S32Base", -1, 0, 0, 0.5f}},
             "Bool"));
  CHECK(flag("QueryGenericStringIsEmpty", {{ParamType::String, "String", -1, 0, 0, std::string()}},
             "Result"));
  CHECK_FALSE(flag("QueryGenericStringIsEmpty",
                   {{ParamType::String, "String", -1, 0, 0, std::string("Head")}}, "Result"));

  CHECK(f32("QueryMathAbsF32", {{F, "Input", -1, 0, 0, -2.5f}}, "Result") == 2.5f);
  CHECK(f32("QueryMathCosF32", {{F, "Input", -1, 0, 0, 0.0f}}, "Result") == 1.0f);
  CHECK(f32("QueryMathDeg2Rad", {{F, "deg", -1, 0, 0, 180.0f}}, "rad") ==
        180.0f * (std::numbers::pi_v<float> / 180));
  CHECK(f32("QueryMathrad2deg", {{F, "F32", -1, 0, 0, 0.5f}}, "F32") ==
        0.5f * (180 / std::numbers::pi_v<float>));
  CHECK(f32("QueryMathSpeedMpf2SpeedMps", {{F, "mpf", -1, 0, 0, 0.5f}}, "mps") == 15.0f);
  CHECK(f32("QueryMathSpeedMps2SpeedMpf", {{F, "mps", -1, 0, 0, 15.0f}}, "mpf") == 0.5f);
  CHECK(f32("QueryMathPowF32", {{F, "Base", -1, 0, 0, 1.5f}, {F, "Exponent", -1, 0, 0, 2.0f}},
            "Power") == 2.25f);
  CHECK(f32("QueryMathF32Min2", {{F, "a", -1, 0, 0, 2.0f}, {F, "b", -1, 0, 0, -1.0f}}, "F32") ==
        -1.0f);
  CHECK(f32("QueryMathF32Max2", {{F, "a", -1, 0, 0, 2.0f}, {F, "b", -1, 0, 0, -1.0f}}, "F32") ==
        2.0f);
  CHECK(f32("QueryMathClampOverMin", {{F, "F32", -1, 0, 0, -3.0f}, {F, "Min", -1, 0, 0, 0.0f}},
            "F32") == 0.0f);
  CHECK(f32("QueryMathClampOverMin", {{F, "F32", -1, 0, 0, 3.0f}, {F, "Min", -1, 0, 0, 1.0f}},
            "F32") == 3.0f);
  CHECK(
      f32("QueryMathDotVector",
          {{V, "FromVector", -1, 0, 0, Vec3f{1, 2, 3}}, {V, "ToVector", -1, 0, 0, Vec3f{4, 5, 6}}},
          "F32") == 32.0f);
  CHECK(f32("QueryMathGetVectorLength", {{V, "Vector", -1, 0, 0, Vec3f{3, 4, 12}}}, "F32") ==
        13.0f);
  CHECK(f32("QueryMathGetVectorLengthXZ", {{V, "Vector", -1, 0, 0, Vec3f{3, 100, 4}}}, "F32") ==
        5.0f);
  CHECK(std::get<Vec3f>(computed("QueryMathMakeXZVector3f",
                                 {{V, "Vector", -1, 0, 0, Vec3f{1, 2, 3}}}, {V, "Vector"})) ==
        Vec3f{1, 0, 3});
  CHECK(std::get<Vec3f>(computed("QueryXYZVectorToXZVector",
                                 {{V, "Input", -1, 0, 0, Vec3f{1, 2, 3}}}, {V, "Output"})) ==
        Vec3f{1, 0, 3});

  // The choices: A (TrueValue) when Bool, else B (FalseValue).
  auto select = [&](std::string query, bool b, test::BuildInput x, test::BuildInput y,
                    test::BuildOutput out) {
    return computed(std::move(query), {{B, "Bool", -1, 0, 0, b}, std::move(x), std::move(y)},
                    std::move(out));
  };
  CHECK(select("QuerySelectF32ByBool", true, {F, "A", -1, 0, 0, 12.0f}, {F, "B", -1, 0, 0, 9999.0f},
               {F, "F32"}) == Value(12.0f));
  CHECK(select("QuerySelectF32ByBool", false, {F, "A", -1, 0, 0, 12.0f},
               {F, "B", -1, 0, 0, 9999.0f}, {F, "F32"}) == Value(9999.0f));
  CHECK(select("QuerySelectVector3fByBool", false, {V, "A", -1, 0, 0, Vec3f{1, 2, 3}},
               {V, "B", -1, 0, 0, Vec3f{999999, 999999, 999999}},
               {V, "Vector"}) == Value(Vec3f{999999, 999999, 999999}));
  CHECK(select("QuerySelectBoolByBool", true, {B, "A", -1, 0, 0, true}, {B, "B", -1, 0, 0, false},
               {B, "Bool"}) == Value(true));
  CHECK(select("QuerySelectS32ByBool", true, {I, "TrueValue", -1, 0, 0, I32{1}},
               {I, "FalseValue", -1, 0, 0, I32{10}}, {I, "S32"}) == Value(I32{1}));
  CHECK(select("QuerySelectStringByBool", false,
               {ParamType::String, "A", -1, 0, 0, std::string("AttackHit_Right")},
               {ParamType::String, "B", -1, 0, 0, std::string("AttackHit_Left")},
               {ParamType::String, "String"}) == Value(std::string_view("AttackHit_Left")));
  CHECK(flag("QueryGetBoolSimple", {{B, "Bool", -1, 0, 0, true}}, "Bool"));
  CHECK_FALSE(flag("QueryInvertBool", {{B, "Bool", -1, 0, 0, true}}, "Bool"));

  // QueryMathCalcDirAndDistToTarget: (3, 5, 4) from the origin, in space and on the XZ plane.
  auto dir_and_distance = [&](bool xz, std::uint32_t output, ParamType type) {
    test::BuildNode q{.name = "QueryMathCalcDirAndDistToTarget"};
    q.inputs = {{V, "StartPosition", -1, 0, 0, Vec3f{0, 1, 0}},
                {V, "TargetPosition", -1, 0, 0, Vec3f{3, 6, 4}}};
    q.properties = {{B, "CalcOnXZPlane", xz}};
    q.outputs = {{F, "TargetDistance"}, {F, "TargetWorldYDistance"}, {V, "TargetDirection"}};
    const auto spec = query_file(std::move(q));
    runtime::Instance actor(graph_of(spec));
    actor.tick();
    return actor.output_value(1, type, output);
  };
  CHECK(dir_and_distance(true, 0, F) == Value(5.0f));
  CHECK(dir_and_distance(true, 1, F) == Value(5.0f));
  CHECK(dir_and_distance(true, 0, V) == Value(Vec3f{0.6f, 0, 0.8f}));
  CHECK(dir_and_distance(false, 0, F) == Value(std::sqrt(50.0f)));
}

TEST_CASE("generic classes: blackboard reads and string writes") {
  const auto S = ParamType::String;
  // QueryBlackboardGet*: the entry its key names; no such entry (or of another type): zero.
  const std::vector<test::BuildBlackboardEntry> entries = {
      {BlackboardType::Bool, "IsSoundNotice", true}, {BlackboardType::F32, "WaitTime", 2.5f}};
  auto get = [&](std::string query, std::string key, test::BuildOutput out) {
    return computed(
        std::move(query), {}, out,
        {{ParamType::Int, "BlackboardType", std::int32_t{0}}, {S, "BlackboardKey", std::move(key)}},
        entries);
  };
  CHECK(get("QueryBlackboardGetBool", "IsSoundNotice", {ParamType::Bool, "Bool"}) == Value(true));
  CHECK(get("QueryBlackboardGetBool", "WaitTime", {ParamType::Bool, "Bool"}) == Value(false));
  CHECK(get("QueryBlackboardGetF32", "WaitTime", {ParamType::Float, "F32"}) == Value(2.5f));
  CHECK(get("QueryBlackboardGetF32", "None", {ParamType::Float, "F32"}) == Value(0.0f));

  // ExecuteBlackboardSetString: the input's characters, copied into the entry.
  test::AinbSpec spec;
  spec.file_name = "SetString.logic";
  spec.category = "Logic";
  spec.blackboard = {{BlackboardType::String, "ASName", std::string("Wait")}};
  test::BuildNode set{.name = "ExecuteBlackboardSetString"};
  set.inputs = {{S, "String", -1, 0, 0, std::string("Thrown")}};
  set.properties = {{S, "BlackboardKey", std::string("ASName")},
                    {ParamType::Bool, "ExecuteOnce", false}};
  spec.nodes = {set};
  runtime::Instance actor(graph_of(spec));
  CHECK(*actor.blackboard("ASName") == Value(std::string_view("Wait")));
  actor.tick();
  CHECK(*actor.blackboard("ASName") == Value(std::string_view("Thrown")));
}

namespace {

// A command whose root is `selector` (node 0) with child plugs named `plugs`, each an
// ExecuteBlackboardSetS32 that writes its position + 1 to Branch and succeeds.
test::AinbSpec selector_spec(test::BuildNode selector, std::vector<std::string> plugs) {
  test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::S32, "Branch", std::int32_t{0}}};
  spec.nodes = {selector};
  for (std::size_t k = 0; k < plugs.size(); ++k) {
    spec.nodes[0].plugs.push_back({PlugKind::Child, static_cast<std::uint32_t>(k + 1), plugs[k]});
    test::BuildNode set{.name = "ExecuteBlackboardSetS32"};
    set.inputs = {{ParamType::Int, "S32", -1, 0, 0, static_cast<std::int32_t>(k + 1)}};
    set.properties = {{ParamType::String, "BlackboardKey", std::string("Branch")},
                      {ParamType::Bool, "ExecuteOnce", false}};
    spec.nodes.push_back(set);
  }
  return spec;
}

std::int32_t branch(const test::AinbSpec& spec, bool readings = false) {
  runtime::Instance actor(graph_of(spec, readings));
  actor.start("Root");
  actor.tick();
  return std::get<std::int32_t>(*actor.blackboard("Branch"));
}

}  // namespace

TEST_CASE("generic classes: SelectorMath* and SelectorGenericForceResultOneToOne") {
  const auto F = ParamType::Float, I = ParamType::Int;
  auto compare = [&](std::string cls, ParamType type, test::BuildValue value,
                     test::BuildValue base) {
    const std::string v = type == F ? "F32" : "S32";
    test::BuildNode node{.name = std::move(cls)};
    node.inputs = {{type, v, -1, 0, 0, value}, {type, v + "Base", -1, 0, 0, base}};
    node.properties = {{ParamType::Bool, "NoChangeWhenChildIsBusy", false},
                       {ParamType::Bool, "SelectChildOnEnterOnly", false}};
    return branch(selector_spec(node, {"if_true", "if_false"}));
  };
  CHECK(compare("SelectorMathLessF32", F, 1.0f, 1.0f) == 2);
  CHECK(compare("SelectorMathLessF32", F, 0.5f, 1.0f) == 1);
  CHECK(compare("SelectorMathLessOrEqualF32", F, 1.0f, 1.0f) == 1);
  CHECK(compare("SelectorMathLessOrEqualF32", F, 3.0f, 0.0f) == 2);
  CHECK(compare("SelectorMathLessS32", I, std::int32_t{1}, std::int32_t{1}) == 2);
  CHECK(compare("SelectorMathLessOrEqualS32", I, std::int32_t{1}, std::int32_t{1}) == 1);

  // The choice follows the input at each update: a blackboard value changed between frames.
  test::BuildNode node{.name = "SelectorMathLessF32"};
  node.inputs = {{F, "F32", -1, 0, kBlackboard0, 0.0f}, {F, "F32Base", -1, 0, 0, 10.0f}};
  auto spec = selector_spec(node, {"if_true", "if_false"});
  spec.blackboard.push_back({BlackboardType::F32, "Distance", 0.0f});
  runtime::Instance actor(graph_of(spec));
  actor.start("Root");
  actor.tick();
  CHECK(*actor.blackboard("Branch") == Value(std::int32_t{1}));
  actor.set_float("Distance", 20);
  actor.start("Root");
  actor.tick();
  CHECK(*actor.blackboard("Branch") == Value(std::int32_t{2}));

  // OneToOne: the child's result mapped by ForceResultFrom<result> (2 Success, 3 Failure).
  auto one_to_one = [&](std::string child, std::int32_t from_success, std::int32_t from_failure) {
    test::AinbSpec s;
    s.commands = {{"Root", 0, {}}};
    test::BuildNode force{.name = "SelectorGenericForceResultOneToOne"};
    force.properties = {{I, "ForceResultFromBusy", std::int32_t{1}},
                        {I, "ForceResultFromFailure", from_failure},
                        {I, "ForceResultFromNone", std::int32_t{0}},
                        {I, "ForceResultFromSuccess", from_success}};
    force.plugs = {{PlugKind::Child, 1, "Execute"}};
    s.nodes = {force, test::BuildNode{.name = std::move(child)}};
    runtime::Instance a(graph_of(s));
    a.start("Root");
    a.tick();
    return a.state();
  };
  using runtime::CommandState;
  CHECK(one_to_one("ExecuteGenericSetResultFailure", 2, 3) == CommandState::Failed);
  CHECK(one_to_one("ExecuteGenericSetResultFailure", 2, 2) == CommandState::Succeeded);
  CHECK(one_to_one("ExecuteGenericSetResultSuccess", 3, 3) == CommandState::Failed);
  CHECK(one_to_one("ExecuteGenericSetResultBusy", 2, 3) == CommandState::Running);
}

TEST_CASE("generic classes: the readings behind ambiguous_readings") {
  const auto I = ParamType::Int, B = ParamType::Bool;
  using runtime::CommandState;
  // Off by default: the classes stay stubs (absent from a strict registry).
  CHECK(registry().find("ExecuteGenericCounter") == nullptr);
  CHECK(registry(true).find("ExecuteGenericCounter") != nullptr);
  CHECK(gamedata::generic_node_names().size() == 61);
  CHECK(gamedata::generic_node_names({.ambiguous_readings = true}).size() == 69);

  SUBCASE("QueryGenericMultiBool: Mode 0 any, Mode 1 all") {
    // Root (0) calculates the MultiBool (1), whose two sources are LessF32 queries (2: 1 < 2,
    // true; 3: 2 < 1, false) it calculates first.
    auto multi = [&](std::int32_t mode, bool second) {
      test::BuildNode m{.name = "QueryGenericMultiBool"};
      m.inputs = {{B, "MultiBool", -100, 2, 0, false}};
      m.properties = {{I, "Mode", mode}};
      m.outputs = {{B, "Bool"}};
      m.queries = {1, 2};
      auto spec = query_file(std::move(m));
      auto less = [&](float a, float b) {
        test::BuildNode q{.name = "QueryMathLessF32", .flags = node_flags::kIsQuery};
        q.inputs = {{ParamType::Float, "F32", -1, 0, 0, a},
                    {ParamType::Float, "F32Base", -1, 0, 0, b}};
        q.properties = {{B, "OutputOnlyOnEnter", false}};
        q.outputs = {{B, "Bool"}};
        return q;
      };
      spec.nodes.push_back(less(1, 2));
      spec.nodes.push_back(second ? less(1, 2) : less(2, 1));
      spec.multi_sources = {{2, 0, 0}, {3, 0, 0}};
      runtime::Instance actor(graph_of(spec, true));
      actor.tick();
      return std::get<bool>(actor.output_value(1, B, 0));
    };
    CHECK(multi(0, false));
    CHECK_FALSE(multi(1, false));
    CHECK(multi(1, true));
  }
  SUBCASE("ExecuteGenericCounter: BaseFrameTime updates, its results and outputs") {
    test::AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    test::BuildNode counter{.name = "ExecuteGenericCounter"};
    counter.properties = {{I, "ResultBeforeFinish", std::int32_t{0}},
                          {I, "ResultOnFinish", std::int32_t{3}},
                          {ParamType::Float, "BaseFrameTime", 3.0f},
                          {ParamType::Float, "RandomTimeMax", 0.0f}};
    counter.outputs = {{ParamType::Float, "ElapsedFrameTime"},
                       {ParamType::Float, "PercentComplete"},
                       {ParamType::Float, "RemainingFrameTime"}};
    spec.nodes = {counter};
    runtime::Instance actor(graph_of(spec, true));
    actor.start("Root");
    actor.tick();
    actor.tick();
    CHECK(actor.state() == CommandState::Running);
    CHECK(actor.output_value(0, ParamType::Float, 0) == Value(2.0f));
    CHECK(actor.output_value(0, ParamType::Float, 1) == Value(2.0f / 3.0f));
    CHECK(actor.output_value(0, ParamType::Float, 2) == Value(1.0f));
    actor.tick();
    CHECK(actor.state() == CommandState::Failed);  // ResultOnFinish 3
    CHECK(actor.output_value(0, ParamType::Float, 1) == Value(1.0f));
  }
  SUBCASE("ExecuteGenericDummyAction: busy for ever") {
    test::AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    spec.nodes = {test::BuildNode{.name = "ExecuteGenericDummyAction"}};
    runtime::Instance actor(graph_of(spec, true));
    actor.start("Root");
    for (int frame = 0; frame < 5; ++frame)
      actor.tick();
    CHECK(actor.state() == CommandState::Running);
  }
  SUBCASE("SelectorGenericForceResult: busy while Execute is, then ForcedResult") {
    test::AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    test::BuildNode force{.name = "SelectorGenericForceResult"};
    force.properties = {{I, "ForcedResult", std::int32_t{2}}};
    force.plugs = {{PlugKind::Child, 1, "Execute"}};
    test::BuildNode counter{.name = "ExecuteGenericCounter"};
    counter.properties = {{I, "ResultBeforeFinish", std::int32_t{1}},
                          {I, "ResultOnFinish", std::int32_t{3}},
                          {ParamType::Float, "BaseFrameTime", 2.0f}};
    spec.nodes = {force, counter};
    runtime::Instance actor(graph_of(spec, true));
    actor.start("Root");
    actor.tick();
    CHECK(actor.state() == CommandState::Running);
    actor.tick();
    CHECK(actor.state() == CommandState::Succeeded);  // the counter's Failure forced to Success
  }
  SUBCASE("SelectorBoolTrigger: latched by its Input, re-armed by a Success") {
    // Triggered (1) and NotTriggered (2) are counters of 100 frames: which one counts shows
    // which one runs.
    test::AinbSpec spec;
    spec.commands = {{"Root", 0, {}}};
    spec.blackboard = {{BlackboardType::Bool, "Go", false}};
    test::BuildNode trigger{.name = "SelectorBoolTrigger"};
    trigger.inputs = {{B, "Input", -1, 0, kBlackboard0, false}};
    trigger.properties = {{B, "ExecuteTriggeredChildOnEveryTrigger", false},
                          {B, "NoChangeWhenChildIsBusy", false},
                          {B, "ResetWhenChildResultSuccess", false},
                          {B, "SelectChildOnEnterOnly", false}};
    trigger.plugs = {{PlugKind::Child, 1, "Triggered"}, {PlugKind::Child, 2, "NotTriggered"}};
    test::BuildNode counter{.name = "ExecuteGenericCounter"};
    counter.properties = {{I, "ResultBeforeFinish", std::int32_t{1}},
                          {I, "ResultOnFinish", std::int32_t{2}},
                          {ParamType::Float, "BaseFrameTime", 100.0f}};
    counter.outputs = {{ParamType::Float, "ElapsedFrameTime"}};
    spec.nodes = {trigger, counter, counter};
    runtime::Instance actor(graph_of(spec, true));
    const auto elapsed = [&](std::uint32_t node) {
      return std::get<float>(actor.output_value(node, ParamType::Float, 0));
    };
    actor.start("Root");
    actor.tick();
    CHECK(elapsed(1) == 0.0f);
    CHECK(elapsed(2) == 1.0f);
    actor.set_bool("Go", true);
    actor.tick();
    CHECK(elapsed(1) == 1.0f);
    actor.set_bool("Go", false);
    actor.tick();
    CHECK(elapsed(1) == 2.0f);  // latched
    CHECK(elapsed(2) == 1.0f);
  }
  SUBCASE("SelectorGenericMultiBool: True or False by the combined sources") {
    test::BuildNode selector{.name = "SelectorGenericMultiBool"};
    selector.inputs = {{B, "MultiBool", -1, 0, 0, true}};  // one constant source
    selector.properties = {{I, "Mode", std::int32_t{1}},
                           {B, "IsOnlyEnter", false},
                           {B, "NoChangeWhenChildIsBusy", false},
                           {B, "SelectChildOnEnterOnly", false}};
    CHECK(branch(selector_spec(selector, {"True", "False"}), true) == 1);
    selector.inputs[0].value = false;
    CHECK(branch(selector_spec(selector, {"True", "False"}), true) == 2);
  }
}

TEST_CASE("generic classes: every real node of a modelled class has what its class reads") {
  // All real files (ainb/, bulk/ainb/, wide/ainb/), with the readings: no parameter a class
  // declares is missing from a node of that class (a misspelt name would read zero).
  const auto files = test::all_real_ainb_files();
  if (files.empty()) return;
  auto classes = registry(true);
  classes.unknown_classes = runtime::UnknownClassPolicy::Stub;
  const auto defaults = gamedata::generic_node_names();
  // UserDefined nodes; those of a default class; those of any class (with the readings): in
  // ainb/ and bulk/ (0) and wide/ (1).
  std::size_t user[2] = {}, modelled[2] = {}, with_readings[2] = {};
  for (const auto& path : files) {
    const int wide = path.parent_path().parent_path().filename() == "wide" ? 1 : 0;
    const auto model = load_file(path);
    const auto graph = std::make_shared<runtime::Graph>(
        model, classes,
        runtime::GraphOptions{.missing_modules = runtime::MissingModulePolicy::Stub});
    for (const auto& missing : graph->unresolved_parameters())
      FAIL_CHECK(path.filename().string() << ": " << graph->describe(missing));
    for (const auto& n : model->nodes) {
      if (n.type != NodeType::UserDefined) continue;
      ++user[wide];
      modelled[wide] += std::ranges::binary_search(defaults, n.name, std::less<>()) ? 1 : 0;
      with_readings[wide] += classes.find(n.name) != nullptr ? 1 : 0;
    }
  }
  CHECK(files.size() == 598);  // every real file but the one refused (tests/corpus-refusals.txt)
  // ainb/ and bulk/ (all of them load): the share `ainb scan` reports for them.
  CHECK(user[0] == 3202);
  CHECK(modelled[0] == 925);
  CHECK(with_readings[0] == 1147);
  // wide/: every file but the refused one (docs/generic-nodes.md gives the figures).
  MESSAGE("wide: " << modelled[1] << " (" << with_readings[1] << " with the readings) of "
                   << user[1] << " user nodes");
  CHECK(user[1] == 13031);
  CHECK(modelled[1] == 3780);
  CHECK(with_readings[1] == 4640);
}

TEST_CASE("regress --explore on a real file: an edit of a SelectorMathLessOrEqualF32 constant") {
  // UnderWaterFloatWait (wide/): its root selector takes if_true when 3.0 <= the water depth a
  // stub query gives (0 in a plain run). The constant edited to 20.0: no plain run sees it, nor
  // explore while the selector is a stub; with the class modelled, an explored depth of 10 (one
  // of explore's plain values: it does not take thresholds from SelectorMath* inputs, so an edit
  // to 5.0 stays unseen) chooses the other child.
  const auto wide = test::corpus_files("wide/ainb", ".ainb");
  if (wide.empty()) return;
  const auto original = test::corpus_dir() / "wide/ainb/UnderWaterFloatWait.actionseq.root.ainb";
  auto text = writer::to_text(*load_file(original));
  REQUIRE(text["nodes"][1]["name"] == "SelectorMathLessOrEqualF32");
  REQUIRE(text["nodes"][1]["inputs"]["float"][0]["name"] == "F32");
  text["nodes"][1]["inputs"]["float"][0]["default"] = 20.0;
  const auto edited = test::write_scratch("UnderWaterFloatWait.actionseq.root.ainb",
                                          writer::from_text(text, "UnderWaterFloatWait"));
  const auto plain = ainb_cli(
      {"regress", original.string(), edited.string(), "--generic-nodes", "--stub-missing-modules"});
  CHECK(plain.code == 0);
  CHECK(plain.out.starts_with("equal: 17 events agree under 1 scenario(s)\n"));
  const auto stubs = ainb_cli({"regress", original.string(), edited.string(), "--explore", "200",
                               "--stub-missing-modules"});
  CHECK(stubs.code == 0);
  CHECK(stubs.out.find("no difference in 200 runs") != std::string::npos);
  const auto found = ainb_cli({"regress", original.string(), edited.string(), "--generic-nodes",
                               "--explore", "200", "--stub-missing-modules"});
  CHECK(found.code == 1);
  CHECK(found.out.find("run 23 makes them differ; shrunk in ") != std::string::npos);
  CHECK(found.out.find(R"({"frames":1,"restart":true,"nodes":{"QueryPhysicsCctGetWaterDepth":)"
                       R"({"outputs":{"WaterDepth":10.0}}}})") != std::string::npos);
  CHECK(found.out.find("  > original: frame 1 enter #4 ExecuteGenericSetResultNone "
                       "[UnderWaterFloatWait.actionseq.root.ainb]\n"
                       "  > edited:   frame 1 enter #5 ExecuteGenericSetResultSuccess "
                       "[UnderWaterFloatWait.actionseq.root.ainb]\n") != std::string::npos);
}

TEST_CASE("ainb run and regress --ambiguous-readings: the readings run, golden folders keep it") {
  // A Logic file whose root is an ExecuteGenericCounter of 3 frames that then fails: a stub
  // succeeds at once; the reading fails at the third frame.
  test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  test::BuildNode counter{.name = "ExecuteGenericCounter"};
  counter.properties = {{ParamType::Int, "ResultBeforeFinish", std::int32_t{1}},
                        {ParamType::Int, "ResultOnFinish", std::int32_t{3}},
                        {ParamType::Float, "BaseFrameTime", 3.0f}};
  spec.nodes = {counter};
  const auto dir = test::fresh_dir("ambiguous_readings");
  const auto file = dir / "mod" / "counter.root.ainb";
  test::write_file(file, test::build(spec));
  const auto stub = ainb_cli({"run", file.string(), "--frames", "3", "--generic-nodes"});
  CHECK(stub.code == 0);
  CHECK(stub.out.starts_with(
      "summary: Test.root.ainb, command Root: succeeded in frame 1 of 3, 1 node update\n"));
  const auto read = ainb_cli({"run", file.string(), "--frames", "3", "--ambiguous-readings"});
  CHECK(read.code == 0);
  CHECK(read.out.starts_with(
      "summary: Test.root.ainb, command Root: failed in frame 3 of 3, 3 node updates\n"));

  const auto golden = (dir / "golden").string();
  CHECK(ainb_cli({"regress", "--record", golden, (dir / "mod").string(), "--frames", "3",
                  "--ambiguous-readings"})
            .code == 0);
  const auto manifest = nlohmann::json::parse(test::read_text(dir / "golden" / "manifest.json"));
  CHECK(manifest["options"]["ambiguous_readings"] == true);
  CHECK(manifest["options"]["generic_nodes"] == true);
  CHECK(ainb_cli({"regress", "--check", golden, (dir / "mod").string()}).code == 0);
}
