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
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <boost/container/pmr/global_resource.hpp>
#include <boost/container/pmr/monotonic_buffer_resource.hpp>

#include "ainb/runtime/instance.hpp"
#include "ainb_builder.hpp"
#include "bench_common.hpp"

using namespace ainb;
using namespace ainb::runtime;

namespace {

struct Succeed : NodeClass {
  Succeed() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext&) override { return Result::Success; }
};
struct Run : NodeClass {
  Run() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext&) override { return Result::Running; }
};

// A class that reads two inputs and a property and writes an output on each update, as a
// game's action does: by name, or through handles declared once (NodeContext::read and write).
struct ReadByName : NodeClass {
  ReadByName() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext& c) override {
    const Vec3f dir = c.input_vec3f("Dir");
    c.write_float("Out", c.input_float("Speed") * dir.x + c.property_float("Range"));
    return Result::Running;
  }
};
struct ReadByHandle : NodeClass {
  const InputParam<float> speed = declare_input<float>("Speed");
  const InputParam<Vec3f> dir = declare_input<Vec3f>("Dir");
  const PropertyParam<float> range = declare_property<float>("Range");
  const OutputParam<float> out = declare_output<float>("Out");
  ReadByHandle() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext& c) override {
    c.write(out, c.read(speed) * c.read(dir).x + c.read(range));
    return Result::Running;
  }
};

struct Counter : Observer {
  std::uint64_t updates = 0;
  void on_update(const Instance&, std::uint32_t, Result) override { ++updates; }
};

std::shared_ptr<const Graph> built_graph(const test::AinbSpec& spec) {
  NodeRegistry registry;
  registry.add("Succeed", std::make_shared<Succeed>());
  registry.add("Run", std::make_shared<Run>());
  registry.add("ReadByName", std::make_shared<ReadByName>());
  registry.add("ReadByHandle", std::make_shared<ReadByHandle>());
  return std::make_shared<Graph>(load(test::build(spec), spec.file_name + ".ainb"), registry);
}

test::BuildPlug transition(std::uint32_t target, std::uint32_t index) {
  return test::BuildPlug{PlugKind::Transition, target, "", index};
}

// A composite of 100 user nodes of class `leaf`. With `general_frame` the file also holds a
// transition that is never taken (from a node nothing reaches), so the same tree runs through
// the active node array's loop instead of the single-root frame
// (docs/benchmarks-runtime-history.md, "The general frame").
std::shared_ptr<const Graph> hundred(NodeType type, const char* leaf, bool general_frame = false) {
  test::AinbSpec spec;
  spec.file_name = "hundred";
  spec.commands = {{"Root", 0, {}}};
  test::BuildNode parent{.type = type};
  parent.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
  spec.nodes.push_back(parent);
  for (std::uint32_t i = 1; i <= 100; ++i) {
    spec.nodes[0].plugs.push_back({PlugKind::Child, i, ""});
    spec.nodes.push_back(test::BuildNode{.name = leaf});
  }
  if (general_frame) {
    test::BuildNode spare{.name = "Run"};
    spare.plugs = {transition(102, 0)};
    spec.nodes.push_back(spare);
    spec.nodes.push_back(test::BuildNode{.name = "Run"});
    spec.transitions = {{1, ""}};
  }
  return built_graph(spec);
}

// A Simultaneous of 100 running user nodes of class `reader`, each with a Speed input from the
// blackboard, a stored Dir, a Range property and an Out output, read and written every frame.
std::shared_ptr<const Graph> parameters100(const char* reader) {
  test::AinbSpec spec;
  spec.file_name = "parameters100";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::F32, "Pace", 1.5f}};
  spec.nodes.push_back(test::BuildNode{.type = NodeType::Simultaneous});
  for (std::uint32_t i = 1; i <= 100; ++i) {
    spec.nodes[0].plugs.push_back({PlugKind::Child, i, ""});
    test::BuildNode node{.name = reader};
    // Other parameters first, as real nodes have them: a search by name passes them.
    node.properties = {{ParamType::Float, "Radius", 1.0f}, {ParamType::Float, "Range", 2.0f}};
    node.inputs = {{ParamType::Float, "Height", -1, 0, 0, 0.0f},
                   {ParamType::Float, "Speed", -1, 0, 0x80000000u, 0.0f},
                   {ParamType::Vec3f, "Dir", -1, 0, 0, Vec3f{1, 0, 0}}};
    node.outputs = {{ParamType::Float, "Distance"}, {ParamType::Float, "Out"}};
    spec.nodes.push_back(node);
  }
  return built_graph(spec);
}

// A state machine: 100 user nodes that succeed at once, each leading to the next by a
// transition (the last to the first), taken before the next calculation: one state a frame.
std::shared_ptr<const Graph> ring100() {
  test::AinbSpec spec;
  spec.file_name = "ring100";
  spec.commands = {{"Root", 0, {}}};
  for (std::uint32_t i = 0; i < 100; ++i) {
    test::BuildNode state{.name = "Succeed"};
    state.plugs = {transition((i + 1) % 100, i)};
    spec.nodes.push_back(state);
    spec.transitions.push_back({1, ""});
  }
  return built_graph(spec);
}

// Fork and Join: an Element_Fork starts four paths, each a Sequential of 25 user nodes that
// succeed at once; each path then moves to an Element_Join (InFlowNum 4), which leads back to the
// Fork after the calculation (post calc). A round is two frames: the Fork's, then the paths'.
std::shared_ptr<const Graph> fork_join4x25() {
  constexpr std::uint32_t kPaths = 4, kSteps = 25;
  constexpr std::uint32_t kJoin = 1 + kPaths * (kSteps + 1);
  test::AinbSpec spec;
  spec.file_name = "fork_join4x25";
  spec.commands = {{"Root", 0, {}}};
  spec.nodes.push_back(test::BuildNode{.type = NodeType::Fork});
  for (std::uint32_t p = 0; p < kPaths; ++p) {
    const auto path = static_cast<std::uint32_t>(spec.nodes.size());
    spec.nodes[0].plugs.push_back(transition(path, p));
    test::BuildNode seq{.type = NodeType::Sequential};
    seq.properties = {{ParamType::Bool, "IsUpdateNextInFrame", true}};
    for (std::uint32_t k = 1; k <= kSteps; ++k)
      seq.plugs.push_back({PlugKind::Child, path + k, ""});
    seq.plugs.push_back(transition(kJoin, kPaths + p));
    spec.nodes.push_back(seq);
    for (std::uint32_t k = 1; k <= kSteps; ++k)
      spec.nodes.push_back(test::BuildNode{.name = "Succeed"});
  }
  test::BuildNode join{.type = NodeType::Join};
  join.properties = {{ParamType::Int, "InFlowNum", std::int32_t{kPaths}}};
  join.plugs = {transition(0, 2 * kPaths)};
  spec.nodes.push_back(join);
  spec.transitions.assign(2 * kPaths, {1, ""});
  spec.transitions.push_back({test::kPostCalc, ""});
  return built_graph(spec);
}

// The cases built here rather than read from the corpus, by name: each is a benchmark, and
// --profile takes its name.
using GraphFactory = std::function<std::shared_ptr<const Graph>()>;
const std::vector<std::pair<std::string, GraphFactory>>& built_cases() {
  static const std::vector<std::pair<std::string, GraphFactory>> cases = {
      {"sequence100", [] { return hundred(NodeType::Sequential, "Succeed"); }},
      {"simultaneous100", [] { return hundred(NodeType::Simultaneous, "Run"); }},
      {"general_frame/sequence100", [] { return hundred(NodeType::Sequential, "Succeed", true); }},
      {"general_frame/simultaneous100",
       [] { return hundred(NodeType::Simultaneous, "Run", true); }},
      {"general_frame/ring100", ring100},
      {"parameters/by_name", [] { return parameters100("ReadByName"); }},
      {"parameters/by_handle", [] { return parameters100("ReadByHandle"); }},
      {"general_frame/fork_join4x25", fork_join4x25},
  };
  return cases;
}

// Runs `frames` frames of `instance`, restarting commands as they end (round robin, by index as
// a game loop would: Instance::start(std::size_t)).
void drive(Instance& instance, std::uint64_t frames, std::size_t& next_command) {
  const auto commands = instance.graph().model().commands.size();
  for (std::uint64_t f = 0; f < frames; ++f) {
    if (commands != 0 && instance.state() != CommandState::Running) {
      // A compare, not `% commands`: the division would be timed with each restart
      // (docs/benchmarks.md, "The harness's round robin").
      instance.start(next_command);
      if (++next_command == commands) next_command = 0;
    }
    instance.tick();
  }
}

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
    ainb::runtime::MemoryResource* objects;
    void operator()(Instance* actor) const {
      actor->~Instance();
      objects->deallocate(actor, sizeof(Instance), alignof(Instance));
    }
  };
  std::vector<std::unique_ptr<Instance, Destroy>> instances;
  std::vector<std::size_t> next_command;
  Actors(const std::shared_ptr<const Graph>& graph, Observer* observer, std::size_t count,
         bool in_arena = false)
      : next_command(count, 0) {
    if (in_arena) {
      arena = std::make_unique<boost::container::pmr::monotonic_buffer_resource>(
          count * (sizeof(Instance) + Instance::block_size(*graph) + 64));
    }
    ainb::runtime::MemoryResource* objects =
        in_arena ? arena.get() : boost::container::pmr::new_delete_resource();
    instances.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
      const InstanceOptions options{.seed = i, .observer = observer, .memory = arena.get()};
      void* place = objects->allocate(sizeof(Instance), alignof(Instance));
      instances.emplace_back(new (place) Instance(graph, options), Destroy{objects});
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

// corpus_steady and --steady: stubs run this many updates before they succeed, as a game's actions
// last for frames, so most frames update running nodes instead of restarting the tree.
constexpr std::uint32_t kSteadyUpdates = 60;

// The corpus trees as the benchmark runs them: user nodes are stubs, module files found beside
// the roots run for real, the others are stubs.
std::shared_ptr<const Graph> corpus_graph(const std::filesystem::path& path,
                                          std::uint32_t stub_running_updates = 0) {
  NodeRegistry stubs;
  stubs.stub_running_updates = stub_running_updates;
  const DirectoryResolver modules({path.parent_path()});
  const GraphOptions options{.modules = &modules, .missing_modules = MissingModulePolicy::Stub};
  return std::make_shared<const Graph>(load_file(path), stubs, options);
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
