// Real game layouts around AI files (hosts/gamedata): `ainb lint` against node definitions, stub
// outputs from the catalogue, `ainb run` from a romfs tree and its packs, and blackboard entries'
// parameter files as initial values.

#include <algorithm>
#include <map>
#include <sstream>

#include <doctest/doctest.h>

#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/simulation/simulation.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "commands.hpp"
#include "corpus.hpp"
#include "format_samples.hpp"
#include "scratch.hpp"

using namespace ainb;
namespace fs = std::filesystem;

using ainb::test::ainb_cli;
using ainb::test::write_file;

namespace {

// A fresh, empty folder in the test process's scratch folder.
fs::path temp_dir(const std::string& name) {
  return ainb::test::fresh_dir("gamedata_" + name);
}

// A little-endian SARC (version 0x100, hash key 0x65) of named files, data 8-byte aligned.
std::vector<std::uint8_t> make_sarc(std::map<std::string, std::vector<std::uint8_t>> files) {
  struct Entry {
    std::uint32_t hash;
    std::string name;
    const std::vector<std::uint8_t>* data;
  };
  std::vector<Entry> entries;
  for (const auto& [name, data] : files)
    entries.push_back({formats::Sarc::name_hash(name, 0x65), name, &data});
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.hash < b.hash; });
  test::OffsetWriter w{std::endian::little, {}};
  const std::size_t sfat = 0x14, sfnt = sfat + 0xC + 16 * entries.size();
  std::size_t names = sfnt + 8;
  std::vector<std::size_t> name_offsets;
  for (const auto& e : entries) {
    name_offsets.push_back(names - (sfnt + 8));
    w.text(names, e.name);
    names = (names + e.name.size() + 1 + 3) & ~std::size_t{3};
  }
  const std::size_t data = (names + 7) & ~std::size_t{7};
  std::size_t at = 0;
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& e : entries) {
    ranges.emplace_back(at, at + e.data->size());
    for (std::size_t i = 0; i < e.data->size(); ++i)
      w.u8(data + at + i, (*e.data)[i]);
    at = (at + e.data->size() + 7) & ~std::size_t{7};
  }
  w.text(0, "SARC");
  w.bytes.resize(data + at);
  w.u16(4, 0x14);
  w.u16(6, 0xFEFF);
  w.u32(8, static_cast<std::uint32_t>(w.size()));
  w.u32(12, static_cast<std::uint32_t>(data));
  w.u16(16, 0x100);
  w.u16(18, 0);
  w.bytes[sfat] = 'S', w.bytes[sfat + 1] = 'F', w.bytes[sfat + 2] = 'A', w.bytes[sfat + 3] = 'T';
  w.u16(sfat + 4, 0xC);
  w.u16(sfat + 6, static_cast<std::uint16_t>(entries.size()));
  w.u32(sfat + 8, 0x65);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto e = sfat + 0xC + 16 * i;
    w.u32(e, entries[i].hash);
    w.u32(e + 4, 0x01000000u | static_cast<std::uint32_t>(name_offsets[i] / 4));
    w.u32(e + 8, static_cast<std::uint32_t>(ranges[i].first));
    w.u32(e + 12, static_cast<std::uint32_t>(ranges[i].second));
  }
  w.bytes[sfnt] = 'S', w.bytes[sfnt + 1] = 'F', w.bytes[sfnt + 2] = 'N', w.bytes[sfnt + 3] = 'T';
  w.u16(sfnt + 4, 8);
  w.u16(sfnt + 6, 0);
  return w.bytes;
}

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
struct Reader : runtime::NodeClass {
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
  auto recorder = std::make_shared<Reader>();
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
  auto zero = std::make_shared<Reader>();
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

// ---- romfs and packs --------------------------------------------------------------------------

namespace {

// DIR/Pack/ZsDic.pack.zs and DIR/Pack/Actor/<the corpus's two actor packs>.
fs::path corpus_romfs(const std::string& name, bool with_dictionaries = true) {
  const auto corpus = test::corpus_dir();
  const auto dir = temp_dir(name);
  fs::create_directories(dir / "Pack/Actor");
  if (with_dictionaries) fs::copy_file(corpus / "zsdic/ZsDic.pack.zs", dir / "Pack/ZsDic.pack.zs");
  for (const auto& pack : test::corpus_pack_files())
    fs::copy_file(pack, dir / "Pack/Actor" / pack.filename());
  return dir;
}

}  // namespace

TEST_CASE("ainb run from a romfs: an actor pack of the corpus with the game's dictionaries") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto romfs = corpus_romfs("run");
  const auto run =
      ainb_cli({"run", "Pack/Actor/Accessory_Battery.pack.zs:AI/Accessory_Battery.root.ainb",
                "--romfs", romfs.string(), "--frames", "3"});
  CHECK(run.code == 0);
  CHECK(run.err.empty());
  CHECK(run.out ==
        "summary: Accessory_Battery.root.ainb, command Root: succeeded in frame 1 of 3, 1 node "
        "update\n"
        "updates by class:\n"
        "  ExecuteBatteryUpdateAS                   1\n"
        "last results:\n"
        "  Accessory_Battery.root.ainb #0 ExecuteBatteryUpdateAS    Success\n");

  // The pack by its own path, dictionaries from --zsdic (a folder of *.zsdic), no romfs.
  const auto direct =
      ainb_cli({"run",
                (corpus / "packs/Npc_TripMaster_02.pack.zs").string() +
                    ":AI/NpcTripMaster.utility.root.ainb",
                "--zsdic", (corpus / "zsdic").string(), "--frames", "2", "--stub-missing-modules"});
  CHECK(direct.code == 0);
  CHECK(direct.out.find("summary: NpcTripMaster.utility.root.ainb, command Root:") == 0);

  // A plain romfs path found in a pack of the tree.
  const auto plain = ainb_cli(
      {"run", "AI/Accessory_Battery.root.ainb", "--romfs", romfs.string(), "--frames", "1"});
  CHECK(plain.code == 0);
  CHECK(plain.out.find("summary: Accessory_Battery.root.ainb, command Root:") == 0);
}

TEST_CASE("ainb info, dump, disasm, graph, lint and convert read an AI file inside a pack") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto pack = (corpus / "packs/Npc_TripMaster_02.pack.zs").string();
  const auto member = pack + ":AI/NpcTripMaster.utility.root.ainb";
  const auto zsdic = (corpus / "zsdic").string();
  const auto plain = (corpus / "ainb/NpcTripMaster.utility.root.ainb").string();

  // The corpus holds the same file outside the pack: each command prints what it prints for that
  // one, the name it was given aside.
  const auto same = [&](std::vector<std::string> args) {
    auto in_pack = args, outside = args;
    in_pack.insert(in_pack.begin() + 1, member);
    in_pack.insert(in_pack.end(), {"--zsdic", zsdic});
    outside.insert(outside.begin() + 1, plain);
    const auto a = ainb_cli(in_pack), b = ainb_cli(outside);
    CHECK(a.code == 0);
    CHECK(a.err.empty());
    auto renamed = a.out;
    for (auto at = renamed.find(member); at != std::string::npos; at = renamed.find(member, at))
      renamed.replace(at, member.size(), plain);
    CHECK(renamed == b.out);
  };
  same({"info"});
  same({"dump"});
  same({"disasm"});
  same({"graph"});
  same({"lint", "--defs", (corpus / "nodedefs/NodeDefinition.json").string()});

  const auto json = temp_dir("convert") / "trip.json";
  CHECK(ainb_cli({"convert", member, json.string(), "--zsdic", zsdic}).code == 0);
  CHECK(ainb_cli({"convert", "--check", json.string()}).code == 2);  // --check takes AINB
  const auto check = ainb_cli({"convert", "--check", member, "--zsdic", zsdic});
  CHECK(check.out == member +
                         ": byte-exact round trip through the writer and the text form (1858 "
                         "bytes)\n");

  // A pack without a member, and `cat` taking --zsdic as `run` does (--dict still works).
  const auto bare = ainb_cli({"info", pack});
  CHECK(bare.code == 1);
  CHECK(bare.err == "error: " + pack +
                        ": SARC at offset 0x0: a pack, not an AI file: name one of its files, as "
                        "PACK:AI/NAME.ainb (`ainb cat PACK` lists them)\n");
  const auto listing = ainb_cli({"cat", pack, "--zsdic", zsdic});
  CHECK(listing.code == 0);
  CHECK(listing.out.find("AI/NpcTripMaster.utility.root.ainb: 1858\n") != std::string::npos);
  CHECK(ainb_cli({"cat", pack, "--dict", zsdic}).out == listing.out);
}

TEST_CASE("ainb run from a romfs: missing pack, file and dictionary") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto romfs = corpus_romfs("errors");
  const auto r = romfs.string();
  const auto no_pack = ainb_cli({"run", "Pack/Actor/Nope.pack.zs:AI/Nope.root.ainb", "--romfs", r});
  CHECK(no_pack.code == 1);
  CHECK(no_pack.err ==
        "error: " + (romfs / "Pack/Actor/Nope.pack.zs").string() +
            ": file at offset 0x0: cannot read the file: No such file or directory\n");
  const auto no_file =
      ainb_cli({"run", "Pack/Actor/Accessory_Battery.pack.zs:AI/Nope.root.ainb", "--romfs", r});
  CHECK(no_file.code == 1);
  CHECK(no_file.err == "error: " + (romfs / "Pack/Actor/Accessory_Battery.pack.zs").string() +
                           ": SARC at offset 0x0: the pack has no file AI/Nope.root.ainb (it "
                           "holds 18 files)\n");
  const auto bare = corpus_romfs("no_dictionaries", false);
  const auto no_dictionary =
      ainb_cli({"run", "Pack/Actor/Accessory_Battery.pack.zs:AI/Accessory_Battery.root.ainb",
                "--romfs", bare.string()});
  CHECK(no_dictionary.code == 1);
  CHECK(no_dictionary.err ==
        "error: " + (bare / "Pack/Actor/Accessory_Battery.pack.zs").string() +
            ": zstd at offset 0x0: the frame needs zstd dictionary ID 3, "
            "which is not loaded (loaded IDs: none; TotK's are in the romfs's Pack/ZsDic.pack.zs: "
            "`--romfs` or `--zsdic` in the ainb tools)\n");
  const auto no_plain = ainb_cli({"run", "AI/Nope.root.ainb", "--romfs", r});
  CHECK(no_plain.code == 1);
  CHECK(no_plain.err ==
        "error: AI/Nope.root.ainb: file at offset 0x0: cannot read file: No such file or "
        "directory\n");
}

TEST_CASE("ainb run from a romfs: modules come from the actor's pack and the other packs") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto dir = temp_dir("modules");
  // The caller in one pack, its module in another pack of the tree.
  write_file(dir / "Pack/Actor/Enemy_Toby.pack",
             make_sarc({{"AI/Toby.action.basicattack.module.ainb",
                         test::read_file(corpus / "ainb/Toby.action.basicattack.module.ainb")}}));
  write_file(dir / "Pack/Actor/Shared.pack",
             make_sarc({{"AI/_LocalModule_d0e7ebe89ded.module.ainb",
                         test::read_file(corpus / "ainb/_LocalModule_d0e7ebe89ded.module.ainb")}}));
  const auto run = ainb_cli(
      {"run", "Pack/Actor/Enemy_Toby.pack:AI/Toby.action.basicattack.module.ainb", "--romfs",
       dir.string(), "--frames", "30", "--stub-missing-modules", "--trace", "-"});
  CHECK(run.code == 0);
  CHECK(run.out.find(R"("file":"_LocalModule_d0e7ebe89ded.module.ainb")") != std::string::npos);
  // Without --stub-missing-modules the first missing module is an error naming where it looked.
  const auto strict =
      ainb_cli({"run", "Pack/Actor/Enemy_Toby.pack:AI/Toby.action.basicattack.module.ainb",
                "--romfs", dir.string()});
  CHECK(strict.code == 1);
  CHECK(strict.err.find("which was not found (searched " +
                        (dir / "Pack/Actor/Enemy_Toby.pack").string() + ", " + dir.string() +
                        " and the packs under " + (dir / "Pack").string() + ")") !=
        std::string::npos);

  gamedata::FileSource source(dir, nullptr);
  gamedata::RomfsResolver resolver(source);
  const auto module = resolver.find("_LocalModule_d0e7ebe89ded.module.ainb");
  REQUIRE(module != nullptr);
  CHECK(module->name ==
        (dir / "Pack/Actor/Shared.pack").string() + ":AI/_LocalModule_d0e7ebe89ded.module.ainb");
  CHECK(resolver.find("Nope.module.ainb") == nullptr);
}

TEST_CASE("file specs: PACK:MEMBER and plain paths") {
  const auto a = gamedata::parse_file_spec("Pack/Actor/X.pack.zs:AI/X.root.ainb");
  CHECK(a.file == fs::path("Pack/Actor/X.pack.zs"));
  CHECK(a.member == "AI/X.root.ainb");
  const auto b = gamedata::parse_file_spec("C:/romfs/AI/X.root.ainb");
  CHECK(b.file == fs::path("C:/romfs/AI/X.root.ainb"));
  CHECK(b.member.empty());
  CHECK(gamedata::parse_file_spec("a.sarc:b:c.ainb").member == "b:c.ainb");
  CHECK(gamedata::parameter_file_candidates("Work/Component/X.engine__component__Y.gyml") ==
        std::vector<std::string>{"Work/Component/X.engine__component__Y.gyml",
                                 "Work/Component/X.engine__component__Y.bgyml",
                                 "Component/X.engine__component__Y.gyml",
                                 "Component/X.engine__component__Y.bgyml"});
  CHECK(gamedata::parameter_file_candidates("Actor/X.baiprog") ==
        std::vector<std::string>{"Actor/X.baiprog"});
}

// ---- blackboard parameter files ---------------------------------------------------------------

namespace {

ainb::test::AinbSpec blackboard_spec() {
  using namespace ainb::test;
  AinbSpec spec;
  spec.file_name = "Params.root";
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {BuildNode{.name = "Idle"}};
  spec.file_references = {
      "Work/Component/Blackboard/BlackboardParamTable/"
      "Accessory.engine__component__BlackboardParamTable.gyml",
      "Work/Component/Nope.engine__component__Nope.gyml", "Actor/AIProgram/Test.aiprog"};
  spec.blackboard = {
      {BlackboardType::Bool, "Equipment_IsFade", true, "", 0, 0},
      {BlackboardType::S32, "CreateActorType", std::int32_t{7}, "", 0, 0},
      {BlackboardType::S32, "NotInTable", std::int32_t{5}, "", 0, 0},
      {BlackboardType::String, "Equipment_IsCreatedByPouch", std::string("x"), "", 0, 0},
      {BlackboardType::F32, "Gone", 1.5f, "", 0, 1},
      {BlackboardType::Bool, "p0", false, "", 0, 2},
      {BlackboardType::F32, "p1", 0.0f, "", 0, 2},
      {BlackboardType::S32, "p2", std::int32_t{0}, "", 0, 2},
      {BlackboardType::Vec3f, "p4", Vec3f{}, "", 0, 2},
      {BlackboardType::String, "p7", std::string(), "", 0, 2},
      {BlackboardType::F32, "Plain", 2.5f},
  };
  return spec;
}

}  // namespace

TEST_CASE("blackboard entries take their initial values from the parameter files they reference") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto romfs = corpus_romfs("blackboard");
  // An AAMP parameter file, loose in the tree under its binary name.
  write_file(romfs / "Actor/AIProgram/Test.baiprog", test::aamp_sample(std::endian::little).bytes);
  const auto file = romfs / "Params.root.ainb";
  write_file(file, test::build(blackboard_spec()));

  simulation::RunOptions options;
  options.romfs = romfs;
  options.frames = 1;
  const auto summary = simulation::simulate(file, {}, options, nullptr);
  std::map<std::string, std::string> values(summary.blackboard.begin(), summary.blackboard.end());
  CHECK(values["Equipment_IsFade"] == "false");  // stored true, the table says false
  CHECK(values["CreateActorType"] == "0");       // stored 7, the table says 0
  CHECK(values["NotInTable"] == "5");
  CHECK(values["Equipment_IsCreatedByPouch"] == "\"x\"");
  CHECK(values["Gone"] == "1.5");
  CHECK(values["Plain"] == "2.5");
  // From the AAMP file: parameters found by the CRC32 of the entry's name.
  CHECK(values["p0"] == "true");
  CHECK(values["p1"] == "1.5");
  CHECK(values["p2"] == "-7");
  CHECK(values["p4"] == "[1, 2, 3]");
  CHECK(values["p7"] == "\"s7\"");
  const auto table = (romfs / "Pack/Actor/Accessory_Battery.pack.zs").string() +
                     ":Component/Blackboard/BlackboardParamTable/"
                     "Accessory.engine__component__BlackboardParamTable.bgyml";
  const auto name = file.string();
  // In blackboard order (entries grouped by type: string, s32, ..., f32, ...).
  REQUIRE(summary.warnings.size() == 3);
  CHECK(summary.warnings[0] ==
        name + ": blackboard entry Equipment_IsCreatedByPouch (string): " + table +
            " gives it a value of another type; the stored default "
            "is used");
  CHECK(summary.warnings[1] == name + ": blackboard entry NotInTable (s32): " + table +
                                   " has no value for it; the stored default is used");
  CHECK(summary.warnings[2] ==
        name +
            ": blackboard entry Gone references Work/Component/Nope.engine__component__Nope.gyml, "
            "which was not found (searched " +
            romfs.string() + " and the packs under " + (romfs / "Pack").string() +
            "); the stored default is used");

  // Without a romfs, references are not followed: the stored defaults, no warnings.
  const auto plain = simulation::simulate(file, {}, simulation::RunOptions{.frames = 1}, nullptr);
  CHECK(plain.warnings.empty());
  std::map<std::string, std::string> stored(plain.blackboard.begin(), plain.blackboard.end());
  CHECK(stored["Equipment_IsFade"] == "true");
  CHECK(stored["CreateActorType"] == "7");
}

TEST_CASE(
    "GraphOptions::blackboard_defaults: initial values, strings copied, other types ignored") {
  using namespace ainb::test;
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {BuildNode{.name = "Idle"}};
  spec.blackboard = {{BlackboardType::S32, "A", std::int32_t{1}},
                     {BlackboardType::String, "S", std::string("stored")},
                     {BlackboardType::F32, "F", 0.5f}};
  const auto model = load(build(spec), "Defaults.root.ainb");
  std::uint32_t asked = 0;
  std::string text = "from the hook";
  runtime::GraphOptions options;
  options.blackboard_defaults = [&](const Model&, std::uint32_t entry) -> std::optional<Value> {
    ++asked;
    switch (entry) {  // entries are grouped by type: S (string), A (s32), F (f32)
      case 0:
        return Value{std::string_view(text)};  // copied by the graph
      case 1:
        return std::nullopt;
      default:
        return Value{std::int32_t{3}};  // not a float: ignored
    }
  };
  const auto graph =
      std::make_shared<const runtime::Graph>(model, runtime::NodeRegistry{}, options);
  CHECK(asked == 3);
  text = "changed after the build, and long enough to leave the small-string buffer";
  runtime::Instance actor(graph);
  CHECK(std::get<std::int32_t>(*actor.blackboard("A")) == 1);
  CHECK(std::get<std::string_view>(*actor.blackboard("S")) == "from the hook");
  CHECK(std::get<float>(*actor.blackboard("F")) == 0.5f);
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

TEST_CASE("blackboard parameter files that do not load or are of another format are warnings") {
  using namespace ainb::test;
  const auto dir = temp_dir("blackboard_bad");
  auto cut = aamp_sample(std::endian::little).bytes;
  cut.resize(0x40);  // the header's file size says more
  write_file(dir / "Actor/Cut.baiprog", cut);
  write_file(dir / "Actor/Text.bgyml", "not a parameter file");
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {BuildNode{.name = "Idle"}};
  spec.file_references = {"Actor/Cut.aiprog", "Actor/Text.gyml"};
  spec.blackboard = {{BlackboardType::S32, "p2", std::int32_t{4}, "", 0, 0},
                     {BlackboardType::S32, "q", std::int32_t{5}, "", 0, 1},
                     {BlackboardType::S32, "r", std::int32_t{6}, "", 0, 1}};
  const auto model = load(build(spec), "Bad.root.ainb");
  gamedata::FileSource source(dir, nullptr);
  gamedata::BlackboardFiles files(source);
  CHECK(!files.value(*model, 0));
  CHECK(!files.value(*model, 1));
  CHECK(!files.value(*model, 2));  // the same file: read once, warned once
  REQUIRE(files.warnings().size() == 2);
  const auto cut_path = (dir / "Actor/Cut.baiprog").string();
  CHECK(
      files.warnings()[0].starts_with("Bad.root.ainb: blackboard entry p2 references "
                                      "Actor/Cut.aiprog, which does not load (" +
                                      cut_path + ": "));
  CHECK(files.warnings()[1] == "Bad.root.ainb: blackboard entry q references Actor/Text.gyml: " +
                                   (dir / "Actor/Text.bgyml").string() +
                                   " is neither BYML nor AAMP; the stored default is used");
}

// ---- generic node classes ---------------------------------------------------------------------

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
    CHECK(checked == 166);
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
    CHECK(names.size() == 25);
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
