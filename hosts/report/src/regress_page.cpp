// The page of a regression: two sides, the pairing of their nodes, the first difference and the
// edits.

#include <filesystem>
#include <stdexcept>
#include <utility>

#include "ainb/report/page.hpp"
#include "page_parts.hpp"

namespace ainb::report {

namespace {

// A side of a run `regress` kept: its events read into a timeline.
detail::Side kept_side(const simulation::Summary& summary,
                       const std::vector<simulation::TraceEvent>& events, const std::string& dot,
                       std::string_view prefix, const std::string& label) {
  Timeline timeline;
  for (const auto& e : events)
    timeline.event(e);
  return detail::run_side(summary, timeline, dot, prefix, label + ": " + summary.file);
}

nlohmann::json event_json(const std::optional<simulation::TraceEvent>& e) {
  return e ? nlohmann::json(simulation::trace_event_json(*e)) : nlohmann::json();
}

}  // namespace

Page regress_page(const simulation::RegressResult& result, const simulation::RegressRuns& runs,
                  const PageOptions& options) {
  if (!runs.original.graph) throw std::invalid_argument("regress_page: no original run");
  const auto dot = detail::dot_program(options);
  // Two scenarios (a debugger's branches) name the sides by their files' names; one scenario, the
  // files' roles.
  const bool two_scenarios = runs.edited_scenario != runs.scenario;
  const auto named = [](const std::string& scenario) {
    return std::filesystem::path(scenario).filename().string();
  };
  std::vector<detail::Side> sides;
  sides.push_back(kept_side(runs.original, runs.original_events, dot, "a",
                            two_scenarios ? named(runs.scenario) : "original"));
  nlohmann::json regress{{"scenario", runs.scenario},
                         {"scenarios", result.scenarios},
                         {"events", result.events},
                         {"notes", result.notes},
                         {"pairing", nlohmann::json::object()},
                         {"edits", nlohmann::json::array()}};
  if (runs.edited.graph) {
    sides.push_back(kept_side(runs.edited, runs.edited_events, dot, "b",
                              two_scenarios ? named(runs.edited_scenario) : "edited"));
    const auto pairings = simulation::pair_files(*runs.original.graph, *runs.edited.graph);
    for (const auto& [file, pairing] : pairings) {
      regress["pairing"][file] = {{"edited_of", pairing.edited_of},
                                  {"original_of", pairing.original_of}};
    }
    for (const auto& edit :
         simulation::actor_edits(*runs.original.graph, *runs.edited.graph, pairings)) {
      regress["edits"].push_back({{"file", edit.file},
                                  {"original_node", edit.original_node},
                                  {"edited_node", edit.edited_node},
                                  {"what", edit.what}});
    }
  }
  if (result.difference) {
    const auto& d = *result.difference;
    regress["difference"] = {{"explanation", d.explanation},
                             {"index", d.index},
                             {"original", event_json(d.original)},
                             {"edited", event_json(d.edited)}};
  }
  const auto title = options.title.empty() ? runs.original.file + " against " +
                                                 (runs.edited.graph ? runs.edited.file : "its edit")
                                           : options.title;
  return detail::assemble("regress", title, dot, std::move(sides), {{"regress", regress}});
}

}  // namespace ainb::report
