// Golden sets (`ainb regress --record` and `--check`): traces of a folder of files and their
// scenarios recorded, checked against later edits, and the manifest that keeps them.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"
#include "simulation_samples.hpp"

using namespace ainb;

using ainb::test::ainb_cli;
using ainb::test::guard;
using ainb::test::guard_calling_walk;
using ainb::test::guard_without;
using ainb::test::walk_module;
using ainb::test::write_spec;

TEST_CASE("ainb regress --record and --check: golden traces of a folder of files and scenarios") {
  namespace fs = std::filesystem;
  const auto root = ainb::test::scratch_dir() / "ainb-golden-test";
  const auto mod = root / "mod";
  ainb::test::write_file(mod / "guard.ainb", ainb::test::build(guard()));
  ainb::test::write_file(mod / "sub" / "copy.ainb", ainb::test::build(guard()));
  // Beside guard.ainb: a scenario raising the alarm at frame 1 (copy.ainb has none).
  ainb::test::write_file(mod / "guard.alarm.scenario.json",
                         R"({"blackboard": [{"frame": 1, "name": "Alarm", "value": true}]})");
  const auto golden = (root / "golden").string();

  const auto recorded = ainb_cli({"regress", "--record", golden, mod.string(), "--frames", "5"});
  CHECK(recorded.err == "");
  CHECK(recorded.code == 0);
  CHECK(recorded.out ==
        "file           scenario                              events  result\n"
        "guard.ainb     scenarios/guard.alarm.scenario.json       17  recorded\n"
        "sub/copy.ainb  -                                         14  recorded\n"
        "2 case(s): 2 recorded\n");
  CHECK(fs::exists(root / "golden" / "scenarios" / "guard.alarm.scenario.json"));
  CHECK(fs::exists(root / "golden" / "traces" / "sub" / "copy.ainb" / "no-scenario.jsonl"));

  const auto same = ainb_cli({"regress", "--check", golden, mod.string()});
  CHECK(same.code == 0);
  CHECK(same.out ==
        "file           scenario                              events  result\n"
        "guard.ainb     scenarios/guard.alarm.scenario.json       17  same\n"
        "sub/copy.ainb  -                                         14  same\n"
        "2 case(s): 2 same\n");

  // An edit (BoolSelector's False plug now leads to Attack), a removed file and a new one.
  auto edited = guard();
  edited.nodes[1].plugs[1].node = 2;
  ainb::test::write_file(mod / "guard.ainb", ainb::test::build(edited));
  fs::remove(mod / "sub" / "copy.ainb");
  ainb::test::write_file(mod / "new.ainb", ainb::test::build(guard()));
  const auto changed = ainb_cli({"regress", "--check", golden, mod.string()});
  CHECK(changed.code == 1);
  CHECK(
      changed.out ==
      "file           scenario                              events  result\n"
      "guard.ainb     scenarios/guard.alarm.scenario.json        3  DIFFERENT at event 3, frame 0\n"
      "sub/copy.ainb  -                                          0  MISSING: not found under " +
          mod.string() +
          "\n"
          "2 case(s): 1 DIFFERENT, 1 MISSING\n"
          "not recorded: new.ainb (new since the recording; --record to add it)\n"
          "\n"
          "guard.ainb:\n"
          "different: scenario scenarios/guard.alarm.scenario.json, event 3, frame 0\n"
          "  a different node was entered: #3 Patrol in the recording, #2 Attack in this run "
          "(a different child was chosen or linked)\n"
          "    both:     frame 0 command: Root [Guard.root.ainb]\n"
          "    both:     frame 0 enter #0 Element_Sequential [Guard.root.ainb]\n"
          "    both:     frame 0 enter #1 Element_BoolSelector [Guard.root.ainb]\n"
          "  > recorded: frame 0 enter #3 Patrol [Guard.root.ainb]\n"
          "  > now:      frame 0 enter #2 Attack [Guard.root.ainb]\n");

  // Nodes are paired by the GUIDs the recording kept, as regress pairs them. copy.ainb runs no
  // scenario, so Attack (#2) never runs: deleting it renumbers Patrol and Wait and changes no
  // run; deleting Patrol, which runs, differs where it ran.
  ainb::test::write_file(mod / "guard.ainb", ainb::test::build(guard()));
  ainb::test::write_file(mod / "sub" / "copy.ainb", ainb::test::build(guard_without(2)));
  fs::remove(mod / "new.ainb");
  CHECK(ainb_cli({"regress", "--check", golden, mod.string()}).out ==
        "file           scenario                              events  result\n"
        "guard.ainb     scenarios/guard.alarm.scenario.json       17  same\n"
        "sub/copy.ainb  -                                         14  same\n"
        "2 case(s): 2 same\n");
  ainb::test::write_file(mod / "sub" / "copy.ainb", ainb::test::build(guard_without(3)));
  const auto deleted = ainb_cli({"regress", "--check", golden, mod.string()});
  CHECK(deleted.out.find("  node #3 Patrol, entered in the recording, is not in this run "
                         "(deleted): #2 Attack was entered instead\n") != std::string::npos);
  // A recording made before GUIDs were kept compares nodes by index: Patrol, now #2, differs.
  {
    auto manifest = nlohmann::json::parse(ainb::test::read_text(root / "golden" / "manifest.json"));
    for (auto& entry : manifest["cases"])
      entry.erase("guids");
    ainb::test::write_file(root / "golden" / "manifest.json", manifest.dump());
    ainb::test::write_file(mod / "sub" / "copy.ainb", ainb::test::build(guard_without(2)));
    CHECK(ainb_cli({"regress", "--check", golden, mod.string()})
              .out.find("sub/copy.ainb  -                                          3  DIFFERENT at "
                        "event 3") != std::string::npos);
  }

  // The alarm's blackboard entry renamed: the recorded scenario no longer fits, a difference.
  auto renamed = guard();
  renamed.blackboard[0].name = "Siren";
  ainb::test::write_file(mod / "guard.ainb", ainb::test::build(renamed));
  const auto unfit = ainb_cli({"regress", "--check", golden, mod.string()});
  CHECK(unfit.code == 1);
  CHECK(unfit.out.find("guard.ainb     scenarios/guard.alarm.scenario.json        0  DIFFERENT: "
                       "the file no longer fits the recorded run\n") != std::string::npos);
  CHECK(unfit.out.find("different: scenario scenarios/guard.alarm.scenario.json, before the first "
                       "event\n  the file no longer fits the recorded run: ") != std::string::npos);

  const auto nothing = ainb_cli({"regress", "--check", (root / "nowhere").string()});
  CHECK(nothing.code == 2);
  CHECK(nothing.err.starts_with("error: " + (root / "nowhere" / "manifest.json").string() +
                                ": no readable golden recording"));
  CHECK(ainb_cli({"regress", "--record", golden}).err ==
        "error: --record needs the files or folders to record\n");
  CHECK(ainb_cli({"regress", "--check", golden, "--scenario", "x.json"}).code == 2);
  CHECK(ainb_cli({"regress", "one.ainb"}).err ==
        "error: regress compares two files: ORIGINAL EDITED (or use --record/--check)\n");
  fs::remove_all(root);
}

TEST_CASE("golden sets: same names under two inputs, a failed recording, options --check refuses") {
  namespace fs = std::filesystem;
  const auto root = ainb::test::scratch_dir() / "ainb-golden-inputs";
  // Two folders holding a file of the same name and different content.
  auto attacking = guard();
  attacking.nodes[1].plugs[1].node = 2;
  ainb::test::write_file(root / "a" / "x.ainb", ainb::test::build(guard()));
  ainb::test::write_file(root / "b" / "x.ainb", ainb::test::build(attacking));
  const auto golden = (root / "golden").string();
  const auto a = (root / "a").string(), b = (root / "b").string();
  CHECK(ainb_cli({"regress", "--record", golden, a, b, "--frames", "3"}).out ==
        "file              scenario   events  result\n"
        "x.ainb (input 1)  -              14  recorded\n"
        "x.ainb (input 2)  -              14  recorded\n"
        "2 case(s): 2 recorded\n");
  CHECK(fs::exists(root / "golden" / "traces" / "1" / "x.ainb" / "no-scenario.jsonl"));
  CHECK(fs::exists(root / "golden" / "traces" / "2" / "x.ainb" / "no-scenario.jsonl"));
  CHECK(ainb_cli({"regress", "--check", golden}).code == 0);  // each against its own trace
  const auto extra = ainb_cli({"regress", "--check", golden, a, b, root.string()});
  CHECK(extra.code == 2);
  CHECK(extra.err ==
        "error: the recording has 2 input(s) and the check was given 3: give as many PATHs, in "
        "the recorded order, or none (the recorded ones)\n");
  const auto option = ainb_cli({"regress", "--check", golden, "--frames", "5"});
  CHECK(option.code == 2);
  CHECK(option.err.starts_with("error: --check excludes --frames\n"));

  // A case whose recording failed stays in the set, and a check reports it.
  const auto scenario = ainb::test::write_scratch(
      "nope.scenario.json", R"({"blackboard": [{"name": "Nope", "value": true}]})");
  const auto failed = ainb_cli({"regress", "--record", golden, a, "--scenario", scenario.string()});
  CHECK(failed.code == 2);
  const auto check = ainb_cli({"regress", "--check", golden});
  CHECK(check.code == 2);
  CHECK(check.out.find("ERROR: its recording failed (--record it again): " + scenario.string() +
                       ": /blackboard/0/name: Guard.root.ainb has no blackboard entry "
                       "\"Nope\"\n") != std::string::npos);
  CHECK(check.out.find("not recorded") == std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("golden checks: commands by name, copies with their GUIDs, hand-edited manifests") {
  namespace fs = std::filesystem;
  const auto root = ainb::test::scratch_dir() / "ainb-golden-edits";
  fs::remove_all(root);
  const auto mod = root / "mod";
  auto two_commands = guard();
  two_commands.commands.push_back({"Spare", 4, {}});
  ainb::test::write_file(mod / "guard.ainb", ainb::test::build(two_commands));
  const auto golden = (root / "golden").string();
  REQUIRE(ainb_cli({"regress", "--record", golden, mod.string(), "--frames", "3"}).code == 0);
  const auto check = [&] { return ainb_cli({"regress", "--check", golden, mod.string()}); };

  SUBCASE("the recorded command starts by name: reordering the commands changes nothing") {
    auto swapped = two_commands;
    std::swap(swapped.commands[0], swapped.commands[1]);
    ainb::test::write_file(mod / "guard.ainb", ainb::test::build(swapped));
    CHECK(check().code == 0);
  }
  SUBCASE("a copy of Patrol with its GUID, placed just before it: either is the node") {
    auto copied = two_commands;
    copied.nodes.insert(copied.nodes.begin() + 3, copied.nodes[3]);
    copied.nodes[3].guid_from = 3;
    for (std::size_t i = 4; i < copied.nodes.size(); ++i)
      copied.nodes[i].guid_from = static_cast<std::uint8_t>(i - 1);
    copied.nodes[0].plugs[1].node = 5;  // Wait
    copied.nodes[1].plugs[1].node = 4;  // False: the original Patrol, now #4
    copied.commands[1].root = 5;
    ainb::test::write_file(mod / "guard.ainb", ainb::test::build(copied));
    CHECK(check().code == 0);
    const auto pair = ainb_cli(
        {"regress", write_spec("guard-two.ainb", two_commands), (mod / "guard.ainb").string()});
    CHECK(pair.out.starts_with("equal: "));
  }
  SUBCASE("hand-edited GUIDs are an error naming what is wrong") {
    const auto manifest_path = root / "golden" / "manifest.json";
    const auto manifest = nlohmann::json::parse(ainb::test::read_text(manifest_path));
    auto edit = [&](const std::function<void(nlohmann::json&)>& change) {
      auto copy = manifest;
      change(copy["cases"][0]);
      ainb::test::write_file(manifest_path, copy.dump());
      return check();
    };
    const auto number = edit([](nlohmann::json& c) { c["guids"] = 5; });
    CHECK(number.code == 2);
    CHECK(number.out.find("ERROR: manifest.json: its \"guids\" is number, not an object of node "
                          "GUID lists by file name (edited by hand? --record again)") !=
          std::string::npos);
    const auto short_list =
        edit([](nlohmann::json& c) { c["guids"]["Guard.root.ainb"] = nlohmann::json::array(); });
    CHECK(short_list.out.find("ERROR: manifest.json: its \"guids\" of Guard.root.ainb list 0 "
                              "node(s), but the recorded trace names node #0") !=
          std::string::npos);
    // Without GUIDs (a recording made before they were kept) nodes compare by index, and a
    // difference says so.
    ainb::test::write_file(mod / "guard.ainb", ainb::test::build(guard_without(2)));
    const auto by_index = edit([](nlohmann::json& c) { c.erase("guids"); });
    CHECK(by_index.out.find(" (the recording keeps no node GUIDs: nodes compared by index; "
                            "--record again)\n") != std::string::npos);
  }
  fs::remove_all(root);
}

TEST_CASE(
    "golden checks of a copied tree read its own modules; identical scenarios may share a name") {
  namespace fs = std::filesystem;
  const auto root = ainb::test::scratch_dir() / "ainb-golden-copy";
  fs::remove_all(root);
  const auto caller = guard_calling_walk();
  auto module = walk_module();
  for (const auto* tree : {"mod", "copy"}) {
    ainb::test::write_file(root / tree / "guard.ainb", ainb::test::build(caller));
    ainb::test::write_file(root / tree / "Walk.module.ainb", ainb::test::build(module));
  }
  const auto golden = (root / "golden").string();
  const auto mod = (root / "mod").string(), copy = (root / "copy").string();
  REQUIRE(ainb_cli({"regress", "--record", golden, mod, "--modules", mod, "--frames", "3"}).code ==
          0);
  CHECK(ainb_cli({"regress", "--check", golden, copy}).code == 0);
  // The copy's module gains a step: checked with the copy, its callers see it.
  ainb::test::BuildNode steps{.type = NodeType::Sequential};
  steps.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  module.nodes = {steps, ainb::test::BuildNode{.name = "Walk"},
                  ainb::test::BuildNode{.name = "Rest"}};
  ainb::test::write_file(root / "copy" / "Walk.module.ainb", ainb::test::build(module));
  const auto changed = ainb_cli({"regress", "--check", golden, copy});
  CHECK(changed.out.find("guard.ainb        -               5  DIFFERENT at event 5") !=
        std::string::npos);
  CHECK(ainb_cli({"regress", "--check", golden, mod}).code == 0);

  // Beside-file scenarios of one name under two inputs: the same text is stored once; different
  // texts are refused.
  const auto alarm = R"({"blackboard": [{"frame": 1, "name": "Alarm", "value": true}]})";
  ainb::test::write_file(root / "a" / "x.ainb", ainb::test::build(guard()));
  ainb::test::write_file(root / "b" / "x.ainb", ainb::test::build(guard()));
  ainb::test::write_file(root / "a" / "x.alarm.scenario.json", alarm);
  ainb::test::write_file(root / "b" / "x.alarm.scenario.json", alarm);
  const auto a = (root / "a").string(), b = (root / "b").string();
  CHECK(ainb_cli({"regress", "--record", golden, a, b, "--frames", "3"}).code == 0);
  ainb::test::write_file(root / "b" / "x.alarm.scenario.json", "{}");
  CHECK(ainb_cli({"regress", "--record", golden, a, b, "--frames", "3"})
            .err.starts_with(
                "error: two scenarios would be stored as scenarios/x.alarm.scenario.json"));
  fs::remove_all(root);
}

TEST_CASE("golden sets keep --simultaneous-ends-first: --check replays with the recorded options") {
  namespace fs = std::filesystem;
  const auto root = ainb::test::scratch_dir() / "ainb-golden-ends-first";
  // A Simultaneous with ResultPolicy 1 over Move (one Running update) and Guard (five): with the
  // option it ends when Move does, without it it runs on while Guard does.
  test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  test::BuildNode both{.type = NodeType::Simultaneous};
  both.properties = {{ParamType::Int, "EndPolicy", std::int32_t{0}},
                     {ParamType::Int, "ResultPolicy", std::int32_t{1}}};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  spec.nodes = {both, test::BuildNode{.name = "Move"}, test::BuildNode{.name = "Guard"}};
  ainb::test::write_file(root / "mod" / "both.ainb", ainb::test::build(spec));
  ainb::test::write_file(root / "mod" / "both.scenario.json",
                         R"({"nodes": {"Move": {"running": 1}, "Guard": {"running": 5}}})");
  const auto golden = (root / "golden").string(), mod = (root / "mod").string();
  // The option changes the trace: recorded with and without it, the events differ.
  CHECK(ainb_cli({"regress", "--record", golden, mod, "--frames", "4"}).out ==
        "file       scenario                       events  result\n"
        "both.ainb  scenarios/both.scenario.json       17  recorded\n"
        "1 case(s): 1 recorded\n");
  const auto recorded =
      ainb_cli({"regress", "--record", golden, mod, "--frames", "4", "--simultaneous-ends-first"});
  CHECK(recorded.err == "");
  CHECK(recorded.out ==
        "file       scenario                       events  result\n"
        "both.ainb  scenarios/both.scenario.json       12  recorded\n"
        "1 case(s): 1 recorded\n");
  std::ifstream in(root / "golden" / "manifest.json");
  const auto manifest = nlohmann::json::parse(in);
  CHECK(manifest.at("options").at("simultaneous_ends_first") == true);
  const auto check = ainb_cli({"regress", "--check", golden});
  CHECK(check.err == "");
  CHECK(check.code == 0);
  CHECK(check.out ==
        "file       scenario                       events  result\n"
        "both.ainb  scenarios/both.scenario.json       12  same\n"
        "1 case(s): 1 same\n");
  fs::remove_all(root);
}
