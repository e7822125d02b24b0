// Results a scenario sets, a debugger's interventions (docs/debugger.md): "force", any node's
// result forced from a frame for some frames (docs/semantics.md, "Forced results"), a class's
// result read from a blackboard entry, and a node's or class's entry from a frame on ("from");
// parsed, written back, checked against the file, and run on the bundled example.

#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/simulation/simulation.hpp"
#include "simulation_samples.hpp"

using namespace ainb;
using namespace ainb::simulation;

using ainb::test::kPatrol;

namespace {

std::string error_of(const char* json) {
  try {
    simulate(kPatrol, parse_scenario(nlohmann::json::parse(json), "s.json"), {}, nullptr);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(ran)";
}

// The bundled example's JSON-lines trace under `json`, and its summary.
std::vector<nlohmann::json> events_of(const char* json, Summary* summary = nullptr) {
  std::ostringstream out;
  auto writer = make_trace_writer(TraceFormat::Jsonl, out);
  const auto s =
      simulate(kPatrol, parse_scenario(nlohmann::json::parse(json), "s.json"), {}, writer.get());
  if (summary != nullptr) *summary = s;
  std::vector<nlohmann::json> events;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);)
    events.push_back(nlohmann::json::parse(line));
  return events;
}

// "update #N -> RESULT" of each update in `frame`, in order.
std::vector<std::string> updates_in(const std::vector<nlohmann::json>& events, int frame) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    if (e["frame"] == frame && e["event"] == "update")
      out.push_back("update #" + std::to_string(e["node"].get<int>()) + " -> " +
                    e["result"].get<std::string>());
  }
  return out;
}

}  // namespace

TEST_CASE("force: parse errors name the JSON path, and the scenario is written back as read") {
  CHECK(error_of(R"({"force": [{"node": 3}]})") == "s.json: /force/0: missing key \"result\"");
  CHECK(error_of(R"({"force": [{"node": 3, "result": "Done"}]})") ==
        "s.json: /force/0/result: \"Done\" is not a result (Running, Success or Failure)");
  CHECK(error_of(R"({"force": [{"node": 3, "result": "Failure", "frames": 0}]})") ==
        "s.json: /force/0/frames: expected at least 1");
  CHECK(error_of(R"({"force": [{"node": 3, "result": "Failure", "until": 4}]})") ==
        "s.json: /force/0/until: unknown key (expected one of: file, node, result, frame, frames)");
  // Checked against the file before the run.
  CHECK(error_of(R"({"force": [{"node": 10, "result": "Failure"}]})") ==
        "s.json: /force/0/node: patrol.root.ainb has 10 nodes");
  CHECK(error_of(R"({"force": [{"file": "Other.module.ainb", "node": 0, "result": "Failure"}]})") ==
        "s.json: /force/0/file: the actor calls no module file \"Other.module.ainb\"");
  const auto json = nlohmann::ordered_json::parse(
      R"({"force": [{"node": 3, "result": "Failure", "frame": 2, "frames": 1},
                    {"file": "M.module.ainb", "node": 0, "result": "Running"}]})");
  CHECK(scenario_json(parse_scenario(json, "s.json")) == json);
}

TEST_CASE("force: a built-in Sequential forced to fail at frame 2 ends the command there") {
  // Unforced, MoveTo (#4) runs under the Sequential #3 until frame 3 (docs/simulation.md).
  const auto plain = events_of(R"({"nodes": {"MoveTo": {"running": 2}}})");
  CHECK(updates_in(plain, 2) ==
        std::vector<std::string>{"update #4 -> Running", "update #3 -> Running",
                                 "update #1 -> Running", "update #0 -> Running"});
  Summary summary;
  const auto forced = events_of(
      R"({"nodes": {"MoveTo": {"running": 2}},
          "force": [{"node": 3, "result": "Failure", "frame": 2, "frames": 1}]})",
      &summary);
  // Frame 1 as before; in frame 2 MoveTo is not updated, the Sequential fails, and so does the
  // selector above it and the root: the command ends in frame 2.
  CHECK(updates_in(forced, 1) == updates_in(plain, 1));
  CHECK(updates_in(forced, 2) == std::vector<std::string>{"update #3 -> Failure",
                                                          "update #1 -> Failure",
                                                          "update #0 -> Failure"});
  CHECK(summary.state == "failed");
  CHECK(summary.ended_frame == 2);
  CHECK(updates_in(forced, 3).empty());
}

TEST_CASE("force: for some frames, then the node's own update again") {
  // MoveTo forced Running in frames 1 and 2: its own updates (Running twice, then Success)
  // begin in frame 3.
  const auto events = events_of(
      R"({"nodes": {"MoveTo": {"running": 2}},
          "force": [{"node": 4, "result": "Running", "frame": 1, "frames": 2}]})");
  for (const int frame : {1, 2, 3, 4})
    CHECK(updates_in(events, frame).front() == "update #4 -> Running");
  CHECK(updates_in(events, 5).front() == "update #4 -> Success");
}

TEST_CASE(
    "a class's result read from the blackboard: then when the entry is true, else otherwise") {
  // Attack runs only once IsEnemyNear is true (frame 6), MoveTo only while it is false.
  const auto events = events_of(R"({"frames": 8,
    "nodes": {"MoveTo": {"result": {"if": "IsEnemyNear", "then": "Success", "else": "Failure"}},
              "Attack": {"running": 1, "result": {"if": "IsEnemyNear", "then": "Success"}}},
    "blackboard": [{"frame": 3, "name": "IsEnemyNear", "value": true}]})");
  CHECK(updates_in(events, 1) ==
        std::vector<std::string>{"update #4 -> Failure", "update #3 -> Failure",
                                 "update #1 -> Failure", "update #0 -> Failure"});
  const auto late = events_of(R"({"frames": 8, "nodes": {"Attack": {"running": 1,
    "result": {"if": "IsEnemyNear", "then": "Success", "else": "Running"}}},
    "blackboard": [{"frame": 3, "name": "IsEnemyNear", "value": true}]})");
  CHECK(updates_in(late, 4) == std::vector<std::string>{"update #2 -> Success",
                                                        "update #1 -> Success",
                                                        "update #0 -> Running"});
  // Written back as read; "else" is Failure unless given.
  const auto s = parse_scenario(
      nlohmann::json::parse(R"({"nodes": {"Attack": {"result": {"if": "IsEnemyNear"}}}})"),
      "s.json");
  CHECK(
      scenario_json(s).dump() ==
      R"({"nodes":{"Attack":{"result":{"if":"IsEnemyNear","then":"Success","else":"Failure"}}}})");
  CHECK(error_of(R"({"nodes": {"Attack": {"result": {"then": "Success"}}}})") ==
        "s.json: /nodes/Attack/result: missing key \"if\" (a blackboard entry)");
  CHECK(
      error_of(R"({"nodes": {"Attack": {"result": {"if": "IsEnemyNear", "then": "Done"}}}})") ==
      "s.json: /nodes/Attack/result/then: \"Done\" is not a result (Running, Success or Failure)");
  CHECK(error_of(R"({"nodes": {"Attack": {"result": {"if": "IsFar"}}}})") ==
        "s.json: /nodes/Attack/result/if: no file with a node of this class has a blackboard entry "
        "\"IsFar\"");
}

TEST_CASE("from: a scripted behaviour from a frame on; before it, the node's class's or a stub's") {
  // MoveTo's class entry runs it twice Running, then Success in frame 3; node #4's own entry
  // from frame 3 makes that update a Failure, which ends the command.
  const auto at = events_of(R"({"frames": 5, "nodes": {"MoveTo": {"running": 2}},
    "at": [{"node": 4, "class": "MoveTo", "from": 3, "result": "Failure"}]})");
  CHECK(updates_in(at, 2).front() == "update #4 -> Running");
  CHECK(updates_in(at, 3) ==
        std::vector<std::string>{"update #4 -> Failure", "update #3 -> Failure",
                                 "update #1 -> Failure", "update #0 -> Failure"});
  // A class's entry from frame 3: a stub (Success at once) before it, one Running update after.
  const auto cls = events_of(R"({"frames": 5, "nodes": {"MoveTo": {"from": 3, "running": 1}}})");
  CHECK(updates_in(cls, 1).front() == "update #4 -> Success");
  CHECK(updates_in(cls, 3).front() == "update #4 -> Running");
  CHECK(updates_in(cls, 4).front() == "update #4 -> Success");
  const auto json = nlohmann::ordered_json::parse(
      R"({"nodes": {"MoveTo": {"from": 3, "running": 1}},
          "at": [{"node": 4, "class": "MoveTo", "from": 2, "outputs": {"DistanceLeft": 1.5}}]})");
  CHECK(scenario_json(parse_scenario(json, "s.json")) == json);
  CHECK(error_of(R"({"nodes": {"MoveTo": {"from": -1}}})") ==
        "s.json: /nodes/MoveTo/from: expected a non-negative integer");
  Summary summary;
  events_of(R"({"frames": 5, "nodes": {"MoveTo": {"from": 9}}})", &summary);
  CHECK(summary.warnings ==
        std::vector<std::string>{"s.json: /nodes/MoveTo/from: frame 9 is past the run's 5 frames; "
                                 "it never applies"});
}
