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

}  // namespace ainb::runtime
