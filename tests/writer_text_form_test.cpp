// Editing the JSON text form: edits the loader reads back exactly, counts derived for what an
// edit leaves out, an enum resolve that follows its parameter, the bundled examples, and the
// JSON-path errors of text that is not a valid file.

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "ainb_builder.hpp"
#include "build_paths.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "text_form_examples.hpp"

using namespace ainb;
using namespace ainb::test;
using json = nlohmann::ordered_json;

namespace {

// The TextFormError message of `text` (fails the test when it converts).
std::string error_of(const json& text) {
  try {
    writer::from_text(text, "edited.json");
  } catch (const writer::TextFormError& e) {
    return e.what();
  }
  FAIL("expected a TextFormError");
  return {};
}

std::string_view pool_of(const Model& m) {
  const auto at = m.header.offsets[header_slot::kStringPool];
  return {reinterpret_cast<const char*>(m.bytes.data()) + at, m.bytes.size() - at};
}

}  // namespace

TEST_CASE("text form: expressions pass the EXB verifier and bindings their types, or it refuses") {
  auto text = example_text("hurry.root.json");
  // hurry's function 0: float in, float out, 4 bytes of static memory.
  text["expressions"]["functions"][0]["main"][1] = "MUL float GMem[0x4], float 2.0";
  CHECK(error_of(text) ==
        "/expressions: the EXB verifier refuses it: edited.json: EXB function 0 main block at "
        "offset 0x36c: instruction 1: static-memory offset 0x4 (+4) is outside its 4 bytes");
  text = example_text("hurry.root.json");
  text["expressions"]["functions"][0]["output"] = "BOOL";
  text["expressions"]["functions"][0]["main"] = {"STR bool Out[0x0], bool True", "END"};
  CHECK(error_of(text) ==
        "/: the written file does not load: edited.json: inputs/outputs at offset 0x2f4: input "
        "\"Speed\" (float) uses expression 0, which returns BOOL");
}

TEST_CASE("text form: keys that conflict or do not apply are errors, not dropped") {
  auto text = example_text("hurry.root.json");
  auto& speed = text["nodes"][1]["inputs"]["float"][0];  // bound to expression 0
  speed["blackboard"] = {{"index", 0}};
  CHECK(error_of(text) ==
        "/nodes/1/inputs/float/0: both \"blackboard\" and \"expression\": a "
        "parameter has one source");
  text = example_text("hurry.root.json");
  text["nodes"][1]["inputs"]["float"][1]["sources"] = json::array();  // Urgency: a blackboard read
  CHECK(error_of(text) ==
        "/nodes/1/inputs/float/1: both \"sources\" and \"blackboard\": a "
        "multi-source input takes its sources from its list");
  text = example_text("hurry.root.json");
  text["nodes"][0]["plugs"]["child"][0]["condition"] = 9;  // a Sequential's child
  CHECK(error_of(text) ==
        "/nodes/0/plugs/child/0: field \"condition\" does not apply to a child "
        "plug of Element_Sequential");
  text = example_text("hurry.root.json");
  text["blackboard"]["f32"][0]["default"] = 1e300;  // would become an infinity
  CHECK(error_of(text) ==
        "/blackboard/f32/0/default: 1e+300 is out of float32's range (write "
        "\"inf\" or \"-inf\" for an infinity)");
  text["blackboard"]["f32"][0]["default"] = "NaN";
  CHECK(error_of(text) ==
        "/blackboard/f32/0/default: expected a number or \"nan\", \"inf\", \"-inf\", got \"NaN\"");
  text = example_text("hurry.root.json");
  text["nodes"][0]["flags"] = {"root", "bogus"};
  CHECK(error_of(text) ==
        "/nodes/0/flags/1: unknown flag \"bogus\" (known: query, module, root, "
        "multi_param_type_2, or a hex number for other bits)");
  text = example_text("hurry.root.json");
  text["nodes"][0]["plugs"]["child"][0]["bogus"] = 1;
  CHECK(error_of(text) ==
        "/nodes/0/plugs/child/0: field \"bogus\" does not apply to a child "
        "plug of Element_Sequential");
}

TEST_CASE("text form: an edit that binds expressions or adds an output node gets derived counts") {
  auto text = example_text("hurry.root.json");
  auto& nodes = text["nodes"];
  const auto added = nodes.size();
  // A new node with two float inputs and a float property bound to function 0 (float -> float),
  // and a module output node.
  nodes.push_back(
      {{"index", added},
       {"type", "UserDefined"},
       {"name", "Sprint"},
       {"properties", {{"float", {{{"name", "Scale"}, {"value", 1.0}, {"expression", 0}}}}}},
       {"inputs",
        {{"float",
          {{{"name", "A"}, {"default", 0.5}, {"expression", 0}},
           {{"name", "B"}, {"default", 0.5}, {"expression", 0}}}}}}});
  nodes.push_back(
      {{"index", added + 1}, {"type", "Element_ModuleIF_Output_Bool"}, {"name", "Done"}});
  // A stated value is kept as given, even when it disagrees.
  nodes[1]["exb_io_size"] = 8;

  const auto model = load(writer::from_text(text, "edited.ainb"), "edited.ainb");
  CHECK(model->nodes[added].exb_function_count == 3);
  CHECK(model->nodes[added].exb_io_size == 12);
  CHECK(model->nodes[added + 1].exb_function_count == 0);
  CHECK(model->header.output_node_count == 1);
  CHECK(model->nodes[1].exb_function_count == 1);
  CHECK(model->nodes[1].exb_io_size == 8);
  // Written back, only the disagreeing value is stated.
  const auto again = writer::to_text(*model);
  CHECK(again["nodes"][1]["exb_io_size"] == 8);
  CHECK_FALSE(again["nodes"][1].contains("exb_functions"));
  CHECK_FALSE(again["nodes"][added].contains("exb_functions"));
}

TEST_CASE("text form: a 0x404 enum resolve follows the parameter it patches through an edit") {
  // Splatoon 3 files patch enum values in at load time through absolute file offsets. The text
  // names the parameter entry instead, so an edit that moves the entry moves the patch.
  AinbSpec spec;
  spec.version = kVersion404;
  spec.commands = {{"Root", 0, {}}};
  BuildNode root{.type = NodeType::Sequential, .flags = node_flags::kIsRoot};
  root.plugs = {{PlugKind::Child, 1, "A", 0}};
  BuildNode user{.name = "Act"};
  user.properties = {{ParamType::Int, "Mode", std::int32_t{0}, 0},
                     {ParamType::Int, "Kind", std::int32_t{0}, 0}};
  spec.nodes = {root, user};
  auto text = reparse(writer::to_text(*load(build(spec), "s3.ainb")));
  text["enum_resolves"] = {
      {{"patch", {{"node", 1}, {"property", "int"}, {"index", 1}, {"offset", 8}}},
       {"class", "Game::KindType"},
       {"value", "Heavy"}},
      {{"patch_offset", "0x8"}, {"class", "Game::Other"}, {"value", "Header"}}};
  const auto patched = [](const Model& m) {
    return m.properties_of(m.nodes[1], ParamType::Int)[1].offset + 8;
  };

  const auto first = load(writer::from_text(text, "s3.ainb"), "s3.ainb");
  REQUIRE(first->enum_resolves.size() == 2);
  CHECK(first->enum_resolves[0].patch_offset == patched(*first));
  CHECK(first->enum_resolves[0].class_name == "Game::KindType");
  CHECK(first->enum_resolves[1].patch_offset == 8);  // in no parameter: kept as an offset
  // Written back, the text names the entry again.
  const auto again = writer::to_text(*first);
  CHECK(again["enum_resolves"][0]["patch"] == text["enum_resolves"][0]["patch"]);
  CHECK(again["enum_resolves"][1]["patch_offset"] == "0x8");

  // A node added moves the parameters (its entry and body come first); the patch follows.
  text["nodes"].push_back({{"index", 2}, {"type", "UserDefined"}, {"name", "Added"}});
  const auto edited = load(writer::from_text(text, "s3.ainb"), "s3.ainb");
  CHECK(patched(*edited) > patched(*first));
  CHECK(edited->enum_resolves[0].patch_offset == patched(*edited));

  // Bad targets name their JSON path.
  text["enum_resolves"][0]["patch"]["index"] = 2;
  CHECK(error_of(text) ==
        "/enum_resolves/0/patch/index: index 2 out of range (file has 2 int properties of node 1)");
  text["enum_resolves"][0]["patch"]["index"] = 1;
  text["enum_resolves"][0]["patch"]["offset"] = 9;
  CHECK(error_of(text) == "/enum_resolves/0/patch/offset: 9 is out of range [0, 8]");
}

TEST_CASE("text form: edited JSON gives a file the loader reads back with exactly those edits") {
  const auto dir = corpus_dir();
  if (dir.empty()) return;
  const auto original = load_file(dir / "ainb/Accessory_Battery_Event.event.root.ainb");
  auto text = reparse(writer::to_text(*original));
  const auto nodes = original->nodes.size();
  const auto commands = original->commands.size();

  // Renames.
  text["nodes"][0]["name"] = "RenamedFirst";
  text["nodes"][5]["name"] = "RenamedFifth";
  // Property changes: find an int and a string property.
  std::size_t int_node = 0, string_node = 0;
  for (std::size_t i = 0; i < text["nodes"].size(); ++i) {
    const auto& n = text["nodes"][i];
    if (!n.contains("properties")) continue;
    if (int_node == 0 && n["properties"].contains("int")) int_node = i;
    if (string_node == 0 && n["properties"].contains("string")) string_node = i;
  }
  REQUIRE(int_node != 0);
  REQUIRE(string_node != 0);
  text["nodes"][int_node]["properties"]["int"][0]["value"] = 4242;
  text["nodes"][string_node]["properties"]["string"][0]["value"] = "EditedValue";
  // Two new nodes; node 0 gets a child plug to the first, which gets one to the second.
  text["nodes"].push_back({{"index", nodes},
                           {"type", "UserDefined"},
                           {"name", "AddedAction"},
                           {"properties", {{"float", {{{"name", "Speed"}, {"value", 1.5}}}}}},
                           {"plugs", {{"child", {{{"node", nodes + 1}, {"name", "Next"}}}}}}});
  text["nodes"].push_back({{"index", nodes + 1}, {"type", "UserDefined"}, {"name", "AddedLeaf"}});
  const auto root = text["commands"][0]["root"].get<std::size_t>();
  text["nodes"][root]["plugs"]["child"].push_back({{"node", nodes}, {"name", "Added"}});
  // Two removed commands.
  const auto removed3 = text["commands"][3]["name"].get<std::string>();
  const auto removed10 = text["commands"][10]["name"].get<std::string>();
  text["commands"].erase(10);
  text["commands"].erase(3);

  const auto bytes = writer::from_text(text, "edited.ainb");
  const auto edited = load(bytes, "edited.ainb");
  REQUIRE(edited->nodes.size() == nodes + 2);
  CHECK(edited->nodes[0].name == "RenamedFirst");
  CHECK(edited->nodes[0].name_hash == writer::murmur3_32("RenamedFirst"));
  CHECK(edited->nodes[5].name == "RenamedFifth");
  CHECK(std::get<std::int32_t>(
            edited->properties_of(edited->nodes[int_node], ParamType::Int)[0].value) == 4242);
  CHECK(std::get<std::string_view>(
            edited->properties_of(edited->nodes[string_node], ParamType::String)[0].value) ==
        "EditedValue");
  const auto& added = edited->nodes[nodes];
  CHECK(added.name == "AddedAction");
  REQUIRE(edited->properties_of(added, ParamType::Float).size() == 1);
  CHECK(std::get<float>(edited->properties_of(added, ParamType::Float)[0].value) == 1.5f);
  REQUIRE(edited->plugs_of(added, PlugKind::Child).size() == 1);
  CHECK(edited->plugs_of(added, PlugKind::Child)[0].target == nodes + 1);
  CHECK(edited->nodes[nodes + 1].name == "AddedLeaf");
  const auto root_children = edited->plugs_of(edited->nodes[root], PlugKind::Child);
  REQUIRE(!root_children.empty());
  CHECK(root_children.back().target == nodes);
  CHECK(root_children.back().name == "Added");
  REQUIRE(edited->commands.size() == commands - 2);
  for (const auto& c : edited->commands) {
    CHECK(c.name != removed3);
    CHECK(c.name != removed10);
  }
  // Everything else as it was: the other nodes, and the string pool, whose strings stay where
  // they were with the new ones appended.
  for (std::size_t i = 1; i < nodes; ++i) {
    if (i == 5) continue;
    CHECK(edited->nodes[i].name == original->nodes[i].name);
    CHECK(edited->nodes[i].guid == original->nodes[i].guid);
  }
  CHECK(pool_of(*edited).starts_with(pool_of(*original)));
  CHECK(pool_of(*edited).substr(pool_of(*original).size()).find("RenamedFirst") !=
        std::string_view::npos);
}

TEST_CASE("text form: invalid JSON gives errors naming the JSON path") {
  const auto base = example_text();
  const auto with = [&](auto&& edit) {
    auto text = base;
    edit(text);
    return error_of(text);
  };
  CHECK(with([](json& t) {
          t["nodes"][4]["inputs"]["float"][0]["source"] = {{"node", 97}, {"output", 0}};
        }) == "/nodes/4/inputs/float/0/source/node: index 97 out of range (file has 10 nodes)");
  CHECK(with([](json& t) {
          t["nodes"][4]["inputs"]["float"][0]["source"] = {{"node", 4}, {"output", 3}};
        }) ==
        "/nodes/4/inputs/float/0/source/output: index 3 out of range (file has 1 float outputs "
        "on node 4)");
  CHECK(with([](json& t) { t["nodes"][0]["properties"]["int"][0]["value"] = "many"; }) ==
        "/nodes/0/properties/int/0/value: \"many\" is not an integer");
  CHECK(with([](json& t) { t["nodes"][0]["properties"]["bool"][0]["value"] = 1; }) ==
        "/nodes/0/properties/bool/0/value: expected true or false, got an integer");
  CHECK(with([](json& t) { t["nodes"][2].erase("type"); }) == "/nodes/2: missing field \"type\"");
  CHECK(with([](json& t) { t["nodes"][2]["type"] = "Element_Teleport"; }) ==
        "/nodes/2/type: unknown node type \"Element_Teleport\"");
  CHECK(with([](json& t) { t["nodes"][3]["plugs"]["child"][1]["node"] = 10; }) ==
        "/nodes/3/plugs/child/1/node: index 10 out of range (file has 10 nodes)");
  CHECK(with([](json& t) { t["nodes"][3]["plugs"]["wire"] = json::array(); }) ==
        "/nodes/3/plugs/wire: unknown plug kind \"wire\"");
  CHECK(with([](json& t) { t["nodes"][1]["inputs"]["bool"][0]["blackboard"]["index"] = 5; }) ==
        "/nodes/1/inputs/bool/0/blackboard/index: index 5 out of range (file has 1 bool "
        "blackboard entries)");
  CHECK(with([](json& t) {
          auto& input = t["nodes"][1]["inputs"]["bool"][0];
          input.erase("blackboard");
          input["expression"] = 0;
        }) == "/nodes/1/inputs/bool/0/expression: index 0 out of range (file has 0 expressions)");
  CHECK(with([](json& t) { t["commands"][1]["root"] = -1; }) ==
        "/commands/1/root: index -1 out of range (file has 10 nodes)");
  CHECK(with([](json& t) { t["nodes"][6]["index"] = 7; }) ==
        "/nodes/6/index: index 7 does not match the node's position 6");
  CHECK(with([](json& t) { t["version"] = "0x409"; }) ==
        "/version: unsupported AINB version 0x409");
  CHECK(with([](json& t) { t["blackboard"]["u32"] = json::array(); }) ==
        "/blackboard/u32: no blackboard type \"u32\" in version 0x407");
  CHECK(with([](json& t) {
          t["nodes"][5]["properties"]["float"][0]["value"] = {1, 2};
        }) == "/nodes/5/properties/float/0/value: expected a number, got an array");
  CHECK(with([](json& t) { t["nodes"][0]["guid"] = "not-a-guid"; }) ==
        "/nodes/0/guid: \"not-a-guid\" is not a GUID (8-4-4-4-12 hex digits)");
  CHECK(with([](json& t) { t["nodes"] = json::object(); }) ==
        "/nodes: expected an array, got an object");
  CHECK(error_of(json::array()) == "/: expected an object, got an array");
  CHECK(with([](json& t) { t["nodes"][5]["propertes"] = json::object(); }) ==
        "/nodes/5: unknown field \"propertes\"");
  // Every object of the form checks its fields, not only nodes.
  CHECK(with([](json& t) { t["blackboard"]["bool"][0]["defualt"] = true; }) ==
        "/blackboard/bool/0: unknown field \"defualt\"");
  CHECK(with([](json& t) { t["commands"][0]["rot"] = 1; }) == "/commands/0: unknown field \"rot\"");
  CHECK(with([](json& t) { t["header"]["output_nodes"] = 1; }) ==
        "/header: unknown field \"output_nodes\"");
  CHECK(with([](json& t) { t["layout"]["strngs"] = json::array(); }) ==
        "/layout: unknown field \"strngs\"");
  CHECK(with([](json& t) {
          t["modules"] = {{{"path", "A.module"}, {"category", "AI"}, {"instances", 1}}};
        }) == "/modules/0: unknown field \"instances\"");
  CHECK(with([](json& t) {
          t["blackboard_files"] = {{{"path", "Work/A.gyml"}, {"hash", 1}}};
        }) == "/blackboard_files/0: unknown field \"hash\"");
  CHECK(with([](json& t) {
          t["expressions"] = {{"version", 2},
                              {"static_size", 8},
                              {"instance_count", 1},
                              {"scratch32_size", 0},
                              {"scratch64_size", 0},
                              {"functions",
                               {{{"input", "NONE"},
                                 {"output", "BOOL"},
                                 {"static_size", 8},
                                 {"scratch32_size", 0},
                                 {"scratch64_size", 0},
                                 {"main", {"STR bool Out[0x0], bool True", "JMP 0x40"}}}}}};
        }) ==
        "/expressions/functions/0/main/1: jump address 0x40 is not an instruction of the "
        "block");
}

TEST_CASE("text form: fields the format stores narrower are refused, not wrapped") {
  // s32 values before the f32 ones: 16,400 x 4 bytes puts the f32 section's offset past 16 bits;
  // wrapped, it would give PatrolSpeed another entry's bytes.
  auto text = example_text();
  auto& s32 = text["blackboard"]["s32"] = json::array();
  for (int i = 0; i < 16'400; ++i)
    s32.push_back({{"name", "E" + std::to_string(i)}, {"default", 0}});
  CHECK(error_of(text) ==
        "/: the blackboard's first f32 value offset is 65600, past the 16 bits "
        "the format stores (65,535)");
  // A NUL would end the stored string there.
  auto nul = example_text();
  nul["file_name"] = std::string("patrol\0copy", 11);
  CHECK(error_of(nul) == "/file_name: a string cannot hold a NUL character (\\u0000)");
}

TEST_CASE("text form: the bundled example's JSON compiles to the file the build ships") {
  const auto text = example_text();
  const auto bytes = writer::from_text(text, "patrol.root.json");
  std::ifstream in(ainb::test::examples_dir() / "patrol.root.ainb", std::ios::binary);
  REQUIRE(in);
  const std::vector<std::uint8_t> built{std::istreambuf_iterator<char>(in),
                                        std::istreambuf_iterator<char>()};
  CHECK(bytes == built);
  const auto model = load(bytes, "patrol.root.ainb");
  CHECK(model->nodes.size() == 10);
  CHECK(writer::to_text(*model)["nodes"] == text["nodes"]);
}

TEST_CASE("the hurry example: an expression authored as assembly in JSON, compiled by the build") {
  const auto path = ainb::test::examples_dir() / "hurry.root.ainb";
  const auto model = load_file(path);
  REQUIRE(model->expressions.has_value());
  CHECK(model->expressions->instructions.size() == 5);
  const auto r = ainb_cli({"eval", path.string(), "--function", "0", "--input", "1.5"});
  CHECK(r.code == 0);
  CHECK(r.out == "FLOAT 3.25\n");  // 1.5 * 2 + 0.25
  const auto speed = model->inputs_of(model->nodes[1], ParamType::Float)[0];
  CHECK(speed.flags.source() == ParamFlags::Source::Expression);
  CHECK(speed.flags.raw == 0xC2000000u);
}

TEST_CASE("text form: any value of the examples replaced by a wrong one gives a TextFormError") {
  // Every leaf of the examples' JSON, replaced in turn by values of other types and out-of-range
  // numbers: the result converts, or fails with a TextFormError; nothing else escapes.
  const std::vector<json> replacements = {nullptr,        "x", -1, 70000, 1.5, json::array(),
                                          json::object(), true};
  for (const auto* name : {"patrol.root.json", "hurry.root.json"}) {
    const auto base = example_text(name);
    const auto flat = base.flatten();
    std::size_t converted = 0, rejected = 0;
    for (const auto& item : flat.items()) {
      const std::string pointer = item.key();  // CAPTURE cannot capture a binding in clang 14
      for (const auto& replacement : replacements) {
        auto edited = base;
        edited[json::json_pointer(pointer)] = replacement;
        CAPTURE(pointer);
        CAPTURE(replacement.dump());
        try {
          writer::from_text(edited, "fuzz.json");
          ++converted;
        } catch (const writer::TextFormError&) {
          ++rejected;
        }
      }
    }
    CHECK(rejected > converted);
    CHECK(converted + rejected == flat.size() * replacements.size());
  }
}

TEST_CASE("text form: what can default may be left out") {
  // Only version, file_name, category and nodes (and a user node's class) are required.
  const auto minimal = nlohmann::ordered_json::parse(R"({
    "version": "0x407", "file_name": "Minimal", "category": "AI",
    "commands": [{"name": "Root", "root": 0}],
    "nodes": [{"type": "Element_Sequential", "plugs": {"child": [{"node": 1}, {"node": 2}]}},
              {"type": "UserDefined", "name": "Walk"}, {"type": "UserDefined", "name": "Rest"}]})");
  auto spelled = minimal;
  spelled["blackboard"] = nlohmann::ordered_json::object();
  spelled["modules"] = nlohmann::ordered_json::array();
  spelled["nodes"][0]["name"] = "";
  for (auto& plug : spelled["nodes"][0]["plugs"]["child"])
    plug["name"] = "";
  const auto bytes = writer::from_text(minimal, "Minimal.ainb");
  CHECK(bytes == writer::from_text(spelled, "Minimal.ainb"));
  const auto model = load(bytes, "Minimal.ainb");
  CHECK(model->commands.size() == 1);
  CHECK(model->blackboard.entries.empty());

  auto nameless = minimal;
  nameless["nodes"][1].erase("name");
  CHECK_THROWS_WITH_AS(writer::from_text(nameless, "Minimal.ainb"),
                       "/nodes/1: missing field \"name\"", writer::TextFormError);
  auto no_commands = minimal;
  no_commands.erase("commands");  // a Logic-style file: no commands
  CHECK(load(writer::from_text(no_commands, "Minimal.ainb"), "Minimal.ainb")->commands.empty());
}
