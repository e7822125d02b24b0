// Built-in plugs and inputs, checked when the graph is built (docs/semantics.md, "Built-in plugs
// and inputs"): a BoolSelector's True/False and a SplitTiming's Enter/Update/Leave by exact name,
// a selector's one input "Input"; and what an absent BoolSelector plug selects.

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

// The LoadError the graph of `spec` gives ("" when it builds).
std::string refusal(const AinbSpec& spec) {
  try {
    Graph graph(ainb::load(build(spec), "checked.ainb"), NodeRegistry{});
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

// Root: a BoolSelector reading the blackboard's "Flag", with child plugs of these names leading
// to the user nodes Yes (1) and No (2).
AinbSpec bool_selector(std::vector<std::string> plug_names) {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  BuildNode select{.type = NodeType::BoolSelector};
  select.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};  // the blackboard
  for (std::uint32_t k = 0; k < plug_names.size(); ++k)
    select.plugs.push_back({PlugKind::Child, k + 1, plug_names[k]});
  spec.nodes = {select, user("Yes"), user("No")};
  return spec;
}

}  // namespace

TEST_CASE("a BoolSelector's plugs are True and False, by exact name") {
  CHECK(refusal(bool_selector({"True", "False"})) == "");
  CHECK(refusal(bool_selector({"False", "True"})) == "");  // by name, not by position
  CHECK(refusal(bool_selector({"true", "false"})) ==
        "checked.ainb: nodes at offset 0x8c: node 0 (Element_BoolSelector): child plug 0 is "
        "named \"true\"; its plugs are \"True\" and \"False\"");
  CHECK(refusal(bool_selector({"True", "True"})) ==
        "checked.ainb: nodes at offset 0x8c: node 0 (Element_BoolSelector): child plug 1 is "
        "named \"True\" as plug 0 is; its plugs are \"True\" and \"False\"");
}

TEST_CASE("a SplitTiming's plugs are Enter, Update and Leave, by exact name") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode split{.type = NodeType::SplitTiming};
  split.plugs = {{PlugKind::Child, 1, "OnEnter"}, {PlugKind::Child, 2, "Update"}};
  spec.nodes = {split, user("A"), user("B")};
  CHECK(refusal(spec) ==
        "checked.ainb: nodes at offset 0x8c: node 0 (Element_SplitTiming): child plug 0 is named "
        "\"OnEnter\"; its plugs are \"Enter\", \"Update\" and \"Leave\"");
  spec.nodes[0].plugs[0].name = "Leave";  // Enter absent: nothing runs on Enter
  CHECK(refusal(spec) == "");
}

TEST_CASE("a selector reads one input of its type, named Input") {
  auto spec = bool_selector({"True", "False"});
  SUBCASE("none") {
    spec.nodes[0].inputs.clear();
    CHECK(refusal(spec) ==
          "checked.ainb: nodes at offset 0x8c: node 0 (Element_BoolSelector): it has no input; a "
          "selector reads one bool input named \"Input\"");
  }
  SUBCASE("misspelt") {
    spec.nodes[0].inputs[0].name = "Inptu";
    CHECK(refusal(spec) ==
          "checked.ainb: nodes at offset 0x8c: node 0 (Element_BoolSelector): it has a bool input "
          "\"Inptu\"; a selector reads one bool input named \"Input\"");
  }
  SUBCASE("of another type") {
    spec.nodes[0].inputs[0] = {ParamType::Int, "Input", -1, 0, 0, std::int32_t{0}};
    CHECK(refusal(spec) ==
          "checked.ainb: nodes at offset 0x8c: node 0 (Element_BoolSelector): it has a int input "
          "\"Input\"; a selector reads one bool input named \"Input\"");
  }
  SUBCASE("one more") {
    spec.nodes[0].inputs.push_back({ParamType::Bool, "Input", -1, 0, 0, true});
    CHECK(
        refusal(spec) ==
        "checked.ainb: nodes at offset 0x8c: node 0 (Element_BoolSelector): it has two bool inputs "
        "\"Input\"; a selector reads one bool input named \"Input\"");
  }
}

TEST_CASE("a BoolSelector without the plug its input names selects nothing and succeeds") {
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    Harness h;
    h.probe("Yes", {R});
    h.probe("No", {R});
    h.load(bool_selector({"True"}));
    if (!observed) h.unobserved();
    // Flag false: no False plug, so nothing is entered, and the command succeeds.
    CHECK(h.step([&] { h.instance->start("Root"); }).empty());
    CHECK(h.tick().empty());
    CHECK(h.instance->state() == CommandState::Succeeded);
    REQUIRE(h.instance->set_bool("Flag", true));
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Yes"});
    CHECK(h.tick() == Log{"update Yes"});
    CHECK(h.instance->state() == CommandState::Running);
  }
}
