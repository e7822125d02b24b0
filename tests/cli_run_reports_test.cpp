// What `ainb run` reports beyond the trace: an alert said once on stderr without a trace, and a
// command's end right after a Fork in the summary.

#include <sstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb_builder.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"

using namespace ainb;
using ainb::test::ainb_cli;

namespace {

std::string write_spec(const std::string& name, const ainb::test::AinbSpec& spec) {
  return ainb::test::write_scratch(name, ainb::test::build(spec)).string();
}

}  // namespace

TEST_CASE("ainb run: an alert is a trace event; without a trace stderr says each once") {
  ainb::test::AinbSpec spec;
  spec.file_name = "Alerting";
  spec.commands = {{"Root", 0, {}}};
  ainb::test::BuildNode alert{.type = NodeType::Alert};
  alert.properties = {{ParamType::Int, "Result", std::int32_t{1}}};  // Busy: again each frame
  alert.inputs = {{ParamType::String, "Message", -1, 0, 0, std::string("no target")}};
  spec.nodes = {alert};
  const auto file = write_spec("Alerting.ainb", spec);

  const auto plain = ainb_cli({"run", file, "--frames", "5"});
  CHECK(plain.code == 0);
  CHECK(plain.err == "alert: Alerting.ainb node 0: no target (frame 1, 5 times in all)\n");

  const auto traced = ainb_cli({"run", file, "--frames", "2", "--trace", "-"});
  CHECK(traced.code == 0);
  CHECK(traced.err.starts_with("summary: "));  // beside a JSON trace, the summary alone
  CHECK(traced.err.find("alert") == std::string::npos);
  std::size_t events = 0;
  std::istringstream lines(traced.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("{") && nlohmann::json::parse(line).at("event") == "alert") {
      CHECK(nlohmann::json::parse(line).at("detail") == "no target");
      ++events;
    }
  }
  CHECK(events == 2);
}

TEST_CASE("ainb run: a Fork whose paths finish at once ends its command in that frame") {
  // Fork -> {P1, P2}: stubs, which succeed at their first update.
  for (const bool post : {false, true}) {
    CAPTURE(post);
    ainb::test::AinbSpec spec;
    spec.file_name = "Forking";
    spec.commands = {{"Root", 0, {}}};
    ainb::test::BuildNode fork{.type = NodeType::Fork};
    fork.plugs = {{PlugKind::Transition, 1, "", 0}, {PlugKind::Transition, 2, "", 1}};
    spec.nodes = {fork, ainb::test::BuildNode{.name = "P1"}, ainb::test::BuildNode{.name = "P2"}};
    const std::uint32_t word = post ? ainb::test::kPostCalc : 1;
    spec.transitions = {{word, ""}, {word, ""}};
    const auto file = write_spec("Forking.ainb", spec);
    const auto once = ainb_cli({"run", file, "--frames", "3"});
    CHECK(once.out.starts_with(post
                                   ? "summary: Forking.ainb, command Root: succeeded in frame 1 "
                                   : "summary: Forking.ainb, command Root: succeeded in frame 2 "));
    // Restarted: a new round each frame (post calc) or every second frame, none of them idle.
    const auto text =
        ainb_cli({"run", file, "--frames", "4", "--restart", "--trace", "-", "--format", "text"});
    CHECK(text.code == 0);
    CAPTURE(text.out);
    std::size_t forks = 0;
    std::istringstream lines(text.out);
    for (std::string line; std::getline(lines, line);)
      forks += line.find(" update ") != std::string::npos &&
               line.ends_with("#0 Element_Fork -> Running");
    CHECK(forks == (post ? 4u : 2u));
    CHECK(text.out.find(post ? "succeeded in frame 4 of 4 (started again 3 times)"
                             : "succeeded in frame 4 of 4 (started again 1 time)") !=
          std::string::npos);
  }
}
