// Offline simulation (`ainb run`): scenario parsing and its errors, trace content for the bundled
// example, the trace formats, and the messages and exit codes of bad input.

#include <algorithm>
#include <map>
#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/simulation/simulation.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "commands.hpp"
#include "corpus.hpp"
#include "runtime_probe.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::simulation;

using ainb::test::ainb_cli;

namespace {

const std::filesystem::path kPatrol = std::filesystem::path(AINB_EXAMPLES_DIR) / "patrol.root.ainb";
const std::filesystem::path kScenario =
    std::filesystem::path(AINB_SOURCE_DIR) / "examples" / "patrol.scenario.json";

std::string parse_error(const char* json) {
  try {
    parse_scenario(nlohmann::json::parse(json), "s.json");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(parsed)";
}

// Whether the complete spans ("X") of a Chrome trace nest on each row: two spans of a row are
// disjoint or one contains the other.
bool spans_nest(const nlohmann::json& events) {
  std::map<int, std::vector<std::pair<std::uint64_t, std::uint64_t>>> rows;
  for (const auto& e : events) {
    if (e["ph"] != "X") continue;
    const auto begin = e["ts"].get<std::uint64_t>();
    rows[e["tid"].get<int>()].emplace_back(begin, begin + e["dur"].get<std::uint64_t>());
  }
  for (const auto& [tid, spans] : rows) {
    for (const auto& [b1, e1] : spans) {
      for (const auto& [b2, e2] : spans) {
        if (b1 < b2 && b2 < e1 && e1 < e2) return false;
      }
    }
  }
  return true;
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
        "blackboard, commands, nodes, functions)");
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

TEST_CASE("ainb run: text, chrome and the summary") {
  const auto text = ainb_cli({"run", kPatrol.string(), "--scenario", kScenario.string(), "--trace",
                              "-", "--format", "text"});
  CHECK(text.code == 0);
  CHECK(text.out.find("    6  blackboard IsEnemyNear=true\n") != std::string::npos);
  CHECK(text.out.find("    7      update     #2 Attack -> Failure\n") != std::string::npos);
  // The Alert command, started in frame 10, ended in it: the summary says when, of 12 frames.
  CHECK(text.out.find("summary: patrol.root.ainb, command Alert: succeeded in frame 10 of 12, "
                      "30 node updates\n") != std::string::npos);
  CHECK(text.out.find("  IsEnemyNear                              true\n") != std::string::npos);

  const auto chrome = ainb_cli({"run", kPatrol.string(), "--scenario", kScenario.string(),
                                "--trace", "-", "--format", "chrome"});
  CHECK(chrome.code == 0);
  const auto json = nlohmann::json::parse(chrome.out);  // stdout holds only the trace
  const auto& events = json["traceEvents"];
  CHECK(spans_nest(events));
  // One span per Enter, which counts the node's updates; the other events (not Leaves, which end
  // the spans) as instants.
  std::map<std::string, std::int64_t> kinds;
  std::istringstream lines(text.out.substr(0, text.out.find("\nsummary")));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::uint64_t frame = 0;
    std::string kind;
    words >> frame >> kind;
    ++kinds[kind];
  }
  std::int64_t spans = 0, updates = 0;
  for (const auto& e : events) {
    if (e["ph"] != "X") continue;
    ++spans;
    updates += e["args"]["updates"].get<std::int64_t>();
  }
  CHECK(spans == kinds["enter"]);
  CHECK(updates == kinds["update"]);
  CHECK(static_cast<std::int64_t>(events.size()) - spans ==
        kinds["command"] + kinds["blackboard"] + kinds["transition"] + kinds["alert"]);
  const auto move_to = std::ranges::find_if(events, [](const auto& e) {
    return e["ph"] == "X" && e["args"]["node"] == 4 && e["args"]["frame"] == 0;
  });
  REQUIRE(move_to != events.end());
  CHECK((*move_to)["args"]["results"] == "Running \u00d72, Success");
  CHECK(!move_to->at("args").contains("truncated"));
  CHECK(chrome.err.find("summary: patrol.root.ainb") != std::string::npos);

  // Truncated after 3 events: the spans still open end there, and say so.
  const auto cut = ainb_cli({"run", kPatrol.string(), "--scenario", kScenario.string(), "--trace",
                             "-", "--format", "chrome", "--max-trace-events", "3"});
  std::int64_t cut_spans = 0;
  const auto cut_json = nlohmann::json::parse(cut.out);
  for (const auto& e : cut_json["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++cut_spans;
    CHECK(e["args"]["truncated"] ==
          "the trace was truncated while this node ran: its span and its updates end there, not "
          "at its Leave");
  }
  CHECK(cut_spans == 2);  // the Sequential and the BoolSelector it entered
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

namespace {

// Guard.root: Sequential [BoolSelector on Alarm (True -> Attack, False -> Patrol), Wait].
ainb::test::AinbSpec guard() {
  using namespace ainb::test;
  AinbSpec spec;
  spec.file_name = "Guard.root";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Alarm", false}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 4, ""}};
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};
  choose.plugs = {{PlugKind::Child, 2, "True"}, {PlugKind::Child, 3, "False"}};
  BuildNode wait{.name = "Wait"};
  wait.properties = {{ParamType::Float, "Time", 2.0f}};
  spec.nodes = {seq, choose, BuildNode{.name = "Attack"}, BuildNode{.name = "Patrol"}, wait};
  return spec;
}

// guard() without one of the selector's children, Attack (#2) or Patrol (#3): both of the
// selector's plugs lead to the other, and the nodes after it keep their GUIDs, as an editor
// deleting a node leaves them.
ainb::test::AinbSpec guard_without(std::size_t deleted) {
  using namespace ainb::test;
  auto spec = guard();
  spec.nodes.erase(spec.nodes.begin() + static_cast<std::ptrdiff_t>(deleted));
  spec.nodes[0].plugs[1].node = 3;  // Wait
  spec.nodes[1].plugs = {{PlugKind::Child, 2, "True"}, {PlugKind::Child, 2, "False"}};
  for (std::size_t i = deleted; i < spec.nodes.size(); ++i)
    spec.nodes[i].guid_from = static_cast<std::uint8_t>(i + 1);
  return spec;
}

// guard() whose Patrol (#3) calls Walk.module.ainb, a file beside it (walk_module()).
ainb::test::AinbSpec guard_calling_walk() {
  auto caller = guard();
  caller.nodes[3] = {.name = "Walk.module", .flags = ainb::node_flags::kIsModule};
  caller.modules = {{"Walk.module.ainb"}};
  return caller;
}

// Walk.module: one command running one node of class Walk.
ainb::test::AinbSpec walk_module() {
  ainb::test::AinbSpec module;
  module.file_name = "Walk.module";
  module.commands = {{"Root", 0, {}}};
  module.nodes = {ainb::test::BuildNode{.name = "Walk"}};
  return module;
}

std::string write_spec(const std::string& name, const ainb::test::AinbSpec& spec) {
  return ainb::test::write_scratch(name, ainb::test::build(spec)).string();
}

}  // namespace

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

TEST_CASE(
    "ainb run --trace: never the input, and an earlier trace survives a file that does not load") {
  namespace fs = std::filesystem;
  const auto input = ainb::test::scratch_dir() / "trace-input.ainb";
  fs::copy_file(kPatrol, input, fs::copy_options::overwrite_existing);
  const auto size = fs::file_size(input);
  const auto r = ainb_cli({"run", input.string(), "--frames", "3", "--trace", input.string()});
  CHECK(r.code == 2);
  CHECK(r.err == "error: --trace " + input.string() +
                     " is the input file; the trace would "
                     "overwrite it\n");
  CHECK(fs::file_size(input) == size);
  const auto trace = ainb::test::write_scratch("earlier.jsonl", "earlier\n");
  CHECK(ainb_cli({"run", "/nonexistent.ainb", "--trace", trace.string()}).code == 1);
  CHECK(ainb::test::read_text(trace) == "earlier\n");
  CHECK_FALSE(fs::exists(trace.string() + ".partial"));
  CHECK(ainb_cli({"run", input.string(), "--frames", "3", "--trace", trace.string()}).code == 0);
  CHECK(ainb::test::read_text(trace).starts_with("{\"frame\":0,\"event\":\"command\""));
  CHECK_FALSE(fs::exists(trace.string() + ".partial"));
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

TEST_CASE("ainb run --format text nests each node under the node that entered it") {
  // A Simultaneous whose children are all open at once, one (Look) with a query that has a
  // query of its own: siblings share a depth, and a query goes one deeper than its user. It is
  // calculated before its user's Enter and Update, so its lines come before the user's, as a
  // child's update comes before its parent's. The command starts in frame 0, its first tick is
  // frame 1.
  using namespace ainb::test;
  AinbSpec spec;
  spec.file_name = "Nest.root";
  spec.commands = {{"Root", 0, {}}};
  BuildNode both{.type = NodeType::Simultaneous};
  both.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}, {PlugKind::Child, 3, ""}};
  BuildNode look = user("Look");
  look.queries = {0};
  BuildNode near = user("IsNear"), home = user("GetHome");
  near.queries = {1};
  near.flags = home.flags = node_flags::kIsQuery;
  spec.nodes = {both, user("Move"), look, user("Turn"), near, home};
  const auto file = write_spec("nest.root.ainb", spec);
  const auto run = ainb_cli({"run", file, "--frames", "1", "--trace", "-", "--format", "text"});
  CHECK(run.code == 0);
  CHECK(run.out.substr(0, run.out.find("\nsummary")) ==
        "    0  command    Root   [Nest.root.ainb]\n"
        "    0  enter      #0 Element_Simultaneous\n"
        "    0    enter      #1 Move\n"
        "    0      enter      #4 IsNear\n"
        "    0        enter      #5 GetHome\n"
        "    0        update     #5 GetHome -> Success\n"
        "    0      update     #4 IsNear -> Success\n"
        "    0    enter      #2 Look\n"
        "    0    enter      #3 Turn\n"
        "    1    update     #1 Move -> Success\n"
        "    1    leave      #1 Move\n"
        "    1        update     #5 GetHome -> Success\n"
        "    1      update     #4 IsNear -> Success\n"
        "    1    update     #2 Look -> Success\n"
        "    1    leave      #2 Look\n"
        "    1      leave      #4 IsNear\n"
        "    1        leave      #5 GetHome\n"
        "    1    update     #3 Turn -> Success\n"
        "    1    leave      #3 Turn\n"
        "    1  update     #0 Element_Simultaneous -> Success\n"
        "    1  leave      #0 Element_Simultaneous\n");

  // In the Chrome trace each Enter to Leave is a span, on a row where it nests: the root holds
  // Move (left first); IsNear holds Look (it was calculated before Look's Enter and left after
  // its Leave); GetHome and Turn overlap those partly, so each has a row of its own.
  const auto chrome =
      ainb_cli({"run", file, "--frames", "1", "--trace", "-", "--format", "chrome"});
  const auto events = nlohmann::json::parse(chrome.out)["traceEvents"];
  CHECK(spans_nest(events));
  std::map<std::int64_t, std::tuple<int, std::uint64_t, std::uint64_t>> spans;
  for (const auto& e : events) {
    if (e["ph"] == "X")
      spans[e["args"]["node"]] = {e["tid"], e["ts"],
                                  e["ts"].get<std::uint64_t>() + e["dur"].get<std::uint64_t>()};
  }
  using Span = std::tuple<int, std::uint64_t, std::uint64_t>;
  CHECK(spans == std::map<std::int64_t, Span>{{0, {1, 1, 1011}},
                                              {1, {1, 2, 1001}},
                                              {2, {2, 7, 1005}},
                                              {3, {4, 8, 1009}},
                                              {4, {2, 3, 1006}},
                                              {5, {3, 4, 1007}}});
}

TEST_CASE("ainb graph: DOT of a file, coloured by a trace, rendered through dot when installed") {
  const auto trace = ainb::test::write_scratch("patrol.trace.jsonl", "");
  REQUIRE(ainb_cli({"run", kPatrol.string(), "--scenario", kScenario.string(), "--trace",
                    trace.string()})
              .code == 0);
  const auto dot = ainb_cli({"graph", kPatrol.string(), "--trace", trace.string()});
  CHECK(dot.code == 0);
  CHECK(dot.out.starts_with("digraph \"" + kPatrol.string() + "\" {\n"));
  CHECK(dot.out.find("  command1 [label=\"Alert\", shape=cds, fillcolor=\"#d6e4ff\"];\n"
                     "  command1 -> node6;\n") != std::string::npos);
  // Attack failed in that run; MoveTo succeeded.
  CHECK(dot.out.find("  node2 [label=\"#2 Attack\", shape=box, fillcolor=\"#f4b6b0\", "
                     "color=black];\n") != std::string::npos);
  CHECK(dot.out.find("  node4 [label=\"#4 MoveTo\", shape=box, fillcolor=\"#b7e4b0\", "
                     "color=black];\n") != std::string::npos);
  CHECK(dot.out.find("  node1 -> node2 [label=\"True\"];\n") != std::string::npos);

  const auto bad = ainb::test::write_scratch("bad.trace.jsonl", "not json\n");
  CHECK(ainb_cli({"graph", kPatrol.string(), "--trace", bad.string()}).err ==
        "error: " + bad.string() +
            ": line 1: not a JSON trace event (write the trace with ainb run --format jsonl)\n");
  // A node number the file does not have (a trace of another file of that name), or that is
  // no integer, is an error, not a colour on another node.
  const auto wide = ainb::test::write_scratch(
      "wide.trace.jsonl",
      R"({"frame":1,"event":"update","file":"patrol.root.ainb","node":4294967297,"result":"Success"})"
      "\n");
  CHECK(ainb_cli({"graph", kPatrol.string(), "--trace", wide.string()}).err ==
        "error: " + wide.string() +
            ": line 1: \"node\" is 4294967297, not a node of patrol.root.ainb (it has 10)\n");
  const auto typed = ainb::test::write_scratch(
      "typed.trace.jsonl", R"({"event":"update","file":"patrol.root.ainb","node":1,"result":7})"
                           "\n");
  CHECK(ainb_cli({"graph", kPatrol.string(), "--trace", typed.string()})
            .err.starts_with("error: " + typed.string() +
                             ": line 1: not a JSON trace event ([json.exception.type_error.302]"));

  const auto svg = ainb_cli({"graph", kPatrol.string(), "--svg"});
  if (svg.code == 0) {
    CHECK(svg.out.find("<svg") != std::string::npos);
    // dot runs without a shell: a quote in the output path is part of the name, not syntax.
    namespace fs = std::filesystem;
    const auto folder = ainb::test::scratch_dir() / "svg";
    fs::create_directories(folder);
    const auto quoted = folder / "x';touch pwned;'.svg";
    CHECK(ainb_cli({"graph", kPatrol.string(), "-o", quoted.string()}).code == 0);
    CHECK(fs::exists(quoted));
    CHECK_FALSE(fs::exists("pwned"));
    CHECK_FALSE(fs::exists(folder / "pwned"));
  } else {
    CHECK(svg.err.find("which is not installed (Debian: apt-get install graphviz)") !=
          std::string::npos);
  }

  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto toby = ainb_cli({"graph", (dir / "ainb" / "Toby.utility.root.ainb").string()});
  CHECK(toby.code == 0);
  std::size_t nodes = 0, modules = 0, queries = 0;
  std::istringstream lines(toby.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("  node") && line.find(" [label=\"#") != std::string::npos) ++nodes;
    if (line.find("(module)") != std::string::npos) ++modules;
    if (line.find("label=\"query\"") != std::string::npos) ++queries;
  }
  CHECK(nodes == 152);
  CHECK(modules == 19);
  CHECK(queries > 0);
  // An S32 selector's edges say their conditions; a data link is one edge, source to reader,
  // labelled with the input (node 2 is a query whose output node 3's Input reads).
  CHECK(toby.out.find("  node3 -> node4 [label=\"= 4\"];\n") != std::string::npos);
  CHECK(toby.out.find("  node2 -> node3 [style=dotted, color=gray60, arrowhead=open, "
                      "label=\"Input\"];\n") != std::string::npos);
  CHECK(toby.out.find("  node3 -> node2 [style=dotted") == std::string::npos);
}
