// Scheduler speed: ns per node visit (one Update call) and bytes per instance.
//   sequence100/{run}        a Sequential of 100 trivial user nodes that succeed at once: each tick
//                            enters, updates and leaves all 100 (the command restarts every tick)
//   simultaneous100          a Simultaneous of 100 user nodes that keep running: 100 updates/tick
//   parameters/{by_name,by_handle}  100 running user nodes that read two inputs and a property
//                            and write an output each update: by name, or through declared
//                            handles (NodeClass::declare_input and the others)
//   general_frame/<case>     the active node array's loop, which no corpus file takes: the two
//                            above with a transition never taken, a state machine of 100 states
//                            (ring100), Fork and Join of four paths of 25 nodes (fork_join4x25)
//   corpus/<file>            each corpus tree with stub nodes that succeed at once, commands
//                            restarted as they end: every frame enters and leaves the whole tree
//   corpus_steady/<file>     the same with stubs that run 60 updates before they succeed
//   actors10000/<file>       10,000 instances of each corpus tree, 600 frames each, each actor's
//                            memory prefetched before its turn (Instance::prefetch)
//   actors10000_steady/<file>  the same with stubs that run 60 updates before they succeed
//   actors10000[_steady]_unprefetched/<file>  the same two without prefetching
//   actors10000_arena/<file>  actors10000/<file> with each actor's object and block in one arena
//                            (InstanceOptions::memory), one actor after the other
//   actors1000[_steady]/<file>, actors3000[_steady]/<file>  the same with 1,000 and 3,000
//                            instances of the busiest tree: the first fit in this machine's
//                            caches, the second not
//
//   build/release/benchmarks/runtime_bench [--corpus DIR] [benchmark flags]
//
// For instruction counts (docs/benchmarks.md): `--profile CASE [--count] [--steady]` runs 1,000
// frames of one case (a built case's name, or a corpus file's path) without an observer,
// for
//   valgrind --tool=callgrind --toggle-collect='ainb::runtime::Instance::tick()' runtime_bench ...
// (add --toggle-collect='ainb::runtime::Instance::start(*)' to count command restarts too: a tree
// restarted every frame does its whole Enter there).
// With --count it runs them with an observer instead and prints the visits and bytes. With
// --steady a corpus tree's stubs keep running for 60 updates before they succeed, as actions do
// in a game, instead of succeeding at once (the corpus_steady cases). With --actors a corpus file
// runs as 10,000 actors for 600 frames, as in the actors10000 cases (for callgrind
// --cache-sim=yes).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <boost/container/pmr/global_resource.hpp>
#include <boost/container/pmr/monotonic_buffer_resource.hpp>

#include "ainb/runtime/instance.hpp"
#include "bench_common.hpp"
#include "visit_cases.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::bench;

namespace {

void per_visit(benchmark::State& state, std::shared_ptr<const Graph> graph) {
  // Count the visits of a fixed run first (with an observer), then time it without one.
  std::uint64_t visits = 0;
  {
    Counter counter;
    Instance probe(graph, InstanceOptions{1, nullptr, &counter});
    std::size_t next = 0;
    drive(probe, 1000, next);
    visits = counter.updates;
  }
  std::optional<Instance> instance;
  instance.emplace(graph, InstanceOptions{1, nullptr, nullptr});
  for (auto _ : state) {
    state.PauseTiming();
    // Every round starts afresh. A file without commands runs its roots from the instance's
    // creation on (stop() would leave them for good, and the round would time empty frames).
    if (graph->model().commands.empty()) {
      instance.emplace(graph, InstanceOptions{1, nullptr, nullptr});
    } else {
      instance->stop();
    }
    std::size_t next = 0;
    state.ResumeTiming();
    drive(*instance, 1000, next);
  }
  state.counters["visits_per_1000_frames"] = static_cast<double>(visits);
  state.counters["ns_per_visit"] =
      benchmark::Counter(static_cast<double>(visits) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bytes_per_instance"] = static_cast<double>(instance->memory_bytes());
  state.counters["bytes_per_node"] =
      static_cast<double>(instance->memory_bytes()) / static_cast<double>(graph->node_count());
}

// The actors cases: instances of one graph, this many frames, ticked frame by frame, each frame
// every actor in turn (as a game does). 10,000 actors is the case; 1,000 and 3,000 run
// beside it, as this machine's caches hold the blocks of the first and not of the second
// (docs/benchmarks-runtime-history.md, "Actors and the caches").
constexpr std::size_t kActors = 10'000;
constexpr std::array<std::size_t, 3> kActorCounts{1'000, 3'000, kActors};
constexpr std::uint64_t kActorFrames = 600;

struct Actors {
  // With `in_arena`, each actor's object and then its block come from one arena, one after the
  // other (InstanceOptions::memory), as a host that keeps its actors together may place them;
  // without, the object from operator new (through new_delete_resource) and the block as the
  // runtime takes it by default.
  std::unique_ptr<boost::container::pmr::monotonic_buffer_resource> arena;
  struct Destroy {
    ainb::runtime::MemoryResource* objects;  // null: the arena's, freed with it
    void operator()(Instance* actor) const {
      actor->~Instance();
      if (objects != nullptr) objects->deallocate(actor, sizeof(Instance), alignof(Instance));
    }
  };
  std::vector<std::unique_ptr<Instance, Destroy>> instances;
  std::vector<std::size_t> next_command;
  Actors(const std::shared_ptr<const Graph>& graph, Observer* observer, std::size_t count,
         bool in_arena = false)
      : next_command(count, 0) {
    if (in_arena) {
      arena = std::make_unique<boost::container::pmr::monotonic_buffer_resource>(
          count * (sizeof(Instance) + alignof(Instance) + Instance::block_size(*graph) + 64));
    }
    instances.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      const InstanceOptions options{.seed = i, .observer = observer, .memory = arena.get()};
      void* place = nullptr;
      if (in_arena) {
        // Boost's monotonic resource refuses an alignment over max_align_t's (bad_alloc), and an
        // Instance is aligned to a cache line: its room is padded and aligned here.
        std::size_t room = sizeof(Instance) + alignof(Instance);
        place = arena->allocate(room, alignof(std::max_align_t));
        place = std::align(alignof(Instance), sizeof(Instance), place, room);
      } else {
        place = boost::container::pmr::new_delete_resource()->allocate(sizeof(Instance),
                                                                       alignof(Instance));
      }
      instances.emplace_back(
          new (place) Instance(graph, options),
          Destroy{in_arena ? nullptr : boost::container::pmr::new_delete_resource()});
    }
  }
  // With `prefetch`, each actor's memory is asked for before its turn, as Instance::prefetch
  // says a host should (for a graph worth it); without, as a loop that does not.
  void run(bool prefetch) {
    const auto n = instances.size();
    prefetch = prefetch && n != 0 && instances[0]->graph().worth_prefetching();
    for (std::uint64_t frame = 0; frame < kActorFrames; ++frame) {
      for (std::size_t i = 0; i < n; ++i) {
        if (prefetch) {
          if (i + 2 < n) instances[i + 2]->prefetch_object();
          if (i + 1 < n) instances[i + 1]->prefetch();
        }
        drive(*instances[i], 1, next_command[i]);
      }
    }
  }
};

void actors(benchmark::State& state, std::shared_ptr<const Graph> graph, std::size_t count,
            bool prefetch, bool in_arena) {
  // The visits of one actor's 600 frames, counted with an observer (every actor does the same
  // unless the tree draws from a RandomSelector, which no corpus file has).
  std::uint64_t visits = 0;
  {
    Counter counter;
    Instance probe(graph, InstanceOptions{0, nullptr, &counter});
    std::size_t next = 0;
    drive(probe, kActorFrames, next);
    visits = counter.updates;
  }
  for (auto _ : state) {
    Actors all(graph, nullptr, count, in_arena);
    const auto start = std::chrono::steady_clock::now();
    all.run(prefetch);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(seconds);
    state.counters["ms_per_frame"] = seconds * 1000.0 / kActorFrames;
    state.counters["ns_per_visit"] =
        seconds * 1e9 / (static_cast<double>(visits) * static_cast<double>(count));
    state.counters["bytes_per_instance"] = static_cast<double>(all.instances[0]->memory_bytes());
  }
}

// --profile with --actors: 10,000 instances of a corpus file, 600 frames each, frame by frame as
// the actors10000 cases run them (for callgrind's cache simulation).
int profile_actors(const std::string& name, bool count, bool steady) {
  Counter counter;
  Actors all(corpus_graph(name, steady ? kSteadyUpdates : 0), count ? &counter : nullptr, kActors);
  all.run(true);
  if (count) {
    std::cout << counter.updates << " visits in " << kActorFrames << " frames of " << kActors
              << " actors\n";
  }
  return 0;
}

// --profile: 1,000 frames of one case, bare (or counted with an observer).
int profile(const std::string& name, bool count, bool steady) {
  std::shared_ptr<const Graph> graph;
  for (const auto& [built, make] : built_cases()) {
    if (built == name) graph = make();
  }
  if (!graph) graph = corpus_graph(name, steady ? kSteadyUpdates : 0);
  Counter counter;
  Instance instance(graph, InstanceOptions{1, nullptr, count ? &counter : nullptr});
  std::size_t next = 0;
  drive(instance, 1000, next);
  if (count) {
    std::cout << counter.updates << " visits in 1000 frames, " << instance.memory_bytes()
              << " bytes per instance\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--profile") == 0) {
    const auto flag = [&](const char* name) {
      return std::any_of(argv + 3, argv + argc,
                         [&](const char* a) { return std::strcmp(a, name) == 0; });
    };
    return flag("--actors") ? profile_actors(argv[2], flag("--count"), flag("--steady"))
                            : profile(argv[2], flag("--count"), flag("--steady"));
  }
  std::vector<char*> args;
  const auto corpus = bench::take_corpus_argument(argc, argv, args);
  for (const auto& [name, make] : built_cases())
    benchmark::RegisterBenchmark(name.c_str(), per_visit, make())->Unit(benchmark::kMicrosecond);
  std::filesystem::path largest;
  std::uint64_t busiest_visits = 0;
  const auto files = bench::corpus_files(corpus);
  if (!files.empty()) {
    for (const auto& path : files) {
      auto graph = corpus_graph(path);
      // The 10,000-actor case uses the tree that does the most work per frame.
      Counter counter;
      {
        Instance probe(graph, InstanceOptions{1, nullptr, &counter});
        std::size_t next = 0;
        drive(probe, 100, next);
      }
      if (counter.updates > busiest_visits) {
        busiest_visits = counter.updates;
        largest = path;
      }
      benchmark::RegisterBenchmark(("corpus/" + path.stem().string()).c_str(), per_visit, graph)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("corpus_steady/" + path.stem().string()).c_str(), per_visit,
                                   corpus_graph(path, kSteadyUpdates))
          ->Unit(benchmark::kMicrosecond);
    }
  } else {
    std::cerr << "runtime_bench: no corpus at " << corpus.string() << "; corpus cases skipped\n";
  }
  // The busiest tree with 1,000, 3,000 and 10,000 actors; every other tree with 10,000.
  // Each with and without prefetching, one after the other.
  const auto register_actors = [](const std::filesystem::path& path, std::size_t count) {
    for (const auto steady : {false, true}) {
      const auto graph = corpus_graph(path, steady ? kSteadyUpdates : 0);
      for (const auto prefetch : {true, false}) {
        const auto name = fmt::format("actors{}{}{}/{}", count, steady ? "_steady" : "",
                                      prefetch ? "" : "_unprefetched", path.stem().string());
        benchmark::RegisterBenchmark(name.c_str(), actors, graph, count, prefetch, false)
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
    }
    // 10,000 actors restarted every frame, prefetched, with their objects and blocks in one arena.
    if (count == kActors) {
      const auto name = fmt::format("actors{}_arena/{}", count, path.stem().string());
      benchmark::RegisterBenchmark(name.c_str(), actors, corpus_graph(path, 0), count, true, true)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
  };
  if (!largest.empty()) {
    for (const auto count : kActorCounts)
      register_actors(largest, count);
  }
  for (const auto& path : files) {
    if (path != largest) register_actors(path, kActors);
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  // Cycles per visit are ns per visit times this (docs/benchmarks-runtime-history.md, "The restart
  // floor").
  benchmark::AddCustomContext("measured_core_clock",
                              fmt::format("{:.2f} GHz", bench::measured_clock_ghz()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
