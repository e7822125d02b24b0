// The names of the log's kinds (ainb/runtime/log.hpp).

#include "ainb/runtime/log.hpp"

namespace ainb::runtime {

std::string_view log_kind_name(LogKind kind) {
  switch (kind) {
    case LogKind::MissingModule:
      return "missing-module";
    case LogKind::MissingFunction:
      return "missing-function";
    case LogKind::Alert:
      return "alert";
    case LogKind::ParameterFile:
      return "parameter-file";
    case LogKind::Scenario:
      return "scenario";
  }
  return "unknown";
}

std::string log_line(const LogEvent& e) {
  const bool whole = e.kind == LogKind::ParameterFile || e.kind == LogKind::Scenario;
  if (whole || e.file.empty()) return std::string(e.message);
  return std::string(e.file) + ": " + std::string(e.message);
}

}  // namespace ainb::runtime
