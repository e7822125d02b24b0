// Blackboard entries' parameter files: the initial values they give (through a romfs, from BYML
// and AAMP files), the graph's hook for initial values, and the files that cannot serve.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/gamedata/use_romfs.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/runtime.hpp"
#include "ainb/simulation/simulation.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "format_samples.hpp"
#include "gamedata_dirs.hpp"
#include "scratch.hpp"

using namespace ainb;
namespace fs = std::filesystem;

using ainb::test::ainb_cli;
using ainb::test::corpus_romfs;
using ainb::test::temp_dir;
using ainb::test::write_file;

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

TEST_CASE("the front door on a romfs takes parameter files' values and says what it cannot use") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto romfs = corpus_romfs("blackboard_front_door");
  write_file(romfs / "Actor/AIProgram/Test.baiprog", test::aamp_sample(std::endian::little).bytes);
  const auto file = romfs / "Params.root.ainb";
  write_file(file, test::build(blackboard_spec()));
  runtime::Runtime runtime;
  struct Said {
    runtime::LogLevel level;
    runtime::LogKind kind;
    std::string file, message;
  };
  std::vector<Said> said;
  runtime.set_log([&](const runtime::LogEvent& e) {
    said.push_back({e.level, e.kind, std::string(e.file), std::string(e.message)});
  });
  gamedata::use_romfs(runtime, romfs);
  const auto graph = runtime.load(file.string());
  runtime::Instance actor(graph);
  CHECK(std::get<bool>(*actor.blackboard("Equipment_IsFade")) == false);     // stored true
  CHECK(std::get<std::int32_t>(*actor.blackboard("CreateActorType")) == 0);  // stored 7
  CHECK(std::get<std::int32_t>(*actor.blackboard("p2")) == -7);              // from the AAMP file
  // The same three warnings as `ainb run --romfs` gives, each once, as ParameterFile warnings.
  REQUIRE(said.size() == 3);
  for (const auto& s : said) {
    CHECK(s.level == runtime::LogLevel::Warning);
    CHECK(s.kind == runtime::LogKind::ParameterFile);
    CHECK(s.file == file.string());
  }
  CHECK(said[1].message == file.string() + ": blackboard entry NotInTable (s32): " +
                               (romfs / "Pack/Actor/Accessory_Battery.pack.zs").string() +
                               ":Component/Blackboard/BlackboardParamTable/"
                               "Accessory.engine__component__BlackboardParamTable.bgyml has no "
                               "value for it; the stored default is used");
  CHECK(said[2].message.starts_with(file.string() + ": blackboard entry Gone references "
                                                    "Work/Component/Nope.engine__component__"
                                                    "Nope.gyml, which was not found"));
  // Each load says what it cannot use, as it says missing modules; a reload reads loose
  // parameter files again, and sees the one removed.
  runtime.load(file.string());
  CHECK(said.size() == 6);
  CHECK(said[4].message == said[1].message);
  fs::remove(romfs / "Actor/AIProgram/Test.baiprog");
  const auto reload = runtime.reload(file.string());
  REQUIRE(reload);
  CHECK(std::get<std::int32_t>(*runtime::Instance(reload.graph).blackboard("p2")) == 0);
  REQUIRE(said.size() == 10);
  CHECK(std::ranges::count_if(said, [&](const Said& s) {
          return s.message.starts_with(file.string() + ": blackboard entry ") &&
                 s.message.find(" references Actor/AIProgram/Test.aiprog, which was not found") !=
                     std::string::npos;
        }) == 1);
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
