// TotK's node definitions as the game stores them: BYML tables, one category a file
// (`{AI,Logic,Sequence}/NodeDefinition/Node.Product.<N>.aidefn.byml.zs`), read into the same
// catalogue as the JSON dump; the romfs's newest tables as the default; `--defs` and `--romfs`
// in `ainb lint` and `ainb run`.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "aidefn_samples.hpp"
#include "ainb/formats/node_definitions.hpp"
#include "ainb/formats/zstd.hpp"
#include "ainb/gamedata/catalogue.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
namespace byml = ainb::formats::byml;
using ainb::formats::NodeCatalogue;
using ainb::test::ainb_cli;
using ainb::test::write_file;

namespace {

fs::path aidefn_dir(const std::string& name) {
  return ainb::test::fresh_dir("aidefn_" + name);
}

nlohmann::json read_dump(const fs::path& corpus) {
  const auto bytes = ainb::test::read_file(corpus / "nodedefs/NodeDefinition.json");
  return nlohmann::json::parse(bytes.begin(), bytes.end());
}

// A BYML table (uncompressed) from JSON text.
std::vector<std::uint8_t> table(std::string_view json) {
  return byml::write(ainb::test::byml_from_json(nlohmann::json::parse(json)));
}

// The message of the LoadError a call throws ("" when it throws none).
template <typename F>
std::string error_of(F&& call) {
  try {
    call();
  } catch (const ainb::LoadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("aidefn: tables written from NodeDefinition.json read as the same catalogue") {
  const auto corpus = ainb::test::corpus_dir();
  if (corpus.empty()) return;
  const auto expected = NodeCatalogue::from_json_file(corpus / "nodedefs/NodeDefinition.json");
  const auto romfs = aidefn_dir("same");
  ainb::test::write_aidefn_romfs(romfs, read_dump(corpus), "120", corpus);
  const auto dictionaries = ainb::formats::ZstdDictionaries::from_directory(corpus / "zsdic");
  NodeCatalogue tables;
  for (const auto* category : {"AI", "Logic", "Sequence"}) {
    const auto path = romfs / category / "NodeDefinition/Node.Product.120.aidefn.byml.zs";
    // The frame names zs.zsdic's ID, as the game's .zs files do.
    CHECK(ainb::formats::zstd_frame_dictionary_id(ainb::test::read_file(path)) == 1);
    tables.merge(NodeCatalogue::from_file(path, &dictionaries));
  }
  CHECK(tables.count("AI") == 7130);
  CHECK(tables.count("Logic") == 708);
  CHECK(tables.count("Sequence") == 508);
  REQUIRE(tables.classes().size() == expected.classes().size());
  std::size_t differing = 0, inputs = 0, tags = 0;
  for (std::size_t i = 0; i < tables.classes().size(); ++i) {
    const auto& ours = tables.classes()[i];
    INFO(ours.category << "/" << ours.name);
    if (!(ours == expected.classes()[i])) ++differing;
    CHECK(ours == expected.classes()[i]);
    inputs += ours.inputs.size();
    tags += ours.tags.size();
  }
  CHECK(differing == 0);
  CHECK(inputs == 9488);  // every name, type and default compared
  CHECK(tags == 15284);

  // Without the dictionary the frame names, the error says where TotK keeps it.
  const auto ai = romfs / "AI/NodeDefinition/Node.Product.120.aidefn.byml.zs";
  CHECK(error_of([&] { NodeCatalogue::from_file(ai); }) ==
        ai.string() +
            ": zstd at offset 0x0: the frame needs zstd dictionary ID 1, which is not loaded "
            "(loaded IDs: none; TotK's are in the romfs's Pack/ZsDic.pack.zs: `--romfs` or "
            "`--zsdic` in the ainb tools)");
}

TEST_CASE("aidefn: a romfs's newest table of each category is the default") {
  const auto romfs = aidefn_dir("newest");
  const auto put = [&](const std::string& relative, std::string_view class_name, bool zstd) {
    auto bytes = table(fmt::format(R"({{"{}": {{"Inputs": {{}}, "Tags": []}}}})", class_name));
    if (zstd) bytes = ainb::test::zstd_compress(bytes);
    write_file(romfs / relative, bytes);
  };
  put("AI/NodeDefinition/Node.Product.99.aidefn.byml.zs", "Old", true);
  put("AI/NodeDefinition/Node.Product.120.aidefn.byml.zs", "New", true);
  put("AI/NodeDefinition/Node.Product.900.aidefn.byml", "Uncompressed", false);  // not .zs
  put("AI/NodeDefinition/Node.Product.9x.aidefn.byml.zs", "NotANumber", true);
  put("Logic/NodeDefinition/Node.Product.7.aidefn.byml.zs", "LogicClass", true);
  // No Sequence folder: skipped.
  CHECK(ainb::gamedata::romfs_node_definitions(romfs) ==
        std::vector<fs::path>{romfs / "AI/NodeDefinition/Node.Product.120.aidefn.byml.zs",
                              romfs / "Logic/NodeDefinition/Node.Product.7.aidefn.byml.zs"});
  const auto catalogue = ainb::gamedata::load_node_definitions({}, romfs, nullptr);
  CHECK(catalogue.classes().size() == 2);
  CHECK(catalogue.find("AI", "New") != nullptr);
  CHECK(catalogue.find("Logic", "LogicClass") != nullptr);
  // --defs replaces the default; CATEGORY= tells a loose file's category.
  const auto chosen = ainb::gamedata::load_node_definitions(
      {"Sequence=" + (romfs / "AI/NodeDefinition/Node.Product.900.aidefn.byml").string()}, romfs,
      nullptr);
  CHECK(chosen.classes().size() == 1);
  CHECK(chosen.find("Sequence", "Uncompressed") != nullptr);
  CHECK(ainb::gamedata::romfs_node_definitions(aidefn_dir("empty")).empty());
}

TEST_CASE("aidefn: the category from the folder, the name or CATEGORY=PATH") {
  CHECK(NodeCatalogue::category_of("romfs/AI/NodeDefinition/Node.Product.120.aidefn.byml.zs") ==
        "AI");
  CHECK(NodeCatalogue::category_of("/x/Sequence/NodeDefinition/y.byml") == "Sequence");
  CHECK(NodeCatalogue::category_of("Logic.Node.Product.100.aidefn.byml.zs") == "Logic");
  CHECK(NodeCatalogue::category_of("tables/AI.byml") == "AI");
  CHECK(NodeCatalogue::category_of("Node.Product.100.aidefn.byml.zs").empty());
  CHECK(NodeCatalogue::category_of("x/AI/Node.Product.100.aidefn.byml.zs").empty());
  CHECK(NodeCatalogue::category_of("ai.byml").empty());  // categories are spelt as in the game

  const auto dir = aidefn_dir("category");
  const auto loose = dir / "Node.Product.120.aidefn.byml";
  write_file(loose, table(R"({"N": {"Tags": ["Query"]}})"));
  CHECK(error_of([&] { NodeCatalogue::from_file(loose); }) ==
        loose.string() +
            ": node definitions at offset 0x0: a BYML node-definition table holds one category, "
            "and neither its folder nor its name tells which: give it as AI=PATH, Logic=PATH or "
            "Sequence=PATH, keep it in its romfs folder (AI/NodeDefinition/), or start its name "
            "with the category (AI.Node.Product.120.aidefn.byml.zs)");
  const auto logic = NodeCatalogue::from_spec("Logic=" + loose.string());
  REQUIRE(logic.find("Logic", "N") != nullptr);
  CHECK(logic.find("Logic", "N")->tags == std::vector<std::string>{"Query"});
  CHECK(error_of([&] { NodeCatalogue::from_spec("Events=" + loose.string()); }) ==
        "Events=" + loose.string() +
            ": node definitions at offset 0x0: \"Events\" is not a category (AI, Logic or "
            "Sequence): a BYML table's category is given as CATEGORY=PATH");
  const auto json = dir / "defs.json";
  write_file(json, std::string(R"({"AI": {}})"));
  CHECK(error_of([&] { NodeCatalogue::from_spec("AI=" + json.string()); }) ==
        json.string() +
            ": node definitions at offset 0x0: AI= gives the category of a BYML table; a JSON "
            "dump names its own");
  const auto not_byml = dir / "AI.aidefn.byml.zs";
  write_file(not_byml, ainb::test::zstd_compress(std::vector<std::uint8_t>{'{', '}'}));
  CHECK(error_of([&] { NodeCatalogue::from_file(not_byml); }) ==
        not_byml.string() +
            ": node definitions at offset 0x0: not a BYML file (the decompressed data do not "
            "start with \"BY\" or \"YB\")");
  // The content decides, not the name: a JSON dump named .txt still reads.
  const auto text = dir / "defs.txt";
  write_file(text, std::string(R"({"AI": {"T": {}}})"));
  CHECK(NodeCatalogue::from_spec(text.string()).find("AI", "T") != nullptr);
}

TEST_CASE("aidefn: the value types a table may use, and errors naming the file and the problem") {
  // Floats as BYML floats, doubles or strings (the dump's form); vectors as arrays or {X, Y, Z};
  // integers of any width.
  const auto root = byml::Value::make_hash(std::make_shared<const byml::Hash>(byml::Hash{
      {"N", ainb::test::byml_from_json(nlohmann::json::parse(
                R"({"Inputs": {"Float": {"f": {"default": 0.5}, "g": {"default": "0.25"}},
                          "Int": {"i": {"default": 7}}, "Bool": {"b": {"default": true}},
                          "Vector3": {"v": {"default": {"X": 1.5, "Y": 2, "Z": 0.1}},
                                      "w": {"default": [0, 1, 0]}},
                          "const sead::Matrix33f": {"p": {"default": ""}}},
               "Tags": ["Query", "Execute"]})"))}}));
  const auto catalogue = NodeCatalogue::from_byml(root, "AI", "n.byml");
  const auto* n = catalogue.find("AI", "N");
  REQUIRE(n != nullptr);
  CHECK(n->tags == std::vector<std::string>{"Query", "Execute"});
  CHECK(std::get<bool>(n->find_input("b")->default_value));
  CHECK(std::get<double>(n->find_input("f")->default_value) == 0.5);
  CHECK(std::get<double>(n->find_input("g")->default_value) == 0.25);
  CHECK(std::get<std::int64_t>(n->find_input("i")->default_value) == 7);
  // 0.1 is not a float: written as a double, read exactly.
  CHECK(std::get<std::array<double, 3>>(n->find_input("v")->default_value) ==
        std::array<double, 3>{1.5, 2.0, 0.1});
  CHECK(std::get<std::array<double, 3>>(n->find_input("w")->default_value) ==
        std::array<double, 3>{0.0, 1.0, 0.0});
  CHECK(n->find_input("p")->type == "const sead::Matrix33f");
  CHECK(std::get<std::string>(n->find_input("p")->default_value).empty());

  const auto error = [](std::string_view json) {
    return error_of([&] { NodeCatalogue::from_byml(table(json), "AI", "bad.byml"); });
  };
  const std::string prefix = "bad.byml: node definitions at offset 0x0: ";
  CHECK(error("[1]") == prefix +
                            "the root is of type array, expected a hash of node classes (class: "
                            "{\"Inputs\": ..., \"Tags\": [...]})");
  CHECK(error(R"({"N": 1})") == prefix + "AI/N is not an object");
  CHECK(error(R"({"N": {"Tags": "Query"}})") == prefix + "AI/N: \"Tags\" is not a list");
  CHECK(error(R"({"N": {"Tags": [1]}})") == prefix + "AI/N: a tag is not a string");
  CHECK(error(R"({"N": {"Inputs": []}})") == prefix + "AI/N: \"Inputs\" is not an object");
  CHECK(error(R"({"N": {"Inputs": {"Int": {"a": {}}}}})") ==
        prefix + "AI/N: input a has no \"default\"");
  CHECK(error(R"({"N": {"Inputs": {"Int": {"a": {"default": "x"}}}}})") ==
        prefix + "AI/N: input a of type Int: unexpected default \"x\"");
  CHECK(error(R"({"N": {"Inputs": {"Vector3": {"v": {"default": {"X": 1, "Y": 2}}}}}})") ==
        prefix + "AI/N: input v of type Vector3: unexpected default {\"X\":1,\"Y\":2}");
  const auto binary = byml::Value::make_hash(std::make_shared<const byml::Hash>(
      byml::Hash{{"N", byml::Value::make_binary({{1, 2}, 0}, false)}}));
  CHECK(error_of([&] { NodeCatalogue::from_byml(binary, "AI", "bad.byml"); }) ==
        prefix + "AI/N: a node of type binary, which node definitions do not use");
  CHECK(error_of([&] { NodeCatalogue::from_byml(byml::write(byml::Value()), "AI", "bad.byml"); }) ==
        prefix +
            "the root is missing (an empty document), expected a hash of node classes (class: "
            "{\"Inputs\": ..., \"Tags\": [...]})");
  // A broken BYML file is the BYML reader's error.
  CHECK(error_of([&] {
          NodeCatalogue::from_byml(std::vector<std::uint8_t>{'Y', 'B'}, "AI", "cut.byml");
        }) ==
        "cut.byml: BYML header at offset 0x0: header (0x10 bytes) runs past the end of the data "
        "(size 0x2)");
}

TEST_CASE("ainb lint with aidefn tables (--defs, or --romfs alone) finds what the JSON finds") {
  const auto corpus = ainb::test::corpus_dir();
  if (corpus.empty()) return;
  const auto romfs = aidefn_dir("lint");
  ainb::test::write_aidefn_romfs(romfs, read_dump(corpus), "120", corpus);
  const auto json = (corpus / "nodedefs/NodeDefinition.json").string();
  const auto table_of = [&](const char* category) {
    return (romfs / category / "NodeDefinition/Node.Product.120.aidefn.byml.zs").string();
  };
  for (const auto* name : {"Toby.utility.root.ainb", "Vss_Kaisou04_66b8.logic.root.ainb"}) {
    const auto file = (corpus / "ainb" / name).string();
    for (const auto* format : {"text", "json"}) {
      INFO(name << " " << format);
      const auto expected = ainb_cli({"lint", file, "--defs", json, "--format", format});
      const auto tables = ainb_cli({"lint", file, "--defs", table_of("AI"), "--defs",
                                    table_of("Logic"), "--defs", table_of("Sequence"), "--zsdic",
                                    (corpus / "zsdic").string(), "--format", format});
      const auto by_default =
          ainb_cli({"lint", file, "--romfs", romfs.string(), "--format", format});
      CHECK(tables.code == expected.code);
      CHECK(tables.out == expected.out);
      CHECK(tables.err.empty());
      CHECK(by_default.code == expected.code);
      CHECK(by_default.out == expected.out);
      CHECK(by_default.err.empty());
    }
  }
  // The Splatoon 3 file's four classes are unknown to TotK's tables too.
  const auto vss = (corpus / "ainb/Vss_Kaisou04_66b8.logic.root.ainb").string();
  const auto findings = ainb_cli({"lint", vss, "--romfs", romfs.string()});
  CHECK(findings.code == 1);
  CHECK(findings.out.ends_with(": 4 findings in 4 user nodes (Logic category)\n"));

  const auto toby = (corpus / "ainb/Toby.utility.root.ainb").string();
  // Neither --defs nor --romfs: the built-in nodes only (tests/gamedata_catalogue_test.cpp).
  const auto none = ainb_cli({"lint", toby});
  CHECK(none.code == 0);
  CHECK(
      none.out.ends_with("user nodes not checked (no node definitions: --defs FILE or --romfs "
                         "DIR)\n"));
  const auto empty = aidefn_dir("lint_empty");
  const auto missing = ainb_cli({"lint", toby, "--romfs", empty.string()});
  CHECK(missing.code == 2);
  CHECK(missing.err == "error: " + empty.string() +
                           ": no node definitions (no {AI,Logic,Sequence}/NodeDefinition/"
                           "Node.Product.<N>.aidefn.byml.zs); give them with --defs FILE\n");
}

TEST_CASE("ainb run --romfs: the romfs's aidefn tables give stubs their declared outputs") {
  using namespace ainb;
  using namespace ainb::test;
  const auto dir = aidefn_dir("run");
  const auto spec = probe_steers_selector();
  const auto file = (dir / "Steer.root.ainb").string();
  write_file(file, build(spec));
  // A table in the romfs layout, compressed without a dictionary (none is loaded).
  write_file(dir / "romfs/AI/NodeDefinition/Node.Product.100.aidefn.byml.zs",
             zstd_compress(table(R"({"Probe": {"Outputs": {"Bool": {"Flag": {"default": true}}},
                                               "Tags": []}})")));

  const auto plain = ainb_cli({"run", file, "--frames", "1"});
  CHECK(plain.code == 0);
  CHECK(plain.out.find("  No ") != std::string::npos);
  const auto declared =
      ainb_cli({"run", file, "--frames", "1", "--romfs", (dir / "romfs").string()});
  CHECK(declared.code == 0);
  CHECK(declared.out.find("  Yes ") != std::string::npos);
  CHECK(declared.out.find("  No ") == std::string::npos);
  // regress runs both files the same way: equal.
  const auto regress =
      ainb_cli({"regress", file, file, "--frames", "1", "--romfs", (dir / "romfs").string()});
  CHECK(regress.code == 0);
}
