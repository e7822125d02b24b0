// `ainb scan`: every AI file of folders, packs or a romfs through the checks a modder wants after
// an edit (docs/scan.md). Each file is checked in a forked worker process, so a file that
// crashes the runtime costs that file's result only.

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/formats/sarc.hpp"
#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/load_error.hpp"
#include "ainb/runtime/unhonoured.hpp"
#include "commands.hpp"
#include "registration.hpp"
#include "terminal.hpp"

namespace ainb::cli {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// One AI file to check: a path or PACK:MEMBER; or a pack that did not open, reported as such.
struct Target {
  std::string file;
  std::string open_error;
};

struct Failure {
  std::string check;  // open, load, round-trip, lint, validate, run, crashed
  std::string message;
};

struct FileResult {
  std::string file;
  bool loaded = false, round_trip = false, validated = false, ran = false;
  std::optional<std::size_t> findings;  // nullopt: not linted
  std::size_t not_honoured = 0;         // properties the runtime does not honour (notes)
  std::size_t warnings = 0;
  // UserDefined nodes, and those of a class --generic-nodes implements (the share modelled).
  std::size_t user_nodes = 0, modelled = 0;
  double seconds = 0;
  std::vector<Failure> failures;
};

Json to_json(const FileResult& r, bool with_time) {
  Json j{{"file", r.file},
         {"passed", r.failures.empty()},
         {"loaded", r.loaded},
         {"round_trip", r.round_trip},
         {"lint_findings", r.findings ? Json(*r.findings) : Json()},
         {"not_honoured", r.not_honoured},
         {"validated", r.validated},
         {"ran", r.ran},
         {"warnings", r.warnings},
         {"user_nodes", r.user_nodes},
         {"modelled_user_nodes", r.modelled}};
  if (with_time) j["seconds"] = r.seconds;
  auto failures = Json::array();
  for (const auto& f : r.failures)
    failures.push_back({{"check", f.check}, {"message", f.message}});
  j["failures"] = std::move(failures);
  return j;
}

FileResult from_json(const Json& j) {
  FileResult r;
  r.file = j.at("file").get<std::string>();
  r.loaded = j.at("loaded").get<bool>();
  r.round_trip = j.at("round_trip").get<bool>();
  if (!j.at("lint_findings").is_null()) r.findings = j.at("lint_findings").get<std::size_t>();
  r.not_honoured = j.at("not_honoured").get<std::size_t>();
  r.validated = j.at("validated").get<bool>();
  r.ran = j.at("ran").get<bool>();
  r.warnings = j.at("warnings").get<std::size_t>();
  r.user_nodes = j.at("user_nodes").get<std::size_t>();
  r.modelled = j.at("modelled_user_nodes").get<std::size_t>();
  r.seconds = j.at("seconds").get<double>();
  for (const auto& f : j.at("failures"))
    r.failures.push_back({f.at("check").get<std::string>(), f.at("message").get<std::string>()});
  return r;
}

// What the scan reads: the AI files to check, and the packs it opened (kept open: their
// members' modules are looked up in them, by every worker, without opening them again).
struct Targets {
  std::vector<Target> files;
  std::shared_ptr<gamedata::OpenedPacks> packs = std::make_shared<gamedata::OpenedPacks>();
};

// The pack's AI/*.ainb members; a pack that does not open is one failed target.
void add_pack(const fs::path& pack, const formats::ZstdDictionaries& dictionaries, Targets& out) {
  try {
    auto sarc = formats::open_pack_file(pack, &dictionaries);
    for (const auto& f : sarc.files()) {
      if (f.name.starts_with("AI/") && f.name.ends_with(".ainb"))
        out.files.push_back({pack.string() + ":" + f.name, {}});
    }
    out.packs->push_back({pack, std::move(sarc)});
  } catch (const LoadError& e) {
    out.files.push_back({pack.string(), e.what()});
  }
}

// Every *.ainb under the folder, and (with `packs`) the AI files of every pack under it (a
// mod's romfs/Pack/Actor/*.pack.zs), packs in name order.
void add_folder(const fs::path& dir, const formats::ZstdDictionaries& dictionaries, Targets& out,
                bool packs = true) {
  std::vector<fs::path> found;
  for (const auto& entry :
       fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied)) {
    if (!entry.is_regular_file()) continue;
    if (entry.path().extension() == ".ainb") out.files.push_back({entry.path().string(), {}});
    if (packs && is_pack(entry.path())) found.push_back(entry.path());
  }
  std::sort(found.begin(), found.end());
  for (const auto& pack : found)
    add_pack(pack, dictionaries, out);
}

// Every pack under ROMFS/Pack/Actor, and every loose AI file of the romfs.
void add_romfs(const fs::path& romfs, const formats::ZstdDictionaries& dictionaries, Targets& out) {
  if (const auto actors = romfs / "Pack" / "Actor"; fs::is_directory(actors))
    add_folder(actors, dictionaries, out);
  add_folder(romfs, dictionaries, out, false);
}

// "K/N" with 1 <= K <= N.
std::optional<std::pair<std::size_t, std::size_t>> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  std::size_t k = 0, n = 0;
  const auto* end = text.data() + text.size();
  const auto a = std::from_chars(text.data(), text.data() + slash, k);
  const auto b = std::from_chars(text.data() + slash + 1, end, n);
  if (a.ec != std::errc() || a.ptr != text.data() + slash || b.ec != std::errc() || b.ptr != end ||
      k < 1 || k > n) {
    return std::nullopt;
  }
  return std::pair{k, n};
}

struct Context {
  const ScanRequest* request = nullptr;
  FileLookup lookup;
  simulation::RunOptions options;
  std::optional<formats::NodeCatalogue> catalogue;  // lint when there are definitions
  std::vector<std::string> generic_classes;         // sorted: gamedata::generic_node_names
};

// The checks of one file (in a worker). Each runs even when an earlier one failed, after load.
FileResult check_file(const Target& target, const Context& context) {
  const auto start = std::chrono::steady_clock::now();
  // The warnings of the file's run are counted, not printed: workers run at once, and their
  // lines would interleave on the terminal.
  std::size_t warnings = 0;
  const runtime::LogSink count = [&](const runtime::LogEvent& e) {
    if (e.level == runtime::LogLevel::Warning) ++warnings;
  };
  auto options = context.options;
  options.log = &count;

  FileResult r;
  r.file = target.file;
  auto fail = [&](const char* check, std::string message) {
    // Errors start with the file's name, which the report's line already gives.
    if (message.starts_with(target.file + ": ")) message.erase(0, target.file.size() + 2);
    r.failures.push_back({check, std::move(message)});
  };
  auto finish = [&] {
    r.warnings = warnings;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  if (!target.open_error.empty()) {
    fail("open", target.open_error);
    return finish();
  }
  std::shared_ptr<const Model> model;
  try {
    model = open_model(target.file, context.lookup);
    r.loaded = true;
  } catch (const std::exception& e) {
    fail("load", e.what());
    return finish();
  }
  try {
    const auto differences = round_trip_differences(*model, target.file);
    r.round_trip = differences.empty();
    for (const auto& d : differences)
      fail("round-trip", d);
  } catch (const std::exception& e) {
    fail("round-trip", e.what());
  }
  r.not_honoured = runtime::unhonoured_properties(*model).size();
  for (const auto& node : model->nodes) {
    if (node.type != NodeType::UserDefined) continue;
    ++r.user_nodes;
    r.modelled += std::binary_search(context.generic_classes.begin(), context.generic_classes.end(),
                                     node.name, std::less<>());
  }
  if (context.catalogue) {
    auto findings = gamedata::lint(*model, *context.catalogue);
    std::erase_if(findings, [](const gamedata::LintFinding& f) { return f.is_note(); });
    r.findings = findings.size();
    if (!findings.empty()) {
      const auto& f = findings.front();
      fail("lint", fmt::format("{} finding{}, the first: node {} {}: {}: {}", findings.size(),
                               findings.size() == 1 ? "" : "s", f.node, f.node_class,
                               gamedata::lint_kind_name(f.kind), f.message));
    }
  }
  try {
    const auto summary = simulation::simulate(target.file, {}, options, nullptr);
    r.validated = true;
    r.ran = summary.fault.empty();
    if (!r.ran) fail("run", summary.fault);
  } catch (const std::exception& e) {  // a module not found, a graph the runtime refuses
    fail("validate", e.what());
  }
  return finish();
}

// Runs in the child: the checks, their result as JSON on `fd`, then _exit (no atexit handlers,
// no flushing of the parent's buffered output, which the child holds a copy of).
[[noreturn]] void worker(const Target& target, const Context& context, int fd) {
  // The fatal signals end the worker as the parent expects, whatever handlers it inherited.
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    std::signal(sig, SIG_DFL);
  int code = 0;
  std::string text;
  try {
    if (context.request->in_worker) context.request->in_worker(target.file);
    text = to_json(check_file(target, context), true)
               .dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (...) {
    code = 3;  // no result: the parent reports the exit code
  }
  for (std::size_t at = 0; at < text.size();) {
    const auto n = ::write(fd, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    at += static_cast<std::size_t>(n);
  }
  ::_exit(code);
}

struct Running {
  pid_t pid;
  int fd;
  std::size_t index;
  std::string data;
};

FileResult crashed(const std::string& file, std::string message) {
  FileResult r;
  r.file = file;
  r.failures.push_back({"crashed", std::move(message)});
  return r;
}

// The result of a worker that closed its pipe: what it wrote, or how it died.
FileResult collect(const Running& w, const std::string& file) {
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return crashed(file, fmt::format("signal {}", WTERMSIG(status)));
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  try {
    if (code == 0) return from_json(Json::parse(w.data));
  } catch (const std::exception&) {
  }
  return crashed(file, fmt::format("the worker exited with code {} and no result", code));
}

// Checks every target in worker processes, at most `jobs` at once; results in target order.
std::vector<FileResult> check_all(const std::vector<Target>& targets, const Context& context,
                                  std::size_t jobs, const Progress& progress) {
  std::vector<FileResult> results(targets.size());
  std::vector<Running> running;
  std::size_t next = 0, done = 0;
  while (done < targets.size()) {
    while (running.size() < jobs && next < targets.size()) {
      const auto index = next++;
      int fds[2];
      if (::pipe(fds) != 0) {
        results[index] = crashed(targets[index].file,
                                 fmt::format("cannot start a worker: {}", std::strerror(errno)));
        ++done;
        continue;
      }
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::close(fds[0]);
        for (const auto& other : running)
          ::close(other.fd);
        worker(targets[index], context, fds[1]);
      }
      ::close(fds[1]);
      if (pid < 0) {
        ::close(fds[0]);
        results[index] = crashed(targets[index].file,
                                 fmt::format("cannot start a worker: {}", std::strerror(errno)));
        ++done;
        continue;
      }
      running.push_back({pid, fds[0], index, {}});
    }
    if (running.empty()) continue;
    std::vector<pollfd> polled;
    for (const auto& w : running)
      polled.push_back({w.fd, POLLIN, 0});
    if (::poll(polled.data(), polled.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    }
    for (std::size_t k = polled.size(); k-- > 0;) {
      if (polled[k].revents == 0) continue;
      auto& w = running[k];
      char buffer[65536];
      const auto n = ::read(w.fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        w.data.append(buffer, static_cast<std::size_t>(n));
        continue;
      }
      ::close(w.fd);
      results[w.index] = collect(w, targets[w.index].file);
      ++done;
      if (progress) progress(done, targets.size(), targets[w.index].file);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  return results;
}

struct Totals {
  std::size_t files = 0, loaded = 0, round_trip = 0, validated = 0, ran = 0, warnings = 0,
              failed = 0, findings = 0, not_honoured = 0, not_honoured_files = 0, user_nodes = 0,
              modelled = 0;
};

Totals totals_of(const std::vector<FileResult>& results) {
  Totals t;
  for (const auto& r : results) {
    ++t.files;
    t.loaded += r.loaded;
    t.round_trip += r.round_trip;
    t.validated += r.validated;
    t.ran += r.ran;
    t.warnings += r.warnings;
    t.failed += !r.failures.empty();
    t.findings += r.findings.value_or(0);
    t.not_honoured += r.not_honoured;
    t.not_honoured_files += r.not_honoured != 0;
    t.user_nodes += r.user_nodes;
    t.modelled += r.modelled;
  }
  return t;
}

void print_text(const std::vector<FileResult>& results, bool linted, const ScanRequest& request,
                std::size_t jobs, double seconds, std::ostream& out) {
  for (const auto& r : results) {
    for (const auto& f : r.failures)
      out << fmt::format("{}: {}: {}\n", r.file, f.check, f.message);
  }
  const auto t = totals_of(results);
  auto row = [&](std::string_view name, const std::string& value) {
    out << fmt::format("{:<20}{}\n", name, value);
  };
  row("files", std::to_string(t.files));
  row("loaded", std::to_string(t.loaded));
  row("round-tripped", std::to_string(t.round_trip));
  row("lint findings",
      linted ? std::to_string(t.findings) : std::string("- (no node definitions)"));
  row("not honoured", fmt::format("{} propert{} in {} file{} ({})", t.not_honoured,
                                  t.not_honoured == 1 ? "y" : "ies", t.not_honoured_files,
                                  t.not_honoured_files == 1 ? "" : "s", runtime::kUnhonouredDoc));
  row("generic classes",
      fmt::format("{} of {} user nodes ({:.1f}%, docs/generic-nodes.md)", t.modelled, t.user_nodes,
                  t.user_nodes > 0
                      ? 100.0 * static_cast<double>(t.modelled) / static_cast<double>(t.user_nodes)
                      : 0.0));
  row("graph valid", std::to_string(t.validated));
  row("ran without fault", fmt::format("{} ({} frames)", t.ran, request.run.options.frames));
  row("warnings", std::to_string(t.warnings));
  row("failed", std::to_string(t.failed));
  if (request.time) {
    row("time", fmt::format("{:.2f} s ({:.1f} files/s, {} job{})", seconds,
                            seconds > 0 ? static_cast<double>(t.files) / seconds : 0.0, jobs,
                            jobs == 1 ? "" : "s"));
  }
}

void print_json(const std::vector<FileResult>& results, bool linted, const ScanRequest& request,
                std::size_t jobs, double seconds, std::ostream& out) {
  auto files = Json::array();
  for (const auto& r : results)
    files.push_back(to_json(r, request.time));
  const auto t = totals_of(results);
  Json summary{{"files", t.files},
               {"loaded", t.loaded},
               {"round_tripped", t.round_trip},
               {"lint_findings", linted ? Json(t.findings) : Json()},
               {"not_honoured", t.not_honoured},
               {"validated", t.validated},
               {"ran_without_fault", t.ran},
               {"frames", request.run.options.frames},
               {"warnings", t.warnings},
               {"user_nodes", t.user_nodes},
               {"modelled_user_nodes", t.modelled},
               {"failed", t.failed}};
  if (request.time) {
    summary["seconds"] = seconds;
    summary["jobs"] = jobs;
  }
  const Json report{{"files", std::move(files)}, {"summary", std::move(summary)}};
  out << report.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace

bool is_pack(const fs::path& path) {
  const auto name = path.filename().string();
  if (name == "ZsDic.pack.zs") return false;  // the zstd dictionaries, not an actor's files
  for (const char* suffix : {".pack.zs", ".pack", ".sarc", ".sarc.zs"}) {
    if (name.ends_with(suffix)) return true;
  }
  return false;
}

int run_scan(const ScanRequest& request, std::ostream& out, std::ostream& err) {
  const auto romfs = request.run.options.romfs.string();
  if (request.paths.empty() && romfs.empty()) {
    err << "error: scan needs a PATH (a folder, a pack or an AI file) or --romfs DIR\n";
    return kExitUsage;
  }
  std::optional<std::pair<std::size_t, std::size_t>> shard;
  if (!request.shard.empty() && !(shard = parse_shard(request.shard))) {
    err << "error: --shard " << request.shard << ": expected K/N with 1 <= K <= N (e.g. 2/3)\n";
    return kExitUsage;
  }
  Context context;
  context.request = &request;
  context.lookup = file_lookup(request.run.options);
  context.options = request.run.options;
  context.generic_classes =
      gamedata::generic_node_names({.ambiguous_readings = request.run.options.ambiguous_readings});
  Targets scanned;
  auto& targets = scanned.files;
  try {
    const auto& options = request.run.options;
    const auto dictionaries = gamedata::load_dictionaries(romfs, options.zsdic);
    const std::vector<std::string> definitions(options.definitions.begin(),
                                               options.definitions.end());
    auto catalogue = gamedata::load_node_definitions(definitions, romfs, &dictionaries);
    if (!catalogue.classes().empty()) context.catalogue = std::move(catalogue);
    if (request.paths.empty()) add_romfs(romfs, dictionaries, scanned);
    for (const auto& path : request.paths) {
      if (fs::is_directory(path)) {
        add_folder(path, dictionaries, scanned);
      } else if (is_pack(path)) {
        add_pack(path, dictionaries, scanned);
      } else {
        targets.push_back({path, {}});
      }
    }
  } catch (const std::exception& e) {  // dictionaries, definitions, an unreadable folder
    err << "error: " << e.what() << '\n';
    return kExitUsage;
  }
  if (targets.empty()) {
    err << "error: no AI files (*.ainb, a pack's AI/*.ainb) found\n";
    return kExitUsage;
  }
  // Opened once here, before the workers fork: each worker reads them without decompressing.
  if (!scanned.packs->empty()) context.options.shared_packs = context.lookup.packs = scanned.packs;
  std::sort(targets.begin(), targets.end(),
            [](const Target& a, const Target& b) { return a.file < b.file; });
  targets.erase(std::unique(targets.begin(), targets.end(),
                            [](const Target& a, const Target& b) { return a.file == b.file; }),
                targets.end());
  if (shard) {
    std::vector<Target> mine;
    for (std::size_t i = shard->first - 1; i < targets.size(); i += shard->second)
      mine.push_back(std::move(targets[i]));
    targets = std::move(mine);
  }

  auto jobs = request.jobs;
  if (jobs == 0) jobs = static_cast<std::size_t>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  out.flush();  // workers _exit with a copy of the buffer, unwritten; the report follows it
  const auto start = std::chrono::steady_clock::now();
  const auto results = check_all(targets, context, jobs, progress_bar(err));
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool linted = context.catalogue.has_value();
  if (request.format == "json") {
    print_json(results, linted, request, jobs, seconds, out);
  } else {
    print_text(results, linted, request, jobs, seconds, out);
  }
  const bool all_passed = std::all_of(results.begin(), results.end(),
                                      [](const FileResult& r) { return r.failures.empty(); });
  return all_passed ? kExitOk : kExitScanFailed;
}

Command add_scan_command(CLI::App& app) {
  auto request = std::make_shared<ScanRequest>();
  auto* scan = app.add_subcommand(
      "scan",
      "Check every AI file of folders, packs or a romfs: load, byte-exact round trip, lint (with "
      "node definitions), runtime graph and a run, each file in a worker process (exit 0 all "
      "pass, 1 a file failed, 2 usage)");
  scan->add_option(
          "PATH", request->paths,
          "A folder (every *.ainb and every pack's AI/*.ainb under it: a mod as it ships), "
          "a pack (.pack.zs, .sarc: its AI/*.ainb) or an AI file (repeatable; default "
          "with --romfs: the romfs)")
      ->check(CLI::ExistingPath);
  add_run_options(*scan, request->run.options, simulation::kTakenByScan);
  describe(*scan, "--romfs",
           "A romfs-like folder: without PATH, every pack under ROMFS/Pack/Actor and every "
           "loose *.ainb is scanned; modules, parameter files and node definitions are looked "
           "up there");
  scan->add_option("--jobs,-j", request->jobs, "Worker processes at once (default: the cores)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
  scan->add_option("--shard", request->shard,
                   "K/N: only the files i (0-based, sorted by name) with i mod N = K - 1, so N CI "
                   "jobs share the files");
  scan->add_option("--format", request->format, "Report format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  scan->add_flag("!--no-time", request->time,
                 "Leave the times out of the report, so that two runs compare equal");
  return {scan,
          [request](std::ostream& out, std::ostream& err) { return run_scan(*request, out, err); }};
}

}  // namespace ainb::cli
