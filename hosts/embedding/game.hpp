#pragma once

// The embedding example: a tiny "engine" that runs AINB actors the way a game would. It owns a
// world (a player walking a circle, guards with positions), registers C++ node classes that act
// on that world (MoveTo, Wait, Attack, PlayVoice, LookAround: the user classes of the bundled
// patrol example), loads one root file with its modules, spawns many actors sharing the graph
// and ticks them at a fixed frame rate on one or more threads. docs/embedding.md walks through
// it; benchmarks/embedding_bench.cpp measures it.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "ainb/runtime/runtime.hpp"

namespace ainb::game {

inline constexpr float kFrameSeconds = 1.0f / 60.0f;

struct Actor;

// What every node class sees through NodeContext::host(): the actor the instance drives.
struct World {
  Vec3f player{0, 0, 0};
  std::uint64_t frame = 0;
  float perception_radius = 8.0f;  // a guard closer than this to the player sees it
};

struct Actor {
  World* world = nullptr;
  Vec3f position{0, 0, 0};
  Vec3f home{0, 0, 0};  // patrol points are relative to it
  bool sees_player = false;
  // What the node classes did, for the example's report and the tests.
  std::uint32_t attacks = 0, hits = 0, voices = 0, arrivals = 0, waits = 0, looks = 0;
  float walked = 0;
};

struct GameOptions {
  std::filesystem::path file;                  // the root AINB file
  std::vector<std::filesystem::path> modules;  // folders where its modules are found
  std::size_t actors = 1000;
  std::uint32_t threads = 1;
  // Unregistered classes (a real file's) run as stubs that return Running for this many
  // updates after their Enter, then Success: an action lasts this long.
  std::uint32_t stub_running_updates = 30;
  std::string command;                // empty: the file's first command
  bool stub_missing_modules = false;  // run module nodes whose file is missing as stubs
  // Actors spawn at different times in a game: actor i is ticked i % spread frames before the
  // first frame, so they do not all re-enter their trees in the same frame. 0: all in step.
  std::uint32_t spread = 0;
  // Where building the graph reports a module run as a stub or a user function the example lacks
  // (GraphOptions::log); null: nowhere. The actors' alerts are not logged: their ticks run on
  // several threads.
  const runtime::LogSink* log = nullptr;
  // An observer of one actor (`observed`), attached before its command starts: the trace of the
  // actor a page watches (ainb-game --serve, --trace). The others tick without one.
  runtime::Observer* observer = nullptr;
  std::size_t observed = 0;
};

struct FrameStats {
  std::vector<double> frame_ms;  // wall time of each frame's ticks
  double median() const;
  double percentile(double p) const;  // p in [0, 100]
  double max() const;
};

class Game {
 public:
  explicit Game(const GameOptions& options);
  ~Game();
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  // Runs `frames` frames and records how long each one's ticks took.
  FrameStats run(std::uint64_t frames);
  // One frame: the world moves, perception writes the blackboard, every actor ticks.
  void frame();
  // Hot reload, between frames: loads the file again (with its modules) and moves every actor to
  // it now, its blackboard kept and its command restarted. A file that fails to load changes
  // nothing; the result's error says why.
  runtime::Runtime::Reload reload();
  // Between frames: whether `actor` skips its ticks (paused from the page) until released. One
  // actor at most; the others tick on.
  void hold(std::size_t actor, bool held) { held_ = held ? actor : kNone; }

  const World& world() const { return world_; }
  const std::vector<Actor>& actors() const { return actors_; }
  const runtime::Instance& instance(std::size_t actor) const { return *instances_[actor]; }
  const runtime::Graph& graph() const { return *graph_; }
  std::size_t bytes_per_actor() const;

 private:
  void tick_range(std::size_t begin, std::size_t end);
  class Workers;

  GameOptions options_;
  runtime::Runtime runtime_;  // the example's classes, the module folders, the log
  World world_;
  std::vector<Actor> actors_;
  std::shared_ptr<const runtime::Graph> graph_;
  // options_.command's index, looked up once: a finished command restarts by index.
  std::optional<std::size_t> command_;
  std::vector<std::unique_ptr<runtime::Instance>> instances_;
  std::unique_ptr<Workers> workers_;
  static constexpr std::size_t kNone = SIZE_MAX;
  std::size_t held_ = kNone;
};

// The node classes above, registered by name (the example's registry; another host registers
// its own).
runtime::NodeRegistry make_registry(std::uint32_t stub_running_updates);

}  // namespace ainb::game
