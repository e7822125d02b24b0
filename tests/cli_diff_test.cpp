// `ainb diff`: the structural difference of two AI files, on real files edited through the text
// form as a modder edits them, on the modders' tools' rewrites and a modder's real edit, as JSON,
// and as git's external diff driver (--git).

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"

using ainb::test::ainb_cli;
using Text = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

// The real file `name` of corpus/ainb, edited through its text form by `edit` and written to the
// scratch folder as `as`; its path.
std::string edited(const fs::path& original, const std::string& as,
                   const std::function<void(Text&)>& edit) {
  auto text = ainb::writer::to_text(*ainb::load_file(original));
  edit(text);
  return ainb::test::write_scratch(as, ainb::writer::from_text(text, as)).string();
}

// Every node reference in `v` one less: the text after node #0 is deleted.
void renumber_down(Text& v) {
  if (v.is_array()) {
    for (auto& x : v)
      renumber_down(x);
    return;
  }
  if (!v.is_object()) return;
  for (auto& [key, x] : v.items()) {
    if ((key == "node" || key == "root" || key == "replacement_node") && x.is_number_integer()) {
      x = x.get<int>() - 1;
    } else if (key == "queries" && x.is_array()) {
      for (auto& q : x)
        q = q.get<int>() - 1;
    } else {
      renumber_down(x);
    }
  }
}

constexpr const char* kToby = "ainb/Toby.utility.root.ainb";

}  // namespace

TEST_CASE("ainb diff: a file with itself is empty and exits 0") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  for (const auto& file : ainb::test::corpus_ainb_files()) {
    CAPTURE(file);
    const auto r = ainb_cli({"diff", file.string(), file.string()});
    CHECK(r.code == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
  }
  // A copy elsewhere: the same structure, whatever the names of the files.
  const auto copy = ainb::test::write_scratch(
      "diff_copy.ainb", ainb::test::read_file(dir / "ainb/PlayerCamera.root.ainb"));
  CHECK(ainb_cli({"diff", (dir / "ainb/PlayerCamera.root.ainb").string(), copy.string()}).code ==
        0);
}

TEST_CASE("ainb diff: a modder's edits made through the text form, a line each") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto toby = dir / kToby;
  const auto original = toby.string();
  const auto diff = [&](const std::string& as, const std::function<void(Text&)>& edit) {
    return ainb_cli({"diff", original, edited(toby, as, edit), "--color", "never"});
  };
  SUBCASE("a property's value") {
    const auto r = diff("diff_property.ainb", [](Text& t) {
      auto& p = t["nodes"][3]["properties"]["int"][1];
      REQUIRE(p["name"] == "InputValue");
      p["value"] = 5;
    });
    CHECK(r.code == 1);
    CHECK(r.err.empty());
    CHECK(r.out ==
          "node #3 Element_S32Selector (guid 6fa15607-7a3f-436a-9276-384b17ba63e8)\n"
          "  property InputValue: 0 -> 5\n");
  }
  SUBCASE("an input's value") {
    const auto r = diff("diff_input.ainb", [](Text& t) {
      auto& p = t["nodes"][19]["inputs"]["float"][0];
      REQUIRE(p["name"] == "RaycastLength");
      p["default"] = 75.5;
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          "node #19 QueryVolumeStatsRaycastDownwardSuccess (guid "
          "4639573c-a39f-48d2-b1f4-06a407ce090d)\n"
          "  input RaycastLength: 50 -> 75.5\n");
  }
  SUBCASE("an input rewired to another node's output") {
    // The S32 selector's Input read WeaponType of #2; now BrainVerb of #6.
    const auto r = diff("diff_rewire.ainb", [](Text& t) {
      auto& source = t["nodes"][3]["inputs"]["int"][0]["source"];
      REQUIRE(source["node"] == 2);
      source["node"] = 6;
      source["output"] = 0;
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          "node #3 Element_S32Selector (guid 6fa15607-7a3f-436a-9276-384b17ba63e8)\n"
          "  input Input source: #2 (output WeaponType) -> #6 (output BrainVerb)\n");
  }
  SUBCASE("children reordered, and a child removed") {
    const auto heading =
        "node #23 Element_Sequential (guid 93a464f9-f334-429f-a6b7-c4a1120997ea)\n";
    auto r = diff("diff_reorder.ainb", [](Text& t) {
      auto& children = t["nodes"][23]["plugs"]["child"];
      REQUIRE(children.size() == 3);
      std::swap(children[0], children[1]);
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          std::string(heading) + "  plugs child: reordered, [#26, #24, #25] -> [#24, #26, #25]\n");
    r = diff("diff_remove_child.ainb", [](Text& t) {
      auto& children = t["nodes"][23]["plugs"]["child"];
      children.erase(1);
    });
    CHECK(r.code == 1);
    CHECK(r.out == std::string(heading) + "  plugs child 1: removed, #24\n");
  }
  SUBCASE("a node added") {
    const auto r = diff("diff_add_node.ainb", [](Text& t) {
      auto node = t["nodes"][0];
      node["index"] = t["nodes"].size();
      node["guid"] = "0badc0de-0000-4000-8000-000000000001";
      t["nodes"].push_back(node);
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          "node #152 ExecuteBlackboardSetBool (guid 0badc0de-0000-4000-8000-000000000001): new in "
          "the edited file\n");
  }
  SUBCASE("a blackboard entry's default") {
    const auto r = diff("diff_blackboard.ainb", [](Text& t) {
      auto& entry = t["blackboard"]["f32"][0];
      REQUIRE(entry["name"] == "Pitch");
      entry["default"] = 1.5;
    });
    CHECK(r.code == 1);
    CHECK(r.out == "file\n  blackboard entry Pitch: 0 -> 1.5\n");
  }
  SUBCASE("an EXB instruction, where each node uses it") {
    // Function 0 is Element_BoolSelector #75's, for its InputValue property and its Input.
    const auto r = diff("diff_exb.ainb", [](Text& t) {
      auto& line = t["expressions"]["functions"][0]["main"][0];
      REQUIRE(line == "STR int GMem[0x0], int 7");
      line = "STR int GMem[0x0], int 8";
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          "node #75 Element_BoolSelector (guid ed5f52e0-9d3c-40df-ab22-0d7b0e949b53)\n"
          "  property InputValue expression main instruction 0: STR int GMem[0x0], int 7 -> STR "
          "int GMem[0x0], int 8\n"
          "  input Input expression main instruction 0: STR int GMem[0x0], int 7 -> STR int "
          "GMem[0x0], int 8\n");
  }
  SUBCASE("an EXB instruction inserted") {
    const auto r = diff("diff_exb_insert.ainb", [](Text& t) {
      auto& main = t["expressions"]["functions"][0]["main"];
      main.insert(main.begin() + 1, "STR int GMem[0x0], int 9");
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          "node #75 Element_BoolSelector (guid ed5f52e0-9d3c-40df-ab22-0d7b0e949b53)\n"
          "  property InputValue expression main instruction 1: added, STR int GMem[0x0], int 9\n"
          "  input Input expression main instruction 1: added, STR int GMem[0x0], int 9\n");
  }
  SUBCASE("a command's root, and a command added") {
    const auto r = diff("diff_command.ainb", [](Text& t) {
      auto& command = t["commands"][0];
      REQUIRE(command["root"] == 18);
      command["root"] = 3;
      t["commands"].push_back({{"name", "Spare"}, {"root", 23}});
    });
    CHECK(r.code == 1);
    CHECK(r.out ==
          "file\n"
          "  command Root root: #18 -> #3\n"
          "  command Spare: added, root #23\n");
  }
}

TEST_CASE("ainb diff: nodes paired by GUID, as regress pairs them") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  // Node #0 deleted with the Simultaneous #91's plug to it: every other node moves down one and
  // keeps its GUID, so the deletion and that plug are the only differences.
  const auto path = edited(dir / kToby, "diff_delete.ainb", [](Text& t) {
    auto& nodes = t["nodes"];
    auto& plugs = nodes[91]["plugs"]["child"];
    REQUIRE(plugs[1]["node"] == 0);
    plugs.erase(1);
    nodes.erase(0);
    renumber_down(nodes);
    renumber_down(t["commands"]);
    renumber_down(t["replacements"]);
    for (std::size_t i = 0; i < nodes.size(); ++i)
      nodes[i]["index"] = i;
  });
  const auto r = ainb_cli({"diff", (dir / kToby).string(), path});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "node #0 ExecuteBlackboardSetBool (guid 6417747e-a1bc-4f7d-b746-3bb23ee5ebba): deleted in "
        "the edited file\n"
        "node #91 Element_Simultaneous, #90 in the edited file (guid "
        "96ea5774-803e-46f2-96e0-8f30c2ac1958)\n"
        "  plugs child 1: removed, #0\n");
}

TEST_CASE("ainb diff: the modders' tools' rewrites of the public files") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  // dt-12345/AINB writes every file so that it loads; 71 of its 120 rewrites have the structure
  // of the original (their bytes differ in layout only, or not at all), the other 49 change
  // values the file stores: float constants of expressions as immediates, dropped counts.
  std::size_t same = 0, different = 0;
  for (const auto& rewrite : ainb::test::corpus_rewritten_files("ainb2")) {
    auto original = dir / "ainb" / rewrite.filename();
    if (!fs::exists(original)) original = dir / "bulk/ainb" / rewrite.filename();
    CAPTURE(rewrite);
    const auto r = ainb_cli({"diff", original.string(), rewrite.string()});
    CHECK(r.err.empty());
    REQUIRE((r.code == 0 || r.code == 1));
    ++(r.code == 0 ? same : different);
    CHECK(r.out.empty() == (r.code == 0));
  }
  CHECK(same == 71);
  CHECK(different == 49);
  // A file it writes back as it was (byte for byte), and one whose float constants it moves.
  CHECK(ainb_cli({"diff", (dir / "ainb/Accessory_Battery.root.ainb").string(),
                  (dir / "rewritten/ainb2/Accessory_Battery.root.ainb").string()})
            .code == 0);
  auto r = ainb_cli(
      {"diff", (dir / kToby).string(), (dir / "rewritten/ainb2/Toby.utility.root.ainb").string()});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "node #53 QueryMathAddVector3f (guid 67a7bb5a-9c64-43d1-b3c4-cd415ddd4b5b)\n"
        "  input InputB expression main instruction 1: VMS vec3f GMem[0x0], float 100.0 -> VMS "
        "vec3f GMem[0x0], float @imm 100.0\n"
        "  input InputB expression static_size: 0x10 -> 0xc\n"
        "node #151 ExecuteDebugExecuteEntryArrowVector (guid "
        "275178d2-4f19-42cf-927e-fc466d348c57)\n"
        "  input ToVector expression main instruction 4: VMS vec3f GMem[0xc], float 3.0 -> VMS "
        "vec3f GMem[0xc], float @imm 3.0\n");
  // The legacy converter's rewrite of Toby.utility.root does not load: exit 2, the loader's line.
  const auto broken = (dir / "rewritten/legacy/Toby.utility.root.ainb").string();
  r = ainb_cli({"diff", (dir / kToby).string(), broken});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "error: " + broken +
                     ": child replacement table at offset 0xb172: replacement 1 has unknown type "
                     "123\n");
  // One whose F32 selector's blackboard bound it loses (corpus/README.md, "quirks").
  r = ainb_cli({"diff", (dir / "bulk/ainb/Horablin.action.jumpattack.module.ainb").string(),
                (dir / "rewritten/legacy/Horablin.action.jumpattack.module.ainb").string()});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "node #47 Element_F32Selector (guid 34b933c3-1f6b-02fb-28e8-1ae8397f024d)\n"
        "  plugs child 0 max_blackboard_name: ForwardDirTargetTime -> none\n");
}

TEST_CASE("ainb diff: a modder's real edit of a vanilla file") {
  // Enemy_Bublin_Senior_3 is MiasmaSwarm_Alerted renamed, with an s32 input 227 instead of 40,
  // a property 2 instead of 0 and one Is Output flag gone (corpus/wide/README.md); one node, so
  // it pairs by index although the modder's tool gave it another GUID.
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto r =
      ainb_cli({"diff", (dir / "wide/ainb/MiasmaSwarm_Alerted.actionseq.root.ainb").string(),
                (dir / "wide/ainb/Enemy_Bublin_Senior_3.actionseq.root.ainb").string()});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "file\n"
        "  file_name: MiasmaSwarm_Alerted.actionseq.root -> Enemy_Bublin_Senior_3.actionseq.root\n"
        "  blackboard_id: 0x972b004 -> 0x89abcdef\n"
        "  parent_blackboard_id: 0x0 -> 0x1234567\n"
        "node #0 ExecuteBSASetActionVerb (guid 6560b255-fd4c-4d45-bbe7-d4cd58403932)\n"
        "  property ResultPolicy: 0 -> 2\n"
        "  input ActionVerb: 40 -> 227\n"
        "  input ActionVerb flags: 0x1800000 -> 0x800000\n");
}

TEST_CASE("ainb diff --format json: the changes with both numbers, class, kind and values") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto original = (dir / kToby).string();
  const auto path = edited(dir / kToby, "diff_json.ainb", [](Text& t) {
    t["nodes"][3]["properties"]["int"][1]["value"] = 5;
    t["blackboard"]["f32"][0]["default"] = 1.5;
    t["commands"].push_back({{"name", "Spare"}, {"root", 23}});
  });
  const auto r = ainb_cli({"diff", "--format", "json", original, path});
  CHECK(r.code == 1);
  const auto j = Text::parse(r.out);
  CHECK(j["same"] == false);
  CHECK(j["files"] == Text{{"original", original}, {"edited", path}});
  CHECK(j["nodes"] == Text{{"original", 152}, {"edited", 152}});
  REQUIRE(j["changes"].size() == 3);
  CHECK(j["changes"][0] == Text{{"original_node", nullptr},
                                {"edited_node", nullptr},
                                {"class", nullptr},
                                {"guid", nullptr},
                                {"kind", "command"},
                                {"change", "added"},
                                {"subject", "command Spare"},
                                {"after", {{"name", "Spare"}, {"root", "#23"}}},
                                {"text", "command Spare is new in the edited file"}});
  CHECK(j["changes"][1]["kind"] == "blackboard");
  CHECK(j["changes"][1]["before"] == 0.0);
  CHECK(j["changes"][1]["after"] == 1.5);
  CHECK(j["changes"][2] ==
        Text{{"original_node", 3},
             {"edited_node", 3},
             {"class", "Element_S32Selector"},
             {"guid", "6fa15607-7a3f-436a-9276-384b17ba63e8"},
             {"kind", "property"},
             {"change", "changed"},
             {"subject", "property InputValue"},
             {"before", 0},
             {"after", 5},
             {"text", "property InputValue is 0 in the original and 5 in the edited file"}});
  // The same file: same, no changes, exit 0.
  const auto same = ainb_cli({"diff", "--format", "json", original, original});
  CHECK(same.code == 0);
  const auto k = Text::parse(same.out);
  CHECK(k["same"] == true);
  CHECK(k["changes"] == Text::array());
}

TEST_CASE("ainb diff: files that do not load exit 2 with their error; usage") {
  const auto bad = ainb::test::write_scratch("diff_bad.ainb", "not AINB").string();
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto good = (dir / kToby).string();
  auto r = ainb_cli({"diff", good, bad});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "error: " + bad +
                     ": header at offset 0x0: file is 8 bytes, too small for the 0x74-byte "
                     "header\n");
  r = ainb_cli({"diff", "/nonexistent.ainb", good});
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("error: /nonexistent.ainb: file at offset 0x0: cannot read file"));
  r = ainb_cli({"diff", good});
  CHECK(r.code == 2);
  CHECK(r.err == "error: diff compares 2 files (ORIGINAL EDITED), got 1\n");
  r = ainb_cli({"diff", "--color", "sometimes", good, good});
  CHECK(r.code == 2);
}

TEST_CASE("ainb diff: PACK:MEMBER, an AI file inside a real pack") {
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return;
  const auto dir = ainb::test::corpus_dir();
  const auto zsdic = ainb::test::corpus_zsdic_dir().string();
  // The pack's member is the corpus's file, byte for byte.
  const auto member =
      (dir / "packs/Npc_TripMaster_02.pack.zs").string() + ":AI/NpcTripMaster.utility.root.ainb";
  const auto loose = (dir / "ainb/NpcTripMaster.utility.root.ainb").string();
  auto r = ainb_cli({"diff", member, loose, "--zsdic", zsdic});
  CHECK(r.err.empty());
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  // Against another file of the same pack: different.
  r = ainb_cli(
      {"diff", member,
       (dir / "packs/Accessory_Battery.pack.zs").string() + ":AI/Accessory_Battery.root.ainb",
       "--zsdic", zsdic, "--format", "json"});
  CHECK(r.code == 1);
  CHECK(Text::parse(r.out)["same"] == false);
}

TEST_CASE("ainb diff --git: git's external diff driver") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto original = (dir / "wide/ainb/MiasmaSwarm_Alerted.actionseq.root.ainb").string();
  const auto edit = (dir / "wide/ainb/Enemy_Bublin_Senior_3.actionseq.root.ainb").string();
  const std::string hex_a(40, 'a'), hex_b(40, 'b');
  // A change: the heading names the path, then the lines; exit 0, as git wants of a driver.
  auto r = ainb_cli(
      {"diff", "--git", "AI/Alerted.ainb", original, hex_a, "100644", edit, hex_b, "100644"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.starts_with("diff --ainb a/AI/Alerted.ainb b/AI/Alerted.ainb\nfile\n"));
  CHECK(
      r.out.ends_with("  input ActionVerb: 40 -> 227\n  input ActionVerb flags: 0x1800000 -> "
                      "0x800000\n"));
  // A file added and one deleted: git gives /dev/null, "." and "." for the side without one.
  r = ainb_cli({"diff", "--git", "AI/New.ainb", "/dev/null", ".", ".", edit, hex_b, "100644"});
  CHECK(r.code == 0);
  CHECK(r.out == "diff --ainb a/AI/New.ainb b/AI/New.ainb\nnew file: 1 node, 1 command\n");
  r = ainb_cli({"diff", "--git", "AI/Old.ainb", original, hex_a, "100644", "/dev/null", ".", "."});
  CHECK(r.code == 0);
  CHECK(r.out == "diff --ainb a/AI/Old.ainb b/AI/Old.ainb\ndeleted file: 1 node, 1 command\n");
  // The same bytes with another mode: the mode only. The same bytes and mode: nothing.
  r = ainb_cli({"diff", "--git", "A.ainb", original, hex_a, "100644", original, hex_a, "100755"});
  CHECK(r.out == "diff --ainb a/A.ainb b/A.ainb\nold mode 100644\nnew mode 100755\n");
  r = ainb_cli({"diff", "--git", "A.ainb", original, hex_a, "100644", original, hex_a, "100644"});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  // A rewrite that moves bytes only (dt-12345/AINB's of a 770-byte module).
  r = ainb_cli({"diff", "--git", "T.ainb",
                (dir / "bulk/ainb/TobyMoveToDefault.module.ainb").string(), hex_a, "100644",
                (dir / "rewritten/ainb2/TobyMoveToDefault.module.ainb").string(), hex_b, "100644"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "diff --ainb a/T.ainb b/T.ainb\n"
        "no structural difference: the bytes differ in their layout only\n");
  // An unmerged path: git gives the path alone.
  r = ainb_cli({"diff", "--git", "A.ainb"});
  CHECK(r.code == 0);
  CHECK(r.out == "* Unmerged path A.ainb\n");
  // A side that does not load: named by its path in the repository, exit 2 (git stops).
  const auto bad = ainb::test::write_scratch("diff_git_bad.ainb", "not AINB").string();
  r = ainb_cli({"diff", "--git", "A.ainb", original, hex_a, "100644", bad, hex_b, "100644"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "error: A.ainb: header at offset 0x0: file is 8 bytes, too small for the 0x74-byte "
        "header\n");
  r = ainb_cli({"diff", "--git", "A.ainb", original});
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("error: --git takes the 7 arguments git gives an external diff"));
}

TEST_CASE("ainb diff --color: headings bold, the original's values red, the edit's green") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto original = (dir / "wide/ainb/MiasmaSwarm_Alerted.actionseq.root.ainb").string();
  const auto edit = (dir / "wide/ainb/Enemy_Bublin_Senior_3.actionseq.root.ainb").string();
  const auto r = ainb_cli({"diff", "--color", "always", original, edit});
  CHECK(r.code == 1);
  CHECK(r.out.find("\x1b[1mnode #0 ExecuteBSASetActionVerb (guid "
                   "6560b255-fd4c-4d45-bbe7-d4cd58403932)\x1b[m\n") != std::string::npos);
  CHECK(r.out.find("  input ActionVerb: \x1b[31m40\x1b[m -> \x1b[32m227\x1b[m\n") !=
        std::string::npos);
  // auto: this stream is no terminal.
  CHECK(ainb_cli({"diff", original, edit}).out.find('\x1b') == std::string::npos);
}
