// `ainb run`: simulates a file offline under a scenario, with a trace and a summary.

#include <fstream>
#include <ostream>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "ainb/load_error.hpp"
#include "ainb/simulation/simulation.hpp"
#include "commands.hpp"

namespace ainb::cli {

int run_simulation(const RunRequest& request, std::ostream& out, std::ostream& err) {
  // Warnings (a module run as a stub, a missing user function) go to stderr, so a trace on
  // standard output stays clean.
  if (!spdlog::get("ainb")) spdlog::set_default_logger(spdlog::stderr_color_st("ainb"));
  simulation::TraceFormat format = simulation::TraceFormat::Jsonl;
  if (request.format == "text") format = simulation::TraceFormat::Text;
  if (request.format == "chrome") format = simulation::TraceFormat::Chrome;

  std::ofstream file_out;
  std::unique_ptr<simulation::TraceSink> trace;
  if (request.trace == "-") {
    trace = simulation::make_trace_writer(format, out);
  } else if (!request.trace.empty()) {
    file_out.open(request.trace, std::ios::binary);
    if (!file_out) {
      err << "error: cannot write " << request.trace << '\n';
      return kExitLoadError;
    }
    trace = simulation::make_trace_writer(format, file_out);
  }
  // With a machine-readable trace on standard output, the summary goes to standard error.
  auto& summary_out = request.trace == "-" && format != simulation::TraceFormat::Text ? err : out;
  try {
    simulation::Scenario scenario;
    if (!request.scenario.empty()) scenario = simulation::load_scenario(request.scenario);
    simulation::RunOptions options;
    options.command = request.command;
    options.frames = request.frames;
    options.seed = request.seed;
    options.stub_missing_modules = request.stub_missing_modules;
    for (const auto& dir : request.module_dirs)
      options.module_dirs.emplace_back(dir);
    const auto summary = simulation::simulate(request.file, scenario, options, trace.get());
    if (request.trace == "-" && format == simulation::TraceFormat::Text) out << '\n';
    simulation::print_summary(summary, summary_out);
    return kExitOk;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
    if (!request.stub_missing_modules && e.reason().find("was not found") != std::string::npos) {
      err << "hint: --modules DIR adds a folder to search; --stub-missing-modules runs missing "
             "modules as stub nodes\n";
    }
    return kExitLoadError;
  } catch (const simulation::ScenarioError& e) {
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  } catch (const std::invalid_argument& e) {  // --command names no command of the file
    err << "error: " << e.what() << '\n';
    return kExitUsage;
  }
}

}  // namespace ainb::cli
