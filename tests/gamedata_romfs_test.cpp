// `ainb run` and the other commands from a romfs tree: AI files inside actor packs, the game's
// dictionaries, modules from other packs, and the PACK:MEMBER file specs.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/romfs.hpp"
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
