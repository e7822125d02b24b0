// The writer and the JSON text form: byte-exact round trips of the corpus (through the model,
// through the text, EXB through its assembly), hand-made 0x404/0x408 files, edits that the loader
// reads back exactly, and the JSON-path errors of invalid text.

#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "commands.hpp"
#include "corpus.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::test;
using json = nlohmann::ordered_json;

using ainb::test::ainb_cli;

namespace {

// The text as a person stores it: printed, then parsed again.
json reparse(const json& text) {
  return json::parse(text.dump(2));
}

json example_text(const std::string& name = "patrol.root.json") {
  std::ifstream in(std::filesystem::path(AINB_SOURCE_DIR) / "examples" / name);
  REQUIRE(in);
  return json::parse(in);
}

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

TEST_CASE("writer: every real file comes back byte for byte from its model") {
  const auto files = all_real_ainb_files();
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    const auto bytes = writer::write(*model);
    CHECK(bytes == model->bytes);
    CHECK_FALSE(writer::first_difference(*model, bytes).has_value());
  }
  if (!corpus_dir().empty()) CHECK(files.size() == 12 + 109);
}

TEST_CASE("text form: every real file comes back byte for byte through JSON") {
  for (const auto& path : all_real_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    const auto text = writer::to_text(*model);
    const auto bytes = writer::from_text(reparse(text), path.string());
    CHECK(bytes == model->bytes);
  }
}

TEST_CASE("text form: JSON to AINB to JSON is stable for every real file") {
  for (const auto& path : all_real_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto text = writer::to_text(*load_file(path));
    const auto again = writer::to_text(*load(writer::from_text(reparse(text)), "again.ainb"));
    CHECK(again == text);
  }
}

TEST_CASE("blackboard file references: the hashes follow from the path") {
  const auto ref = writer::file_reference("Work/Gdyml/game__enemy__TobyParam.gdyml");
  CHECK(ref.path_hash == 0xaa5575b3u);  // as Toby.action.basicattack.module.ainb stores them
  CHECK(ref.name_hash == 0xaaae85ceu);
  CHECK(ref.extension_hash == 0x9c20feb5u);
  // The name runs to the last dot: "Horablin.engine__component__BlackboardParamTable".
  const auto table = writer::file_reference(
      "Work/Component/Blackboard/BlackboardParamTable/"
      "Horablin.engine__component__BlackboardParamTable.gyml");
  CHECK(table.name_hash == 0x7011d0f2u);
  CHECK(table.extension_hash == 0x0b68a737u);
}

TEST_CASE("the derived fields agree with every corpus file, so the text form leaves them out") {
  std::size_t nodes = 0, with_expressions = 0, attachments = 0;
  for (const auto& path : corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    for (const auto& n : model->nodes) {
      CAPTURE(n.index);
      const auto use = expression_use(*model, n);
      CHECK(use.function_count == n.exb_function_count);
      CHECK(use.io_size == n.exb_io_size);
      ++nodes;
      with_expressions += use.function_count != 0 ? 1 : 0;
    }
    for (const auto& a : model->attachments) {
      const auto use = expression_use(*model, a);
      CHECK(use.function_count == a.exb_function_count);
      CHECK(use.io_size == a.exb_io_size);
      ++attachments;
    }
    CHECK(module_output_node_count(*model) == model->header.output_node_count);
    for (const auto& f : model->blackboard.file_references) {
      const auto derived = writer::file_reference(f.path);
      CHECK(derived.path_hash == f.path_hash);
      CHECK(derived.name_hash == f.name_hash);
      CHECK(derived.extension_hash == f.extension_hash);
    }
    const auto text = writer::to_text(*model);
    CHECK_FALSE(text["header"].contains("output_node_count"));
    for (const auto& n : text["nodes"]) {
      CHECK_FALSE(n.contains("exb_functions"));
      CHECK_FALSE(n.contains("exb_io_size"));
    }
    if (text.contains("blackboard_files")) {
      for (const auto& f : text["blackboard_files"])
        CHECK(f.size() == 1);  // the path alone
    }
  }
  if (!corpus_dir().empty()) {
    CHECK(nodes == 1005);
    CHECK(with_expressions == 22);
    CHECK(attachments == 12);
  }
}

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

TEST_CASE("exb assembler: every corpus expression section assembles back byte for byte") {
  std::size_t sections = 0, lines = 0;
  for (const auto& path : corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    CAPTURE(path.filename().string());
    const auto& s = *model->expressions;
    const auto begin = model->header.offsets[header_slot::kExpressions];
    const std::vector<std::uint8_t> original(
        model->bytes.begin() + begin,
        model->bytes.begin() + model->header.offsets[header_slot::kModules]);
    CHECK(exb::encode(s) == original);
    const auto source = exb::to_assembly(s);
    CHECK(exb::assemble(source) == original);
    ++sections;
    for (const auto& f : source.functions)
      lines += f.main.size() + (f.setup ? f.setup->size() : 0);
  }
  if (!corpus_dir().empty()) {
    CHECK(sections == 6);
    CHECK(lines == 144);
  }
}

TEST_CASE("exb assembler: the text of a parameter-region constant and its errors") {
  exb::AssemblySource src;
  src.version = 2;
  src.param_region = {0, 0, 0, 0, 0, 0, 0, 0};  // two zero words
  exb::AssemblyFunction fn;
  fn.output_type = exb::DataType::Float;
  fn.static_size = 0x10;
  fn.main = {"STR float GMem[0x0], float @imm 7.0",
             "STR float GMem[0x4], float 7.0",
             "STR int GMem[0x8], int -3",
             "STR int GMem[0xc], int @param[0x4] 0",
             "CFN GetBBCodeFloat( Float, Int ), GMem[0x8]",
             "END"};
  src.functions = {fn};
  const auto bytes = exb::assemble(src);
  const auto s = exb::decode(ByteReader(bytes, "test"));
  REQUIRE(s.instructions.size() == 6);
  CHECK(s.instructions[0].rhs.source == exb::Source::Immediate);
  CHECK(s.instructions[0].rhs.value == 7);
  CHECK(s.instructions[1].rhs.source == exb::Source::ParamTable);
  CHECK(s.instructions[1].rhs.value == 8);  // appended after the two words
  CHECK(s.instructions[2].rhs.source == exb::Source::ParamTable);
  CHECK(s.instructions[2].rhs.value == 12);
  CHECK(s.instructions[3].rhs.value == 4);  // the offset asked for, which holds the value
  CHECK(s.instructions[4].raw[1] == 4);     // CFN: the result type (v2 FLOAT)
  CHECK(s.signatures.at(0) == "GetBBCodeFloat( Float, Int )");

  fn.main = {"STR float GMem[0x0], float 1.0", "FOO int GMem[0x0], int 1"};
  src.functions = {fn};
  CHECK_THROWS_WITH_AS(exb::assemble(src), "expression 0 main line 1: unknown mnemonic \"FOO\"",
                       exb::AssemblyError);
  fn.main = {"STR float GMem[0x0], float @imm 1.5"};
  src.functions = {fn};
  try {
    exb::assemble(src);
    FAIL("expected an AssemblyError");
  } catch (const exb::AssemblyError& e) {
    CHECK(std::string(e.what()) ==
          "expression 0 main line 0: float 1.5 does not fit an immediate (a whole number "
          "0..65535)");
    CHECK(e.function() == 0u);
    CHECK(e.block() == "main");
    CHECK(e.line() == 0);
  }
  fn.main = {"ADD int GMem[0x0], float 1.0"};
  src.functions = {fn};
  CHECK_THROWS_WITH_AS(exb::assemble(src),
                       "expression 0 main line 0: operand \"float 1.0\" is not of the "
                       "instruction's type INT",
                       exb::AssemblyError);
  // Values past their 32-bit type are refused, not wrapped (99999999999 became 1215752191) or
  // made infinite; the extremes themselves are kept.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"STR int GMem[0x0], int 99999999999", "int 99999999999 is past the 32-bit signed range"},
      {"STR int GMem[0x0], int 2147483648", "int 2147483648 is past the 32-bit signed range"},
      {"STR float GMem[0x0], float 1e40", "float 1e40 is past float's range (about 3.4e38)"}};
  for (const auto& [line, message] : refused) {
    fn.main = {line, "END"};
    src.functions = {fn};
    CHECK_THROWS_WITH_AS(exb::assemble(src), ("expression 0 main line 0: " + message).c_str(),
                         exb::AssemblyError);
  }
  fn.main = {"STR int GMem[0x0], int -2147483648", "STR int GMem[0x4], int 2147483647",
             "STR float GMem[0x8], float inf", "END"};
  src.functions = {fn};
  CHECK_NOTHROW(exb::assemble(src));
}

TEST_CASE("writer: murmur3 name hashes are those of the corpus's node entries") {
  CHECK(writer::murmur3_32("") == 0);
  CHECK(writer::murmur3_32("hello") == 0x248bfa47u);
  for (const auto& path : corpus_ainb_files()) {
    const auto model = load_file(path);
    if (model->version() == kVersion404) continue;
    for (const auto& n : model->nodes)
      CHECK(n.name_hash == writer::murmur3_32(n.name));
  }
}

TEST_CASE("writer: hand-made 0x404 and 0x408 files round trip through the model and JSON") {
  AinbSpec spec;
  spec.version = kVersion408;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::U32, "Mask", std::uint32_t{0xF0F0F0F0u}},
                     {BlackboardType::S32, "Count", std::int32_t{-5}},
                     {BlackboardType::Vec3f, "Where", Vec3f{1, 2, 3}, "notes", 1}};
  BuildNode root{.type = NodeType::RandomSelector, .flags = node_flags::kIsRoot};
  root.plugs = {{PlugKind::Child, 1, "A", 0, random_weight(0.25f)},
                {PlugKind::Child, 2, "B", 0, random_weight(0.75f)}};
  BuildNode fork{.type = NodeType::Fork};
  fork.plugs = {{PlugKind::Transition, 2, "", 0}};
  BuildNode user{.name = "Act"};
  user.properties = {{ParamType::Int, "Count", std::int32_t{0}, 0x80000000u}};
  spec.nodes = {root, fork, user};
  spec.transitions = {{1, ""}, {0x80000000u, "Root"}};
  spec.replacements = {{0, 0, 1, 0}};
  const auto bytes = build(spec);
  const auto model = load(bytes, "hand.ainb");
  CHECK(writer::write(*model) == bytes);
  CHECK(writer::from_text(reparse(writer::to_text(*model))) == bytes);

  spec.version = kVersion404;
  spec.blackboard = {{BlackboardType::F32, "Speed", 2.5f}};
  spec.transitions = {};
  spec.replacements = {};
  spec.nodes[1].plugs = {};
  spec.nodes[2].properties = {{ParamType::Float, "Speed", 0.0f, 0x80000000u}};
  const auto bytes404 = build(spec);
  const auto model404 = load(bytes404, "hand404.ainb");
  CHECK(writer::write(*model404) == bytes404);
  CHECK(writer::from_text(reparse(writer::to_text(*model404))) == bytes404);
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
  // s32 values before the f32 ones: 16,400 x 4 bytes puts the f32 section's offset past 16 bits,
  // which used to wrap and give PatrolSpeed another entry's bytes.
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
  std::ifstream in(std::filesystem::path(AINB_EXAMPLES_DIR) / "patrol.root.ainb", std::ios::binary);
  REQUIRE(in);
  const std::vector<std::uint8_t> built{std::istreambuf_iterator<char>(in),
                                        std::istreambuf_iterator<char>()};
  CHECK(bytes == built);
  const auto model = load(bytes, "patrol.root.ainb");
  CHECK(model->nodes.size() == 10);
  CHECK(writer::to_text(*model)["nodes"] == text["nodes"]);
}

namespace {

std::vector<std::uint8_t> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("ainb convert: AINB to JSON to AINB gives the file back and --check says so") {
  const auto dir = corpus_dir();
  if (dir.empty()) return;
  const auto source = (dir / "ainb/NpcTripMaster.utility.root.ainb").string();
  const auto text = (ainb::test::scratch_dir() / "writer_cli_npc.json").string();
  const auto back = (ainb::test::scratch_dir() / "writer_cli_npc.ainb").string();
  auto r = ainb_cli({"convert", source, text});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  CHECK(json::parse(read_all(text))["format"] == "ainb-text/1");
  r = ainb_cli({"convert", text, back});
  CHECK(r.code == 0);
  CHECK(read_all(back) == read_all(source));
  r = ainb_cli({"convert", "--check", source});
  CHECK(r.code == 0);
  CHECK(r.out ==
        source + ": byte-exact round trip through the writer and the text form (1858 bytes)\n");
}

TEST_CASE("ainb convert --check reports the first differing offset and its section") {
  // An S32 selector condition whose blackboard flag half-word has an unknown bit instead of bit
  // 15: the loader keeps only "no blackboard", so the writer writes 0 there.
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode root{.type = NodeType::S32Selector, .flags = node_flags::kIsRoot};
  root.inputs = {{ParamType::Int, "Input", -1, 0, 0, std::int32_t{1}}};
  root.plugs = {{PlugKind::Child, 1, "One", 0, {0, 0, 0x01, 0, 1, 0, 0, 0}},
                {PlugKind::Child, 1, "Default", 0, s32_condition(0)}};
  spec.nodes = {root, BuildNode{.name = "Leaf"}};
  const auto bytes = build(spec);
  const auto path = ainb::test::write_scratch("writer_cli_check.ainb", bytes);
  const auto model = load(bytes, "check.ainb");
  const auto at = model->plugs_of(model->nodes[0], PlugKind::Child)[0].offset + 10;
  const auto r = ainb_cli({"convert", "--check", path.string()});
  CHECK(r.code == 1);
  const auto line = [&](std::string_view how) {
    return fmt::format(
        "{}: round trip through {} differs: first difference at offset {:#x} (node bodies (node "
        "0)): 0x01 in the file, 0x00 written\n",
        path.string(), how, at);
  };
  CHECK(r.out == line("the writer") + line("the text form"));
}

TEST_CASE("ainb convert: a bad edit names the JSON path, and usage errors") {
  auto text = example_text();
  text["nodes"][3]["plugs"]["child"][0]["node"] = 42;
  const auto path = ainb::test::write_scratch("writer_cli_bad.json", text.dump(2)).string();
  auto r =
      ainb_cli({"convert", path, (ainb::test::scratch_dir() / "writer_cli_bad.ainb").string()});
  CHECK(r.code == 1);
  CHECK(r.err == "error: " + path +
                     ": /nodes/3/plugs/child/0/node: index 42 out of range (file has 10 nodes)\n");
  ainb::test::write_file(path, "{\"nodes\": [");
  r = ainb_cli({"convert", path, (ainb::test::scratch_dir() / "writer_cli_bad.ainb").string()});
  CHECK(r.code == 1);
  CHECK(r.err.starts_with("error: " + path + ": not JSON: [json.exception.parse_error.101]"));
  r = ainb_cli({"convert", path});
  CHECK(r.code == 2);
  CHECK(r.err == "error: convert needs IN and OUT (or --check IN)\n");
  r = ainb_cli({"convert", "--check", path});
  CHECK(r.code == 2);
  CHECK(r.err == "error: --check takes an AINB file\n");
}

TEST_CASE("ainb convert: a written file that is likely a mistake gives warnings") {
  // Both commands named Root, and Root's Sequential a child of itself: the file loads, but
  // `ainb run` refuses its graph, so it is written only with --force, with a warning each.
  auto text = example_text();
  text["commands"][1]["name"] = "Root";
  text["nodes"][0]["plugs"]["child"].push_back({{"node", 0}, {"name", ""}});
  const auto path = ainb::test::write_scratch("writer_doubtful.json", text.dump(2)).string();
  const auto out = (ainb::test::scratch_dir() / "writer_doubtful.ainb").string();
  std::filesystem::remove(out);
  const auto refused = ainb_cli({"convert", path, out});
  CHECK(refused.code == 1);
  CHECK(refused.err == "error: " + out +
                           ": ainb run refuses it: nodes at offset 0xa4: node 0 is its own "
                           "descendant through child plugs (from node 0): a cycle would never "
                           "finish\nnot written (--force writes it all the same)\n");
  CHECK_FALSE(std::filesystem::exists(out));
  const auto r = ainb_cli({"convert", path, out, "--force"});
  CHECK(r.code == 0);
  CHECK(r.err ==
        "warning: " + out +
            ": command \"Root\" is given more than once\n"
            "warning: " +
            out +
            ": ainb run refuses it: nodes at offset 0xa4: node 0 is its "
            "own descendant through child plugs (from node 0): a cycle would never finish\n");
  // The example itself gives none.
  CHECK(
      ainb_cli({"convert",
                (std::filesystem::path(AINB_SOURCE_DIR) / "examples" / "patrol.root.json").string(),
                out})
          .err.empty());
}

TEST_CASE("ainb convert: a misnamed built-in plug is not written unless forced") {
  auto text = example_text();
  bool renamed = false;
  for (auto& node : text["nodes"]) {
    if (node["type"] != "Element_BoolSelector") continue;
    for (auto& plug : node["plugs"]["child"]) {
      if (plug["name"] == "True") plug["name"] = "true";
    }
    renamed = true;
    break;
  }
  REQUIRE(renamed);
  const auto path = ainb::test::write_scratch("writer_lower_true.json", text.dump(2)).string();
  const auto out = (ainb::test::scratch_dir() / "writer_lower_true.ainb").string();
  std::filesystem::remove(out);
  const auto refused = ainb_cli({"convert", path, out});
  CHECK(refused.code == 1);
  CHECK(refused.err.find(": ainb run refuses it: nodes at offset 0x") != std::string::npos);
  CHECK(
      refused.err.find("(Element_BoolSelector): child plug 0 is named \"true\"; its plugs are "
                       "\"True\" and \"False\"\nnot written (--force writes it all the same)\n") !=
      std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto forced = ainb_cli({"convert", path, out, "--force"});
  CHECK(forced.code == 0);
  CHECK(std::filesystem::exists(out));
  CHECK(forced.err.starts_with("warning: " + out + ": ainb run refuses it: "));
}

TEST_CASE("the hurry example: an expression authored as assembly in JSON, compiled by the build") {
  const auto path = std::filesystem::path(AINB_EXAMPLES_DIR) / "hurry.root.ainb";
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
    for (const auto& [pointer, value] : flat.items()) {
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
