// The selectors (Bool, S32, F32, String, Random): the choice by input, by constant or blackboard
// condition, or the default, read again every frame; IsNoSelectWhenChildBusy; a query's outputs of
// each type as inputs; RandomSelector's weights and seed. Each test asserts the exact
// Enter/Update/Leave sequence frame by frame (docs/semantics.md says why each order is what it is).

#include <algorithm>

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

TEST_CASE("selectors choose by their input and re-evaluate every frame") {
  Harness h;
  h.probe("Yes", {R});
  h.probe("No", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  const auto choose = flag_selector();
  spec.nodes = {choose, user("Yes"), user("No")};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No"});
  CHECK(h.tick() == Log{"update No"});
  h.instance->set_bool("Flag", true);
  // The choice changed: the old child is left, the new one entered and updated this frame.
  CHECK(h.tick() == Log{"leave No", "enter Yes", "update Yes"});
  CHECK(h.tick() == Log{"update Yes"});
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Yes"});

  SUBCASE("component bits on a Bool input are ignored: it reads the Bool entry") {
    // Only floats select a vec3f component (docs/semantics.md); fuzz regression
    // bool-input-component-bits.
    spec.nodes[0].inputs[0].flags = 0x80000000u | (2u << 26);  // blackboard 0, "component Y"
    spec.blackboard[0].value = true;
    h.load(spec);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Yes"});
  }

  SUBCASE(
      "a write between start and the first tick moves the choice: the entered child is "
      "left without an update") {
    // The first Update reads the input again, as every Update does (docs/semantics.md,
    // "selector re-evaluation"): the child the Enter chose is left having run no Update.
    h.load(spec);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter No"});
    h.instance->set_bool("Flag", true);
    CHECK(h.tick() == Log{"leave No", "enter Yes", "update Yes"});
  }

  SUBCASE("IsNoSelectWhenChildBusy keeps a running child until it finishes") {
    h.probe("No", {R, S});
    spec.nodes[0].properties = {{ParamType::Bool, "IsNoSelectWhenChildBusy", true}};
    h.load(spec);
    h.instance->start("Root");
    CHECK(h.tick() == Log{"update No"});
    h.instance->set_bool("Flag", true);
    CHECK(h.tick() == Log{"update No", "leave No"});  // busy: not re-selected; then it finished
    CHECK(h.instance->state() == CommandState::Succeeded);
  }
}

TEST_CASE("S32, F32 and String selectors, constants and blackboard conditions, defaults") {
  Harness h;
  for (const auto* name : {"One", "Two", "Other"})
    h.probe(name, {S});
  AinbSpec spec;
  spec.commands = {{"S32", 0, {}}, {"F32", 4, {}}, {"String", 5, {}}};
  spec.blackboard = {{BlackboardType::S32, "Mode", std::int32_t{1}},
                     {BlackboardType::S32, "Special", std::int32_t{7}},
                     {BlackboardType::F32, "Speed", 0.5f},
                     {BlackboardType::F32, "Max", 2.0f},
                     {BlackboardType::String, "Name", std::string("Burn")}};
  BuildNode s32{.type = NodeType::S32Selector};
  s32.inputs = {{ParamType::Int, "Input", -1, 0, 0x80000000u, std::int32_t{0}}};  // bb Mode
  s32.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(1)},
               {PlugKind::Child, 2, "", 0, s32_condition(0, 1)},  // == bb Special
               {PlugKind::Child, 3, "", 0, s32_condition(0)}};
  BuildNode f32{.type = NodeType::F32Selector};
  f32.inputs = {{ParamType::Float, "Input", -1, 0, 0x80000000u, 0.0f}};  // bb Speed
  f32.plugs = {{PlugKind::Child, 1, "", 0, f32_condition(0.0f, 1.0f)},
               {PlugKind::Child, 2, "", 0, f32_condition(1.0f, 0.0f, {}, 1)},  // [1, bb Max]
               {PlugKind::Child, 3, "", 0, std::vector<std::uint8_t>(0x20, 0), "その他"}};
  BuildNode str{.type = NodeType::StringSelector};
  str.inputs = {{ParamType::String, "Input", -1, 0, 0x80000000u, std::string("")}};
  str.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(0), "Burn"},
               {PlugKind::Child, 3, "", 0, s32_condition(0), "その他"}};
  spec.nodes = {s32, user("One"), user("Two"), user("Other"), f32, str};
  h.load(spec);
  auto first_entered = [&](const char* command) {
    h.instance->stop();
    h.log.clear();
    h.instance->start(command);
    return h.log.at(0);
  };
  CHECK(first_entered("S32") == "enter One");
  h.instance->set_int("Mode", 7);
  CHECK(first_entered("S32") == "enter Two");
  h.instance->set_int("Mode", 3);
  CHECK(first_entered("S32") == "enter Other");
  CHECK(first_entered("F32") == "enter One");
  h.instance->set_float("Speed", 1.5f);
  CHECK(first_entered("F32") == "enter Two");
  h.instance->set_float("Speed", 2.5f);
  CHECK(first_entered("F32") == "enter Other");
  CHECK(first_entered("String") == "enter One");
  h.instance->set_string("Name", "Freeze");
  CHECK(first_entered("String") == "enter Other");
}

TEST_CASE("selectors read a query's outputs of each type, and blackboard operands") {
  // One query writes an int, a float, a bool and a string from a table row the test picks;
  // four selectors choose by them (their typed reads of another node's output).
  struct Source : NodeClass {
    std::size_t row = 0;
    Result update(NodeContext& c) override {
      static constexpr std::int32_t kModes[] = {0, 7, 3};
      static constexpr float kSpeeds[] = {0.5f, 1.5f, 2.5f};
      static constexpr std::string_view kNames[] = {"Burn", "Freeze", "Burn"};
      c.write_int("Mode", kModes[row]);
      c.write_float("Speed", kSpeeds[row]);
      c.write_bool("Flag", row == 1);
      c.write_string("Name", kNames[row]);
      return Result::Success;
    }
  };
  Harness h;
  auto source = std::make_shared<Source>();
  h.registry.add("Source", source);
  const std::vector<std::string> names{"S0",     "S7", "SOther", "F1",   "F2",
                                       "FOther", "BT", "BF",     "Burn", "StrOther"};
  for (const auto& name : names)
    h.probe(name, {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::S32, "Seven", std::int32_t{7}},
                     {BlackboardType::F32, "One", 1.0f},
                     {BlackboardType::String, "Hot", std::string("Burn")}};
  constexpr std::uint32_t kSource = 5, kProbes = 6;  // node indices
  auto plug = [&](std::uint32_t probe, std::vector<std::uint8_t> data,
                  std::optional<std::string> text = {}) {
    return BuildPlug{PlugKind::Child, kProbes + probe, "", 0, std::move(data), std::move(text)};
  };
  BuildNode all{.type = NodeType::Simultaneous};
  all.plugs = {{PlugKind::Child, 1, ""},
               {PlugKind::Child, 2, ""},
               {PlugKind::Child, 3, ""},
               {PlugKind::Child, 4, ""}};
  BuildNode s32{.type = NodeType::S32Selector};
  s32.inputs = {{ParamType::Int, "Input", kSource, 0, 0, std::int32_t{0}}};
  s32.plugs = {plug(0, s32_condition(0)), plug(1, s32_condition(0, 0)),  // == bb Seven
               plug(2, s32_condition(0))};
  BuildNode f32{.type = NodeType::F32Selector};
  f32.inputs = {{ParamType::Float, "Input", kSource, 0, 0, 0.0f}};
  f32.plugs = {plug(3, f32_condition(0.0f, 1.0f)),
               plug(4, f32_condition(0.0f, 2.0f, 0)),  // [bb One, 2]
               plug(5, std::vector<std::uint8_t>(0x20, 0), "その他")};
  BuildNode boolean{.type = NodeType::BoolSelector};
  boolean.inputs = {{ParamType::Bool, "Input", kSource, 0, 0, false}};
  boolean.plugs = {{PlugKind::Child, kProbes + 6, "True"}, {PlugKind::Child, kProbes + 7, "False"}};
  BuildNode text{.type = NodeType::StringSelector};
  text.inputs = {{ParamType::String, "Input", kSource, 0, 0, std::string("")}};
  text.plugs = {plug(8, s32_condition(0, 0), ""),  // == bb Hot
                plug(9, s32_condition(0), "その他")};
  for (auto* selector : {&s32, &f32, &boolean, &text})
    selector->queries = {0};
  BuildNode query = user("Source");
  query.flags = node_flags::kIsQuery;
  query.outputs = {{ParamType::Int, "Mode"},
                   {ParamType::Float, "Speed"},
                   {ParamType::Bool, "Flag"},
                   {ParamType::String, "Name"}};
  spec.nodes = {all, s32, f32, boolean, text, query};
  for (const auto& name : names)
    spec.nodes.push_back(user(name));
  h.load(spec);

  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter S0", "enter F1", "enter BF", "enter Burn"});
  source->row = 1;  // 7 (the blackboard's Seven), 1.5, true, "Freeze"
  CHECK(h.tick() == Log{"leave S0", "enter S7", "update S7", "leave F1", "enter F2", "update F2",
                        "leave BF", "enter BT", "update BT", "leave Burn", "enter StrOther",
                        "update StrOther"});
  source->row = 2;  // 3, 2.5, false, "Burn"
  CHECK(h.tick() == Log{"leave S7", "enter SOther", "update SOther", "leave F2", "enter FOther",
                        "update FOther", "leave BT", "enter BF", "update BF", "leave StrOther",
                        "enter Burn", "update Burn"});
  // The blackboard operands are read at every choice.
  h.instance->set_int("Seven", 3);
  h.instance->set_float("One", 3.0f);
  h.instance->set_string("Hot", "Cold");
  CHECK(h.tick() == Log{"leave SOther", "enter S7", "update S7", "update FOther", "update BF",
                        "leave Burn", "enter StrOther", "update StrOther"});
}

TEST_CASE("RandomSelector draws by weight from the instance's seeded generator") {
  Harness h;
  h.probe("Rare", {S});
  h.probe("Common", {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode random{.type = NodeType::RandomSelector};
  random.plugs = {{PlugKind::Child, 1, "", 0, random_weight(1.0f)},
                  {PlugKind::Child, 2, "", 0, random_weight(3.0f)}};
  spec.nodes = {random, user("Rare"), user("Common")};
  auto draws = [&](std::uint64_t seed) {
    h.load(spec, seed);
    std::string picks;
    for (int i = 0; i < 400; ++i) {
      h.instance->stop();
      h.log.clear();
      h.instance->start("Root");
      picks += h.log.at(0) == "enter Rare" ? 'R' : 'C';
    }
    return picks;
  };
  const auto a = draws(42);
  CHECK(a == draws(42));  // the same seed gives the same choices
  CHECK(a != draws(43));
  // All 64 bits of the seed count (the generator's state is 31 bits).
  CHECK(a != draws(42 + (std::uint64_t{1} << 32)));
  CHECK(a != draws(42 + 2147483647u));
  const auto rare = std::count(a.begin(), a.end(), 'R');
  CHECK(rare > 60);  // about a quarter of 400
  CHECK(rare < 140);

  SUBCASE("a weight read from the blackboard; no weight at all picks the first plug") {
    spec.blackboard = {{BlackboardType::F32, "RareWeight", 0.0f}};
    spec.nodes[0].plugs[0].extra = random_weight(1.0f, 0);
    CHECK(draws(42) == std::string(400, 'C'));
    spec.nodes[0].plugs[1].extra = random_weight(-3.0f);  // negative: counts as 0
    CHECK(draws(42) == std::string(400, 'R'));
  }
}
