// `ainb report`, and the page `ainb run --html` writes: one HTML file of a run (report/page.hpp).

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ainb/load_error.hpp"
#include "ainb/report/timeline.hpp"
#include "commands.hpp"
#include "registration.hpp"
#include "warnings.hpp"

namespace ainb::cli {

namespace fs = std::filesystem;

bool can_write_page(const std::string& path, std::ostream& err) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    err << "error: --html " << path << " is a folder\n";
    return false;
  }
  const auto folder = fs::path(path).parent_path();
  const auto dir = folder.empty() ? fs::path(".") : folder;
  if (!fs::is_directory(dir, ec) || access(dir.c_str(), W_OK) != 0) {
    err << "error: cannot write " << path << ": no folder " << dir.string()
        << " that can be written\n";
    return false;
  }
  return true;
}

bool write_page(const std::string& path, const report::Page& page, std::ostream& err) {
  std::ofstream file(path, std::ios::binary);
  file << page.html;
  file.close();
  if (!file) {
    err << "error: cannot write " << path << '\n';
    return false;
  }
#ifndef __EMSCRIPTEN__
  // A browser cannot run dot at all; there the page's own note is enough.
  if (!page.missing_graphs.empty())
    err << "warning: " << path << ": " << page.missing_graphs << '\n';
#endif
  return true;
}

int run_report(const ReportRequest& request, std::ostream& out, std::ostream& err) {
  if (!can_write_page(request.run.html, err)) return kExitLoadError;
  report::Timeline timeline;
  {
    std::error_code ec;
    std::ifstream in(request.trace, std::ios::binary);
    if (fs::is_directory(request.trace, ec) || !in) {
      err << "error: cannot read the trace " << request.trace << '\n';
      return kExitLoadError;
    }
    std::size_t line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      if (line.empty()) continue;
      try {
        timeline.event(simulation::parse_trace_event(nlohmann::json::parse(line)));
      } catch (const nlohmann::json::exception&) {
        err << fmt::format(
            "error: {}: line {}: not a JSON trace event (write the trace with ainb run --trace "
            "FILE --format jsonl)\n",
            request.trace, line_number);
        return kExitLoadError;
      }
    }
  }
  // The file and its modules, loaded as a run loads them; no frame runs.
  WarningReport warnings(request.run.verbose);
  auto options = request.run.options;
  options.frames = 0;
  options.log = warnings.sink();
  simulation::Summary summary;
  try {
    summary = simulation::simulate(request.run.file, {}, options, nullptr);
  } catch (const std::exception& e) {  // LoadError, a missing command
    err << "error: " << e.what() << '\n';
    return kExitLoadError;
  }
  const auto files = timeline.files();
  if (timeline.events() != 0 &&
      std::find(files.begin(), files.end(), summary.graph->file_name()) == files.end()) {
    err << fmt::format("error: {} is not a trace of {}: its events are of {}\n", request.trace,
                       summary.graph->file_name(), fmt::join(files, ", "));
    return kExitLoadError;
  }
  // What the page says of the run comes from the trace, not from this load.
  summary.frames = timeline.last_frame();
  summary.command = timeline.commands().empty() ? "" : timeline.commands().back().second;
  summary.state.clear();
  summary.ended_frame = 0;
  summary.alerts.clear();
  const auto page = report::run_page(summary, timeline, {.title = {}, .dot = request.run.dot});
  if (!write_page(request.run.html, page, err)) return kExitLoadError;
  out << fmt::format("wrote {}: {} frames, {} events\n", request.run.html, summary.frames,
                     timeline.events());
  return kExitOk;
}

Command add_report_command(CLI::App& app) {
  auto request = std::make_shared<ReportRequest>();
  auto* report = app.add_subcommand(
      "report", "Write the HTML page of a run (as ainb run --html) from its JSON-lines trace");
  report->add_option("TRACE", request->trace, "A trace of ainb run --format jsonl")->required();
  report->add_option("--file", request->run.file, "The AINB file the trace ran")->required();
  report->add_option("-o,--output", request->run.html, "The page to write")->required();
  add_run_options(*report, request->run.options, simulation::kTakenByReport);
  describe(*report, "--stub-missing-modules",
           "Show module nodes whose file is not found as plain nodes");
  describe(*report, "--romfs", kRomfsHelp);
  report->add_option("--dot", request->run.dot, "Graphviz's dot program (default: dot on PATH)");
  return {report, [request](std::ostream& out, std::ostream& err) {
            return run_report(*request, out, err);
          }};
}

}  // namespace ainb::cli
