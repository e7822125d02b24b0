// Empty plugs: a plug whose stored node index is 0x7FFF leads nowhere (docs/semantics.md, "Empty
// plugs"). Real files use it for an S32Selector's unused default case and a BoolSelector with no
// False branch; it loads, runs, writes, prints, draws and compares as a plug without a target.

#include <doctest/doctest.h>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "cli_run.hpp"
#include "runtime_probe.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

constexpr std::uint32_t kEmpty = kEmptyPlugIndex;

// A BoolSelector reading the Bool blackboard entry "Flag": True leads to a Yes node, False is
// empty (Toby.brain.enemydiscovered's node 35 has this shape).
AinbSpec if_without_else() {
  AinbSpec spec;
  spec.file_name = "Empty.root";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}};
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};
  choose.plugs = {{PlugKind::Child, 1, "True"}, {PlugKind::Child, kEmpty, "False"}};
  spec.nodes = {choose, user("Yes")};
  return spec;
}

std::string write_spec(const std::string& name, const AinbSpec& spec) {
  return write_scratch(name, build(spec)).string();
}

}  // namespace

TEST_CASE("an empty plug loads as a plug without a target; another index past the nodes fails") {
  const auto model = load(build(if_without_else()), "Empty.root.ainb");
  const auto plugs = model->plugs_of(model->nodes[0], PlugKind::Child);
  REQUIRE(plugs.size() == 2);
  CHECK(plugs[0].target == 1u);
  CHECK(plugs[1].name == "False");
  CHECK_FALSE(plugs[1].target.has_value());

  auto spec = if_without_else();
  spec.nodes[0].plugs[1].node = 0x7FFE;
  try {
    load(build(spec), "Bad.root.ainb");
    FAIL("a plug to node 0x7FFE of 2 loaded");
  } catch (const LoadError& e) {
    CHECK(std::string(e.what()) ==
          fmt::format("Bad.root.ainb: node bodies at offset {:#x}: node 0: child plug leads to "
                      "node 32766, but the file has 2 nodes",
                      plugs[1].offset));
  }
}

TEST_CASE("a selector whose chosen plug is empty holds no child and succeeds at once") {
  Harness h;
  h.probe("Yes", {R});
  auto spec = if_without_else();
  for (const bool observed : {true, false}) {
    CAPTURE(observed);
    h.load(spec);
    if (!observed) h.unobserved();
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{});
    CHECK(h.tick() == Log{});
    CHECK(h.instance->state() == CommandState::Succeeded);

    h.instance->set_bool("Flag", true);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Yes"});
    CHECK(h.tick() == Log{"update Yes"});
    CHECK(h.instance->state() == CommandState::Running);
    // The choice moves to the empty plug: the child is left and the selector succeeds.
    h.instance->set_bool("Flag", false);
    CHECK(h.tick() == Log{"leave Yes"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }

  SUBCASE("an S32Selector's empty default, and the first of two equal conditions wins") {
    h.probe("First", {R});
    h.probe("Second", {R});
    AinbSpec s32;
    s32.commands = {{"Root", 0, {}}};
    s32.blackboard = {{BlackboardType::S32, "Mode", std::int32_t{4}}};
    BuildNode choose{.type = NodeType::S32Selector};
    choose.inputs = {{ParamType::Int, "Input", -1, 0, 0x80000000u, std::int32_t{0}}};
    choose.plugs = {{PlugKind::Child, 1, "", 0, s32_condition(4)},
                    {PlugKind::Child, 2, "", 0, s32_condition(4)},
                    {PlugKind::Child, kEmpty, "", 0, s32_condition(0)}};
    s32.nodes = {choose, user("First"), user("Second")};
    h.load(s32);
    CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter First"});
    CHECK(h.tick() == Log{"update First"});
    h.instance->set_int("Mode", 9);
    CHECK(h.tick() == Log{"leave First"});
    CHECK(h.instance->state() == CommandState::Succeeded);
  }

  SUBCASE("IsNoSelectWhenChildBusy with nothing held re-selects") {
    spec.nodes[0].properties = {{ParamType::Bool, "IsNoSelectWhenChildBusy", true}};
    h.load(spec);
    h.instance->start("Root");
    h.instance->set_bool("Flag", true);
    CHECK(h.tick() == Log{"enter Yes", "update Yes"});
  }
}

TEST_CASE("Sequential, Simultaneous and SplitTiming run nothing for an empty plug") {
  Harness h;
  h.probe("A", {S});
  h.probe("B", {S});
  AinbSpec spec;
  spec.commands = {{"Sequence", 0, {}}, {"Both", 3, {}}, {"Split", 4, {}}};
  BuildNode sequence{.type = NodeType::Sequential};
  sequence.plugs = {
      {PlugKind::Child, 1, ""}, {PlugKind::Child, kEmpty, ""}, {PlugKind::Child, 2, ""}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, kEmpty, ""}, {PlugKind::Child, 1, ""}};
  BuildNode split{.type = NodeType::SplitTiming};
  split.plugs = {{PlugKind::Child, kEmpty, "Enter"}, {PlugKind::Child, 2, "Update"}};
  spec.nodes = {sequence, user("A"), user("B"), both, split};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Sequence"); }) == Log{"enter A"});
  CHECK(h.tick() == Log{"update A", "leave A", "enter B"});
  CHECK(h.tick() == Log{"update B", "leave B"});
  CHECK(h.instance->state() == CommandState::Succeeded);

  CHECK(h.step([&] { h.instance->start("Both"); }) == Log{"enter A"});
  CHECK(h.tick() == Log{"update A", "leave A"});
  CHECK(h.instance->state() == CommandState::Succeeded);

  CHECK(h.step([&] { h.instance->start("Split"); }) == Log{"enter B"});
  CHECK(h.tick() == Log{"update B", "leave B"});
}

TEST_CASE("an empty transition plug is never taken: the node finishes as one without it") {
  Harness h;
  h.probe("Patrol", {R, S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode patrol = user("Patrol");
  patrol.plugs = {{PlugKind::Transition, kEmpty, "", 0}};
  spec.nodes = {patrol};
  spec.transitions = {{1, ""}};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) == Log{"enter Patrol"});
  CHECK(h.tick() == Log{"update Patrol"});
  CHECK(h.tick() == Log{"update Patrol", "leave Patrol"});
  CHECK(h.instance->state() == CommandState::Succeeded);
  CHECK(writer::write(*h.graph->model_ptr()) == build(spec));
}

TEST_CASE("a user class's empty plug succeeds at once when run, and a stub passes through it") {
  struct Wrapper : NodeClass {
    std::vector<std::string> seen;
    Result update(NodeContext& c) override {
      seen.push_back(std::string(c.child_name(0)));
      return c.run_child(0);
    }
  };
  auto wrapper = std::make_shared<Wrapper>();
  Harness h;
  h.registry.add("Wrapper", wrapper);
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode wrap = user("Wrapper");
  wrap.plugs = {{PlugKind::Child, kEmpty, "Execute"}};
  spec.nodes = {wrap};
  h.load(spec);
  h.instance->start("Root");
  CHECK(h.tick() == Log{});
  CHECK(wrapper->seen == std::vector<std::string>{"Execute"});
  CHECK(h.instance->state() == CommandState::Succeeded);

  NodeRegistry stubs;
  stubs.stub_runs_first_child = true;
  Instance stub(std::make_shared<Graph>(load(build(spec), "stub.ainb"), stubs));
  stub.start("Root");
  stub.tick();
  CHECK(stub.state() == CommandState::Succeeded);
}

TEST_CASE("an empty plug is written back byte for byte, shown by the text form and both dumps") {
  const auto bytes = build(if_without_else());
  const auto model = load(bytes, "Empty.root.ainb");
  CHECK(writer::write(*model) == bytes);
  const auto text = writer::to_text(*model);
  const auto& plugs = text["nodes"][0]["plugs"]["child"];
  CHECK(plugs[1].dump() == R"({"node":null,"name":"False"})");
  CHECK(writer::from_text(text) == bytes);

  const auto path = write_spec("empty-plug.ainb", if_without_else());
  const auto dump = ainb_cli({"dump", path});
  REQUIRE(dump.code == 0);
  const auto model_json = nlohmann::json::parse(dump.out);
  CHECK(model_json["nodes"][0]["plugs"][1]["node"].is_null());
  const auto peer = ainb_cli({"dump", path, "--format", "peer"});
  REQUIRE(peer.code == 0);
  const auto peer_json = nlohmann::json::parse(peer.out);
  CHECK(peer_json["Nodes"][0]["Plugs"]["Standard Link"][1] ==
        nlohmann::json{{"Node Index", 32767}, {"Plug Name", "False"}});
}

TEST_CASE("ainb graph draws an empty plug, lint finds nothing in it, regress pairs it") {
  const auto path = write_spec("empty-plug.ainb", if_without_else());
  const auto dot = ainb_cli({"graph", path});
  REQUIRE(dot.code == 0);
  CHECK(dot.out.find("  empty0_0 [label=\"empty\", shape=plaintext, fontcolor=gray50];\n"
                     "  node0 -> empty0_0 [label=\"False\"];\n") != std::string::npos);

  const auto defs =
      write_scratch("empty-plug-defs.json", R"({"AI": {"Yes": {"Inputs": {}, "Tags": []}}})");
  const auto lint = ainb_cli({"lint", path, "--defs", defs.string()});
  CHECK(lint.code == 0);
  CHECK(lint.out == path + ": 0 findings in 1 user node (AI category)\n");

  CHECK(ainb_cli({"regress", path, path}).out == "equal: 4 events agree under 1 scenario(s)\n");
  auto filled = if_without_else();
  filled.nodes[0].plugs[1].node = 1;  // False leads to Yes as well
  const auto r = ainb_cli({"regress", path, write_spec("empty-filled.ainb", filled)});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "different: scenario (no scenario), event 2, frame 1\n"
        "  the original does \"frame 1 update #0 Element_BoolSelector -> Success "
        "[Empty.root.ainb]\" where the edited file does \"frame 0 enter #1 Yes "
        "[Empty.root.ainb]\"\n"
        "    both:     frame 0 command: Root [Empty.root.ainb]\n"
        "    both:     frame 0 enter #0 Element_BoolSelector [Empty.root.ainb]\n"
        "  > original: frame 1 update #0 Element_BoolSelector -> Success [Empty.root.ainb]\n"
        "  > edited:   frame 0 enter #1 Yes [Empty.root.ainb]\n");
}
