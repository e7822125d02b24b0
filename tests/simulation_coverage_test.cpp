// Branch coverage of runs (`ainb run --coverage`): what the bundled example reaches with and
// without its scenario, exactly; a stub's children the graph cannot reach, and reached with
// --stub-children; a module's file; and on every real file, that nothing a run reaches is
// something the graph's reachability says it cannot.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/simulation.hpp"
#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"
#include "simulation_samples.hpp"

using namespace ainb;
using namespace ainb::simulation;
using ainb::test::ainb_cli;
using ainb::test::kPatrol;
using ainb::test::kScenario;

namespace {

Summary covered(const std::filesystem::path& file, const Scenario& scenario = {},
                RunOptions options = {}) {
  options.coverage = true;
  return simulate(file, scenario, options, nullptr);
}

std::string printed(const Coverage& coverage) {
  std::ostringstream out;
  coverage.print(out);
  return out.str();
}

}  // namespace

TEST_CASE("coverage of the example: the default run takes one branch of its selector") {
  const auto summary = covered(kPatrol, {}, {.frames = 12});
  REQUIRE(summary.coverage);
  const auto json = summary.coverage->to_json();
  CHECK(json["schema"] == "ainb-coverage/1");
  CHECK(json["totals"].dump() == R"({"nodes":{"reached":5,"reachable":10,"total":10},)"
                                 R"("branches":{"reached":1,"reachable":2,"total":2},)"
                                 R"("transitions":{"reached":0,"reachable":0,"total":0},)"
                                 R"("commands":{"reached":1,"reachable":2,"total":2}})");
  const auto& file = json["files"][0];
  CHECK(file["file"] == "patrol.root.ainb");
  CHECK(
      file["branches"]["unreached"].dump() ==
      R"([{"node":1,"type":"Element_BoolSelector","plug":0,"name":"True","to":2,"reachable":true}])");
  CHECK(file["commands"]["unreached"].dump() == R"(["Alert"])");
  CHECK(printed(*summary.coverage) ==
        "coverage:\n"
        "  nodes        5 of 10 reachable (10 in the files)\n"
        "  branches     1 of 2 reachable (2 in the files)\n"
        "  transitions  0 of 0 reachable (0 in the files)\n"
        "  commands     1 of 2 reachable (2 in the files)\n"
        "never reached:\n"
        "  patrol.root.ainb nodes #2, #6-#9\n"
        "  patrol.root.ainb #1 Element_BoolSelector plug 0 \"True\" -> #2\n"
        "  patrol.root.ainb command Alert\n");
  CHECK(summary.coverage->unexpected().empty());
}

TEST_CASE("coverage of the example under its scenario: both branches and both commands") {
  const auto summary = covered(kPatrol, load_scenario(kScenario));
  const auto t = summary.coverage->totals();
  CHECK(t.nodes.reached == 10);
  CHECK(t.branches.reached == 2);
  CHECK(t.commands.reached == 2);
  CHECK(printed(*summary.coverage).find("never reached") == std::string::npos);
}

TEST_CASE("a stub's children: reachable (a scenario's \"child\" picks one), unreached, and why") {
  test::AinbSpec spec;
  spec.commands = {{"Run", 0, {}}};
  test::BuildNode wrap{.name = "Wrap"};
  wrap.plugs = {{PlugKind::Child, 1, "Execute"}, {PlugKind::Child, 2, "Else"}};
  spec.nodes = {wrap, test::BuildNode{.name = "Leaf"}, test::BuildNode{.name = "Other"}};
  const auto path = test::write_spec("wrap.root.ainb", spec);

  const auto plain = covered(path, {}, {.frames = 2});
  CHECK(
      plain.coverage->to_json()["files"][0]["branches"].dump() ==
      R"j({"reached":0,"reachable":2,"total":2,"unreached":[)j"
      R"j({"node":0,"type":"Wrap","plug":0,"name":"Execute","to":1,"reachable":true,)j"
      R"j("why":"a stub that runs no children (--stub-children runs its first, a scenario's \"child\" any)"},)j"
      R"j({"node":0,"type":"Wrap","plug":1,"name":"Else","to":2,"reachable":true,)j"
      R"j("why":"a stub that runs no children (--stub-children runs its first, a scenario's \"child\" any)"}]})j");
  CHECK(
      plain.coverage->to_json()["files"][0]["nodes"]["unreached"][0].dump() ==
      R"j({"node":1,"type":"Leaf","reachable":true,"why":"below #0 Wrap, a stub that runs no children (--stub-children runs its first, a scenario's \"child\" any)"})j");

  const auto passing = covered(path, {}, {.frames = 2, .stub_children = true});
  const auto t = passing.coverage->totals();
  CHECK(t.branches.reached == 1);
  CHECK(t.branches.reachable == 2);
  CHECK(t.nodes.reached == 2);
  CHECK(t.nodes.reachable == 3);
  CHECK(
      printed(*passing.coverage)
          .find(
              "  Test.root.ainb nodes #2 (below #0 Wrap, a stub that runs only its first child (a "
              "scenario's \"child\" picks another))\n") != std::string::npos);
  CHECK(passing.coverage->unexpected().empty());

  // A scenario scripting Wrap to run its second child reaches the rest.
  const auto scripted = covered(
      path, parse_scenario(nlohmann::json::parse(R"({"nodes": {"Wrap": {"child": "Else"}}})"), "s"),
      {.frames = 2});
  CHECK(scripted.coverage->totals().nodes.reached == 2);
  CHECK(scripted.coverage->totals().branches.reached == 1);
}

TEST_CASE("coverage follows a module call into the module's file") {
  const auto module = test::write_spec("Walk.module.ainb", test::walk_module());
  const auto guard = test::write_spec("Guard.root.ainb", test::guard_calling_walk());
  const auto summary = covered(guard, {}, {.frames = 3});
  const auto json = summary.coverage->to_json();
  REQUIRE(json["files"].size() == 2);
  CHECK(json["files"][1]["file"] == "Walk.module.ainb");
  CHECK(json["files"][1]["nodes"]["reached"] == json["files"][1]["nodes"]["total"]);
  CHECK(summary.coverage->unexpected().empty());
  (void)module;
}

TEST_CASE("ainb run --coverage writes the report and lists what was never reached") {
  const auto report = (test::scratch_dir() / "patrol.coverage.json").string();
  const auto run = ainb_cli({"run", kPatrol.string(), "--frames", "12", "--coverage", report});
  CHECK(run.code == 0);
  CHECK(run.out.find("coverage:\n  nodes        5 of 10 reachable (10 in the files)\n") !=
        std::string::npos);
  CHECK(run.out.find("  patrol.root.ainb #1 Element_BoolSelector plug 0 \"True\" -> #2\n") !=
        std::string::npos);
  std::ifstream in(report);
  const auto json = nlohmann::json::parse(in);
  CHECK(json["totals"]["branches"]["reached"] == 1);

  const auto unwritable = ainb_cli({"run", kPatrol.string(), "--coverage", "/nonexistent/c.json"});
  CHECK(unwritable.code == 1);
  CHECK(unwritable.out.empty());  // refused before the run
  CHECK(unwritable.err == "error: cannot write /nonexistent/c.json\n");
}

TEST_CASE("every real file: what runs reach, the graph says they can reach") {
  // 120 frames with the documented stub behaviour, generic classes, stubs passing through to
  // their first child and commands restarted, each command of each file in turn.
  for (const auto& path : test::all_real_ainb_files()) {
    CAPTURE(path);
    RunOptions options{.frames = 120,
                       .restart = true,
                       .generic_nodes = true,
                       .stub_children = true,
                       .stub_missing_modules = true,
                       .coverage = true};
    const auto first = simulate(path, {}, options, nullptr);
    REQUIRE(first.coverage);
    for (const auto& command : first.graph->model().commands) {
      options.command = std::string(command.name);
      const auto run = simulate(path, {}, options, nullptr);
      first.coverage->merge(*run.coverage);
    }
    const auto unexpected = first.coverage->unexpected();
    CHECK_MESSAGE(unexpected.empty(), fmt::format("{}", fmt::join(unexpected, "; ")));
    // The report marks as reachable exactly the unreached items its counts leave.
    const auto report = first.coverage->to_json();
    for (const auto& f : report["files"]) {
      for (const auto* kind : {"nodes", "branches", "transitions"}) {
        const auto& k = f[kind];
        const auto marked =
            std::count_if(k["unreached"].begin(), k["unreached"].end(),
                          [](const auto& item) { return item["reachable"] == true; });
        CHECK(static_cast<std::size_t>(marked) ==
              k["reachable"].get<std::size_t>() - k["reached"].get<std::size_t>());
      }
    }
    const auto t = first.coverage->totals();
    CHECK(t.nodes.reached <= t.nodes.reachable);
    CHECK(t.nodes.reachable <= t.nodes.total);
  }
}

TEST_CASE("a node's first transition is taken when it finishes; its other stays unreached") {
  // Patrol (the root) has two transitions, to Rest and to Flee; a stub finishing takes its first.
  test::AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  test::BuildNode patrol{.name = "Patrol"};
  patrol.plugs = {test::transition(1, 0), test::transition(2, 1)};
  spec.nodes = {patrol, test::BuildNode{.name = "Rest"}, test::BuildNode{.name = "Flee"}};
  spec.transitions = {{1, ""}, {1, ""}};
  const auto summary = covered(test::write_spec("two_ways.root.ainb", spec), {}, {.frames = 3});
  const auto json = summary.coverage->to_json();
  CHECK(json["files"][0]["transitions"].dump() ==
        R"({"reached":1,"reachable":2,"total":2,"unreached":[{"from":0,"to":2}]})");
  CHECK(printed(*summary.coverage).find("  Test.root.ainb transition #0 -> #2\n") !=
        std::string::npos);
}
