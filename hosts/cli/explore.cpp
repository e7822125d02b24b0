// `ainb explore`: coverage-guided scenarios for a file (docs/simulation.md, "Explore").

#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "ainb/load_error.hpp"
#include "ainb/report/page.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/simulation/regress.hpp"
#include "commands.hpp"
#include "registration.hpp"
#include "terminal.hpp"
#include "warnings.hpp"

namespace ainb::cli {

namespace {

std::string counts(const simulation::Coverage::Counts& c) {
  return fmt::format("{} of {}", c.reached, c.reachable);
}

void print_counts(const char* kind, const simulation::Coverage::Counts& a,
                  const simulation::Coverage::Counts& b, std::ostream& out) {
  out << fmt::format("  {:<12} {:>14} {:>14}\n", kind, counts(a), counts(b));
}

// The first difference, its scenario written; or, when none was found, what the runs reached
// on both files, which is what "no difference" stands on.
int report_difference(const ExploreRequest& request, const simulation::ExploreOptions& options,
                      const simulation::ExploreResult& result, std::ostream& out,
                      std::ostream& err) {
  out << fmt::format("explore: {} against {}, {} runs of {} frames (seed {})\n", request.run.file,
                     request.against, result.runs, options.run.frames, options.seed);
  if (result.difference) {
    const auto& d = *result.difference;
    out << fmt::format("run {} makes them differ; shrunk in {} more runs, the scenario:\n", d.run,
                       d.shrink_runs);
    out << d.scenario.dump() << '\n';
    simulation::print_regress(d.regress, out);
    if (!request.run.html.empty() &&
        !write_page(request.run.html,
                    difference_page(request.run.file, request.against, d, options.run,
                                    {.title = {}, .dot = request.run.dot}),
                    err))
      return kExitRegressError;
    if (!request.output.empty()) {
      auto stem = std::filesystem::path(request.against).filename().string();
      if (stem.ends_with(".ainb")) stem.resize(stem.size() - 5);
      const auto path = std::filesystem::path(request.output) / (stem + "-difference.json");
      std::ofstream file(path, std::ios::binary);
      file << d.scenario.dump(2) << '\n';
      if (!file.flush()) {
        err << "error: cannot write " << path.string() << '\n';
        return kExitRegressError;
      }
      out << fmt::format(
          "written to {}: `ainb regress {} {} --scenario {}` with the same options shows it\n",
          path.string(), request.run.file, request.against, path.string());
    }
    return kExitDifferent;
  }
  out << fmt::format("no difference in {} runs", result.runs);
  if (result.not_fitting != 0) {
    out << fmt::format(" ({} not run on the edited file: they name what it lacks)",
                       result.not_fitting);
  }
  out << "; what they reached:\n";
  if (!request.run.html.empty() &&
      !write_page(request.run.html,
                  report::coverage_page(result, {.title = {}, .dot = request.run.dot}), err))
    return kExitRegressError;
  const auto a = result.coverage->totals(), b = result.edited_coverage->totals();
  out << fmt::format("  {:<12} {:>14} {:>14}\n", "reached", "original", "edited");
  print_counts("nodes", a.nodes, b.nodes, out);
  print_counts("branches", a.branches, b.branches, out);
  print_counts("transitions", a.transitions, b.transitions, out);
  print_counts("commands", a.commands, b.commands, out);
  return kExitOk;
}

}  // namespace

report::Page difference_page(const std::filesystem::path& original,
                             const std::filesystem::path& edited,
                             const simulation::ExploreResult::Difference& difference,
                             const simulation::RunOptions& options,
                             const report::PageOptions& page) {
  // The page shows the shrunk scenario's runs, regress's of it again.
  simulation::RegressRuns runs;
  const auto shown = simulation::regress(
      original, edited,
      {simulation::parse_scenario(difference.scenario, "the difference explore found")}, options,
      &runs);
  return report::regress_page(shown, runs, page);
}

int run_explore(const ExploreRequest& request, std::ostream& out, std::ostream& err) {
  WarningReport warnings(request.run.verbose);
  simulation::ExploreOptions options;
  options.run = request.run.options;
  options.run.log = warnings.sink();
  options.runs = request.runs;
  options.seed = request.run.options.seed;
  options.jobs = request.jobs;
  options.shrink = request.shrink;
  options.against = request.against;
  options.progress = progress_bar(err);
  const bool against = !request.against.empty();
  if (!request.run.html.empty() && !can_write_page(request.run.html, err))
    return against ? kExitRegressError : kExitLoadError;
  if (!request.output.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(request.output, ec);
    if (ec) {
      err << "error: cannot create " << request.output << ": " << ec.message() << '\n';
      return against ? kExitRegressError : kExitLoadError;
    }
  }
  if (against) {
    try {
      return report_difference(request, options, simulation::explore(request.run.file, options),
                               out, err);
    } catch (const std::exception& e) {  // a file, module or option that does not load or fit
      err << "error: " << e.what() << '\n';
      return kExitRegressError;
    }
  }
  try {
    const auto result = simulation::explore(request.run.file, options);
    const auto plain = result.plain->totals();
    const auto all = result.coverage->totals();
    out << fmt::format("explore: {}, {} runs of {} frames (seed {}), {} more to shrink\n",
                       result.graph->file_name(), result.runs, options.run.frames, options.seed,
                       result.shrink_runs);
    out << fmt::format("  {:<12} {:>14} {:>14}\n", "reached", "plain runs", "explore");
    print_counts("nodes", plain.nodes, all.nodes, out);
    print_counts("branches", plain.branches, all.branches, out);
    print_counts("transitions", plain.transitions, all.transitions, out);
    print_counts("commands", plain.commands, all.commands, out);
    if (!result.found.empty()) out << "scenarios that reach what plain runs do not:\n";
    for (const auto& found : result.found) {
      out << fmt::format("  {}: {}\n", found.name, found.reaches);
      if (request.output.empty()) continue;
      const auto path = std::filesystem::path(request.output) / found.name;
      std::ofstream file(path, std::ios::binary);
      file << found.scenario.dump(2) << '\n';
      if (!file.flush()) {
        err << "error: cannot write " << path.string() << '\n';
        return kExitLoadError;
      }
    }
    result.coverage->print(out);
    if (!request.output.empty()) {
      const auto path = std::filesystem::path(request.output) / "coverage.json";
      std::ofstream file(path, std::ios::binary);
      file << result.coverage->to_json().dump(2) << '\n';
      if (!file.flush()) {
        err << "error: cannot write " << path.string() << '\n';
        return kExitLoadError;
      }
    }
    if (!request.run.html.empty() &&
        !write_page(request.run.html,
                    report::coverage_page(result, {.title = {}, .dot = request.run.dot}), err))
      return kExitLoadError;
    for (const auto& failure : result.replay_failures)
      err << "error: " << failure << '\n';
    return result.replay_failures.empty() ? kExitOk : kExitLoadError;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  } catch (const std::invalid_argument& e) {
    err << "error: " << e.what() << '\n';
    return kExitUsage;
  }
}

Command add_explore_command(CLI::App& app) {
  auto request = std::make_shared<ExploreRequest>();
  request->run.options.frames = simulation::kExploreFrames;
  auto* explore = app.add_subcommand(
      "explore",
      "Generate scenarios guided by coverage: report what they reach against plain runs, and "
      "write a minimal scenario for each branch plain runs miss (exit 0 done, 1 error, 2 usage)");
  explore->add_option("FILE", request->run.file, "AINB file")->required();
  // Explore chooses the commands, and its scenarios restart: no --command or --restart.
  add_run_options(*explore, request->run.options, simulation::kTakenByExplore);
  describe(*explore, "--frames", "Frames each scenario runs");
  describe(*explore, "--seed", "The exploration's seed: the same seed gives the same scenarios");
  add_verbose(*explore, request->run);
  add_page_options(*explore, request->run);
  explore->add_option("--runs", request->runs, "Scenarios to generate and run")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}))
      ->capture_default_str();
  explore->add_option("--jobs,-j", request->jobs, "Threads (the results do not change)")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  explore->add_option("--output,-o", request->output,
                      "A folder: one scenario file per branch found, and coverage.json");
  explore->add_flag("!--no-shrink", request->shrink, "Write the scenarios as found, not shrunk");
  explore->add_option("--against", request->against,
                      "An edited version of FILE: run the scenarios on both and stop at the first "
                      "difference, as `ainb regress ORIGINAL EDITED --explore N` (exit 0 none "
                      "found, 1 a difference, 2 error)");
  return {explore, [request](std::ostream& out, std::ostream& err) {
            return run_explore(*request, out, err);
          }};
}

}  // namespace ainb::cli
