// ainb-game: the embedding example as a program. Spawns many guards running one AINB file,
// ticks them at 60 frames per second and prints frame-time statistics (docs/embedding.md).

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "ainb/load_error.hpp"
#include "ainb/simulation/tracer.hpp"
#include "game.hpp"
#include "live.hpp"

namespace {

// --watch: the newest modification time of the file and of the .ainb files in the folders its
// modules come from (and their AI/ folders), checked between frames.
class FileWatch {
 public:
  FileWatch(std::filesystem::path file, std::vector<std::filesystem::path> folders)
      : file_(std::move(file)), folders_(std::move(folders)), seen_(newest()) {}
  // Whether anything was written since the last call (or since the watch began).
  bool changed() {
    const auto now = newest();
    if (now <= seen_) return false;
    seen_ = now;
    return true;
  }

 private:
  std::filesystem::file_time_type newest() const {
    std::error_code error;  // a file being saved may be missing for a moment: skip it
    auto newest = std::filesystem::last_write_time(file_, error);
    if (error) newest = {};
    for (const auto& folder : folders_) {
      for (const auto& dir : {folder, folder / "AI"}) {
        for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end;
             it.increment(error)) {
          if (it->path().extension() != ".ainb") continue;
          newest = std::max(newest, it->last_write_time(error));
        }
        error.clear();
      }
    }
    return newest;
  }
  std::filesystem::path file_;
  std::vector<std::filesystem::path> folders_;
  std::filesystem::file_time_type seen_;
};

// The graph build's warnings, said once the graph is built: the missing modules in one line, the
// missing user functions in another (with --verbose, a line each, with where it was searched).
class Warnings {
 public:
  explicit Warnings(bool verbose) : verbose_(verbose) {}
  const ainb::runtime::LogSink* sink() const { return &sink_; }
  // The same lines as the `ainb` command line's (hosts/cli/warnings.cpp).
  void print() const {
    if (!modules_.empty() && verbose_) {
      for (const auto& [path, m] : modules_)
        say(fmt::format("module \"{}\" not found ({}), run as a stub: called by {}", path, m.detail,
                        m.caller));
    } else if (!modules_.empty()) {
      const bool one = modules_.size() == 1;
      say(fmt::format("{} module{} not found, run as stub{}: {} (--verbose: where {} searched)",
                      modules_.size(), one ? "" : "s", one ? "" : "s", names(modules_),
                      one ? "it was" : "each was"));
    }
    if (!functions_.empty() && verbose_) {
      for (const auto& [signature, f] : functions_)
        say(
            fmt::format("user function \"{}\" not registered, the expressions calling it give "
                        "their stored values: called in {}",
                        signature, f.caller));
    } else if (!functions_.empty()) {
      const bool one = functions_.size() == 1;
      say(
          fmt::format("{} user function{} not registered, the expressions calling {} give their "
                      "stored values: {} (--verbose: the files calling {})",
                      functions_.size(), one ? "" : "s", one ? "it" : "them", names(functions_),
                      one ? "it" : "each"));
    }
  }

 private:
  struct Seen {
    std::string detail, caller;  // the first caller's
  };
  void add(const ainb::runtime::LogEvent& e) {
    if (e.level != ainb::runtime::LogLevel::Warning) return;
    auto& seen = e.kind == ainb::runtime::LogKind::MissingModule ? modules_ : functions_;
    seen.emplace(std::string(e.subject),
                 Seen{std::string(e.detail), e.node >= 0 ? fmt::format("{} node {}", e.file, e.node)
                                                         : std::string(e.file)});
  }
  static std::string names(const std::map<std::string, Seen>& seen) {
    std::string list;
    for (const auto& [name, s] : seen)
      list += (list.empty() ? "" : ", ") + name;
    return list;
  }
  static void say(const std::string& line) { std::cerr << "warning: " << line << '\n'; }

  bool verbose_;
  std::map<std::string, Seen> modules_, functions_;
  ainb::runtime::LogSink sink_ = [this](const ainb::runtime::LogEvent& e) { add(e); };
};

}  // namespace

const char* ainb_game_default_example();  // default_example.cpp, generated

int main(int argc, char** argv) {
  CLI::App app{"ainb-game: many actors running one AINB file in a fixed-rate game loop"};
  ainb::game::GameOptions options;
  options.file = ainb_game_default_example();
  std::uint64_t frames = 600;
  bool realtime = false;
  std::vector<std::string> modules;
  app.add_option("FILE", options.file, "The root AINB file (default: the bundled patrol example)");
  app.add_option("--modules", modules, "A folder where module files are found (repeatable)");
  app.add_option("--actors", options.actors, "Actors sharing the graph")->capture_default_str();
  app.add_option("--frames", frames, "Frames to run")->capture_default_str();
  app.add_option("--threads", options.threads, "Threads ticking actors")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  app.add_option("--command", options.command, "The command each actor runs (default: the first)");
  app.add_option("--stub-running", options.stub_running_updates,
                 "Updates an unregistered class stays Running before it succeeds")
      ->check(CLI::Range(0u, 65535u))  // runtime::Graph::kMaxStubUpdates
      ->capture_default_str();
  app.add_option("--spread", options.spread,
                 "Actor i starts i % N frames early, as actors spawned at different times")
      ->capture_default_str();
  app.add_flag("--stub-missing-modules", options.stub_missing_modules,
               "Run module nodes whose file is not found as stub nodes");
  app.add_flag("--realtime", realtime, "Sleep to the next 1/60 s boundary after each frame");
  bool watch = false;
  app.add_flag("--watch", watch,
               "Hot reload: when the file or a module file changes (checked every 60 frames), "
               "load it again and move every actor to it");
  bool verbose = false;
  app.add_flag("--verbose", verbose,
               "Warn of each missing module (where it was searched) and user function on a line "
               "of its own");
  std::optional<std::uint16_t> serve;
  app.add_option(
      "--serve", serve,
      "Stream the watched actor's events to the page over a WebSocket on "
      "127.0.0.1:PORT (0: a free port); its Pause pauses that actor (implies --realtime)");
  std::size_t watched = 0;
  app.add_option("--actor", watched, "The actor --serve and --trace watch")->capture_default_str();
  std::string trace_path;
  app.add_option("--trace", trace_path,
                 "Write the watched actor's JSON-lines trace (the events --serve sends) to FILE");
  CLI11_PARSE(app, argc, argv);
  if (serve) realtime = true;  // a live stream at the game's pace, not as fast as it can go
  for (const auto& m : modules)
    options.modules.emplace_back(m);

  Warnings warnings(verbose);
  options.log = warnings.sink();
  // The watched actor's events, a frame's JSON lines at a time (`ainb run --trace`'s writer).
  std::ostringstream frame_lines;
  const auto writer = ainb::simulation::make_trace_writer(ainb::simulation::TraceFormat::Jsonl,
                                                          frame_lines, UINT64_MAX);
  ainb::simulation::Summary summary;
  ainb::simulation::Tracer tracer(writer.get(), summary);
  const bool watching = serve || !trace_path.empty();
  if (watching) {
    if (watched >= options.actors) {
      std::cerr << fmt::format("error: --actor {}: there are {} actors\n", watched, options.actors);
      return 2;
    }
    options.observer = &tracer;
    options.observed = watched;
  }
  try {
    // A missing module run as a stub and a user function the example lacks are said once, when
    // the graph is built, not per actor.
    ainb::game::Game game(options);
    warnings.print();
    // A parameter the example's classes use that a node lacks reads zero: say so up front.
    for (const auto& missing : game.graph().unresolved_parameters())
      std::cerr << "warning: " << game.graph().describe(missing) << '\n';
    std::vector<std::filesystem::path> folders = options.modules;
    if (folders.empty()) folders.push_back(options.file.parent_path());
    FileWatch files(options.file, folders);
    std::optional<ainb::game::LiveServer> server;
    // What a page is sent first: the file the watched actor runs and the modules its graph loaded,
    // the bytes they were loaded from (not read again: after a reload, the file may be mid-save).
    auto hello = [&] {
      const auto& bytes = game.graph().model().bytes;
      return ainb::game::hello_message(
          watched, {options.file.filename().string(), std::string(bytes.begin(), bytes.end())},
          ainb::game::module_files(game.graph()));
    };
    auto reload_if_changed = [&](std::uint64_t frame) {
      if (!watch || frame % 60 != 0 || !files.changed()) return;
      if (const auto reload = game.reload()) {
        std::cerr << fmt::format("frame {}: reloaded {}: {} actors run it now\n", frame,
                                 options.file.string(), game.actors().size());
        // Pages that connect from now on open the files as reloaded.
        if (server) server->set_hello(hello());
      } else {
        std::cerr << fmt::format(
            "warning: frame {}: the reload failed, the actors keep the graph they run: {}\n", frame,
            reload.error);
      }
    };
    std::ofstream trace_file;
    if (!trace_path.empty()) {
      trace_file.open(trace_path);
      if (!trace_file) throw std::runtime_error("cannot write " + trace_path);
    }
    // The frame's events: to the trace file, and to the page if one is connected.
    auto hand_over = [&](bool ticked) {
      std::string lines = std::move(frame_lines).str();
      frame_lines.str("");
      if (trace_file) trace_file << lines << std::flush;
      if (server && ticked && server->connected())
        server->send(ainb::game::frame_message(tracer.frame, lines));
    };
    hand_over(false);  // the command's start, frame 0
    if (serve) {
      server.emplace(*serve, hello());
      std::cout << fmt::format("serving actor {} on ws://127.0.0.1:{}/", watched, server->port())
                << std::endl;
    }
    ainb::game::Remote remote;
    // The page's messages, between frames: each answered, each change of state said.
    auto take_controls = [&] {
      if (!server) return;
      for (const auto& message : server->received()) {
        const bool was = remote.paused();
        server->send(remote.apply(message, game.world().frame));
        if (remote.paused() != was)
          std::cout << fmt::format("frame {}: actor {} {} by the page", game.world().frame, watched,
                                   remote.paused() ? "paused" : "resumed")
                    << std::endl;
      }
    };
    ainb::game::FrameStats stats;
    if (realtime || watch || watching) {
      auto next = std::chrono::steady_clock::now();
      for (std::uint64_t f = 0; f < frames; ++f) {
        reload_if_changed(f);
        take_controls();
        const bool ticks = remote.ticks();
        game.hold(watched, !ticks);
        tracer.frame = game.world().frame + 1;
        auto one = game.run(1);
        if (watching) hand_over(ticks);
        stats.frame_ms.push_back(one.frame_ms.front());
        if (!realtime) continue;
        next += std::chrono::microseconds(16'667);
        std::this_thread::sleep_until(next);
      }
    } else {
      stats = game.run(frames);
    }
    const auto& actors = game.actors();
    auto total = [&](auto field) {
      return std::accumulate(
          actors.begin(), actors.end(), std::uint64_t{0},
          [&](std::uint64_t sum, const ainb::game::Actor& a) { return sum + a.*field; });
    };
    std::cout << fmt::format("{}: {} actors ({} bytes each), {} frames on {} thread(s)\n",
                             game.graph().file_name(), actors.size(), game.bytes_per_actor(),
                             frames, options.threads);
    std::cout << fmt::format(
        "frame time: median {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms (budget at 60 fps: 16.667 "
        "ms)\n",
        stats.median(), stats.percentile(99), stats.max());
    std::cout << fmt::format(
        "what the guards did: {} arrivals, {} waits, {} attacks ({} hits), {} voices\n",
        total(&ainb::game::Actor::arrivals), total(&ainb::game::Actor::waits),
        total(&ainb::game::Actor::attacks), total(&ainb::game::Actor::hits),
        total(&ainb::game::Actor::voices));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
}
