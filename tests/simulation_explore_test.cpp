// `ainb explore`: on hand-made files (tests/data/explore, text form), it reaches each branch that
// needs a value a plain run never gives, within a stated number of runs, and writes a minimal
// scenario that reaches it when replayed with `ainb run`; the same seed gives the same results at
// any --jobs; on every real file, what it reaches replays and is what the graph says can be.

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "ainb/formats/node_definitions.hpp"
#include "ainb/loader.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/writer/text_form.hpp"
#include "build_paths.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "scratch.hpp"
#include "simulation_samples.hpp"

using namespace ainb;
using namespace ainb::simulation;
using ainb::test::ainb_cli;

namespace {

// tests/data/explore/NAME.root.json compiled into the scratch folder.
std::filesystem::path hand_made(const std::string& name) {
  std::ifstream in(ainb::test::source_dir() / "tests/data/explore" / (name + ".root.json"));
  REQUIRE(in);
  const auto text = nlohmann::ordered_json::parse(in);
  return test::write_scratch(name + ".root.ainb", writer::from_text(text, name));
}

ExploreResult explored(const std::filesystem::path& file, std::uint64_t runs,
                       ExploreOptions options = {}) {
  options.runs = runs;
  return explore(file, options);
}

const ExploreResult::Found* found(const ExploreResult& result, const std::string& reaches) {
  for (const auto& f : result.found) {
    if (f.reaches == reaches) return &f;
  }
  return nullptr;
}

// `ainb run FILE --scenario SCENARIO --coverage`: whether the run reaches `item` ("#0 ... plug 1").
bool replay_reaches(const std::filesystem::path& file, const nlohmann::ordered_json& scenario,
                    const std::string& item, std::vector<std::string> extra = {}) {
  const auto scenario_path = test::write_scratch("replay.json", scenario.dump(2));
  const auto coverage_path = test::scratch_dir() / "replay-coverage.json";
  std::vector<std::string> args{"run",        file.string(),
                                "--scenario", scenario_path.string(),
                                "--coverage", coverage_path.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = ainb_cli(args);
  REQUIRE(run.code == 0);
  // Never reached items are listed after "never reached:"; the item must not be among them.
  const auto never = run.out.find("never reached:");
  return never == std::string::npos || run.out.find(item, never) == std::string::npos;
}

}  // namespace

TEST_CASE("explore: an S32 branch that needs exactly 7 from a stub's output two queries away") {
  // Selector <- QueryMathAddS32 <- QueryMathAddS32 <- QueryEnemyCount.Count (a stub); the generic
  // classes add 0 twice, so only Count = 7 takes plug 0.
  const auto file = hand_made("seven");
  ExploreOptions options;
  options.run.generic_nodes = true;
  const auto result = explored(file, 50, options);
  CHECK(result.plain->totals().branches.reached == 1);
  CHECK(result.coverage->totals().branches.reached == 2);
  const auto* f = found(result, "seven.root.ainb #0 Element_S32Selector plug 0 -> #4");
  REQUIRE(f != nullptr);
  CHECK(f->run < 50);
  CHECK(f->name == "seven.root-n0-plug0.json");
  CHECK(f->scenario.dump() ==
        R"({"frames":1,"restart":true,"nodes":{"QueryEnemyCount":{"outputs":{"Count":7}}}})");
  CHECK(result.replay_failures.empty());
  CHECK(replay_reaches(file, f->scenario, "#0 Element_S32Selector plug 0", {"--generic-nodes"}));
}

TEST_CASE("explore: progress after each batch of 32 runs, then the total once") {
  const auto file = hand_made("seven");
  std::vector<std::string> told;
  ExploreOptions options;
  options.progress = [&told](std::size_t done, std::size_t total, const std::string& label) {
    told.push_back(fmt::format("{}/{} {}", done, total, label));
  };
  explored(file, 70, options);
  CHECK(fmt::format("{}", fmt::join(told, ", ")) == "32/70 runs, 64/70 runs, 70/70 runs");
}

TEST_CASE("explore: an F32 selector's ranges, from a blackboard entry") {
  // Distance (default 100) in [0, 5] -> Strike, [5, 20] -> Approach, else Wander.
  const auto file = hand_made("range");
  const auto result = explored(file, 50);
  CHECK(result.plain->totals().branches.reached == 1);
  CHECK(result.coverage->totals().branches.reached == 3);
  for (const auto plug : {0, 1}) {
    const auto item = fmt::format("#0 Element_F32Selector plug {} -> #{}", plug, plug + 1);
    const auto* f = found(result, "range.root.ainb " + item);
    REQUIRE(f != nullptr);
    CHECK(f->run < 50);
    CHECK(f->scenario["blackboard"].size() == 1);
    CHECK(f->scenario["blackboard"][0]["name"] == "Distance");
    CHECK(replay_reaches(file, f->scenario, item));
  }
  // The value it found for Approach lies in the range and past Strike's.
  const auto* approach = found(result, "range.root.ainb #0 Element_F32Selector plug 1 -> #2");
  const auto distance = approach->scenario["blackboard"][0]["value"].get<double>();
  CHECK(distance > 5.0);
  CHECK(distance <= 20.0);
}

TEST_CASE("explore: a string selector's conditions, from a stub's output") {
  const auto file = hand_made("mood");
  const auto result = explored(file, 50);
  CHECK(result.coverage->totals().branches.reached == 3);
  const auto* angry = found(result, "mood.root.ainb #0 Element_StringSelector plug 0 -> #2");
  REQUIRE(angry != nullptr);
  CHECK(angry->run < 50);
  CHECK(angry->scenario.dump() ==
        R"({"frames":1,"restart":true,"nodes":{"QueryMood":{"outputs":{"Mood":"Angry"}}}})");
  CHECK(replay_reaches(file, angry->scenario, "#0 Element_StringSelector plug 0"));
}

TEST_CASE("explore: a Bool from the blackboard combined with a query's result") {
  // Alarm (blackboard) True -> [QueryCanSeeTarget.Visible True -> Chase, False -> Search].
  const auto file = hand_made("alarm");
  const auto result = explored(file, 100);
  CHECK(result.coverage->totals().branches.reached == 4);
  const auto* chase =
      found(result, "alarm.root.ainb #1 Element_BoolSelector plug 0 \"True\" -> #3");
  REQUIRE(chase != nullptr);
  CHECK(chase->run < 100);
  CHECK(chase->scenario.dump() ==
        R"({"frames":1,"restart":true,"blackboard":[{"name":"Alarm","value":true}],)"
        R"("nodes":{"QueryCanSeeTarget":{"outputs":{"Visible":true}}}})");
  CHECK(replay_reaches(file, chase->scenario, "#1 Element_BoolSelector plug 0"));
}

TEST_CASE("explore: a branch behind an expression's comparison") {
  // Input = QueryHealth.Health < 40 (an EXB expression): a plain run's 0 takes True; 40 and up
  // take False, which the expression's constant 40 tells.
  const auto file = hand_made("health");
  const auto result = explored(file, 50);
  CHECK(result.plain->totals().branches.reached == 1);
  const auto* fight =
      found(result, "health.root.ainb #0 Element_BoolSelector plug 1 \"False\" -> #3");
  REQUIRE(fight != nullptr);
  CHECK(fight->run < 50);
  const auto health = fight->scenario["nodes"]["QueryHealth"]["outputs"]["Health"].get<int>();
  CHECK(health >= 40);
  CHECK(replay_reaches(file, fight->scenario, "#0 Element_BoolSelector plug 1"));
}

TEST_CASE("explore: a node reachable only after a transition") {
  // Alerted True -> Watch, whose transition leads to Chase once Watch finishes.
  const auto file = hand_made("watch");
  const auto result = explored(file, 50);
  CHECK(result.plain->totals().transitions.reached == 0);
  CHECK(result.coverage->totals().transitions.reached == 1);
  CHECK(result.coverage->totals().nodes.reached == 4);
  const auto* taken = found(result, "watch.root.ainb transition #1 -> #3");
  REQUIRE(taken != nullptr);
  CHECK(taken->run < 50);
  CHECK(taken->name == "watch.root-n1-to-n3.json");
  // Watch ends in frame 1; the transition is taken in frame 2.
  CHECK(taken->scenario.dump() ==
        R"({"frames":2,"restart":true,"blackboard":[{"name":"Alerted","value":true}]})");
  CHECK(replay_reaches(file, taken->scenario, "transition #1 -> #3"));
}

TEST_CASE("explore: a module's own blackboard entry, set in the module file's calls") {
  // gate.root calls Gate.module, whose BoolSelector reads its own entry Open (not inherited,
  // no argument from the caller): a scenario sets it with "file".
  std::ifstream in(ainb::test::source_dir() / "tests/data/explore/Gate.module.json");
  REQUIRE(in);
  test::write_scratch("Gate.module.ainb",
                      writer::from_text(nlohmann::ordered_json::parse(in), "Gate.module"));
  const auto file = hand_made("gate");
  const auto result = explored(file, 50);
  CHECK(result.plain->totals().branches.reached == 1);
  const auto* pass =
      found(result, "Gate.module.ainb #0 Element_BoolSelector plug 0 \"True\" -> #1");
  REQUIRE(pass != nullptr);
  CHECK(pass->run < 50);
  CHECK(pass->scenario.dump() ==
        R"({"frames":1,"restart":true,"blackboard":[{"file":"Gate.module.ainb","name":"Open",)"
        R"("value":true}]})");
  CHECK(replay_reaches(file, pass->scenario, "#0 Element_BoolSelector plug 0"));
  // A file the actor does not call is an error naming it.
  auto wrong = pass->scenario;
  wrong["blackboard"][0]["file"] = "Other.module.ainb";
  try {
    simulate(file, parse_scenario(nlohmann::json::parse(wrong.dump()), "s.json"), {}, nullptr);
    FAIL("the scenario ran");
  } catch (const ScenarioError& e) {
    CHECK(std::string(e.what()) ==
          "s.json: /blackboard/0/file: the actor calls no module file \"Other.module.ainb\"");
  }
}

TEST_CASE("explore: why a branch is never reached, when the file says") {
  const auto file = hand_made("reasons");
  const auto result = explored(file, 100);
  const auto json = result.coverage->to_json();
  const auto& branches = json["files"][0]["branches"]["unreached"];
  REQUIRE(branches.size() == 2);
  CHECK(branches[0]["why"] == "plug 0 has the same condition (1) and is tried first");
  CHECK(branches[1]["why"] == "its input is the constant false");
  const auto& nodes = json["files"][0]["nodes"]["unreached"];
  REQUIRE(nodes.size() == 2);
  CHECK(nodes[0]["why"] ==
        "only reasons.root.ainb #0 Element_S32Selector plug 1 -> #3 leads to it: plug 0 has the "
        "same condition (1) and is tried first");
}

TEST_CASE("explore: the same seed gives the same results at --jobs 1 and on two threads") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;  // no corpus outside CI (corpus_dir said so; in CI it fails)
  const auto toby = corpus / "ainb/Toby.utility.root.ainb";
  ExploreOptions options;
  options.run.stub_missing_modules = true;
  options.seed = 7;
  options.runs = 300;
  const auto one = explore(toby, options);
  options.jobs = 2;
  const auto two = explore(toby, options);
  REQUIRE(one.found.size() == two.found.size());
  for (std::size_t i = 0; i < one.found.size(); ++i) {
    CHECK(one.found[i].name == two.found[i].name);
    CHECK(one.found[i].run == two.found[i].run);
    CHECK(one.found[i].scenario == two.found[i].scenario);
  }
  CHECK(one.coverage->to_json() == two.coverage->to_json());
  CHECK(one.shrink_runs == two.shrink_runs);
  // Another seed explores otherwise.
  options.seed = 8;
  const auto other = explore(toby, options);
  bool differs = other.found.size() != one.found.size();
  for (std::size_t i = 0; !differs && i < one.found.size(); ++i)
    differs = other.found[i].run != one.found[i].run || other.found[i].name != one.found[i].name;
  CHECK(differs);
}

namespace {

// Every real file in four parts, so that `ctest -j` runs them side by side: the longest test of
// the sanitizer build otherwise. Sanitizer builds run a quarter of the scenarios a file (their
// task is memory errors on each file's paths; the release build keeps the full count).
void explore_every_real_file(std::size_t part) {
  constexpr std::size_t kParts = 4;
  // With generic classes and the node definitions' output defaults, which explore's classes
  // write as the stubs they stand for would.
  const auto definitions = test::corpus_dir() / "nodedefs/NodeDefinition.json";
  // Read once, not once a file (2.9 MB of JSON: most of this test's time under the sanitizers).
  const auto catalogue = std::make_shared<const formats::NodeCatalogue>(
      formats::NodeCatalogue::from_json_file(definitions));
  const auto files = test::all_real_ainb_files();
  REQUIRE(files.size() > kParts);
  for (std::size_t i = part; i < files.size(); i += kParts) {
    const auto& path = files[i];
    CAPTURE(path);
    ExploreOptions options;
    options.run.stub_missing_modules = true;
    options.run.generic_nodes = true;
    options.run.definitions = {definitions};
    options.run.catalogue = catalogue;
    options.runs = test::kSanitized ? 16 : 64;
    options.shrink = false;  // each scenario replayed as found (the tests above shrink)
    const auto result = explore(path, options);
    CHECK_MESSAGE(result.replay_failures.empty(),
                  fmt::format("{}", fmt::join(result.replay_failures, "; ")));
    CHECK(result.coverage->unexpected().empty());
    const auto plain = result.plain->totals(), all = result.coverage->totals();
    CHECK(all.branches.reached >= plain.branches.reached);
    CHECK(all.nodes.reached >= plain.nodes.reached);
    CHECK(all.branches.reached <= all.branches.reachable);
  }
}

}  // namespace

TEST_CASE(
    "explore on every real file (part 1 of 4): every scenario found replays, nothing unexpected") {
  explore_every_real_file(0);
}
TEST_CASE(
    "explore on every real file (part 2 of 4): every scenario found replays, nothing unexpected") {
  explore_every_real_file(1);
}
TEST_CASE(
    "explore on every real file (part 3 of 4): every scenario found replays, nothing unexpected") {
  explore_every_real_file(2);
}
TEST_CASE(
    "explore on every real file (part 4 of 4): every scenario found replays, nothing unexpected") {
  explore_every_real_file(3);
}

TEST_CASE("ainb explore: the report, the scenario files and coverage.json") {
  const auto file = hand_made("range");
  const auto dir = test::fresh_dir("explore-out");
  const auto run =
      ainb_cli({"explore", file.string(), "--runs", "50", "-o", dir.string(), "--seed", "3"});
  CHECK(run.code == 0);
  CHECK(run.err == "");
  CHECK(run.out.starts_with("explore: range.root.ainb, 50 runs of 120 frames (seed 3), "));
  CHECK(run.out.find("  reached          plain runs        explore\n"
                     "  nodes                2 of 4         4 of 4\n"
                     "  branches             1 of 3         3 of 3\n") != std::string::npos);
  CHECK(run.out.find("  range.root-n0-plug0.json: range.root.ainb #0 Element_F32Selector plug 0 "
                     "-> #1\n") != std::string::npos);
  CHECK(std::filesystem::exists(dir / "range.root-n0-plug0.json"));
  CHECK(std::filesystem::exists(dir / "range.root-n0-plug1.json"));
  const auto coverage = nlohmann::json::parse(test::read_text(dir / "coverage.json"));
  CHECK(coverage["schema"] == "ainb-coverage/1");
  CHECK(coverage["totals"]["branches"]["reached"] == 3);
  // The file written is a scenario `ainb run` takes.
  const auto replay =
      ainb_cli({"run", file.string(), "--scenario", (dir / "range.root-n0-plug1.json").string(),
                "--coverage", (dir / "replayed.json").string()});
  CHECK(replay.code == 0);
  CHECK(replay.out.find("#0 Element_F32Selector plug 1") == std::string::npos);

  const auto usage = ainb_cli({"explore", file.string(), "--jobs", "0"});
  CHECK(usage.code == 2);
  const auto missing = ainb_cli({"explore", "/nonexistent.ainb"});
  CHECK(missing.code == 1);
  CHECK(missing.err.starts_with("error: "));
}

TEST_CASE("regress --explore: a threshold edit no plain run sees is found, shrunk and written") {
  // seven.root with its condition 7 edited to 8: the plain run takes the default plug in both.
  const auto original = hand_made("seven");
  std::ifstream in(ainb::test::source_dir() / "tests/data/explore/seven.root.json");
  auto text = nlohmann::ordered_json::parse(in);
  text["nodes"][0]["plugs"]["child"][0]["condition"] = 8;
  const auto edited = test::write_scratch("seven8.root.ainb", writer::from_text(text, "seven8"));
  const auto plain = ainb_cli({"regress", original.string(), edited.string(), "--generic-nodes"});
  CHECK(plain.code == 0);
  CHECK(plain.out.find("no run entered this node") == std::string::npos);
  CHECK(plain.out.starts_with("equal: "));

  const auto dir = test::fresh_dir("regress-explore");
  const auto found = ainb_cli({"regress", original.string(), edited.string(), "--generic-nodes",
                               "--explore", "100", "-o", dir.string()});
  CHECK(found.code == 1);
  CHECK(found.out.find("run 0 makes them differ; shrunk in ") != std::string::npos);
  CHECK(found.out.find(R"({"frames":1,"restart":true,"nodes":{"QueryEnemyCount":{"outputs":)"
                       R"({"Count":7}}}})") != std::string::npos);
  CHECK(found.out.find("  > original: frame 0 enter #4 CallForHelp [seven.root.ainb]\n"
                       "  > edited:   frame 0 enter #5 Wait [seven.root.ainb]\n") !=
        std::string::npos);
  const auto scenario = dir / "seven8.root-difference.json";
  REQUIRE(std::filesystem::exists(scenario));
  // Plain regress with the written scenario shows the same difference.
  const auto replay = ainb_cli({"regress", original.string(), edited.string(), "--generic-nodes",
                                "--scenario", scenario.string()});
  CHECK(replay.code == 1);
  CHECK(replay.out.find("  > original: frame 0 enter #4 CallForHelp [seven.root.ainb]\n"
                        "  > edited:   frame 0 enter #5 Wait [seven.root.ainb]\n") !=
        std::string::npos);

  // `ainb explore ORIGINAL --against EDITED` is the same.
  const auto same = ainb_cli({"explore", original.string(), "--against", edited.string(),
                              "--generic-nodes", "--runs", "100"});
  CHECK(same.code == 1);
  CHECK(same.out.find("run 0 makes them differ") != std::string::npos);
}

TEST_CASE("regress --explore: no difference, with what the runs reached on both files") {
  const auto file = hand_made("alarm");
  const auto copy = test::write_scratch("alarm-copy.root.ainb", test::read_file(file));
  const auto run = ainb_cli({"regress", file.string(), copy.string(), "--explore", "64"});
  CHECK(run.code == 0);
  CHECK(run.out.find("no difference in 64 runs; what they reached:\n"
                     "  reached            original         edited\n"
                     "  nodes                6 of 6         6 of 6\n"
                     "  branches             4 of 4         4 of 4\n") != std::string::npos);
  const auto both = ainb_cli(
      {"regress", file.string(), copy.string(), "--explore", "10", "--scenario", "x.json"});
  CHECK(both.code == 2);
  CHECK(both.err == "error: --explore generates the scenarios; --scenario is for plain regress\n");
}

TEST_CASE("regress --explore on a real file: an edit deep in Toby's tree, and none on a copy") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto toby = corpus / "ainb/Toby.utility.root.ainb";
  // #89's first plug compares the action verb with 74; the edit makes it 75. No plain run reaches
  // #89.
  auto text = writer::to_text(*load_file(toby));
  text["nodes"][89]["plugs"]["child"][0]["condition"] = 75;
  const auto edited =
      test::write_scratch("Toby.utility.root.ainb", writer::from_text(text, "Toby edited"));
  ExploreOptions options;
  options.run.stub_missing_modules = true;
  options.runs = 1000;
  options.against = edited;
  const auto result = explore(toby, options);
  REQUIRE(result.difference);
  CHECK(result.difference->regress.difference);
  CHECK(result.difference
            ->scenario["nodes"]["QueryBSAGetActionVerbStatus"]["outputs"]["ActionVerb"] == 74);
  options.jobs = 2;  // the same run finds it, shrunk the same
  const auto two = explore(toby, options);
  REQUIRE(two.difference);
  CHECK(two.difference->run == result.difference->run);
  CHECK(two.difference->scenario == result.difference->scenario);
  options.jobs = 1;
  options.against = toby;
  const auto none = explore(toby, options);
  CHECK_FALSE(none.difference);
  CHECK(none.unconfirmed == 0);
  CHECK(none.runs == 1000);
  CHECK(none.edited_coverage->totals().branches.reached ==
        none.coverage->totals().branches.reached);
}
