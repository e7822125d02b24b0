// Node definitions and catalogues at work: `ainb lint` against NodeDefinition.json, and the
// output defaults a catalogue declares, which stub nodes write (in the library and by --defs).

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "gamedata_dirs.hpp"
#include "scratch.hpp"

using namespace ainb;
namespace fs = std::filesystem;

using ainb::test::ainb_cli;
using ainb::test::temp_dir;
using ainb::test::write_file;

namespace {

// Replaces the NUL-terminated string `from` (exactly one occurrence) by `to` of the same length.
void patch_string(std::vector<std::uint8_t>& bytes, const std::string& from,
                  const std::string& to) {
  REQUIRE(from.size() == to.size());
  std::string needle = std::string(1, '\0') + from + std::string(1, '\0');
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const auto at = text.find(needle);
  REQUIRE(at != std::string_view::npos);
  REQUIRE(text.find(needle, at + 1) == std::string_view::npos);
  std::copy(to.begin(), to.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at + 1));
}

}  // namespace

// ---- ainb lint --------------------------------------------------------------------------------

TEST_CASE("ainb lint: the corpus's TotK files agree with NodeDefinition.json") {
  const auto dir = test::corpus_dir();
  if (dir.empty()) return;
  const auto catalogue =
      formats::NodeCatalogue::from_json_file(dir / "nodedefs/NodeDefinition.json");
  std::size_t files = 0;
  for (const auto& path : test::corpus_ainb_files()) {
    const auto model = load_file(path);
    auto findings = gamedata::lint(*model, catalogue);
    std::erase_if(findings, [](const gamedata::LintFinding& f) { return f.is_note(); });
    if (path.filename() == "Vss_Kaisou04_66b8.logic.root.ainb") {
      // Splatoon 3: the dump is TotK's, so its four Logic classes are unknown.
      REQUIRE(findings.size() == 4);
      for (const auto& f : findings)
        CHECK(f.kind == gamedata::LintFinding::Kind::UnknownClass);
      CHECK(findings[0].message ==
            "class SplLogicBhvAreaSwitchOnline is not declared in any category");
      continue;
    }
    INFO(path.filename().string());
    CHECK(findings.empty());
    ++files;
  }
  CHECK(files == 11);
  const auto toby = (dir / "ainb/Toby.utility.root.ainb").string();
  const auto clean =
      ainb_cli({"lint", toby, "--defs", (dir / "nodedefs/NodeDefinition.json").string()});
  CHECK(clean.code == 0);
  // 102 UserDefined nodes, 19 of them module calls; two selectors with CalculateTiming 1.
  const std::string notes =
      toby +
      ": node 3 Element_S32Selector: not-honoured (note): CalculateTiming 1: the run behaves as "
      "for 0 (docs/semantics.md, \"Properties not honoured\")\n" +
      toby +
      ": node 76 Element_BoolSelector: not-honoured (note): CalculateTiming 1: the run behaves as "
      "for 0 (docs/semantics.md, \"Properties not honoured\")\n";
  CHECK(clean.out == notes + toby + ": 0 findings in 83 user nodes (AI category), 2 notes\n");
  // Without node definitions: the built-in nodes only.
  const auto builtins = ainb_cli({"lint", toby});
  CHECK(builtins.code == 0);
  CHECK(builtins.out == notes + toby +
                            ": 0 findings in the built-in nodes, 2 notes; user nodes not checked "
                            "(no node definitions: --defs FILE or --romfs DIR)\n");
}

TEST_CASE("ainb lint: a corpus file with deliberately wrong nodes") {
  const auto dir = test::corpus_dir();
  if (dir.empty()) return;
  auto bytes = test::read_file(dir / "ainb/Toby.utility.root.ainb");
  // An input renamed (node 19) and a class renamed (node 2).
  patch_string(bytes, "RaycastLength", "RaycastLengtx");
  patch_string(bytes, "QueryEquipmentGetEquipWeaponType", "QueryEquipmentGetEquipWeaponTypX");
  const auto path = temp_dir("lint") / "Toby.utility.root.ainb";
  write_file(path, bytes);
  const auto defs = (dir / "nodedefs/NodeDefinition.json").string();
  const auto text = ainb_cli({"lint", path.string(), "--defs", defs});
  CHECK(text.code == 1);
  const auto name = path.string();
  CHECK(text.out == name +
                        ": node 2 QueryEquipmentGetEquipWeaponTypX: unknown-class: class "
                        "QueryEquipmentGetEquipWeaponTypX is not declared in any category (did "
                        "you mean QueryEquipmentGetEquipWeaponType?)\n" +
                        name +
                        ": node 3 Element_S32Selector: not-honoured (note): CalculateTiming 1: "
                        "the run behaves as for 0 (docs/semantics.md, \"Properties not "
                        "honoured\")\n" +
                        name +
                        ": node 19 QueryVolumeStatsRaycastDownwardSuccess: extra-input: input "
                        "RaycastLengtx (float) is not declared for the class\n" +
                        name +
                        ": node 19 QueryVolumeStatsRaycastDownwardSuccess: missing-input: declared "
                        "input RaycastLength (Float) is missing\n" +
                        name +
                        ": node 76 Element_BoolSelector: not-honoured (note): CalculateTiming 1: "
                        "the run behaves as for 0 (docs/semantics.md, \"Properties not "
                        "honoured\")\n" +
                        name + ": 3 findings in 83 user nodes (AI category), 2 notes\n");
  const auto json = ainb_cli({"lint", path.string(), "--defs", defs, "--format", "json"});
  CHECK(json.code == 1);
  const auto parsed = nlohmann::json::parse(json.out);
  CHECK(parsed["checked_nodes"] == 83);
  REQUIRE(parsed["findings"].size() == 3);
  REQUIRE(parsed["notes"].size() == 2);
  CHECK(parsed["notes"][0]["kind"] == "not-honoured");
  CHECK(parsed["notes"][0]["parameter"] == "CalculateTiming");
  CHECK(parsed["findings"][1]["kind"] == "extra-input");
  CHECK(parsed["findings"][1]["node"] == 19);
  CHECK(parsed["findings"][1]["parameter"] == "RaycastLengtx");

  const auto missing = ainb_cli({"lint", path.string(), "--defs", "nope.json"});
  CHECK(missing.code == 2);
  CHECK(missing.err ==
        "error: nope.json: file at offset 0x0: cannot read the file: No such file or directory\n");
  // Without --defs the user nodes are not checked: only notes, exit 0.
  CHECK(ainb_cli({"lint", path.string()}).code == 0);
}

TEST_CASE("ainb lint: wrong category, types, pointer classes and declared outputs") {
  using namespace ainb::test;
  const auto dir = temp_dir("lint_kinds");
  write_file(dir / "defs.json", R"({
    "AI": {
      "Move": {"Inputs": {"Float": {"Speed": {"default": "1.5"}},
                          "game::MoveMode": {"Mode": {"default": "Walk"}},
                          "const sead::Matrix33f": {"Rotation": {"default": ""}}},
               "Outputs": {"Bool": {"Arrived": {"default": true}}, "Int": {"Steps": {"default": 3}}},
               "Tags": ["Execute"]}
    },
    "Logic": {"LogicOnly": {"Inputs": {}, "Tags": []}}
  })");
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode move{.name = "Move"};
  move.inputs = {
      {ParamType::Int, "Speed"},
      {ParamType::Int, "Mode"},
      {ParamType::Pointer, "Rotation", -1, 0, 0, std::int32_t{0}, "const sead::Vector3f"}};
  move.outputs = {{ParamType::Bool, "Arrived"}, {ParamType::Float, "Distance"}};
  spec.nodes = {move, BuildNode{.name = "LogicOnly"}};
  const auto file = dir / "Kinds.root.ainb";
  write_file(file, build(spec));
  const auto run = ainb_cli({"lint", file.string(), "--defs", (dir / "defs.json").string()});
  CHECK(run.code == 1);
  const auto f = file.string();
  CHECK(
      run.out ==
      f + ": node 0 Move: input-type: input Speed is int, but the class declares float (Float)\n" +
          f +
          ": node 0 Move: input-type: input Rotation is a pointer to const sead::Vector3f, "
          "but the class declares an int (enum) or a pointer to const sead::Matrix33f "
          "(const sead::Matrix33f)\n" +
          f +
          ": node 0 Move: extra-output: output Distance (float) is not declared for the "
          "class\n" +
          f + ": node 0 Move: missing-output: declared output Steps (Int) is missing\n" + f +
          ": node 1 LogicOnly: wrong-category: class LogicOnly is declared for Logic, not for AI "
          "files\n" +
          f + ": 5 findings in 2 user nodes (AI category)\n");
}

// ---- stub outputs -----------------------------------------------------------------------------

namespace {

// Records what it reads from the stub's outputs.
struct ParameterReader : runtime::NodeClass {
  std::int32_t count = -1;
  float speed = -1;
  bool flag = false;
  std::string name;
  Vec3f dir;
  runtime::Result update(runtime::NodeContext& c) override {
    count = c.input_int("Count");
    speed = c.input_float("Speed");
    flag = c.input_bool("Flag");
    name = c.input_string("Name");
    dir = c.input_vec3f("Dir");
    return runtime::Result::Success;
  }
};

}  // namespace

TEST_CASE("stub nodes write the catalogue's declared output defaults") {
  using namespace ainb::test;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode probe{.name = "Probe"};
  probe.outputs = {{ParamType::Int, "Count"}, {ParamType::Float, "Speed"},
                   {ParamType::Bool, "Flag"}, {ParamType::String, "Name"},
                   {ParamType::Vec3f, "Dir"}, {ParamType::Int, "Mode"}};
  BuildNode reader{.name = "Reader"};
  reader.inputs = {{ParamType::Int, "Count", 1, 0},
                   {ParamType::Float, "Speed", 1, 0, 0, 0.0f},
                   {ParamType::Bool, "Flag", 1, 0, 0, false},
                   {ParamType::String, "Name", 1, 0, 0, std::string()},
                   {ParamType::Vec3f, "Dir", 1, 0, 0, Vec3f{}}};
  spec.nodes = {seq, probe, reader};
  auto model = load(build(spec), "Stubs.root.ainb");

  // Speed is declared as an Int: not the output's type, so it keeps the zero; Mode's default
  // names an enum value, which no int stands for.
  const auto catalogue = formats::NodeCatalogue::from_json(R"({"AI": {"Probe": {"Outputs": {
      "Int": {"Count": {"default": 7}, "Speed": {"default": 2}},
      "Bool": {"Flag": {"default": true}}, "String": {"Name": {"default": "Bokoblin"}},
      "Vector3": {"Dir": {"default": [1, 0, -2]}}, "game::Mode": {"Mode": {"default": "Run"}}}}}})",
                                                           "outputs.json");
  runtime::NodeRegistry registry;
  auto recorder = std::make_shared<ParameterReader>();
  registry.add("Reader", recorder);
  registry.stub_outputs = gamedata::catalogue_stub_outputs(catalogue);
  auto graph = std::make_shared<const runtime::Graph>(model, registry);
  runtime::Instance actor(graph);
  actor.start("Root");
  actor.tick();
  CHECK(recorder->count == 7);
  CHECK(recorder->speed == 0.0f);
  CHECK(recorder->flag == true);
  CHECK(recorder->name == "Bokoblin");
  CHECK(recorder->dir == Vec3f{1, 0, -2});

  // Without the catalogue a stub writes zeros.
  runtime::NodeRegistry plain;
  auto zero = std::make_shared<ParameterReader>();
  plain.add("Reader", zero);
  runtime::Instance bare(std::make_shared<const runtime::Graph>(model, plain));
  bare.start("Root");
  bare.tick();
  CHECK(zero->count == 0);
  CHECK(zero->name.empty());

  // The dump itself declares no outputs: its classes give nothing.
  CHECK(gamedata::declared_value({"x", "Int", std::int64_t{4}}, ParamType::Int) == Value{4});
  CHECK(!gamedata::declared_value({"x", "game::Mode", std::string("Run")}, ParamType::Int));
}

TEST_CASE("node catalogues merge: a supplement adds outputs to the dump's classes") {
  auto base = formats::NodeCatalogue::from_json(
      R"({"AI": {"A": {"Inputs": {"Int": {"i": {"default": 1}}}, "Tags": ["Query"]}}})", "a.json");
  base.merge(formats::NodeCatalogue::from_json(
      R"({"AI": {"A": {"Inputs": {"Int": {"i": {"default": 9}}}, "Outputs": {"Float": {"o": {"default": "0.25"}}}, "Tags": ["Query", "Extra"]}},
          "Logic": {"B": {}}})",
      "b.json"));
  const auto* a = base.find("AI", "A");
  REQUIRE(a != nullptr);
  CHECK(a->tags == std::vector<std::string>{"Query", "Extra"});
  REQUIRE(a->inputs.size() == 1);
  CHECK(std::get<std::int64_t>(a->inputs[0].default_value) == 1);  // the first catalogue wins
  REQUIRE(a->outputs.size() == 1);
  CHECK(std::get<double>(a->outputs[0].default_value) == 0.25);
  CHECK(base.categories_of("B") == std::vector<std::string>{"Logic"});
}

TEST_CASE("ainb run --defs: a stub's declared output steers a selector") {
  using namespace ainb::test;
  const auto dir = temp_dir("run_defs");
  const auto spec = ainb::test::probe_steers_selector();
  const auto file = (dir / "Steer.root.ainb").string();
  write_file(file, build(spec));
  write_file(dir / "outputs.json",
             R"({"AI": {"Probe": {"Outputs": {"Bool": {"Flag": {"default": true}}}}}})");

  const auto plain = ainb_cli({"run", file, "--frames", "1"});
  CHECK(plain.code == 0);
  CHECK(plain.out.find("  No ") != std::string::npos);
  CHECK(plain.out.find("  Yes ") == std::string::npos);
  const auto declared =
      ainb_cli({"run", file, "--frames", "1", "--defs", (dir / "outputs.json").string()});
  CHECK(declared.code == 0);
  CHECK(declared.out.find("  Yes ") != std::string::npos);
  CHECK(declared.out.find("  No ") == std::string::npos);
  const auto missing = ainb_cli({"run", file, "--defs", "nope.json"});
  CHECK(missing.code == 1);
  CHECK(missing.err ==
        "error: nope.json: file at offset 0x0: cannot read the file: No such file or directory\n");
}
