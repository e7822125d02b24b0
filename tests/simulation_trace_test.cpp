// The traces of `ainb run`: the text and Chrome formats and the summary, nodes nested under the
// node that entered them, where a trace may be written, and `ainb graph` coloured by a trace.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "runtime_probe.hpp"
#include "scratch.hpp"
#include "simulation_samples.hpp"

using namespace ainb;

using ainb::test::ainb_cli;
using ainb::test::kPatrol;
using ainb::test::kScenario;
using ainb::test::write_spec;

namespace {

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

}  // namespace

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
