// `ainb run`: scenario parsing and its errors, the run the bundled example's scenario steers,
// bad input (missing modules and files, unknown commands), the children of stubs, and --restart.

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/simulation/simulation.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"
#include "simulation_samples.hpp"

using namespace ainb;
using namespace ainb::simulation;

using ainb::test::ainb_cli;
using ainb::test::guard;
using ainb::test::kPatrol;
using ainb::test::kScenario;
using ainb::test::write_spec;

namespace {

std::string parse_error(const char* json) {
  try {
    parse_scenario(nlohmann::json::parse(json), "s.json");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(parsed)";
}

// Runs the bundled example under `scenario` and returns the JSON-lines trace.
std::vector<nlohmann::json> trace_of(const Scenario& scenario, RunOptions options = {}) {
  std::ostringstream out;
  auto writer = make_trace_writer(TraceFormat::Jsonl, out);
  simulate(kPatrol, scenario, options, writer.get());
  std::vector<nlohmann::json> events;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);)
    events.push_back(nlohmann::json::parse(line));
  return events;
}

}  // namespace

TEST_CASE("scenarios: errors name the JSON path and what is wrong") {
  CHECK(parse_error("[]") == "s.json: /: expected an object");
  CHECK(parse_error(R"({"frame": 3})") ==
        "s.json: /frame: unknown key (expected one of: seed, frames, command, restart, "
        "blackboard, commands, nodes, at, force, functions)");
  CHECK(parse_error(R"({"frames": -1})") == "s.json: /frames: expected a non-negative integer");
  CHECK(parse_error(R"({"frames": 1000000001})") == "s.json: /frames: expected at most 1000000000");
  CHECK(parse_error(R"({"nodes": {"Wait": {"running": 4294967296}}})") ==
        "s.json: /nodes/Wait/running: expected at most 4294967295");
  CHECK(parse_error(R"({"blackboard": [{"name": "A"}]})") ==
        "s.json: /blackboard/0: missing key \"value\"");
  CHECK(parse_error(R"({"commands": [{"frame": 2, "command": 5}]})") ==
        "s.json: /commands/0/command: expected a string");
  CHECK(parse_error(R"({"nodes": {"Wait": {"result": "Done"}}})") ==
        "s.json: /nodes/Wait/result: \"Done\" is not a result (Running, Success or Failure)");
  CHECK(parse_error(R"({"nodes": {"Wait": {"frames": [{"result": "Success"}]}}})") ==
        "s.json: /nodes/Wait/frames/0: missing key \"frame\"");
  CHECK(parse_error(R"({"nodes": {"Wait": {"outputs": {"X": {"a": 1}}}}})") ==
        "s.json: /nodes/Wait/outputs/X: expected a value");
  CHECK(parse_error(R"({"nodes": {"Wait": {"running": {"scale": 2}}}})") ==
        "s.json: /nodes/Wait/running: missing key \"property\"");
  CHECK(parse_error(R"({"nodes": {"Wait": {"running": {"property": "Time", "scale": -1}}}})") ==
        "s.json: /nodes/Wait/running/scale: expected a non-negative number");

  // Checked against the file before the run.
  auto fails_with = [](const char* json) {
    try {
      simulate(kPatrol, parse_scenario(nlohmann::json::parse(json), "s.json"), {}, nullptr);
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("(ran)");
  };
  CHECK(fails_with(R"({"blackboard": [{"name": "Enemy", "value": 1}]})") ==
        "s.json: /blackboard/0/name: patrol.root.ainb has no blackboard entry \"Enemy\"");
  CHECK(fails_with(R"({"blackboard": [{"name": "IsEnemyNear", "value": 1}]})") ==
        "s.json: /blackboard/0/value: \"IsEnemyNear\" is a bool entry: expected true or false");
  CHECK(fails_with(R"({"nodes": {"Wait": {"running": {"property": "Tme"}}}})") ==
        "s.json: /nodes/Wait/running/property: no node of class \"Wait\" has an int or float "
        "property \"Tme\"");
  CHECK(fails_with(R"({"nodes": {"MoveTo": {"outputs": {"Distance": 1}}}})") ==
        "s.json: /nodes/MoveTo/outputs/Distance: no node of class \"MoveTo\" has an output "
        "\"Distance\"");
  CHECK(fails_with(R"({"nodes": {"MoveTo": {"outputs": {"DistanceLeft": "far"}}}})") ==
        "s.json: /nodes/MoveTo/outputs/DistanceLeft: \"DistanceLeft\" is a float output: "
        "expected a number within float's range");
  CHECK(fails_with(R"({"nodes": {"MoveTo": {"outputs": {"DistanceLeft": 1e39}}}})") ==
        "s.json: /nodes/MoveTo/outputs/DistanceLeft: \"DistanceLeft\" is a float output: "
        "expected a number within float's range");
  CHECK(fails_with(R"({"blackboard": [{"name": "PatrolSpeed", "value": [1, 2]}]})") ==
        "s.json: /blackboard/0/value: \"PatrolSpeed\" is a f32 entry: expected a number within "
        "float's range");
  // Names the scenario cannot mean: a misspelt class, a built-in type, a function no expression
  // calls, a command the file lacks.
  CHECK(fails_with(R"({"nodes": {"MoveToo": {"running": 3}}})") ==
        "s.json: /nodes/MoveToo: no node of patrol.root.ainb or its modules has this class");
  CHECK(fails_with(R"({"nodes": {"Element_Sequential": {"running": 1}}})") ==
        "s.json: /nodes/Element_Sequential: a built-in node type; a scenario scripts user "
        "classes only");
  CHECK(fails_with(R"j({"functions": {"Foo( Bool )": true}})j") ==
        "s.json: /functions/Foo( Bool ): no expression of patrol.root.ainb or its modules calls "
        "it (they call no user function)");
  CHECK(fails_with(R"({"command": "Nope"})") ==
        "s.json: /command: patrol.root.ainb has no command \"Nope\" (it has: \"Root\", "
        "\"Alert\")");
  CHECK(fails_with(R"({"commands": [{"frame": 2, "command": "Flee"}]})") ==
        "s.json: /commands/0/command: patrol.root.ainb has no command \"Flee\"");
  CHECK(fails_with(R"({"functions": {"Broken(": 1}})") ==
        "s.json: /functions/Broken(: not a signature: missing the result type");
}

TEST_CASE("scenarios: what a run never reaches is a warning") {
  const auto scenario = parse_scenario(nlohmann::json::parse(R"({
    "frames": 5,
    "blackboard": [{"frame": 9, "name": "IsEnemyNear", "value": true}],
    "commands": [{"frame": 6, "command": "Alert"}],
    "nodes": {"MoveTo": {"frames": [{"frame": 0, "result": "Failure"}]}}})"),
                                       "s.json");
  const auto summary = simulate(kPatrol, scenario, {}, nullptr);
  CHECK(summary.warnings ==
        std::vector<std::string>{
            "s.json: /blackboard/0/frame: frame 9 is past the run's 5 frames; it never applies",
            "s.json: /commands/0/frame: frame 6 is past the run's 5 frames; it never applies",
            "s.json: /nodes/MoveTo/frames/0/frame: frame 0 has no updates (frame 1 is the first "
            "tick); it never applies"});
}

TEST_CASE("ainb run: the bundled example's trace follows its scenario") {
  const auto events = trace_of(load_scenario(kScenario));
  REQUIRE(events.size() > 20);
  CHECK(events[0] ==
        nlohmann::json::parse(
            R"({"frame":0,"event":"command","file":"patrol.root.ainb","detail":"Root"})"));
  CHECK(events[4] == nlohmann::json::parse(R"({"frame":0,"event":"enter","file":"patrol.root.ainb",
                                               "node":4,"type":"MoveTo","name":"MoveTo"})"));
  auto find = [&](const char* event, std::int64_t node, std::uint64_t frame) {
    for (const auto& e : events) {
      if (e["event"] == event && e.value("node", std::int64_t{-1}) == node && e["frame"] == frame) {
        return e;
      }
    }
    return nlohmann::json();
  };
  // MoveTo runs for two updates, then succeeds (frame 3); Wait one, then succeeds (frame 5).
  CHECK(find("update", 4, 2)["result"] == "Running");
  CHECK(find("update", 4, 3)["result"] == "Success");
  CHECK(find("update", 5, 5)["result"] == "Success");
  // IsEnemyNear is set at frame 6: the selector switches to Attack, which fails at frame 7.
  CHECK(find("blackboard", -1, 6)["detail"] == "IsEnemyNear=true");
  CHECK(find("enter", 2, 6)["type"] == "Attack");
  CHECK(find("update", 2, 7)["result"] == "Failure");
  CHECK(find("update", 0, 7)["result"] == "Failure");
  // The command switch at frame 10 runs Alert's SplitTiming.
  CHECK(find("command", -1, 10)["detail"] == "Alert");
  CHECK(find("update", 6, 10)["result"] == "Success");

  SUBCASE("the same scenario and seed give the same trace") {
    CHECK(trace_of(load_scenario(kScenario)) == events);
  }
}

TEST_CASE("ainb run: modules, missing files, unknown commands, unreadable scenarios") {
  CHECK(ainb_cli({"run", kPatrol.string(), "--command", "Flee"}).err ==
        "error: " + kPatrol.string() + " has no command \"Flee\" (it has: \"Root\", \"Alert\")\n");
  CHECK(ainb_cli({"run", kPatrol.string(), "--command", "Flee"}).code == 2);
  // A negative count is refused, not read as its two's complement (a run of 2^64 - 1 frames).
  const auto negative = ainb_cli({"run", kPatrol.string(), "--frames", "-1"});
  CHECK(negative.code == 2);
  CHECK(negative.err.starts_with("error: --frames: Value -1 not in range 0 to 1000000000\n"));
  CHECK(ainb_cli({"run", kPatrol.string(), "--seed", "-1"})
            .err.starts_with("error: --seed: a seed is an integer from 0 to 2^64 - 1\n"));
  const auto missing = ainb_cli({"run", kPatrol.string(), "--scenario", "/nonexistent.json"});
  CHECK(missing.code == 1);
  CHECK(missing.err == "error: /nonexistent.json: cannot be read\n");
  const auto broken = ainb::test::write_scratch("broken.scenario.json", "{\"frames\": ");
  CHECK(ainb_cli({"run", kPatrol.string(), "--scenario", broken.string()})
            .err.starts_with("error: " + broken.string() + ": not valid JSON: "));

  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto toby = (dir / "ainb" / "Toby.utility.root.ainb").string();
  const auto no_modules = ainb_cli({"run", toby, "--frames", "10"});
  CHECK(no_modules.code == 1);
  CHECK(no_modules.err.find("calls module \"_LocalModule_c0c88ab744a8.module.ainb\", which was "
                            "not found (searched " +
                            (dir / "ainb").string() + ")") != std::string::npos);
  CHECK(no_modules.err.find("hint: --modules DIR") != std::string::npos);
  const auto stubbed = ainb_cli({"run", toby, "--frames", "10", "--stub-missing-modules"});
  CHECK(stubbed.code == 0);
  CHECK(stubbed.out.find("command Root: succeeded in frame 1 of 10, 65 node updates") !=
        std::string::npos);
  // Last results in node order (#3 before #10), not in the order of their text.
  CHECK(stubbed.out.find("last results:\n"
                         "  Toby.utility.root.ainb #1 ExecuteBlackboardSetBool       Success\n"
                         "  Toby.utility.root.ainb #2 QueryEquipmentGetEquipWeaponType Success\n"
                         "  Toby.utility.root.ainb #3 Element_S32Selector            Success\n") !=
        std::string::npos);
  CHECK(stubbed.out.find("#3 Element_S32Selector") < stubbed.out.find("#10 "));
  // A real module call: basicattack finds _LocalModule_d0e7ebe89ded beside it.
  const auto attack =
      ainb_cli({"run", (dir / "ainb" / "Toby.action.basicattack.module.ainb").string(), "--frames",
                "30", "--stub-missing-modules", "--trace", "-"});
  CHECK(attack.code == 0);
  CHECK(attack.out.find(R"("file":"_LocalModule_d0e7ebe89ded.module.ainb")") != std::string::npos);
}

TEST_CASE("ainb run: the trees below stubs with child plugs, by --stub-children or a scenario") {
  // An event's wrapper class with an Execute child: a stub runs nothing below it by default.
  ainb::test::AinbSpec spec;
  spec.file_name = "Event.root";
  spec.commands = {{"Talk", 0, {}}};
  ainb::test::BuildNode execute{.name = "EventExecute"};
  execute.plugs = {{PlugKind::Child, 2, "Other"}, {PlugKind::Child, 1, "Execute"}};
  spec.nodes = {execute, ainb::test::BuildNode{.name = "Speak"},
                ainb::test::BuildNode{.name = "Wave"}};
  const auto file = write_spec("event.ainb", spec);
  auto entered = [](const std::string& trace) {
    std::string names;
    std::istringstream lines(trace);
    for (std::string line; std::getline(lines, line);) {
      const auto j = nlohmann::json::parse(line);
      if (j.value("event", "") == "enter") names += j.value("type", "") + " ";
    }
    return names;
  };
  const auto bare = ainb_cli({"run", file, "--frames", "2", "--trace", "-"});
  CHECK(bare.code == 0);
  CHECK(entered(bare.out) == "EventExecute ");
  CHECK(ainb_cli({"run", file, "--frames", "2"})
            .out.find(
                "note: 1 stub node with child plugs ran none of them (--stub-children runs each "
                "one's first, a scenario's \"child\" names one)\n") != std::string::npos);
  CHECK(ainb_cli({"run", file, "--frames", "2", "--stub-children"}).out.find("note:") ==
        std::string::npos);
  // --stub-children: the first child plug (Other: Wave).
  const auto first = ainb_cli({"run", file, "--frames", "2", "--trace", "-", "--stub-children"});
  CHECK(first.code == 0);
  CHECK(entered(first.out) == "EventExecute Wave ");
  // A scenario names the plug to run; the wrapper's result is the child's.
  const auto scenario = ainb::test::write_scratch(
      "event.scenario.json",
      R"({"nodes": {"EventExecute": {"child": "Execute"}, "Speak": {"running": 2}}})");
  const auto scripted =
      ainb_cli({"run", file, "--frames", "5", "--trace", "-", "--scenario", scenario.string()});
  CHECK(scripted.code == 0);
  CHECK(entered(scripted.out) == "EventExecute Speak ");
  CHECK(scripted.out.find("\"event\":\"update\",\"file\":\"Event.root.ainb\",\"node\":0,"
                          "\"type\":\"EventExecute\",\"name\":\"EventExecute\",\"result\":"
                          "\"Success\"") != std::string::npos);
  CHECK(ainb_cli({"run", file, "--scenario", scenario.string()})
            .out.find("succeeded in frame 3 of 600") != std::string::npos);
}

TEST_CASE("ainb run and regress --restart: an ended command starts again before the next frame") {
  namespace fs = std::filesystem;
  const auto original = write_spec("guard-restart.ainb", guard());
  // The alarm is raised in frame 3, after the command's first run ended (stubs succeed at once).
  const auto alarm = ainb::test::write_scratch(
      "alarm3.scenario.json", R"({"blackboard": [{"frame": 3, "name": "Alarm", "value": true}]})");
  const auto once = ainb_cli({"run", original, "--frames", "4", "--scenario", alarm.string()});
  CHECK(once.out.starts_with(
      "summary: Guard.root.ainb, command Root: succeeded in frame 2 of 4, 5 node updates\n"));
  const auto again = ainb_cli({"run", original, "--frames", "4", "--scenario", alarm.string(),
                               "--restart", "--trace", "-", "--format", "text"});
  CHECK(again.code == 0);
  CHECK(again.out.find("    3  command    Root\n    3  enter      #0 Element_Sequential\n"
                       "    3    enter      #1 Element_BoolSelector\n"
                       "    3      enter      #2 Attack\n") != std::string::npos);
  CHECK(again.out.find("summary: Guard.root.ainb, command Root: succeeded in frame 4 of 4 (started "
                       "again 1 time), 10 node updates\n") != std::string::npos);

  // The scenario's "restart" wins over the flag; it must be true or false.
  const auto off = ainb::test::write_scratch(
      "alarm3-once.scenario.json",
      R"({"restart": false, "blackboard": [{"frame": 3, "name": "Alarm", "value": true}]})");
  CHECK(ainb_cli({"run", original, "--frames", "4", "--scenario", off.string(), "--restart"}).out ==
        once.out);
  CHECK(parse_error(R"({"restart": 1})") == "s.json: /restart: expected true or false");

  // An edit of the branch the alarm takes: unseen by one run, found when the command starts
  // again (the alarm then reaches the selector).
  auto edited = guard();
  edited.nodes[1].plugs[0].node = 3;  // True now leads to Patrol
  const auto changed = write_spec("guard-restart-edited.ainb", edited);
  CHECK(ainb_cli({"regress", original, changed, "--frames", "4", "--scenario", alarm.string()})
            .code == 0);
  const auto found = ainb_cli(
      {"regress", original, changed, "--frames", "4", "--scenario", alarm.string(), "--restart"});
  CHECK(found.code == 1);
  CHECK(found.out.find("  > original: frame 3 enter #2 Attack [Guard.root.ainb]\n"
                       "  > edited:   frame 3 enter #3 Patrol [Guard.root.ainb]\n") !=
        std::string::npos);

  // Golden recordings keep the flag: a check runs as the recording did.
  const auto root = ainb::test::scratch_dir() / "ainb-golden-restart";
  ainb::test::write_file(root / "mod" / "guard.ainb", ainb::test::build(guard()));
  const auto golden = (root / "golden").string();
  CHECK(ainb_cli(
            {"regress", "--record", golden, (root / "mod").string(), "--frames", "4", "--restart"})
            .out ==
        "file        scenario   events  result\n"
        "guard.ainb  -              28  recorded\n"
        "1 case(s): 1 recorded\n");
  CHECK(ainb_cli({"regress", "--check", golden, (root / "mod").string()}).code == 0);
  fs::remove_all(root);
}

TEST_CASE("ainb run --stub-running-updates: stubs run that many updates before they succeed") {
  // The option added as one row of the run option table (docs/simulation.md, "Run options").
  const auto updates = [](std::uint64_t n) {
    auto run = ainb_cli({"run", kPatrol.string(), "--frames", "3", "--trace", "-", "--format",
                         "text", "--stub-running-updates", std::to_string(n)});
    CHECK(run.code == 0);
    std::string results;
    std::istringstream lines(run.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.find("update     #4 MoveTo -> ") != std::string::npos)
        results += line.substr(0, 5) + line.substr(line.find("->") + 2) + ";";
    }
    return results;
  };
  CHECK(updates(0) == "    1 Success;    3 Success;");
  CHECK(updates(2) == "    1 Running;    2 Running;    3 Success;");
  // The same through the library, and the row's largest value on the command line.
  RunOptions options;
  options.frames = 3;
  options.stub_running_updates = 2;
  const auto events = trace_of(Scenario{}, options);
  std::size_t running = 0;
  for (const auto& e : events)
    running += e.value("type", "") == "MoveTo" && e.value("result", "") == "Running";
  CHECK(running == 2);
  const auto over = ainb_cli({"run", kPatrol.string(), "--stub-running-updates", "65536"});
  CHECK(over.code == 2);
  CHECK(
      over.err.starts_with("error: --stub-running-updates: Value 65536 not in range 0 to 65535\n"));
}
