// `ainb run`: simulates a file offline under a scenario, with a trace and a summary.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <ostream>
#include <utility>

#include <unistd.h>

#include <fmt/format.h>

#include "ainb/gamedata/romfs.hpp"
#include "ainb/load_error.hpp"
#include "ainb/report/page.hpp"
#include "ainb/report/timeline.hpp"
#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/golden.hpp"
#include "ainb/simulation/regress.hpp"
#include "ainb/simulation/simulation.hpp"
#include "commands.hpp"
#include "registration.hpp"
#include "terminal.hpp"
#include "warnings.hpp"

namespace ainb::cli {

namespace {

simulation::RunOptions regress_options(const RegressRequest& request,
                                       const WarningReport& warnings) {
  auto options = request.run.options;
  options.max_held_events = request.max_held_events;
  options.log = warnings.sink();
  return options;
}

int run_golden(const RegressRequest& request, const WarningReport& warnings, std::ostream& out,
               std::ostream& err) {
  std::vector<std::filesystem::path> inputs(request.files.begin(), request.files.end());
  const bool recording = !request.record.empty();
  if (recording && inputs.empty()) {
    err << "error: --record needs the files or folders to record\n";
    return kExitRegressError;
  }
  if (!recording && !request.scenarios.empty()) {
    err << "error: --check uses the recorded scenarios; --scenario is for --record\n";
    return kExitRegressError;
  }
  try {
    const auto report =
        recording
            ? simulation::record_golden(request.record, inputs,
                                        std::vector<std::filesystem::path>(
                                            request.scenarios.begin(), request.scenarios.end()),
                                        regress_options(request, warnings), progress_bar(err))
            : simulation::check_golden(request.check, inputs, progress_bar(err), warnings.sink());
    simulation::print_golden(report, out);
    if (report.has_errors()) return kExitRegressError;
    return report.all_same() ? kExitOk : kExitDifferent;
  } catch (const std::exception& e) {  // an unreadable recording or input folder
    err << "error: " << e.what() << '\n';
    return kExitRegressError;
  }
}

}  // namespace

int run_regress(const RegressRequest& request, std::ostream& out, std::ostream& err) {
  // Each file is loaded once per side and scenario: its warnings are said once, at the end.
  WarningReport warnings(request.run.verbose);
  if (!request.record.empty() || !request.check.empty())
    return run_golden(request, warnings, out, err);  // no page: the command line refuses --html
  if (request.files.size() != 2) {
    err << "error: regress compares two files: ORIGINAL EDITED (or use --record/--check)\n";
    return kExitRegressError;
  }
  if (request.explore != 0) {
    if (!request.scenarios.empty()) {
      err << "error: --explore generates the scenarios; --scenario is for plain regress\n";
      return kExitRegressError;
    }
    ExploreRequest explore{.run = request.run,
                           .runs = request.explore,
                           .jobs = request.jobs,
                           .output = request.output,
                           .against = request.files[1]};
    explore.run.file = request.files[0];
    return run_explore(explore, out, err);
  }
  if (!request.run.html.empty() && !can_write_page(request.run.html, err)) return kExitRegressError;
  try {
    std::vector<simulation::Scenario> scenarios;
    for (const auto& path : request.scenarios)
      scenarios.push_back(simulation::load_scenario(path));
    simulation::RegressRuns runs;
    auto* kept = request.run.html.empty() ? nullptr : &runs;
    simulation::RegressResult result;
    if (request.edited_scenario.empty()) {
      result = simulation::regress(request.files[0], request.files[1], scenarios,
                                   regress_options(request, warnings), kept);
    } else {
      if (scenarios.size() > 1) {
        err << "error: --edited-scenario compares two runs: one --scenario at most\n";
        return kExitRegressError;
      }
      if (scenarios.empty()) scenarios.emplace_back().name = "(no scenario)";
      result = simulation::regress_scenarios(request.files[0], request.files[1], scenarios[0],
                                             simulation::load_scenario(request.edited_scenario),
                                             regress_options(request, warnings), kept);
    }
    simulation::print_regress(result, out);
    if (!request.run.html.empty() &&
        !write_page(request.run.html,
                    report::regress_page(result, runs, {.title = {}, .dot = request.run.dot}), err))
      return kExitRegressError;
    if (result.difference) return kExitDifferent;
    if (request.strict && !result.notes.empty()) {
      out << fmt::format("strict: {} edited value(s) the runs could not see\n",
                         result.notes.size());
      return kExitDifferent;
    }
    return kExitOk;
  } catch (const std::exception& e) {  // a file, module or scenario that does not load or fit
    err << "error: " << e.what() << '\n';
    return kExitRegressError;
  }
}

namespace {

namespace fs = std::filesystem;

// A trace written to a file: a failed write (a full disk) is an error that names the file and
// the system's reason. It reaches the run as the observer's fault, which stops it (exit 2).
class FileTrace : public simulation::TraceSink {
 public:
  FileTrace(std::string path, std::ofstream& file, std::unique_ptr<simulation::TraceSink> inner)
      : path_(std::move(path)), file_(file), inner_(std::move(inner)) {}
  void event(const simulation::TraceEvent& e) override {
    errno = 0;
    inner_->event(e);
    check();
  }
  void finish() override {
    if (failed_) return;  // the run's fault already says why
    errno = 0;
    inner_->finish();
    file_.flush();
    check();
  }
  std::uint64_t dropped() const override { return inner_->dropped(); }

 private:
  void check() {
    if (file_) return;
    failed_ = true;
    throw std::runtime_error(
        fmt::format("cannot write the trace to {}{}", path_,
                    errno != 0 ? fmt::format(": {}", std::strerror(errno)) : std::string()));
  }
  std::string path_;
  std::ofstream& file_;
  std::unique_ptr<simulation::TraceSink> inner_;
  bool failed_ = false;
};

// Events to two sinks: the trace and the page's timeline.
class BothSinks : public simulation::TraceSink {
 public:
  BothSinks(simulation::TraceSink& first, simulation::TraceSink& second)
      : first_(first), second_(second) {}
  void event(const simulation::TraceEvent& e) override {
    first_.event(e);
    second_.event(e);
  }
  void finish() override {
    first_.finish();
    second_.finish();
  }
  std::uint64_t dropped() const override { return first_.dropped(); }
  bool takes_outputs() const override { return first_.takes_outputs() || second_.takes_outputs(); }
  void outputs(const simulation::TraceEvent& update,
               const std::vector<std::pair<std::string_view, std::string>>& values) override {
    if (first_.takes_outputs()) first_.outputs(update, values);
    if (second_.takes_outputs()) second_.outputs(update, values);
  }

 private:
  simulation::TraceSink& first_;
  simulation::TraceSink& second_;
};

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

// Where a trace file is written until the run ends: beside it (a regular file, or none yet), or
// the path itself (a device, a pipe). Without keep(), the partial file is removed.
class TraceFile {
 public:
  explicit TraceFile(std::string path) : path_(std::move(path)) {
    std::error_code ec;
    const auto status = fs::status(path_, ec);
    if (!fs::exists(status) || fs::is_regular_file(status)) partial_ = path_ + ".partial";
  }
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;
  ~TraceFile() {
    std::error_code ec;
    if (!partial_.empty()) fs::remove(partial_, ec);
  }
  const std::string& writing() const { return partial_.empty() ? path_ : partial_; }
  // Closes the file and moves it to its path; false (and a message) when that fails.
  bool keep(std::ofstream& file, std::ostream& err) {
    file.close();
    if (partial_.empty()) return true;
    std::error_code ec;
    fs::rename(partial_, path_, ec);
    if (!ec) {
      partial_.clear();
      return true;
    }
    err << "error: cannot write the trace to " << path_ << ": " << ec.message() << '\n';
    return false;
  }

 private:
  std::string path_, partial_;
};

}  // namespace

int run_simulation(const RunRequest& request, std::ostream& out, std::ostream& err) {
  simulation::TraceFormat format = simulation::TraceFormat::Jsonl;
  if (request.format == "text") format = simulation::TraceFormat::Text;
  if (request.format == "chrome") format = simulation::TraceFormat::Chrome;

  std::ofstream file_out;
  std::unique_ptr<simulation::TraceSink> trace;
  // A trace file is written beside its path and moved there when the run has loaded and ended,
  // so a file that does not load leaves an earlier trace as it was; a device or pipe is written
  // directly. A trace path that is the input or the scenario is refused before anything opens.
  std::optional<TraceFile> trace_file;
  if (request.trace == "-") {
    trace = simulation::make_trace_writer(format, out, request.max_trace_events);
  } else if (!request.trace.empty()) {
    const auto input = gamedata::parse_file_spec(request.file).file;
    for (const auto& [other, what] : {std::pair{input, "the input file"},
                                      std::pair{fs::path(request.scenario), "the scenario"}}) {
      if (!other.empty() && same_file(request.trace, other)) {
        err << "error: --trace " << request.trace << " is " << what
            << "; the trace would overwrite it\n";
        return kExitUsage;
      }
    }
    trace_file.emplace(request.trace);
    file_out.open(trace_file->writing(), std::ios::binary);
    if (!file_out) {
      err << "error: cannot write " << request.trace << '\n';
      return kExitLoadError;
    }
    trace = std::make_unique<FileTrace>(
        request.trace, file_out,
        simulation::make_trace_writer(format, file_out, request.max_trace_events));
  }
  // With a machine-readable trace on standard output, the summary goes to standard error.
  auto& summary_out = request.trace == "-" && format != simulation::TraceFormat::Text ? err : out;
  WarningReport warnings(request.verbose);
  auto options = request.options;
  options.log = warnings.sink();
  // Opened before the run, so a path that cannot be written costs no run.
  std::ofstream coverage_out;
  if (!request.coverage.empty()) {
    coverage_out.open(request.coverage, std::ios::binary);
    if (!coverage_out) {
      err << "error: cannot write " << request.coverage << '\n';
      return kExitLoadError;
    }
    options.coverage = true;
  }
  if (!request.html.empty() && !can_write_page(request.html, err)) return kExitLoadError;
  std::optional<report::Timeline> timeline;
  std::optional<BothSinks> both;
  simulation::TraceSink* sink = trace.get();
  if (!request.html.empty()) {
    timeline.emplace();
    sink = &*timeline;
    if (trace) sink = &both.emplace(*trace, *timeline);
  }
  try {
    simulation::Scenario scenario;
    if (!request.scenario.empty()) scenario = simulation::load_scenario(request.scenario);
    const auto summary = simulation::simulate(request.file, scenario, options, sink);
    if (request.trace == "-" && format == simulation::TraceFormat::Text) out << '\n';
    simulation::print_summary(summary, summary_out);
    // An alert is a trace event; without a trace, each is said once here.
    if (!trace) {
      for (const auto& a : summary.alerts) {
        err << fmt::format("alert: {} node {}: {} (frame {}{})\n", a.file, a.node, a.message,
                           a.first_frame,
                           a.count == 1 ? "" : fmt::format(", {} times in all", a.count));
      }
    }
    if (trace && trace->dropped() != 0) {
      err << "warning: trace truncated after " << request.max_trace_events << " events ("
          << trace->dropped() << " dropped; --max-trace-events raises the limit)\n";
    }
    if (trace_file && !trace_file->keep(file_out, err)) return kExitLoadError;
    if (summary.coverage) {
      summary.coverage->print(summary_out);
      coverage_out << summary.coverage->to_json().dump(2) << '\n';
      if (!coverage_out.flush()) {
        err << "error: cannot write " << request.coverage << '\n';
        return kExitLoadError;
      }
    }
    if (timeline &&
        !write_page(request.html,
                    report::run_page(summary, *timeline, {.title = {}, .dot = request.dot}), err))
      return kExitLoadError;
    if (!summary.fault.empty()) {
      err << "error: the run stopped on a fault: " << summary.fault << '\n';
      return kExitFault;
    }
    return kExitOk;
  } catch (const LoadError& e) {
    err << "error: " << e.what() << '\n';
    if (!request.options.stub_missing_modules &&
        e.reason().find("was not found") != std::string::npos) {
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
  } catch (const std::runtime_error& e) {  // the end of the trace could not be written
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
}

Command add_run_command(CLI::App& app) {
  auto request = std::make_shared<RunRequest>();
  auto* run = app.add_subcommand(
      "run", "Simulate a file offline: run a command for some frames under a scenario");
  run->add_option("FILE", request->file, "AINB file")->required();
  add_run_options(*run, request->options, simulation::kTakenByRun);
  add_verbose(*run, *request);
  run->add_option("--scenario", request->scenario,
                  "A scenario file (JSON, docs/simulation.md): blackboard values, command "
                  "switches, node behaviour, user function values, seed");
  run->add_option("--trace", request->trace, "Write the trace to this file, or - for stdout");
  run->add_option("--format", request->format, "Trace format")
      ->check(CLI::IsMember({"jsonl", "text", "chrome"}))
      ->capture_default_str();
  run->add_option("--max-trace-events", request->max_trace_events,
                  "Trace events written before the trace is truncated (docs/robustness.md)")
      ->capture_default_str();
  run->add_option("--coverage", request->coverage,
                  "Write what the run reached (nodes, selector branches, transitions, commands) "
                  "to this JSON file, and list what it never reached (docs/simulation.md)");
  add_page_options(*run, *request);
  return {run, [request](std::ostream& out, std::ostream& err) {
            return run_simulation(*request, out, err);
          }};
}

Command add_regress_command(CLI::App& app) {
  auto request = std::make_shared<RegressRequest>();
  auto* regress = app.add_subcommand(
      "regress",
      "Run an original and an edited file under the same scenarios and report the first "
      "difference; or record golden traces of many files and check later versions against "
      "them (exit 0 equal, 1 different, 2 error)");
  regress->add_option("FILES", request->files,
                      "ORIGINAL EDITED; with --record, the files and folders to record; with "
                      "--check, where to find them (default: as recorded)");
  regress->add_option("--scenario", request->scenarios, "A scenario file (repeatable)");
  auto* edited_scenario = regress->add_option(
      "--edited-scenario", request->edited_scenario,
      "ORIGINAL EDITED: the edited file runs this scenario, the original --scenario's (one at "
      "most): two scenarios compared, on one file given twice (a what-if against its run)");
  auto* record = regress->add_option(
      "--record", request->record,
      "Record golden traces of every *.ainb under FILES (with the X*.scenario.json beside each) "
      "into this folder");
  auto* check =
      regress
          ->add_option("--check", request->check,
                       "Check the files against the golden traces recorded in this folder")
          ->excludes(record);
  edited_scenario->excludes(record)->excludes(check);
  regress
      ->add_flag("--strict", request->strict,
                 "ORIGINAL EDITED: exit 1 also when the traces agree but an edited value went "
                 "unseen (a note: its node's stub ignored it, or no run entered the node)")
      ->excludes(record)
      ->excludes(check);
  for (auto* option : add_run_options(*regress, request->run.options, simulation::kTakenByRegress))
    option->excludes(check);
  add_verbose(*regress, request->run);
  for (auto* option : add_page_options(*regress, request->run)) {
    option->excludes(record);
    option->excludes(check);
  }
  regress
      ->add_option("--max-trace-events", request->max_held_events,
                   "Events a run may trace: both traces are held in memory to be compared (a few "
                   "hundred bytes an event)")
      ->capture_default_str();
  auto* regress_explore =
      regress
          ->add_option("--explore", request->explore,
                       fmt::format("ORIGINAL EDITED: run N scenarios `ainb explore` generates "
                                   "({} frames each unless --frames), stop at the first "
                                   "difference, shrink it and write it to -o DIR",
                                   simulation::kExploreFrames))
          ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100'000'000}))
          ->excludes(record)
          ->excludes(check)
          ->excludes(edited_scenario);
  regress
      ->add_option("--output,-o", request->output,
                   "With --explore: a folder for the scenario that shows the difference")
      ->needs(regress_explore);
  regress->add_option("--jobs,-j", request->jobs, "With --explore: threads")
      ->check(CLI::Range(1u, 256u))
      ->needs(regress_explore);
  return {regress, [request, regress](std::ostream& out, std::ostream& err) {
            // --explore's scenarios are short unless told otherwise.
            if (request->explore != 0 && regress->get_option("--frames")->count() == 0)
              request->run.options.frames = simulation::kExploreFrames;
            return run_regress(*request, out, err);
          }};
}

}  // namespace ainb::cli
