// `ainb regress` of two files: equal runs, the first difference an edit makes, notes on edited
// values the runs could not see, and nodes paired by GUID across an edit.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

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

TEST_CASE("ainb regress: equal files, and the first difference of single edits") {
  const auto original = write_spec("guard.ainb", guard());
  // Both traces are held in memory: a run past the limit stops, naming its side.
  const auto held = ainb_cli({"regress", original, original, "--max-trace-events", "5"});
  CHECK(held.code == 2);
  CHECK(held.err.starts_with("error: original (" + original + "): the run stopped on a fault: "));
  CHECK(
      held.err.ends_with(": the trace passed 5 events, the most a comparison holds in memory "
                         "(--max-trace-events raises it; fewer frames need fewer)\n"));
  const auto same = ainb_cli({"regress", original, original, "--frames", "5"});
  CHECK(same.code == 0);
  CHECK(same.out == "equal: 14 events agree under 1 scenario(s)\n");

  SUBCASE("a child plug changed") {
    auto spec = guard();
    spec.nodes[1].plugs[1].node = 2;  // False -> Attack
    const auto r = ainb_cli({"regress", original, write_spec("guard-plug.ainb", spec)});
    CHECK(r.code == 1);
    CHECK(r.out ==
          "different: scenario (no scenario), event 3, frame 0\n"
          "  a different node was entered: #3 Patrol in the original, #2 Attack in the edited "
          "file (a different child was chosen or linked)\n"
          "    both:     frame 0 command: Root [Guard.root.ainb]\n"
          "    both:     frame 0 enter #0 Element_Sequential [Guard.root.ainb]\n"
          "    both:     frame 0 enter #1 Element_BoolSelector [Guard.root.ainb]\n"
          "  > original: frame 0 enter #3 Patrol [Guard.root.ainb]\n"
          "  > edited:   frame 0 enter #2 Attack [Guard.root.ainb]\n");
  }
  SUBCASE("a built-in node's property changed") {
    auto spec = guard();
    spec.nodes[0].properties = {{ParamType::Bool, "IsLoop", true}};
    const auto r = ainb_cli({"regress", original, write_spec("guard-loop.ainb", spec)});
    CHECK(r.code == 1);
    CHECK(r.out.starts_with("different: scenario (no scenario), event 12, frame 2\n"));
    CHECK(r.out.find("  > original: frame 2 update #0 Element_Sequential -> Success") !=
          std::string::npos);
  }
  SUBCASE("a stub's property changed: the traces agree, and a note says so") {
    auto spec = guard();
    spec.nodes[4].properties = {{ParamType::Float, "Time", 5.0f}};
    const auto r = ainb_cli({"regress", original, write_spec("guard-time.ainb", spec)});
    CHECK(r.code == 0);
    CHECK(r.out.find("note: node #4 (Wait): property Time is 2 in the original and 5 in the "
                     "edited file; the node ran and the traces agree: its class ignores the "
                     "change (as a stub does), or these runs did not last or reach far enough for "
                     "it to show\n") != std::string::npos);
  }
  SUBCASE("an input's stored value changed on a node that ran: a note") {
    auto before = guard(), after = guard();  // Patrol runs: the Alarm stays false
    before.nodes[3].inputs = {{ParamType::Float, "Speed", -1, 0, 0, 1.5f}};
    after.nodes[3].inputs = {{ParamType::Float, "Speed", -1, 0, 0, 3.0f}};
    const auto r = ainb_cli({"regress", write_spec("guard-speed1.ainb", before),
                             write_spec("guard-speed3.ainb", after)});
    CHECK(r.code == 0);
    CHECK(r.out.find("note: node #3 (Patrol): input Speed is 1.5 in the original and 3 in the "
                     "edited file; the node ran and the traces agree") != std::string::npos);
  }
  SUBCASE("an edit inside a module file: a note naming the module, and --strict fails") {
    // Guard's Patrol is now a module call; the module's Walk node has a Speed property.
    const auto caller = guard_calling_walk();
    auto module = walk_module();
    module.nodes[0].properties = {{ParamType::Float, "Speed", 1.5f}};
    namespace fs = std::filesystem;
    const auto root = ainb::test::scratch_dir() / "ainb-regress-module";
    ainb::test::write_file(root / "a" / "guard.ainb", ainb::test::build(caller));
    ainb::test::write_file(root / "b" / "guard.ainb", ainb::test::build(caller));
    ainb::test::write_file(root / "a" / "Walk.module.ainb", ainb::test::build(module));
    module.nodes[0].properties[0].value = 3.0f;
    ainb::test::write_file(root / "b" / "Walk.module.ainb", ainb::test::build(module));
    const auto r = ainb_cli({"regress", (root / "a" / "guard.ainb").string(),
                             (root / "b" / "guard.ainb").string(), "--strict"});
    CHECK(r.code == 1);
    CHECK(r.out.find("note: module Walk.module.ainb, node #0 (Walk): property Speed is 1.5 in the "
                     "original and 3 in the edited file; the node ran and the traces agree") !=
          std::string::npos);
    CHECK(r.out.find("strict: 1 edited value(s) the runs could not see\n") != std::string::npos);
    fs::remove_all(root);
  }
  SUBCASE("a scenario that runs Wait for its Time property sees the edit") {
    // Wait (Time 2, then 5) stays Running for Time x 2 updates: the edit moves the frame it ends.
    const auto scenario = ainb::test::write_scratch(
        "wait-time.scenario.json", R"({"nodes": {"Wait": {"running": {"property": "Time",
                                       "scale": 2}}}})");
    auto spec = guard();
    spec.nodes[4].properties = {{ParamType::Float, "Time", 5.0f}};
    const auto r = ainb_cli({"regress", original, write_spec("guard-time5.ainb", spec),
                             "--scenario", scenario.string()});
    CHECK(r.code == 1);
    // Patrol succeeds in frame 1 and Wait is entered; 4 Running updates, then Success in frame 6.
    CHECK(r.out.find("  > original: frame 6 update #4 Wait -> Success") != std::string::npos);
    CHECK(r.out.find("  > edited:   frame 6 update #4 Wait -> Running") != std::string::npos);

    // An int property, unscaled: Wait's Frames 1 then 3 ends it in frame 3, then frame 5.
    const auto by_frames = ainb::test::write_scratch(
        "wait-frames.scenario.json", R"({"nodes": {"Wait": {"running": {"property": "Frames"}}}})");
    auto one = guard(), three = guard();
    one.nodes[4].properties = {{ParamType::Int, "Frames", std::int32_t{1}}};
    three.nodes[4].properties = {{ParamType::Int, "Frames", std::int32_t{3}}};
    const auto f =
        ainb_cli({"regress", write_spec("guard-frames1.ainb", one),
                  write_spec("guard-frames3.ainb", three), "--scenario", by_frames.string()});
    CHECK(f.code == 1);
    CHECK(f.out.find("  > original: frame 3 update #4 Wait -> Success") != std::string::npos);
    CHECK(f.out.find("  > edited:   frame 3 update #4 Wait -> Running") != std::string::npos);
  }
  SUBCASE("a property of a node no run entered: the note says the edit went untested") {
    auto before = guard(), after = guard();  // Attack: the Alarm is never raised here
    before.nodes[2].properties = {{ParamType::Float, "Range", 2.0f}};
    after.nodes[2].properties = {{ParamType::Float, "Range", 9.0f}};
    const auto r = ainb_cli({"regress", write_spec("guard-range2.ainb", before),
                             write_spec("guard-range9.ainb", after)});
    CHECK(r.code == 0);
    CHECK(r.out.find("note: node #2 (Attack): property Range is 2 in the original and 9 in the "
                     "edited file; ") != std::string::npos);
    CHECK(r.out.find("no run entered this node, so nothing tested the edit (a scenario that "
                     "reaches it would)\n") != std::string::npos);
    // --strict: for a mod's CI, an edit the runs could not see fails like a difference.
    const auto strict = ainb_cli({"regress", write_spec("guard-range2.ainb", before),
                                  write_spec("guard-range9.ainb", after), "--strict"});
    CHECK(strict.code == 1);
    CHECK(strict.out.ends_with("strict: 1 edited value(s) the runs could not see\n"));
    CHECK(ainb_cli({"regress", original, original, "--strict"}).code == 0);
  }
  SUBCASE("a node removed") {
    auto spec = guard();
    spec.nodes.pop_back();  // Wait, and the Sequential's plug to it
    spec.nodes[0].plugs.pop_back();
    const auto r = ainb_cli({"regress", original, write_spec("guard-nowait.ainb", spec)});
    CHECK(r.code == 1);
    CHECK(r.out.find("  > original: frame 1 enter #4 Wait [Guard.root.ainb]\n") !=
          std::string::npos);
    CHECK(r.out.find("  > edited:   frame 1 update #0 Element_Sequential -> Success") !=
          std::string::npos);
  }
  CHECK(ainb_cli({"regress", original, "/nonexistent.ainb"}).code == 2);
}

TEST_CASE("ainb regress: nodes paired by GUID, edits of the file, commands by name") {
  const auto original = write_spec("guard.ainb", guard());
  SUBCASE("a node deleted before others: they keep their GUIDs, and the traces agree") {
    // Attack (#2) never runs: deleting it renumbers Patrol and Wait, which keep their GUIDs.
    const auto r =
        ainb_cli({"regress", original, write_spec("guard-noattack.ainb", guard_without(2))});
    CHECK(r.code == 0);
    CHECK(r.out.starts_with("equal: "));
    CHECK(r.out.find("note: node #1 (Element_BoolSelector): its plugs child \"True\" node is #2 in "
                     "the original and #3 in the edited file; the node ran") != std::string::npos);
    CHECK(r.out.find("note: node #2 (Attack): deleted in the edited file; no run entered this "
                     "node") != std::string::npos);
    CHECK(r.out.find("note: node #3 (#2 in the edited file, Patrol)") == std::string::npos);
    // A node that runs, deleted: the first difference is where it ran, not the first renumbered
    // node.
    const auto d =
        ainb_cli({"regress", original, write_spec("guard-nopatrol.ainb", guard_without(3))});
    CHECK(d.code == 1);
    CHECK(d.out.find("  node #3 Patrol, entered in the original, is not in the edited file "
                     "(deleted): #2 Attack was entered instead\n") != std::string::npos);
  }
  SUBCASE("a node copied with its GUID: the nearer one is the node, the other the copy") {
    auto spec = guard();
    for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
      spec.nodes[i].guid_from = static_cast<std::uint8_t>(i);
      for (auto& plug : spec.nodes[i].plugs)
        ++plug.node;
    }
    spec.nodes.insert(spec.nodes.begin(), spec.nodes[3]);  // Patrol, at index 0
    spec.commands[0].root = 1;
    const auto r = ainb_cli({"regress", original, write_spec("guard-copy.ainb", spec)});
    CHECK(r.code == 0);
    CHECK(r.out.find("note: node #0 of the edited file (Patrol): new in the edited file; no run "
                     "entered this node") != std::string::npos);
  }
  SUBCASE("an explanation names the edited run's nodes by their original numbers") {
    // The alarm at frame 1 makes the original leave Patrol for Attack; without Attack, both of
    // the selector's plugs lead to Patrol, which stays and is updated.
    const auto alarm = ainb::test::write_scratch(
        "alarm1.scenario.json",
        R"({"blackboard": [{"frame": 1, "name": "Alarm", "value": true}]})");
    const auto r =
        ainb_cli({"regress", original, write_spec("guard-noattack-alarm.ainb", guard_without(2)),
                  "--scenario", alarm.string()});
    CHECK(r.out.find("  the original does \"frame 1 leave #3 Patrol [Guard.root.ainb]\" where the "
                     "edited file does \"frame 1 update #3 (#2 in the edited file) Patrol -> "
                     "Success [Guard.root.ainb]\"\n") != std::string::npos);
  }
  SUBCASE("two nodes sharing a GUID keep their order when a node before them goes") {
    // Patrol (#3) and Wait (#4) share a GUID; deleting Attack (#2) moves both down by one. The
    // nearest node of that GUID to #3 would be Wait, now #3: they pair in order instead.
    auto shared = guard();
    shared.nodes[4].guid_from = 3;
    auto edited = guard_without(2);
    edited.nodes[3].guid_from = 3;
    const auto r = ainb_cli({"regress", write_spec("guard-shared.ainb", shared),
                             write_spec("guard-shared-noattack.ainb", edited)});
    CHECK(r.out.starts_with("equal: "));
    // Two notes, the selector's plug and the deletion; paired the other way, Patrol and Wait
    // would read as nodes whose class and properties changed.
    std::size_t notes = 0;
    for (auto at = r.out.find("note: "); at != std::string::npos; at = r.out.find("note: ", at + 1))
      ++notes;
    CHECK(notes == 2);
  }
  SUBCASE("edits of the file: a blackboard default, a command") {
    auto before = guard(), after = guard();
    before.blackboard.push_back({BlackboardType::S32, "Unused", std::int32_t{0}});
    after.blackboard.push_back({BlackboardType::S32, "Unused", std::int32_t{5}});
    after.commands.push_back({"Spare", 4, {}});
    const auto r = ainb_cli({"regress", write_spec("guard-bb0.ainb", before),
                             write_spec("guard-bb5.ainb", after), "--strict"});
    CHECK(r.code == 1);
    CHECK(r.out.find("note: blackboard entry Unused is 0 in the original and 5 in the edited "
                     "file; the traces agree: the runs did not depend on it, or not in a way "
                     "their trace shows\n") != std::string::npos);
    CHECK(r.out.find("note: command Spare is new in the edited file; the traces agree") !=
          std::string::npos);
    CHECK(r.out.ends_with("strict: 2 edited value(s) the runs could not see\n"));
  }
  SUBCASE("both files run the same command by name") {
    auto two = guard(), swapped = guard();
    two.commands.push_back({"Spare", 4, {}});
    swapped.commands = {{"Spare", 4, {}}, {"Root", 0, {}}};
    const auto a = write_spec("guard-two.ainb", two);
    CHECK(ainb_cli({"regress", a, write_spec("guard-swapped.ainb", swapped)}).code == 0);
    // A command the edited file lost (renamed) is a difference, not an error.
    auto renamed = guard();
    renamed.commands = {{"Main", 0, {}}};
    const auto edited = write_spec("guard-renamed.ainb", renamed);
    const auto r = ainb_cli({"regress", a, edited});
    CHECK(r.code == 1);
    CHECK(r.out ==
          "different: scenario (no scenario), before the first event\n"
          "  the edited file does not fit this run: " +
              edited + " has no command \"Root\" (it has: \"Main\")\n");
  }
}

TEST_CASE(
    "ainb regress --edited-scenario: one file under two scenarios, a what-if against its run") {
  // The bundled example: the Sequential #3 forced to fail at frame 2 in the second scenario.
  const auto plain = ainb::test::write_scratch(
      "two_plain.json", std::string(R"({"frames": 6, "nodes": {"MoveTo": {"running": 2}}})"));
  const auto forced = ainb::test::write_scratch(
      "two_forced.json", std::string(R"({"frames": 6, "nodes": {"MoveTo": {"running": 2}},
                      "force": [{"node": 3, "result": "Failure", "frame": 2, "frames": 1}]})"));
  const std::string file = ainb::test::kPatrol;
  const auto differ = ainb_cli(
      {"regress", file, file, "--scenario", plain.string(), "--edited-scenario", forced.string()});
  CHECK(differ.code == 1);
  CHECK(differ.out.find("different: scenario " + plain.string() +
                        ", event 9, frame 2\n  the run of " + plain.string() +
                        " does \"frame 2 update #4 MoveTo -> Running "
                        "[patrol.root.ainb]\" where the run of " +
                        forced.string() +
                        " does \"frame 2 update #3 Element_Sequential -> Failure "
                        "[patrol.root.ainb]\"\n") == 0);
  const auto same = ainb_cli(
      {"regress", file, file, "--scenario", plain.string(), "--edited-scenario", plain.string()});
  CHECK(same.code == 0);
  CHECK(same.out.find("equal: ") == 0);
  const auto two = ainb_cli({"regress", file, file, "--scenario", plain.string(), "--scenario",
                             plain.string(), "--edited-scenario", forced.string()});
  CHECK(two.code == 2);
  CHECK(two.err == "error: --edited-scenario compares two runs: one --scenario at most\n");
  const auto explore =
      ainb_cli({"regress", file, file, "--explore", "5", "--edited-scenario", forced.string()});
  CHECK(explore.code == 2);
  CHECK(explore.err.find("error: --edited-scenario excludes --explore") == 0);
}
