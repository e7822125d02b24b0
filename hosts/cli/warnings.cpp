#include "warnings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

namespace ainb::cli {

WarningReport::WarningReport(bool verbose)
    : verbose_(verbose), sink_([this](const runtime::LogEvent& e) { add(e); }) {}

WarningReport::~WarningReport() {
  try {
    print();
  } catch (...) {  // a log that cannot be written: nothing more to say
  }
}

void WarningReport::add(const runtime::LogEvent& e) {
  if (e.level != runtime::LogLevel::Warning) return;
  const std::string file(e.file);
  switch (e.kind) {
    case runtime::LogKind::MissingModule: {
      auto& m = modules_[std::string(e.subject)];
      if (!e.detail.empty()) m.where.emplace(e.detail);
      m.callers.insert(e.node >= 0 ? fmt::format("{} node {}", file, e.node) : file);
      return;
    }
    case runtime::LogKind::MissingFunction:
      functions_[std::string(e.subject)].callers.insert(file);
      return;
    default: {
      auto line = runtime::log_line(e);
      if (seen_.insert(line).second) others_.push_back(std::move(line));
    }
  }
}

std::vector<std::string> WarningReport::lines() const {
  std::vector<std::string> out;
  auto names = [](const std::map<std::string, Missing>& missing) {
    std::vector<std::string> list;
    for (const auto& [name, m] : missing)
      list.push_back(name);
    return fmt::format("{}", fmt::join(list, ", "));
  };
  if (!modules_.empty()) {
    if (verbose_) {
      for (const auto& [path, m] : modules_) {
        out.push_back(fmt::format("module \"{}\" not found ({}), run as a stub: called by {}", path,
                                  fmt::join(m.where, "; "), fmt::join(m.callers, ", ")));
      }
    } else {
      const bool one = modules_.size() == 1;
      out.push_back(
          fmt::format("{} module{} not found, run as stub{}: {} (--verbose: where {} "
                      "searched)",
                      modules_.size(), one ? "" : "s", one ? "" : "s", names(modules_),
                      one ? "it was" : "each was"));
    }
  }
  if (!functions_.empty()) {
    if (verbose_) {
      for (const auto& [signature, f] : functions_) {
        out.push_back(fmt::format(
            "user function \"{}\" not registered, the expressions calling it give their stored "
            "values: called in {}",
            signature, fmt::join(f.callers, ", ")));
      }
    } else {
      const bool one = functions_.size() == 1;
      out.push_back(fmt::format(
          "{} user function{} not registered, the expressions calling {} give their stored "
          "values: {} (--verbose: the files calling {})",
          functions_.size(), one ? "" : "s", one ? "it" : "them", names(functions_),
          one ? "it" : "each"));
    }
  }
  out.insert(out.end(), others_.begin(), others_.end());
  return out;
}

void WarningReport::print() {
  if (printed_) return;
  printed_ = true;
  for (const auto& line : lines())
    spdlog::warn("{}", line);
}

}  // namespace ainb::cli
