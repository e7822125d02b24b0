#pragma once

// The warnings of one command, said once each. The runtime and the simulation report through the
// log sink a command hands them (runtime/log.hpp); a command loads a file and its modules once
// per scenario and side (regress) or per file (golden sets), so the same module goes missing many
// times. What they report is gathered while the command runs and printed when it ends: the
// missing modules as one line, the missing user functions as another, each over every file of
// the run (with `verbose`, a line each, saying where it was searched and who calls it), and any
// other warning once. Alerts are left to the command (the run's summary says them).

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ainb/runtime/log.hpp"

namespace ainb::cli {

class WarningReport {
 public:
  explicit WarningReport(bool verbose);
  WarningReport(const WarningReport&) = delete;
  WarningReport& operator=(const WarningReport&) = delete;
  ~WarningReport();  // print(), if it has not run

  // For GraphOptions::log, InstanceOptions::log, simulation::RunOptions::log: valid while the
  // report lives.
  const runtime::LogSink* sink() const { return &sink_; }
  // The lines, without the "warning: " each is printed with.
  std::vector<std::string> lines() const;
  // Writes lines() through spdlog's default logger (log_to_stderr: "warning: ..." on stderr),
  // once.
  void print();

 private:
  void add(const runtime::LogEvent& event);

  struct Missing {
    std::set<std::string> where;    // where it was searched (modules)
    std::set<std::string> callers;  // "FILE node N", or FILE
  };
  bool verbose_;
  bool printed_ = false;
  std::map<std::string, Missing> modules_, functions_;
  std::vector<std::string> others_;
  std::set<std::string> seen_;
  runtime::LogSink sink_;
};

}  // namespace ainb::cli
