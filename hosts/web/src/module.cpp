// The WebAssembly module's entry points (embind): the `ainb` command line, run on files in the
// module's in-memory file system, and the run option table. hosts/web/ainb.mjs builds the
// JavaScript API on these, so that what the API and the page return is what the native `ainb`
// prints (docs/web.md).

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <emscripten/bind.h>
#include <nlohmann/json.hpp>

#include "ainb/simulation/run_options.hpp"
#include "commands.hpp"
#include "terminal.hpp"

namespace {

struct CommandResult {
  int code = 0;
  std::string out;
  std::string err;
};

// std::cout and std::cerr into `out` and `err` while it lives: the CLI's warnings go to std::cerr
// through spdlog, as a native run prints them.
class Captured {
 public:
  Captured(std::ostream& out, std::ostream& err)
      : cout_(std::cout.rdbuf(out.rdbuf())), cerr_(std::cerr.rdbuf(err.rdbuf())) {}
  ~Captured() {
    std::cout.rdbuf(cout_);
    std::cerr.rdbuf(cerr_);
  }
  Captured(const Captured&) = delete;
  Captured& operator=(const Captured&) = delete;

 private:
  std::streambuf* cout_;
  std::streambuf* cerr_;
};

// Progress to a JavaScript function while it lives (none unless `progress` is a function).
class ProgressTo {
 public:
  explicit ProgressTo(const emscripten::val& progress) {
    if (progress.typeOf().as<std::string>() != "function") return;
    ainb::cli::set_progress_reporter(
        [&progress](std::size_t done, std::size_t total, const std::string& label) {
          progress(done, total, label);
        });
  }
  ~ProgressTo() { ainb::cli::set_progress_reporter({}); }
  ProgressTo(const ProgressTo&) = delete;
  ProgressTo& operator=(const ProgressTo&) = delete;
};

// `progress`: a JavaScript function (done, total, label) told of a long command's progress
// (explore's runs, golden traces), or undefined.
CommandResult command(const std::vector<std::string>& args, emscripten::val progress) {
  std::ostringstream out;
  std::ostringstream err;
  CommandResult result;
  {
    const Captured captured(out, err);
    const ProgressTo reporter(progress);
    result.code = ainb::cli::run(args, out, err);
  }
  result.out = std::move(out).str();
  result.err = std::move(err).str();
  return result;
}

nlohmann::json default_value(bool value) {
  return value;
}
nlohmann::json default_value(std::uint64_t value) {
  return value;
}
nlohmann::json default_value(const std::string& value) {
  return value;
}
nlohmann::json default_value(const std::filesystem::path& value) {
  return value.string();
}
nlohmann::json default_value(const std::vector<std::filesystem::path>& value) {
  auto paths = nlohmann::json::array();
  for (const auto& path : value)
    paths.push_back(path.string());
  return paths;
}

// The run option table's rows as JSON: name, kind, default, most, the commands that take it,
// flag and help. ainb.mjs makes its options (camelCase names) from them.
std::string run_options() {
  using namespace ainb::simulation;
  constexpr const char* kKinds[] = {"flag", "count", "text", "path", "paths"};
  constexpr std::pair<unsigned, const char*> kTakers[] = {{kTakenByRun, "run"},
                                                          {kTakenByRegress, "regress"},
                                                          {kTakenByExplore, "explore"},
                                                          {kTakenByScan, "scan"},
                                                          {kTakenByReport, "report"}};
  auto rows = nlohmann::json::array();
  const RunOptions defaults;
  for_each_run_option(defaults,
                      [&rows, &kKinds, &kTakers](const RunOptionInfo& info, const auto& field) {
                        auto takers = nlohmann::json::array();
                        for (const auto& [bit, name] : kTakers) {
                          if ((info.takers & bit) != 0) takers.push_back(name);
                        }
                        rows.push_back({{"name", info.name},
                                        {"kind", kKinds[static_cast<int>(info.kind)]},
                                        {"default", default_value(field)},
                                        {"most", info.most},
                                        {"takers", takers},
                                        {"flag", info.flag},
                                        {"help", info.help}});
                      });
  return rows.dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(ainb) {
  emscripten::register_vector<std::string>("StringList");
  emscripten::value_object<CommandResult>("CommandResult")
      .field("code", &CommandResult::code)
      .field("out", &CommandResult::out)
      .field("err", &CommandResult::err);
  emscripten::function("command", &command);
  emscripten::function("runOptions", &run_options);
}
