// What the bulk corpus showed that the first twelve files did not, each on a hand-made file
// (docs/loader.md, "Found in the bulk corpus"): child plugs that carry an enum value, and an
// input's output index with bit 15 set. Empty plugs and receiver-type EXB signatures have test
// files of their own (empty_plug_test.cpp, exb_signature_test.cpp).

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/dump/json.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::test;

namespace {

// Two u32 words: the enum source (bit 31: a blackboard entry) and the enum value.
std::vector<std::uint8_t> enum_words(std::uint32_t source, std::uint32_t value) {
  std::vector<std::uint8_t> v;
  for (const auto word : {source, value}) {
    for (int b = 0; b < 4; ++b)
      v.push_back(static_cast<std::uint8_t>(word >> (8 * b)));
  }
  return v;
}

// A Brain class that picks a child by an enum (as TotK's SelectorBSABrainVerbUpdater): cases 7
// and 3, the default `__CHILD_ENUM_OTHER`; and a plug of another name on the same node, which
// carries no words.
AinbSpec enum_selector() {
  AinbSpec spec;
  spec.file_name = "Brain.root";
  spec.commands = {{"Root", 0, {}}};
  BuildNode brain{.name = "Brain"};
  brain.plugs = {{PlugKind::Child, 1, "__CHILD_ENUM[0]", 0, enum_words(0, 7)},
                 {PlugKind::Child, 2, "__CHILD_ENUM[1]", 0, enum_words(0, 3)},
                 {PlugKind::Child, 3, "__CHILD_ENUM_OTHER", 0, enum_words(0, 0)},
                 {PlugKind::Child, 3, "Fallback"}};
  spec.nodes = {brain, BuildNode{.name = "Walk"}, BuildNode{.name = "Run"},
                BuildNode{.name = "Idle"}};
  return spec;
}

}  // namespace

TEST_CASE("child plugs named __CHILD_ENUM carry an enum value: loaded, written, printed") {
  const auto bytes = build(enum_selector());
  const auto model = load(bytes, "Brain.root.ainb");
  const auto plugs = model->plugs_of(model->nodes[0], PlugKind::Child);
  REQUIRE(plugs.size() == 4);
  CHECK(std::get<EnumCondition>(plugs[0].data).value == 7);
  CHECK(std::get<EnumCondition>(plugs[1].data).value == 3);
  CHECK(std::holds_alternative<EnumCondition>(plugs[2].data));
  CHECK(std::holds_alternative<std::monostate>(plugs[3].data));  // another name: no words

  CHECK(writer::write(*model) == bytes);
  const auto text = writer::to_text(*model);
  CHECK(text["nodes"][0]["plugs"]["child"][1].dump() ==
        R"({"node":2,"node_name":"Run","name":"__CHILD_ENUM[1]","enum_value":3})");
  CHECK(writer::from_text(text) == bytes);
  // The text form refuses the value on a plug the loader would not read it from.
  auto wrong = text;
  wrong["nodes"][0]["plugs"]["child"][3]["enum_value"] = 1;
  CHECK_THROWS_WITH_AS(writer::from_text(wrong), doctest::Contains("enum_value"),
                       writer::TextFormError);

  const auto peer = nlohmann::json::parse(dump_peer_json(*model).dump());
  CHECK(
      peer["Nodes"][0]["Plugs"]["Standard Link"][0] ==
      nlohmann::json{
          {"Node Index", 1}, {"Plug Name", "__CHILD_ENUM[0]"}, {"Unknown 1", 0}, {"Unknown 2", 7}});
}

TEST_CASE("a scenario's child by enum value runs the plug carrying it, else the default") {
  const auto path = write_scratch("brain.ainb", build(enum_selector())).string();
  const auto run = [&](const std::string& child) {
    const auto scenario =
        write_scratch("brain.scenario.json", R"({"nodes": {"Brain": {"child": )" + child + "}}}");
    return ainb_cli({"run", path, "--scenario", scenario.string(), "--frames", "1", "--trace", "-",
                     "--format", "text"});
  };
  const auto three = run("3");
  CHECK(three.code == 0);
  CHECK(three.out.find("enter      #2 Run") != std::string::npos);
  CHECK(three.out.find("#1 Walk") == std::string::npos);
  const auto other = run("5");
  CHECK(other.out.find("enter      #3 Idle") != std::string::npos);
  CHECK(other.out.find("#2 Run") == std::string::npos);
  const auto named = run(R"("__CHILD_ENUM[0]")");
  CHECK(named.out.find("enter      #1 Walk") != std::string::npos);
  const auto negative = run("-1");
  CHECK(negative.code == 1);
  CHECK(negative.err.find("/nodes/Brain/child: expected a non-negative integer") !=
        std::string::npos);
}

TEST_CASE("an input's output index with bit 15 set: the peer layout prints it as stored") {
  // Toby.action.turn.module's ForceTurnDir: no source node, blackboard entry 0, index 0x8000.
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Vec3f, "Dir", Vec3f{}}};
  BuildNode turn{.name = "Turn"};
  turn.inputs = {{ParamType::Vec3f, "ForceTurnDir", -1, static_cast<std::int16_t>(-32768),
                  0x80000000u, Vec3f{}}};
  spec.nodes = {turn};
  const auto bytes = build(spec);
  const auto model = load(bytes, "turn.ainb");
  const auto& input = model->inputs_of(model->nodes[0], ParamType::Vec3f)[0];
  CHECK(input.set_blackboard());
  CHECK(input.source_output() == 0);
  const auto peer = nlohmann::json::parse(dump_peer_json(*model).dump());
  CHECK(peer["Nodes"][0]["Inputs"]["vec3f"][0]["Output Index"] == -32768);
  CHECK(writer::write(*model) == bytes);
}
