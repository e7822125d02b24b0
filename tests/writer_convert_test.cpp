// `ainb convert`: AINB to JSON and back, --check and the first difference it reports, the JSON
// path of a bad edit, and the warnings and --force for a file that is likely a mistake.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/loader.hpp"
#include "ainb_builder.hpp"
#include "build_paths.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"
#include "text_form_examples.hpp"

using namespace ainb;
using namespace ainb::test;
using json = nlohmann::ordered_json;

using ainb::test::ainb_cli;

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

TEST_CASE("ainb convert --stdout: the text form of an AINB file, the AINB bytes of a .json") {
  // git's textconv runs `ainb convert --stdout FILE` (docs/git.md).
  const auto dir = corpus_dir();
  if (dir.empty()) return;
  const auto source = (dir / "ainb/NpcTripMaster.utility.root.ainb").string();
  const auto text = (ainb::test::scratch_dir() / "writer_stdout_npc.json").string();
  REQUIRE(ainb_cli({"convert", source, text}).code == 0);
  auto r = ainb_cli({"convert", "--stdout", source});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  const auto written = read_all(text);
  CHECK(r.out == std::string(written.begin(), written.end()));
  r = ainb_cli({"convert", "--stdout", "--indent", "-1", source});
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
  r = ainb_cli({"convert", "--stdout", text});
  CHECK(r.code == 0);
  const auto original = read_all(source);
  CHECK(r.out == std::string(original.begin(), original.end()));
  // Usage: no OUT with it, nor --check.
  r = ainb_cli({"convert", "--stdout", source, text});
  CHECK(r.code == 2);
  CHECK(r.err == "error: --stdout writes no OUT: give IN only\n");
  r = ainb_cli({"convert", "--stdout", "--check", source});
  CHECK(r.code == 2);
  CHECK(r.err == "error: --check writes nothing: give IN only\n");
  // A file that is not AINB: the loader's error, nothing on the output.
  const auto bad = ainb::test::write_scratch("writer_stdout_bad.ainb", "not AINB").string();
  r = ainb_cli({"convert", "--stdout", bad});
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK(r.err.starts_with("error: " + bad));
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
  CHECK(r.err == "error: convert needs IN and OUT (or --stdout, or --check IN)\n");
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
  CHECK(ainb_cli(
            {"convert", (ainb::test::source_dir() / "examples" / "patrol.root.json").string(), out})
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
