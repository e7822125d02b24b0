// `ainb scan`: folders, packs and a romfs checked in worker processes; the report, sharding,
// crash isolation and the same report at any number of jobs.

#include <csignal>
#include <filesystem>
#include <set>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "commands.hpp"
#include "corpus.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using ainb::test::ainb_cli;

namespace {

// A folder of three hand-made files, one of them cut short.
fs::path mod_folder() {
  const auto dir = ainb::test::scratch_dir() / "scan_mod";
  ainb::test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {ainb::test::BuildNode{.name = "Idle"}};
  spec.file_name = "a.root";
  ainb::test::write_file(dir / "a.root.ainb", ainb::test::build(spec));
  spec.file_name = "b.root";
  ainb::test::write_file(dir / "sub/b.root.ainb", ainb::test::build(spec));
  auto bytes = ainb::test::build(spec);
  bytes.resize(100);
  ainb::test::write_file(dir / "c.root.ainb", bytes);
  ainb::test::write_file(dir / "notes.txt", std::string_view("not an AI file"));
  return dir;
}

// A romfs with the corpus's packs under Pack/Actor and its dictionaries in Pack/ZsDic.pack.zs.
fs::path romfs_folder() {
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return {};
  const auto root = ainb::test::scratch_dir() / "scan_romfs";
  fs::create_directories(root / "Pack/Actor");
  for (const auto& pack : packs)
    fs::copy_file(pack, root / "Pack/Actor" / pack.filename(),
                  fs::copy_options::overwrite_existing);
  fs::copy_file(ainb::test::corpus_zsdic_dir() / "ZsDic.pack.zs", root / "Pack/ZsDic.pack.zs",
                fs::copy_options::overwrite_existing);
  // A loose AI file beside the packs.
  ainb::test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.nodes = {ainb::test::BuildNode{.name = "Idle"}};
  spec.file_name = "Loose.root";
  ainb::test::write_file(root / "AI/Loose.root.ainb", ainb::test::build(spec));
  return root;
}

// A little-endian SARC holding one file (SFAT node, SFNT name, data at 0x40).
std::vector<std::uint8_t> one_file_sarc(std::string_view name,
                                        const std::vector<std::uint8_t>& data) {
  std::vector<std::uint8_t> b;
  auto u16 = [&](std::uint16_t v) { b.insert(b.end(), {std::uint8_t(v), std::uint8_t(v >> 8)}); };
  auto u32 = [&](std::uint32_t v) {
    u16(static_cast<std::uint16_t>(v));
    u16(static_cast<std::uint16_t>(v >> 16));
  };
  auto text = [&](std::string_view t) { b.insert(b.end(), t.begin(), t.end()); };
  std::uint32_t hash = 0;
  for (const char c : name)
    hash = hash * 0x65 + static_cast<std::uint8_t>(c);
  constexpr std::uint32_t kData = 0x80;
  text("SARC");
  u16(0x14);
  u16(0xFEFF);
  u32(kData + static_cast<std::uint32_t>(data.size()));
  u32(kData);
  u16(0x100);
  u16(0);
  text("SFAT");
  u16(0x0C);
  u16(1);
  u32(0x65);
  u32(hash);
  u32(0x01000000);  // the name at SFNT offset 0
  u32(0);
  u32(static_cast<std::uint32_t>(data.size()));
  text("SFNT");
  u16(8);
  u16(0);
  text(name);
  b.resize(kData, 0);
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

std::vector<std::string> files_of(const std::string& json) {
  std::vector<std::string> files;
  const auto report = nlohmann::json::parse(json);  // alive through the loop
  for (const auto& f : report["files"])
    files.push_back(f["file"].get<std::string>());
  return files;
}

}  // namespace

TEST_CASE("ainb scan: a folder with a broken file names it, sums up, exits 1") {
  const auto dir = mod_folder();
  const auto d = dir.string();
  const auto r = ainb_cli({"scan", d, "--no-time", "--jobs", "2"});
  CHECK(r.code == 1);
  CHECK(r.err == "");
  CHECK(r.out == d + "/c.root.ainb: load: header at offset 0x0: file is 100 bytes, too small " +
                     "for the 0x74-byte header\n" +
                     "files               3\n"
                     "loaded              2\n"
                     "round-tripped       2\n"
                     "lint findings       - (no node definitions)\n"
                     "not honoured        0 properties in 0 files (docs/semantics.md, \"Properties "
                     "not honoured\")\n"
                     "generic classes     0 of 2 user nodes (0.0%, docs/generic-nodes.md)\n"
                     "graph valid         2\n"
                     "ran without fault   2 (600 frames)\n"
                     "warnings            0\n"
                     "failed              1\n");

  // The same as JSON: the broken file's failure, the counts.
  const auto json_run = ainb_cli({"scan", d, "--no-time", "--format", "json"});
  CHECK(json_run.code == 1);
  const auto json = nlohmann::json::parse(json_run.out);
  CHECK(json["files"][1]["file"] == d + "/c.root.ainb");
  CHECK(json["files"][1]["passed"] == false);
  CHECK(json["files"][1]["loaded"] == false);
  CHECK(json["files"][1]["failures"] ==
        nlohmann::json::parse(R"([{"check": "load", "message": "header at offset 0x0: file is 100 )"
                              R"(bytes, too small for the 0x74-byte header"}])"));
  CHECK(json["files"][2]["file"] == d + "/sub/b.root.ainb");
  CHECK(json["files"][2]["passed"] == true);
  CHECK(json["summary"]["failed"] == 1);
  CHECK(json["summary"]["loaded"] == 2);
  CHECK_FALSE(json["summary"].contains("seconds"));

  // The two good files alone pass; the time line is there unless --no-time.
  const auto good = ainb_cli({"scan", d + "/a.root.ainb", d + "/sub", "--frames", "10"});
  CHECK(good.code == 0);
  CHECK(good.out.find("failed              0\n") != std::string::npos);
  CHECK(good.out.find("\ntime                ") != std::string::npos);
  CHECK(good.out.find(" files/s, ") != std::string::npos);
}

TEST_CASE("ainb scan: a worker that dies by a signal costs its file only") {
  const auto dir = mod_folder();
  ainb::cli::ScanRequest request;
  request.paths = {dir.string()};
  request.time = false;
  request.jobs = 2;
  request.run.options.frames = 10;
  request.in_worker = [](const std::string& file) {
    if (file.ends_with("a.root.ainb")) std::raise(SIGSEGV);
  };
  std::ostringstream out, err;
  CHECK(ainb::cli::run_scan(request, out, err) == 1);
  const auto d = dir.string();
  CHECK(
      out.str().starts_with(d + "/a.root.ainb: crashed: signal 11\n" + d + "/c.root.ainb: load: "));
  CHECK(out.str().find("files               3\nloaded              1\n") != std::string::npos);
  CHECK(out.str().find("failed              2\n") != std::string::npos);
}

TEST_CASE("ainb scan: usage errors exit 2") {
  CHECK(ainb_cli({"scan"}).code == 2);
  const auto d = mod_folder().string();
  for (const auto* shard : {"0/3", "4/3", "3", "1/0", "a/b", "1/3x"}) {
    CAPTURE(shard);
    const auto r = ainb_cli({"scan", d, "--shard", shard});
    CHECK(r.code == 2);
    CHECK(r.err.find("--shard") != std::string::npos);
  }
  CHECK(ainb_cli({"scan", d + "/missing"}).code == 2);
  CHECK(ainb_cli({"scan", d, "--jobs", "0"}).code == 2);
  const auto empty = ainb::test::scratch_dir() / "scan_empty";
  fs::create_directories(empty);
  const auto none = ainb_cli({"scan", empty.string()});
  CHECK(none.code == 2);
  CHECK(none.err == "error: no AI files (*.ainb, a pack's AI/*.ainb) found\n");
}

TEST_CASE("ainb scan: a pack of the corpus, its members run with the pack's modules") {
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return;
  const auto pack = packs.front().string();  // Accessory_Battery.pack.zs
  const auto zsdic = ainb::test::corpus_zsdic_dir().string();
  // The event file calls a module the pack does not hold: its graph is refused.
  const auto r = ainb_cli({"scan", pack, "--zsdic", zsdic, "--no-time"});
  CHECK(r.err == "");
  CHECK(r.out == pack + ":AI/Accessory_Battery_Event.event.root.ainb: validate: nodes at offset " +
                     "0x323c: node 188 calls module \"EventPlayASAnimDrive.module.ainb\", which " +
                     "was not found (searched " + pack + ", (no romfs folder))\n" +
                     "files               2\n"
                     "loaded              2\n"
                     "round-tripped       2\n"
                     "lint findings       - (no node definitions)\n"
                     "not honoured        0 properties in 0 files (docs/semantics.md, \"Properties "
                     "not honoured\")\n"
                     "generic classes     15 of 269 user nodes (5.6%, docs/generic-nodes.md)\n"
                     "graph valid         1\n"
                     "ran without fault   1 (600 frames)\n"
                     "warnings            0\n"
                     "failed              1\n");
  CHECK(r.code == 1);

  // Run as a stub, with a warning counted for the file, not printed.
  const auto stubbed = ainb_cli({"scan", pack, "--zsdic", zsdic, "--no-time",
                                 "--stub-missing-modules", "--stub-children", "--generic-nodes"});
  CHECK(stubbed.err == "");
  CHECK(stubbed.out ==
        "files               2\n"
        "loaded              2\n"
        "round-tripped       2\n"
        "lint findings       - (no node definitions)\n"
        "not honoured        0 properties in 0 files (docs/semantics.md, \"Properties not "
        "honoured\")\n"
        "generic classes     15 of 269 user nodes (5.6%, docs/generic-nodes.md)\n"
        "graph valid         2\n"
        "ran without fault   2 (600 frames)\n"
        "warnings            1\n"
        "failed              0\n");
  CHECK(stubbed.code == 0);
}

TEST_CASE("ainb scan: a mod folder's packs are scanned, a module found in another of them") {
  // As a mod ships: romfs/Pack/Actor/*.pack.zs, no loose AI file. The event file of
  // Accessory_Battery.pack.zs calls EventPlayASAnimDrive.module, which its pack lacks: found in
  // the mod's other pack (a hand-made SARC holding a module with no nodes).
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return;
  const auto mod = ainb::test::scratch_dir() / "scan_packed_mod";
  const auto actors = mod / "romfs/Pack/Actor";
  fs::create_directories(actors);
  fs::copy_file(packs.front(), actors / packs.front().filename(),
                fs::copy_options::overwrite_existing);  // Accessory_Battery.pack.zs
  ainb::test::AinbSpec module;
  module.file_name = "EventPlayASAnimDrive.module";
  ainb::test::write_file(
      actors / "Shared.sarc",
      one_file_sarc("AI/EventPlayASAnimDrive.module.ainb", ainb::test::build(module)));
  const auto zsdic = ainb::test::corpus_zsdic_dir().string();
  const auto r =
      ainb_cli({"scan", mod.string(), "--zsdic", zsdic, "--no-time", "--format", "json"});
  CHECK(r.err == "");
  CHECK(files_of(r.out) ==
        std::vector<std::string>{
            (actors / "Accessory_Battery.pack.zs").string() + ":AI/Accessory_Battery.root.ainb",
            (actors / "Accessory_Battery.pack.zs").string() +
                ":AI/Accessory_Battery_Event.event.root.ainb",
            (actors / "Shared.sarc").string() + ":AI/EventPlayASAnimDrive.module.ainb"});
  const auto json = nlohmann::json::parse(r.out);
  CHECK(json["summary"]["validated"] == 3);
  CHECK(json["summary"]["failed"] == 0);
  CHECK(r.code == 0);
}

TEST_CASE("ainb scan --romfs: every pack under Pack/Actor, dictionaries from the romfs") {
  const auto root = romfs_folder();
  if (root.empty()) return;
  const auto r = ainb_cli({"scan", "--romfs", root.string(), "--no-time", "--format", "json",
                           "--stub-missing-modules"});
  CHECK(r.err == "");
  const auto json = nlohmann::json::parse(r.out);
  const auto files = files_of(r.out);
  const auto actors = (root / "Pack/Actor").string();
  CHECK(files ==
        std::vector<std::string>{
            (root / "AI/Loose.root.ainb").string(),
            actors + "/Accessory_Battery.pack.zs:AI/Accessory_Battery.root.ainb",
            actors + "/Accessory_Battery.pack.zs:AI/Accessory_Battery_Event.event.root.ainb",
            actors + "/Npc_TripMaster_02.pack.zs:AI/NpcTripMaster.utility.root.ainb"});
  CHECK(json["summary"] == nlohmann::json::parse(R"({"files": 4, "loaded": 4, "round_tripped": 4,
      "lint_findings": null, "not_honoured": 0, "validated": 4, "ran_without_fault": 4, "frames": 600,
      "warnings": 2, "user_nodes": 273, "modelled_user_nodes": 15, "failed": 0})"));
  CHECK(json["files"][2] == nlohmann::json::parse(R"({"file": ")" + files[2] + R"(",
      "passed": true, "loaded": true, "round_trip": true, "lint_findings": null, "not_honoured": 0,
      "validated": true, "ran": true, "warnings": 1, "user_nodes": 268, "modelled_user_nodes": 15,
      "failures": []})"));
  CHECK(r.code == 0);

  // Three shards cover every file once, each the files i with i mod 3 = K - 1.
  std::vector<std::string> sharded;
  for (const auto* shard : {"1/3", "2/3", "3/3"}) {
    const auto part = ainb_cli({"scan", "--romfs", root.string(), "--no-time", "--format", "json",
                                "--stub-missing-modules", "--shard", shard});
    const auto mine = files_of(part.out);
    for (std::size_t i = 0; i < mine.size(); ++i)
      CHECK(mine[i] == files[(shard[0] - '1') + 3 * i]);
    sharded.insert(sharded.end(), mine.begin(), mine.end());
  }
  std::sort(sharded.begin(), sharded.end());
  CHECK(sharded == files);
}

TEST_CASE("ainb scan: the bulk corpus gives the same report at one job and at two") {
  const auto files = ainb::test::corpus_bulk_ainb_files();
  if (files.empty()) return;
  const auto folder = files.front().parent_path().string();
  std::vector<std::string> args{"scan",
                                folder,
                                "--modules",
                                folder,
                                "--frames",
                                "60",
                                "--restart",
                                "--generic-nodes",
                                "--stub-children",
                                "--stub-missing-modules",
                                "--no-time"};
  auto one = args, two = args;
  one.insert(one.end(), {"--jobs", "1"});
  two.insert(two.end(), {"--jobs", "2"});
  const auto a = ainb_cli(one), b = ainb_cli(two);
  CHECK(a.code == 0);
  CHECK(a.err == "");
  CHECK(a.out == b.out);
  CHECK(a.out ==
        "files               109\n"
        "loaded              109\n"
        "round-tripped       109\n"
        "lint findings       - (no node definitions)\n"
        "not honoured        87 properties in 40 files (docs/semantics.md, \"Properties not "
        "honoured\")\n"
        "generic classes     748 of 2451 user nodes (30.5%, docs/generic-nodes.md)\n"
        "graph valid         109\n"
        "ran without fault   109 (60 frames)\n"
        "warnings            319\n"
        "failed              0\n");

  // With node definitions: the one file whose class the dump declares with other names.
  const auto defs = (ainb::test::corpus_dir() / "nodedefs/NodeDefinition.json").string();
  const auto linted = ainb_cli(
      {"scan", folder, "--defs", defs, "--frames", "0", "--stub-missing-modules", "--no-time"});
  CHECK(linted.code == 1);
  CHECK(linted.out.starts_with(folder + "/Toby.action.lift.module.ainb: lint: 4 findings, the " +
                               "first: node "));
  CHECK(linted.out.find("\nlint findings       4\n") != std::string::npos);
  CHECK(linted.out.find("\nfailed              1\n") != std::string::npos);
}

TEST_CASE("ainb scan: the share of user nodes the generic classes model, on a real file") {
  const auto files = ainb::test::corpus_ainb_files();
  if (files.empty()) return;
  const auto toby = (files.front().parent_path() / "Toby.utility.root.ainb").string();
  // 41 of Toby's 102 UserDefined nodes are of a class --generic-nodes implements; the readings
  // add one (docs/generic-nodes.md).
  const auto text = ainb_cli({"scan", toby, "--no-time", "--stub-missing-modules"});
  CHECK(text.out.find(
            "\ngeneric classes     41 of 102 user nodes (40.2%, docs/generic-nodes.md)\n") !=
        std::string::npos);
  const auto json =
      nlohmann::json::parse(ainb_cli({"scan", toby, "--no-time", "--stub-missing-modules",
                                      "--format", "json", "--ambiguous-readings"})
                                .out);
  CHECK(json["summary"]["user_nodes"] == 102);
  CHECK(json["summary"]["modelled_user_nodes"] == 42);
  CHECK(json["files"][0]["modelled_user_nodes"] == 42);
}
