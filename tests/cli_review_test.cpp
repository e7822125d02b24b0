// `ainb review BASE HEAD` (docs/review.md): two folders of real files, one of each kind (the same,
// edited through the text form with and without a change of behaviour, added, removed, truncated);
// the modders' tool's rewrites of every public real file against the originals; a pack against a
// folder; a missing side. Git revisions: tests/git/test_review.py.

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

// The real file `original` edited through its text form by `edit`, written to `to`.
void write_edited(const fs::path& original, const fs::path& to,
                  const std::function<void(Text&)>& edit) {
  auto text = ainb::writer::to_text(*ainb::load_file(original));
  edit(text);
  ainb::test::write_file(to, ainb::writer::from_text(text, to.filename().string()));
}

void copy_into(const fs::path& file, const fs::path& dir) {
  ainb::test::write_file(dir / file.filename(), ainb::test::read_file(file));
}

std::vector<std::string> table_rows(const std::string& summary) {
  std::vector<std::string> rows;
  for (std::size_t at = 0; at < summary.size();) {
    auto end = summary.find('\n', at);
    if (end == std::string::npos) end = summary.size();
    if (summary.compare(at, 3, "| `") == 0) rows.push_back(summary.substr(at, end - at));
    at = end + 1;
  }
  return rows;
}

}  // namespace

TEST_CASE("ainb review: two folders, a file of each kind") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto base = ainb::test::fresh_dir("review_base"),
             head = ainb::test::fresh_dir("review_head");
  for (const auto* name :
       {"PlayerCamera.root.ainb", "Accessory_Battery.root.ainb",
        "EnemyBase_FrozenInIce.actionseq.root.ainb", "Vss_Kaisou04_66b8.logic.root.ainb"})
    copy_into(dir / "ainb" / name, base);
  const auto underwater = dir / "wide/ainb/UnderWaterFloatWait.actionseq.root.ainb";
  copy_into(underwater, base);
  copy_into(dir / "ainb/Accessory_Battery.root.ainb", head);
  copy_into(dir / "ainb/_LocalModule_d0e7ebe89ded.module.ainb", head);
  // A value a stub ignores: the same behaviour.
  write_edited(dir / "ainb/PlayerCamera.root.ainb", head / "PlayerCamera.root.ainb", [](Text& t) {
    auto& input = t["nodes"][0]["inputs"]["int"][0];
    REQUIRE(input["name"] == "GameCameraType");
    input["default"] = 3;
  });
  // A modelled selector's constant (gamedata_generic_classes_test: explore finds a depth of 10
  // that chooses the other child).
  write_edited(underwater, head / underwater.filename(), [](Text& t) {
    auto& input = t["nodes"][1]["inputs"]["float"][0];
    REQUIRE(t["nodes"][1]["name"] == "SelectorMathLessOrEqualF32");
    input["default"] = 20.0;
  });
  const auto vss = ainb::test::read_file(dir / "ainb/Vss_Kaisou04_66b8.logic.root.ainb");
  ainb::test::write_file(head / "Vss_Kaisou04_66b8.logic.root.ainb",
                         std::vector<std::uint8_t>(vss.begin(), vss.begin() + 1000));
  const std::vector<std::string> options = {"--generic-nodes", "--stub-missing-modules"};
  const auto review = [&](std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"review", base.string(), head.string()};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return ainb_cli(args);
  };

  const auto r = review();
  CHECK(r.code == 2);  // a file that does not load
  CHECK(r.out.starts_with("## ainb review: " + base.string() + " → " + head.string() +
                          "\n\n3 AI file(s) changed, 1 added, 1 removed, 1 unchanged.\n\n"
                          "| file | change | verdict | edits |\n|---|---|---|---|\n"));
  CHECK(table_rows(r.out) ==
        std::vector<std::string>{
            "| `EnemyBase_FrozenInIce.actionseq.root.ainb` | removed | removed |  |",
            "| `PlayerCamera.root.ainb` | changed | same behaviour | 1 |",
            "| `UnderWaterFloatWait.actionseq.root.ainb` | changed | differs at frame 1: a "
            "different node was entered: #4 ExecuteGenericSetResultNone in the original, #5 "
            "ExecuteGenericSetResultSuccess in the edited file (a different child was chosen or "
            "linked) | 1 |",
            "| `Vss_Kaisou04_66b8.logic.root.ainb` | changed | does not load: " +
                (head / "Vss_Kaisou04_66b8.logic.root.ainb").string() +
                ": header at offset 0x24: section offset 0x58c lies past the end of the file "
                "(0x3e8) | 0 |",
            "| `_LocalModule_d0e7ebe89ded.module.ainb` | added | added |  |"});
  // The details: ainb diff's lines, regress's first difference and its scenario, what the
  // runtime does not model on the changed node.
  CHECK(r.out.find("<details><summary>PlayerCamera.root.ainb — same behaviour</summary>\n\n"
                   "ainb diff:\n\n```text\n"
                   "node #0 OneShotCameraRegisterOwnInSystem (guid "
                   "005f853d-bd0a-446b-b165-e362cf9e1802)\n"
                   "  input GameCameraType: 0 -> 3\n```\n\n"
                   "regress --explore 200: 120 frames a scenario, seed 0:\n\n```text\n"
                   "no difference in 200 runs\n```\n\n"
                   "Not modelled on the changed nodes:\n\n"
                   "- node #0 OneShotCameraRegisterOwnInSystem: runs as a stub (its class is not "
                   "modelled)\n\n</details>\n") != std::string::npos);
  CHECK(r.out.find("  input F32: 3 -> 20\n") != std::string::npos);
  CHECK(r.out.find("  > original: frame 1 enter #4 ExecuteGenericSetResultNone "
                   "[UnderWaterFloatWait.actionseq.root.ainb]\n"
                   "  > edited:   frame 1 enter #5 ExecuteGenericSetResultSuccess "
                   "[UnderWaterFloatWait.actionseq.root.ainb]\n"
                   "the scenario: {") != std::string::npos);
  // Rows only for the files added, removed or loading nowhere: no details.
  CHECK(r.out.find("<summary>_LocalModule") == std::string::npos);

  // Without the file that does not load: a behaviour differs, and files were added and removed.
  fs::remove(base / "Vss_Kaisou04_66b8.logic.root.ainb");
  fs::remove(head / "Vss_Kaisou04_66b8.logic.root.ainb");
  CHECK(review().code == 1);
  // Only the edit no run sees: exit 0, the summary written to -o DIR.
  for (const auto* name :
       {"EnemyBase_FrozenInIce.actionseq.root.ainb", "UnderWaterFloatWait.actionseq.root.ainb"})
    fs::remove(base / name);
  fs::remove(head / "UnderWaterFloatWait.actionseq.root.ainb");
  fs::remove(head / "_LocalModule_d0e7ebe89ded.module.ainb");
  const auto same = review();
  CHECK(same.code == 0);
  CHECK(table_rows(same.out) ==
        std::vector<std::string>{"| `PlayerCamera.root.ainb` | changed | same behaviour | 1 |"});
  const auto output = ainb::test::fresh_dir("review_output") / "review";
  const auto written = review({"-o", output.string()});
  CHECK(written.code == 0);
  CHECK(written.out == "written " + (output / "summary.md").string() + " and " +
                           (output / "index.html").string() + "\n");
  CHECK(ainb::test::read_text(output / "summary.md") == same.out);
  // The index links the changed file to its page (tests/browser/test_review_page.py opens them).
  CHECK(ainb::test::read_text(output / "index.html")
            .find(R"(<a href="files/PlayerCamera.root.ainb.html">PlayerCamera.root.ainb</a>)") !=
        std::string::npos);
  CHECK(fs::file_size(output / "files/PlayerCamera.root.ainb.html") > 0);
}

TEST_CASE("ainb review: the modders' tool's rewrites of every public real file") {
  // rewritten/ainb2 (dt-12345/AINB's JSON path) against the originals, modules beside them:
  // every file behaves as its original (rewritten/README.md), byte-identical ones are counted.
  const auto rewritten = ainb::test::corpus_rewritten_files("ainb2");
  if (rewritten.empty()) return;
  const auto dir = ainb::test::corpus_dir();
  const auto base = ainb::test::fresh_dir("review_originals");
  for (const auto& file : rewritten) {
    const auto name = file.filename();
    copy_into(fs::exists(dir / "ainb" / name) ? dir / "ainb" / name : dir / "bulk/ainb" / name,
              base);
  }
  const auto r = ainb_cli({"review", base.string(), rewritten.front().parent_path().string(),
                           "--generic-nodes", "--stub-children", "--restart",
                           "--stub-missing-modules", "--explore", "10"});
  CHECK(r.code == 0);
  CHECK(r.out.find("\n109 AI file(s) changed, 0 added, 0 removed, 11 unchanged.\n") !=
        std::string::npos);
  const auto rows = table_rows(r.out);
  CHECK(rows.size() == 109);
  for (const auto& row : rows) {
    CAPTURE(row);
    CHECK(row.find(" | changed | same behaviour | ") != std::string::npos);
  }
}

TEST_CASE("ainb review: a pack against a folder of its AI files, one of them rewritten") {
  // Accessory_Battery.pack.zs holds the corpus's two Accessory_Battery files as AI/ members.
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return;
  const auto dir = ainb::test::corpus_dir();
  const auto pack = (dir / "packs/Accessory_Battery.pack.zs").string();
  const auto zsdic = ainb::test::corpus_zsdic_dir().string();
  const auto folder = ainb::test::fresh_dir("review_pack");
  copy_into(dir / "ainb/Accessory_Battery.root.ainb", folder / "AI");
  copy_into(dir / "rewritten/ainb2/Accessory_Battery_Event.event.root.ainb", folder / "AI");
  const auto r = ainb_cli({"review", pack, folder.string(), "--zsdic", zsdic,
                           "--stub-missing-modules", "--explore", "20"});
  CHECK(r.code == 0);
  CHECK(r.out.find("\n1 AI file(s) changed, 0 added, 0 removed, 1 unchanged.\n") !=
        std::string::npos);
  CHECK(table_rows(r.out) ==
        std::vector<std::string>{"| `AI/Accessory_Battery_Event.event.root.ainb` | changed | "
                                 "same behaviour | 0 |"});
  // Without the module it calls, the run is an error that names the pack, not where its
  // members were copied.
  const auto missing = ainb_cli({"review", pack, folder.string(), "--zsdic", zsdic});
  CHECK(missing.code == 2);
  CHECK(missing.out.find("(searched " + pack + ":AI)") != std::string::npos);
  CHECK(missing.out.find("ainb-review-") == std::string::npos);
}

TEST_CASE("ainb review: two real packs, two variants of one actor") {
  // Enemy_TAE13C and Enemy_TAE14C (wide/packs) share 85 AI members byte for byte; each has its
  // own two special attacks.
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return;
  const auto dir = ainb::test::corpus_dir() / "wide/packs";
  const auto r = ainb_cli({"review", (dir / "Enemy_TAE13C.pack.zs").string(),
                           (dir / "Enemy_TAE14C.pack.zs").string(), "--zsdic",
                           ainb::test::corpus_zsdic_dir().string()});
  CHECK(r.code == 1);
  CHECK(r.out.find("\n0 AI file(s) changed, 2 added, 2 removed, 85 unchanged.\n") !=
        std::string::npos);
  CHECK(table_rows(r.out) ==
        std::vector<std::string>{
            "| `AI/TAE13C.action.specialattack01.module.ainb` | removed | removed |  |",
            "| `AI/TAE13C.action.specialattack02.module.ainb` | removed | removed |  |",
            "| `AI/TAE14C.action.specialattack01.module.ainb` | added | added |  |",
            "| `AI/TAE14C.action.specialattack02.module.ainb` | added | added |  |"});
}

TEST_CASE("ainb review: a side that is neither a folder, a pack nor a revision") {
  const auto base = ainb::test::fresh_dir("review_missing");
  const auto missing = (base / "no-such-folder").string();
  const auto r = ainb_cli({"review", base.string(), missing});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "error: " + missing +
                     ": no such folder, pack or git revision (of the repository of the current "
                     "folder)\n");
  const auto text = ainb::test::write_scratch("review_not_a_pack.txt", std::string("text"));
  const auto not_pack = ainb_cli({"review", text.string(), base.string()});
  CHECK(not_pack.code == 2);
  CHECK(not_pack.err ==
        "error: " + text.string() + ": not a folder or a pack (.pack.zs, .pack, .sarc)\n");
}
