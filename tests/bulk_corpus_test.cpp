// The bulk corpus (../shared/corpus/bulk: 109 AI files and 471 BYML files of two TotK actor
// packs) as a new user meets it: every AI file lints and runs 600 frames with its modules beside
// it, and every BYML file prints the same way twice. Loading, the peer dump and the round trips
// of the same files are in loader_corpus_test.cpp and writer_roundtrip_test.cpp.

#include <charconv>
#include <map>
#include <sstream>

#include <doctest/doctest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "ainb/gamedata/catalogue.hpp"
#include "ainb/loader.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"

using namespace ainb;
using ainb::test::ainb_cli;

namespace {

// The warnings `ainb run` prints, one line each, while it lives (the default logger's sink).
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(lines_);
    sink->set_pattern("%v");
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink));
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;
  std::vector<std::string> take() {
    std::vector<std::string> out;
    std::istringstream in(lines_.str());
    for (std::string line; std::getline(in, line);)
      out.push_back(line);
    lines_.str("");
    return out;
  }

 private:
  std::ostringstream lines_;
  std::shared_ptr<spdlog::logger> previous_;
};

// The warnings a run of a real file may give: the game's code it does not have, a module file
// outside the two packs or a user function of the game's state (docs/simulation.md, "Real
// files"), said by `ainb run` once per run, a line for all the modules and one for all the
// functions ("3 modules not found, run as stubs: ..."). How many it names; 0 for another line.
std::size_t named_in(const std::string& line, std::string_view what) {
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), n);
  if (ec != std::errc() || n == 0) return 0;
  const std::string_view rest(end, static_cast<std::size_t>(line.data() + line.size() - end));
  return rest.starts_with(what) ? n : 0;
}

}  // namespace

TEST_CASE("ainb lint: every bulk file agrees with NodeDefinition.json but one explained class") {
  const auto files = test::corpus_bulk_ainb_files();
  if (files.empty()) return;
  const auto catalogue =
      formats::NodeCatalogue::from_json_file(test::corpus_dir() / "nodedefs/NodeDefinition.json");
  std::size_t clean = 0, notes = 0;
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    auto findings = gamedata::lint(*load_file(path), catalogue);
    // Notes: the properties the runtime does not honour (tests/runtime_unhonoured_test.cpp).
    notes += static_cast<std::size_t>(
        std::erase_if(findings, [](const gamedata::LintFinding& f) { return f.is_note(); }));
    if (path.filename() == "Toby.action.lift.module.ainb") {
      // The dump's `true`/`false` for this class's `True`/`False` inputs (docs/formats.md,
      // "Node definitions": its keys went through YAML, where True and False are booleans).
      std::vector<std::string> messages;
      for (const auto& f : findings)
        messages.push_back(f.message);
      CHECK(messages ==
            std::vector<std::string>{"input False (int) is not declared for the class",
                                     "input True (int) is not declared for the class",
                                     "declared input false (game::target::TargetSlots) is missing",
                                     "declared input true (game::target::TargetSlots) is missing"});
      continue;
    }
    CHECK(findings.empty());
    ++clean;
  }
  CHECK(clean == 108);
  CHECK(notes == 87);
}

TEST_CASE("ainb run: every bulk file runs 600 frames with its modules, no fault, no surprise") {
  const auto files = test::corpus_bulk_ainb_files();
  if (files.empty()) return;
  const auto folder = files.front().parent_path().string();
  std::size_t modules = 0, functions = 0, alerts = 0, commands = 0;
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    const auto model = load_file(path);
    // Every command of the file (a Logic-style file without commands runs its roots once).
    std::vector<std::string> names;
    for (const auto& c : model->commands)
      names.emplace_back(c.name);
    if (names.empty()) names.emplace_back();
    for (const auto& command : names) {
      CAPTURE(command);
      CapturedLog log;
      std::vector<std::string> args{"run",
                                    path.string(),
                                    "--frames",
                                    "600",
                                    "--modules",
                                    folder,
                                    "--restart",
                                    "--generic-nodes",
                                    "--stub-children",
                                    "--stub-missing-modules"};
      if (!command.empty()) args.insert(args.end(), {"--command", command});
      const auto r = ainb_cli(args);
      CHECK(r.code == 0);
      // Standard error says each of the file's Element_Alert messages once (no trace shows them).
      std::istringstream err(r.err);
      for (std::string line; std::getline(err, line);) {
        CHECK_MESSAGE(line.starts_with("alert: "), line);
        ++alerts;
      }
      REQUIRE(r.out.starts_with("summary: "));
      CHECK(r.out.find(": faulted") == std::string::npos);
      for (const auto& line : log.take()) {
        const auto m = named_in(line, " module"), f = named_in(line, " user function");
        CHECK_MESSAGE(m + f != 0, line);
        modules += m;
        functions += f;
      }
      ++commands;
    }
  }
  CHECK(commands == 139 + 16);  // the manifest's commands, and the 16 files without any
  // Each run's count, summed over the runs: modules outside the two packs, the game-state
  // functions of docs/exb.md ("Standard functions"; a function two files of one actor call is one
  // in its run's line: 56 when each file said its own), the alerts its runs reach.
  CHECK(modules == 309);
  CHECK(functions == 49);
  CHECK(alerts == 2);
}

TEST_CASE("ainb cat: every bulk BYML file prints, and prints the same a second time") {
  const auto files = test::corpus_files("bulk/byml", ".bgyml");
  if (files.empty()) return;
  CHECK(files.size() == 471);
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    const auto first = ainb_cli({"cat", path.string()});
    CHECK(first.code == 0);
    CHECK(first.err == "");
    CHECK_FALSE(first.out.empty());
    const auto second = ainb_cli({"cat", path.string()});
    CHECK(second.out == first.out);
  }
}
