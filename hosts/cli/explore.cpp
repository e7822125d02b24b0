// `ainb explore`: coverage-guided scenarios for a file (docs/simulation.md, "Explore").

#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "ainb/load_error.hpp"
#include "ainb/simulation/explore.hpp"
#include "commands.hpp"
#include "warnings.hpp"

namespace ainb::cli {

namespace {

std::string counts(const simulation::Coverage::Counts& c) {
  return fmt::format("{} of {}", c.reached, c.reachable);
}

}  // namespace

int run_explore(const ExploreRequest& request, std::ostream& out, std::ostream& err) {
  WarningReport warnings(request.run.verbose);
  simulation::ExploreOptions options;
  options.run = run_options(request.run);
  options.run.log = warnings.sink();
  options.runs = request.runs;
  options.seed = request.run.seed;
  options.jobs = request.jobs;
  options.shrink = request.shrink;
  if (!request.output.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(request.output, ec);
    if (ec) {
      err << "error: cannot create " << request.output << ": " << ec.message() << '\n';
      return kExitLoadError;
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
    out << fmt::format("  {:<12} {:>14} {:>14}\n", "nodes", counts(plain.nodes), counts(all.nodes));
    out << fmt::format("  {:<12} {:>14} {:>14}\n", "branches", counts(plain.branches),
                       counts(all.branches));
    out << fmt::format("  {:<12} {:>14} {:>14}\n", "transitions", counts(plain.transitions),
                       counts(all.transitions));
    out << fmt::format("  {:<12} {:>14} {:>14}\n", "commands", counts(plain.commands),
                       counts(all.commands));
    if (!result.found.empty()) out << "scenarios that reach what plain runs do not:\n";
    for (const auto& found : result.found) {
      if (result.plain->reached(found.item)) continue;
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

}  // namespace ainb::cli
