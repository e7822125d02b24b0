// The page of a run (report/): the timeline it keeps, the ids its graphs carry, the page's text
// (what a browser cannot be fooled by) and `ainb run --html` / `ainb report` errors. What the page
// shows in a browser is tested in tests/browser.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/loader.hpp"
#include "ainb/report/dot.hpp"
#include "ainb/report/page.hpp"
#include "ainb/report/timeline.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"
#include "simulation_samples.hpp"

using namespace ainb;
using ainb::test::ainb_cli;
using ainb::test::kPatrol;
using ainb::test::kScenario;

namespace {

simulation::TraceEvent event(std::uint64_t frame, const char* kind, std::int64_t node,
                             std::string result = {}, std::string detail = {}) {
  simulation::TraceEvent e;
  e.frame = frame;
  e.event = kind;
  e.file = "a.root.ainb";
  e.node = node;
  e.result = std::move(result);
  e.detail = std::move(detail);
  return e;
}

// The JSON the page's script reads, from its <script type="application/json">.
nlohmann::json page_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"data\">";
  const auto start = html.find(open) + open.size();
  return nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
}

}  // namespace

TEST_CASE("a timeline keeps spans, run-length results and blackboard changes") {
  report::Timeline t;
  auto command = event(0, "command", -1, "", "Root");
  t.event(command);
  t.event(event(0, "enter", 1));
  t.event(event(0, "enter", 2));
  for (std::uint64_t f = 1; f <= 3; ++f)
    t.event(event(f, "update", 2, "Running"));
  t.event(event(4, "update", 2, "Success"));
  t.event(event(4, "update", 2, "Success"));  // twice in a frame (two calls): one frame
  t.event(event(4, "leave", 2));
  t.event(event(5, "enter", 2));
  t.event(event(5, "update", 2, "Failure"));
  t.event(event(5, "leave", 2));
  t.event(event(2, "blackboard", -1, "", "Alarm=true"));
  t.event(event(3, "blackboard", -1, "", "Alarm=true"));  // written, not changed
  t.event(event(6, "blackboard", -1, "", "Name=\"a=b\""));
  t.event(event(6, "leave", 9));  // a leave without its enter is ignored

  const auto json = t.to_json(8);
  CHECK(json["frames"] == 8);
  CHECK(json["commands"] == nlohmann::json::parse(R"([[0, "Root"]])"));
  CHECK(json["activity"] == nlohmann::json::parse("[0, 1, 1, 1, 2, 1]"));
  const auto& nodes = json["files"]["a.root.ainb"]["nodes"];
  CHECK(nodes["1"]["spans"] == nlohmann::json::parse("[0, -1]"));
  CHECK(nodes["2"]["spans"] == nlohmann::json::parse("[0, 4, 5, 5]"));
  CHECK(nodes["2"]["updates"] ==
        nlohmann::json::parse(R"([[1, 3, "R"], [4, 1, "S"], [5, 1, "F"]])"));
  CHECK(json["files"]["a.root.ainb"]["blackboard"] ==
        nlohmann::json::parse(R"({"Alarm": [[2, "true"]], "Name": [[6, "\"a=b\""]]})"));
  // Output values where they change; a frame's last value.
  using Values = std::vector<std::pair<std::string_view, std::string>>;
  t.outputs(event(1, "update", 2, "Running"), Values{{"Left", "3.5"}, {"Name", "\"a\""}});
  t.outputs(event(2, "update", 2, "Running"), Values{{"Left", "3.5"}, {"Name", "\"a\""}});
  t.outputs(event(3, "update", 2, "Running"), Values{{"Left", "1"}, {"Name", "\"a\""}});
  t.outputs(event(3, "update", 2, "Running"), Values{{"Left", "0"}, {"Name", "\"a\""}});
  CHECK(t.to_json()["files"]["a.root.ainb"]["nodes"]["2"]["outputs"] ==
        nlohmann::json::parse(R"({"Left": [[1, "3.5"], [3, "0"]], "Name": [[1, "\"a\""]]})"));
  CHECK(t.last_frame() == 6);
  CHECK(t.events() == 16);
  CHECK(t.files() == std::vector<std::string>{"a.root.ainb"});
}

TEST_CASE("a page's graph names its nodes, commands and plugs so the script finds them") {
  const auto file = load_file(kPatrol);
  const auto& model = *file;
  const auto plain = report::graph_dot(model);
  CHECK(plain.find("id=") == std::string::npos);
  const auto dot = report::graph_dot(model, {.results = {}, .ids = "f0"});
  CHECK(dot.find("  id=\"f0\";\n") != std::string::npos);
  CHECK(dot.find("  node4 [label=\"#4 MoveTo\", shape=box, fillcolor=\"#ffffff\", color=gray60, "
                 "id=\"f0n4\"];\n") != std::string::npos);
  CHECK(
      dot.find("  command1 [label=\"Alert\", shape=cds, fillcolor=\"#d6e4ff\", id=\"f0c1\"];\n") !=
      std::string::npos);
  CHECK(dot.find("  node1 -> node2 [label=\"True\", id=\"f0b1_0\"];\n") != std::string::npos);
  CHECK(report::node_label(model, 4) == "#4 MoveTo");
  CHECK(report::node_label(model, 0) == "#0 Element_Sequential");
}

TEST_CASE("a run's page holds its data safely, and without Graphviz lays its graphs out itself") {
  simulation::Summary summary =
      simulation::simulate(kPatrol, simulation::load_scenario(kScenario), {}, nullptr);
  report::Timeline timeline;
  // A name that would end the script if the data were pasted in as it is.
  timeline.event(event(1, "alert", 3, "", "</script><script>alert(1)</script>"));
  const auto missing =
      report::run_page(summary, timeline, {.title = "<b>patrol</b>", .dot = "/no/such/dot"});
  CHECK(missing.missing_graphs ==
        "Graphviz's dot program was not found, so the graphs are laid out by the report's own "
        "layout, plainer than dot's. For dot's, install Graphviz (Debian: apt-get install "
        "graphviz, or the project's scripts/install-deps.sh) and write the page again.");
  CHECK(missing.html.find("<title>&lt;b&gt;patrol&lt;/b&gt;</title>") != std::string::npos);
  CHECK(missing.html.find("<div class=\"layout\" data-file=\"0\" hidden>\n<svg "
                          "xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(missing.html.find("<g id=\"f0n4\" class=\"node\">") != std::string::npos);
  // Exactly the page's own two scripts end: the data's "<" are escapes.
  std::size_t ends = 0;
  for (auto at = missing.html.find("</script>"); at != std::string::npos;
       at = missing.html.find("</script>", at + 1))
    ++ends;
  CHECK(ends == 2);
  const auto data = page_data(missing.html);
  CHECK(data["kind"] == "run");
  CHECK(data["graphviz"] == missing.missing_graphs);
  REQUIRE(data["sides"].size() == 1);
  const auto& side = data["sides"][0];
  CHECK(side["prefix"] == "f");
  CHECK(side["files"][0]["name"] == "patrol.root.ainb");
  CHECK(side["files"][0]["ids"] == "f0");
  CHECK(side["files"][0]["nodes"][4]["label"] == "#4 MoveTo");
  CHECK(side["files"][0]["nodes"][4]["guid"].is_string());
  CHECK(side["timeline"]["files"]["a.root.ainb"]["alerts"][0][2] ==
        "</script><script>alert(1)</script>");
  CHECK(side["summary"]["state"] == summary.state);

  const auto dot = report::find_dot();
  if (dot.empty()) return;  // the browser tests, which CI runs, need it installed
  const auto drawn = report::run_page(summary, timeline, {.title = {}, .dot = dot});
  CHECK(drawn.missing_graphs.empty());
  CHECK(drawn.html.find("<div class=\"layout\" data-file=\"0\" hidden>\n<svg") !=
        std::string::npos);
  CHECK(drawn.html.find("<g id=\"f0n4\" class=\"node\">") != std::string::npos);
  CHECK(drawn.html.find("<?xml") == std::string::npos);
}

TEST_CASE("ainb run --html and ainb report: where a page goes, and traces that do not fit") {
  namespace fs = std::filesystem;
  const auto folder = ainb::test::scratch_dir() / "pages";
  fs::create_directories(folder);
  const auto run = ainb_cli({"run", kPatrol.string(), "--html", folder.string()});
  CHECK(run.code == 1);
  CHECK(run.err == "error: --html " + folder.string() + " is a folder\n");
  const auto nowhere = (folder / "no" / "p.html").string();
  CHECK(ainb_cli({"run", kPatrol.string(), "--html", nowhere}).err ==
        "error: cannot write " + nowhere + ": no folder " + (folder / "no").string() +
            " that can be written\n");

  const auto trace = folder / "patrol.jsonl";
  REQUIRE(ainb_cli({"run", kPatrol.string(), "--scenario", kScenario.string(), "--trace",
                    trace.string()})
              .code == 0);
  const auto page = folder / "patrol.html";
  const auto made = ainb_cli({"report", trace.string(), "--file", kPatrol.string(), "-o",
                              page.string(), "--dot", "/no/such/dot"});
  CHECK(made.code == 0);
  CHECK(made.out.starts_with("wrote " + page.string() + ": 10 frames, "));
  CHECK(made.err.starts_with("warning: " + page.string() +
                             ": Graphviz's dot program was not found, so the graphs are laid out "
                             "by the report's own layout"));
  CHECK(page_data(ainb::test::read_text(page))["sides"][0]["timeline"]["frames"] == 10);

  const auto bad = ainb::test::write_scratch("pages/bad.jsonl", "{\"frame\":1}\nnot json\n");
  CHECK(ainb_cli({"report", bad.string(), "--file", kPatrol.string(), "-o", page.string()}).err ==
        "error: " + bad.string() +
            ": line 1: not a JSON trace event (write the trace with ainb run --trace FILE "
            "--format jsonl)\n");
  const auto other = ainb::test::write_scratch(
      "pages/other.jsonl", R"({"frame":0,"event":"command","file":"x.root.ainb","detail":"Root"})"
                           "\n");
  CHECK(ainb_cli({"report", other.string(), "--file", kPatrol.string(), "-o", page.string()}).err ==
        "error: " + other.string() +
            " is not a trace of patrol.root.ainb: its events are of x.root.ainb\n");
}
