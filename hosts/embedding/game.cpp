#include "game.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cmath>
#include <thread>

namespace ainb::game {

namespace {

using runtime::NodeContext;
using runtime::Result;

Vec3f operator+(Vec3f a, Vec3f b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3f operator-(Vec3f a, Vec3f b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3f operator*(Vec3f a, float k) {
  return {a.x * k, a.y * k, a.z * k};
}
float length(Vec3f v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

Actor& actor_of(NodeContext& c) {
  return *static_cast<Actor*>(c.host());
}

// Walks towards the patrol point (Destination, relative to the actor's home) at Speed metres per
// second, and back home on the next visit: Running while walking, Success on arrival.
// Writes DistanceLeft every update. Its parameters are declared once (found in each node when
// the graph is built), so an update reads and writes them without a search by name.
class MoveTo : public runtime::StatefulNodeClass<bool> {
 public:
  void on_enter(NodeContext& c, bool& outbound) override {
    const Actor& a = actor_of(c);
    outbound = length(a.position - a.home) < 0.5f;  // at home: go out, else come back
  }
  Result on_update(NodeContext& c, bool& outbound) override {
    Actor& a = actor_of(c);
    const Vec3f target = outbound ? a.home + c.read(destination_) : a.home;
    const Vec3f delta = target - a.position;
    const float distance = length(delta);
    const float step = c.read(speed_) * kFrameSeconds;
    if (distance <= step) {
      a.position = target;
      a.walked += distance;
      ++a.arrivals;
      c.write(distance_left_, 0.0f);
      return Result::Success;
    }
    a.position = a.position + delta * (step / distance);
    a.walked += step;
    c.write(distance_left_, distance - step);
    return Result::Running;
  }

 private:
  const runtime::InputParam<Vec3f> destination_ = declare_input<Vec3f>("Destination");
  const runtime::InputParam<float> speed_ = declare_input<float>("Speed");
  const runtime::OutputParam<float> distance_left_ = declare_output<float>("DistanceLeft");
};

// Waits Time seconds (a property), counted in frames in the node's state block.
class Wait : public runtime::StatefulNodeClass<std::uint32_t> {
 public:
  void on_enter(NodeContext& c, std::uint32_t& frames_left) override {
    frames_left = static_cast<std::uint32_t>(std::lround(c.read(time_) / kFrameSeconds));
  }
  Result on_update(NodeContext& c, std::uint32_t& frames_left) override {
    if (frames_left > 0 && --frames_left > 0) return Result::Running;
    ++actor_of(c).waits;
    return Result::Success;
  }

 private:
  const runtime::PropertyParam<float> time_ = declare_property<float>("Time");
};

// One swing at the player, half a second long; a hit when the player is within Range.
class Attack : public runtime::StatefulNodeClass<std::uint32_t> {
 public:
  void on_enter(NodeContext& c, std::uint32_t& frames_left) override {
    Actor& a = actor_of(c);
    ++a.attacks;
    if (length(a.world->player - a.position) <= c.read(range_)) ++a.hits;
    frames_left = 30;
  }
  Result on_update(NodeContext&, std::uint32_t& frames_left) override {
    return --frames_left > 0 ? Result::Running : Result::Success;
  }

 private:
  const runtime::PropertyParam<float> range_ = declare_property<float>("Range");
};

class PlayVoice : public runtime::NodeClass {
 public:
  Result update(NodeContext& c) override {
    ++actor_of(c).voices;
    return Result::Success;
  }
};

class LookAround : public runtime::NodeClass {
 public:
  Result update(NodeContext& c) override {
    ++actor_of(c).looks;
    return Result::Running;
  }
};

}  // namespace

runtime::NodeRegistry make_registry(std::uint32_t stub_running_updates) {
  runtime::NodeRegistry registry;
  registry.add("MoveTo", std::make_shared<MoveTo>());
  registry.add("Wait", std::make_shared<Wait>());
  registry.add("Attack", std::make_shared<Attack>());
  registry.add("PlayVoice", std::make_shared<PlayVoice>());
  registry.add("LookAround", std::make_shared<LookAround>());
  registry.stub_running_updates = stub_running_updates;
  return registry;
}

// Threads tick disjoint ranges of actors. The graph is shared read-only; each instance and its
// Actor are touched by one thread only; the world is written by the main thread between frames.
class Game::Workers {
 public:
  Workers(Game& game, std::uint32_t threads)
      : game_(game), threads_(threads), start_(threads), done_(threads) {
    for (std::uint32_t t = 1; t < threads; ++t)
      pool_.emplace_back([this, t] {
        // The thread's EXB machines for the graph, so that none of its ticks allocates.
        if (!game_.instances_.empty()) game_.instances_.front()->prepare_thread();
        while (true) {
          start_.arrive_and_wait();
          if (stopping_) return;
          tick_share(t);
          done_.arrive_and_wait();
        }
      });
  }
  ~Workers() {
    stopping_ = true;
    start_.arrive_and_wait();
  }
  void frame() {
    start_.arrive_and_wait();
    tick_share(0);
    done_.arrive_and_wait();
  }

 private:
  void tick_share(std::uint32_t t) {
    const std::size_t n = game_.actors_.size();
    game_.tick_range(n * t / threads_, n * (t + 1) / threads_);
  }
  Game& game_;
  std::uint32_t threads_;
  std::barrier<> start_, done_;
  std::atomic<bool> stopping_ = false;
  std::vector<std::jthread> pool_;
};

Game::Game(const GameOptions& options) : options_(options) {
  runtime_.registry() = make_registry(options.stub_running_updates);
  for (const auto& folder : options.modules)
    runtime_.add_module_folder(folder);  // none: the file's own folder
  if (options.stub_missing_modules)
    runtime_.options().missing_modules = runtime::MissingModulePolicy::Stub;
  if (const auto* log = options.log; runtime::listening(log))
    runtime_.set_log([log](const runtime::LogEvent& event) { (*log)(event); });
  graph_ = runtime_.load(options.file.string());
  const auto& commands = graph_->model().commands;
  if (options_.command.empty() && !commands.empty())
    options_.command = std::string(commands[0].name);
  command_ = graph_->find_command(options_.command);

  // Guards on a square grid, 4 m apart.
  const auto side =
      static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(options.actors))));
  actors_.resize(options.actors);
  instances_.reserve(options.actors);
  for (std::size_t i = 0; i < options.actors; ++i) {
    Actor& a = actors_[i];
    a.world = &world_;
    a.home = {4.0f * static_cast<float>(i % side), 0, 4.0f * static_cast<float>(i / side)};
    a.position = a.home;
    instances_.push_back(std::make_unique<runtime::Instance>(
        graph_,
        runtime::InstanceOptions{.seed = i,
                                 .host = &a,
                                 .observer = i == options.observed ? options.observer : nullptr}));
    if (!options_.command.empty()) instances_.back()->start(options_.command);
  }
  if (options.spread > 1) {
    for (std::size_t i = 0; i < actors_.size(); ++i) {
      for (std::uint32_t f = 0; f < i % options.spread; ++f)
        instances_[i]->tick();
    }
  }
  if (options.threads > 1) workers_ = std::make_unique<Workers>(*this, options.threads);
}

Game::~Game() = default;

runtime::Runtime::Reload Game::reload() {
  auto reload = runtime_.reload(options_.file.string());
  if (!reload) return reload;
  // Between frames, on the main thread (the workers wait at their barrier): every actor moves
  // now, so all of them run the graph the restart index below is looked up in.
  graph_ = reload.graph;
  for (auto& instance : instances_)
    instance->switch_to_latest();
  command_ = graph_->find_command(options_.command);
  return reload;
}

void Game::tick_range(std::size_t begin, std::size_t end) {
  // With thousands of actors no cache holds their state: ask for the next ones' before this
  // one's turn, for a tree whose frames read enough for it to pay (Instance::prefetch).
  const bool ahead = graph_->worth_prefetching();
  for (std::size_t i = begin; i < end; ++i) {
    if (ahead && i + 2 < end) instances_[i + 2]->prefetch_object();
    if (ahead && i + 1 < end) instances_[i + 1]->prefetch();
    if (i == held_) continue;
    Actor& a = actors_[i];
    runtime::Instance& instance = *instances_[i];
    // Perception: the host writes the blackboard when what the guard sees changes.
    const bool sees = length(world_.player - a.position) < world_.perception_radius;
    if (sees != a.sees_player) {
      a.sees_player = sees;
      instance.set_bool("IsEnemyNear", sees);
    }
    // A finished command starts again, as a game re-runs an actor's root.
    if (command_ && instance.state() != runtime::CommandState::Running) instance.start(*command_);
    instance.tick();
  }
}

void Game::frame() {
  ++world_.frame;
  // The player walks a slow loop across the field of guards.
  const float t = static_cast<float>(world_.frame) * kFrameSeconds;
  const float extent = 2.0f * std::sqrt(static_cast<float>(actors_.size()));
  world_.player = {extent * (1.0f + std::sin(0.05f * t)), 0, extent * (1.0f + std::sin(0.07f * t))};
  if (workers_) {
    workers_->frame();
  } else {
    tick_range(0, actors_.size());
  }
}

FrameStats Game::run(std::uint64_t frames) {
  FrameStats stats;
  stats.frame_ms.reserve(frames);
  for (std::uint64_t f = 0; f < frames; ++f) {
    const auto start = std::chrono::steady_clock::now();
    frame();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    stats.frame_ms.push_back(took.count());
  }
  return stats;
}

std::size_t Game::bytes_per_actor() const {
  return sizeof(Actor) + (instances_.empty() ? 0 : instances_.front()->memory_bytes());
}

double FrameStats::percentile(double p) const {
  if (frame_ms.empty()) return 0;
  auto sorted = frame_ms;
  std::sort(sorted.begin(), sorted.end());
  const auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}
double FrameStats::median() const {
  return percentile(50);
}
double FrameStats::max() const {
  return percentile(100);
}

}  // namespace ainb::game
