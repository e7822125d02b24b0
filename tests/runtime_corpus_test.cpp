// Every corpus file (with the module files it calls) run for hundreds of frames: the runtime's
// invariants on every event, quiet and observed runs that agree, ticks that allocate nothing, and
// many instances on several threads that give the traces they give on one.

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "allocation_counter.hpp"
#include "corpus.hpp"
#include "runtime_corpus.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;
using runtime::detail::arrays;  // the graph as the scheduler reads it

namespace {

// Checks the runtime's guarantees on every event (docs/semantics.md, "Frames, results and calls"),
// across the module sub-instances of an actor.
struct InvariantObserver : Observer {
  std::map<std::pair<const Instance*, std::uint32_t>, int> active;
  std::vector<std::string> violations;
  std::size_t events = 0, module_events = 0, switches = 0;
  std::string where(const Instance& i, std::uint32_t n) const {
    return fmt::format("{} node {} (frame {})", i.graph().file_name(), n, i.frame());
  }
  void count(const Instance& i) {
    ++events;
    if (i.parent() != nullptr) ++module_events;
  }
  void on_command(const Instance& i, std::string_view) override {
    if (i.parent() != nullptr) return;
    ++switches;  // a top-level command starts only after everything was left
    for (const auto& [key, a] : active) {
      if (a != 0) violations.push_back(where(*key.first, key.second) + " active at a switch");
    }
  }
  void on_enter(const Instance& i, std::uint32_t n) override {
    count(i);
    if (active[{&i, n}]++ != 0) violations.push_back(where(i, n) + " entered twice");
    // Only the states Graph::reached_states counts are entered (the epoch sweep skips the rest).
    if (arrays(i.graph()).nodes()[n].state_index >= arrays(i.graph()).reached_states())
      violations.push_back(where(i, n) + " entered, though its state is past the reached ones");
  }
  void on_update(const Instance& i, std::uint32_t n, Result) override {
    count(i);
    if (active[{&i, n}] == 0) violations.push_back(where(i, n) + " updated before enter");
  }
  void on_leave(const Instance& i, std::uint32_t n) override {
    count(i);
    if (active[{&i, n}]-- != 1) violations.push_back(where(i, n) + " left while inactive");
  }
};

}  // namespace

TEST_CASE("every corpus file runs 600 frames with stub nodes, keeping the invariants") {
  std::size_t files = 0, module_events = 0;
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  // Stubs run no children, then pass through to their first (an event's Execute wrapper), so
  // the trees below user classes keep the invariants too.
  for (const bool stub_children : {false, true})
    for (const auto& path : ainb::test::corpus_ainb_files()) {
      CAPTURE(path.filename().string());
      CAPTURE(stub_children);
      const auto model = load_file(path);
      NodeRegistry registry;
      registry.stub_runs_first_child = stub_children;
      const auto graph = std::make_shared<Graph>(model, registry, corpus_options(resolver));
      InvariantObserver observer;
      {
        Instance instance(graph, InstanceOptions{1, nullptr, &observer});
        const auto& commands = model->commands;
        for (std::size_t frame = 0; frame < 600; ++frame) {
          // Cycle through the commands so every one runs, and switches happen mid-run.
          if (!commands.empty() && frame % 50 == 0) {
            instance.start(commands[(frame / 50) % commands.size()].name);
          }
          instance.tick();
        }
      }  // destruction leaves everything
      for (const auto& v : observer.violations)
        FAIL_CHECK(v);
      const auto still_active = std::count_if(observer.active.begin(), observer.active.end(),
                                              [](const auto& a) { return a.second != 0; });
      CHECK(still_active == 0);
      CHECK(observer.events > 0);
      CHECK(observer.switches == (model->commands.empty() ? 0u : 12u));
      module_events += observer.module_events;
      ++files;
    }
  // Toby.action.basicattack calls the corpus's _LocalModule_d0e7ebe89ded twice.
  CHECK(module_events > 0);
  MESSAGE(files << " runs of corpus files, 600 frames each; " << module_events
                << " events inside real module files");
}

namespace {

// Every node's active flag, the module calls' sub-instances' included, depth first.
void collect_active(const Instance& instance, std::vector<bool>& out) {
  for (std::uint32_t n = 0; n < arrays(instance.graph()).nodes().size(); ++n) {
    out.push_back(instance.is_active(n));
    if (const auto* sub = instance.module_instance(n)) collect_active(*sub, out);
  }
}

}  // namespace

TEST_CASE("quiet and observed runs of every corpus file agree after every frame") {
  // Without an observer the instance takes its short paths (plain nodes, plain composites, the
  // flag byte of its first cache line); with one, the general paths. The same run must leave the
  // same command state, nodes active and blackboard after every frame either way.
  struct Watching : Observer {};  // attached, records nothing
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::size_t frames = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    for (const std::uint32_t stub_updates : {0u, 2u, 40u}) {
      CAPTURE(path.filename().string());
      CAPTURE(stub_updates);
      NodeRegistry registry;
      registry.stub_running_updates = stub_updates;
      const auto graph =
          std::make_shared<Graph>(load_file(path), registry, corpus_options(resolver));
      Watching watching;
      Instance quiet(graph, InstanceOptions{5, nullptr, nullptr});
      Instance observed(graph, InstanceOptions{5, nullptr, &watching});
      const auto& model = graph->model();
      std::size_t next = 0;
      for (int frame = 0; frame < 400; ++frame, ++frames) {
        if (!model.commands.empty() && quiet.state() != CommandState::Running) {
          const auto& name = model.commands[next++ % model.commands.size()].name;
          quiet.start(name);
          observed.start(name);
        }
        quiet.tick();
        observed.tick();
        CAPTURE(frame);
        REQUIRE(quiet.state() == observed.state());
        std::vector<bool> quiet_active, observed_active;
        collect_active(quiet, quiet_active);
        collect_active(observed, observed_active);
        REQUIRE(quiet_active == observed_active);
        for (const auto& entry : model.blackboard.entries)
          REQUIRE(*quiet.blackboard(entry.name) == *observed.blackboard(entry.name));
      }
    }
  }
  CHECK(frames == 400 * 3 * ainb::test::corpus_ainb_files().size());
}

namespace {

// What coverage needs of a run: the nodes entered, the decisions taken and the other events, by
// file. A full observer records them as they happen; one without node events reads
// Instance::was_entered at the end, and one without branch events Instance::branch_taken too.
struct Reached : Observer {
  Reached(bool node_events, bool branch_events)
      : node_events_(node_events), branch_events_(branch_events) {}
  bool node_events() const override { return node_events_; }
  bool branch_events() const override { return branch_events_; }
  using Place = std::pair<std::string, std::uint32_t>;
  std::set<Place> entered;
  std::set<std::pair<Place, std::uint32_t>> taken;  // (file, node), plug
  std::vector<std::string> events;                  // commands, branches, transitions, in order
  std::vector<std::string> others;                  // the same without branches
  std::size_t node_calls = 0;
  void on_command(const Instance& i, std::string_view name) override {
    log(fmt::format("{} command {}", i.graph().file_name(), name));
  }
  void on_enter(const Instance& i, std::uint32_t n) override {
    ++node_calls;
    entered.insert({std::string(i.graph().file_name()), n});
  }
  void on_update(const Instance&, std::uint32_t, Result) override { ++node_calls; }
  void on_leave(const Instance&, std::uint32_t) override { ++node_calls; }
  void on_branch(const Instance& i, std::uint32_t n, std::uint32_t plug) override {
    events.push_back(fmt::format("{} #{} plug {}", i.graph().file_name(), n, plug));
    taken.insert({{std::string(i.graph().file_name()), n}, plug});
  }
  void on_transition(const Instance& i, std::uint32_t from, std::uint32_t to) override {
    log(fmt::format("{} #{} -> #{}", i.graph().file_name(), from, to));
  }
  void read_entered(const Instance& i) {
    for (std::uint32_t n = 0; n < arrays(i.graph()).nodes().size(); ++n) {
      if (i.was_entered(n)) entered.insert({std::string(i.graph().file_name()), n});
      if (const auto* sub = i.module_instance(n)) read_entered(*sub);
    }
  }
  void read_taken(const Instance& i) {
    for (std::uint32_t n = 0; n < arrays(i.graph()).nodes().size(); ++n) {
      for (std::uint32_t k = 0; k < arrays(i.graph()).children(n).size(); ++k) {
        if (i.branch_taken(n, k)) taken.insert({{std::string(i.graph().file_name()), n}, k});
      }
      if (const auto* sub = i.module_instance(n)) read_taken(*sub);
    }
  }

 private:
  void log(std::string line) {
    others.push_back(line);
    events.push_back(std::move(line));
  }
  bool node_events_, branch_events_;
};

}  // namespace

TEST_CASE(
    "observers without node or branch events: the same run, what it reached read at the end") {
  // Every real file with the modules the corpus has, stubs passing through to their first child
  // after a few Running updates, every command in turn: the observer that takes no node events
  // (the short paths run) hears the same commands, branches and transitions in the same order,
  // and Instance::was_entered names the nodes the full observer saw entered; one that takes no
  // branch events either hears the rest, and Instance::branch_taken names the decisions taken.
  const DirectoryResolver resolver(ainb::test::real_ainb_folders());
  std::size_t files = 0, entered = 0, events = 0, taken = 0;
  for (const auto& path : ainb::test::all_real_ainb_files()) {
    CAPTURE(path.filename().string());
    NodeRegistry registry;
    registry.stub_runs_first_child = true;
    registry.stub_running_updates = 2;
    const auto graph = std::make_shared<Graph>(load_file(path), registry, corpus_options(resolver));
    Reached full(true, true), lean(false, true), bits(false, false);
    {
      Instance a(graph, InstanceOptions{7, nullptr, &full});
      Instance b(graph, InstanceOptions{7, nullptr, &lean});
      Instance c(graph, InstanceOptions{7, nullptr, &bits});
      const auto& commands = graph->model().commands;
      for (std::size_t frame = 0; frame < 240; ++frame) {
        if (!commands.empty() && frame % 40 == 0) {
          for (auto* i : {&a, &b, &c})
            i->start(commands[(frame / 40) % commands.size()].name);
        }
        for (auto* i : {&a, &b, &c})
          i->tick();
      }
      lean.read_entered(b);
      bits.read_entered(c);
      bits.read_taken(c);
    }
    CHECK(lean.node_calls == 0);
    CHECK(lean.events == full.events);
    CHECK(lean.entered == full.entered);
    CHECK(bits.node_calls == 0);
    CHECK(bits.events == full.others);
    CHECK(bits.entered == full.entered);
    CHECK(bits.taken == full.taken);
    entered += full.entered.size();
    events += full.events.size();
    taken += full.taken.size();
    ++files;
  }
  CHECK(files == ainb::test::all_real_ainb_files().size());
  CHECK(events > files);
  CHECK(taken > files);
  MESSAGE(files << " real files, " << entered << " nodes entered, " << events
                << " commands, branches and transitions, " << taken << " decisions");
}

TEST_CASE("ticks allocate nothing: every corpus file with its modules, commands switching") {
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::size_t frames = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    CAPTURE(path.filename().string());
    const auto graph =
        std::make_shared<Graph>(load_file(path), NodeRegistry{}, corpus_options(resolver));
    Instance instance(graph, InstanceOptions{3, nullptr, nullptr});
    const auto& commands = graph->model().commands;
    auto run = [&](std::size_t count) {
      for (std::size_t frame = 0; frame < count; ++frame, ++frames) {
        if (!commands.empty() && frame % 20 == 0) {
          instance.start(commands[(frame / 20) % commands.size()].name);
        }
        instance.tick();
      }
    };
    // A first pass through every command: once-only warnings (missing user functions,
    // Element_Alert messages) may allocate in the logger.
    run(20 * std::max<std::size_t>(commands.size(), 1));
    const auto before = ainb::test::allocations();
    run(600);
    CHECK(ainb::test::allocations() - before == 0);
  }
  MESSAGE(frames << " frames ticked");
}

namespace {

struct Trace : Observer {
  std::vector<std::uint64_t> events;  // (kind << 32) | node
  void on_enter(const Instance&, std::uint32_t n) override { events.push_back((1ull << 32) | n); }
  void on_update(const Instance&, std::uint32_t n, Result r) override {
    events.push_back((static_cast<std::uint64_t>(2 + static_cast<int>(r)) << 32) | n);
  }
  void on_leave(const Instance&, std::uint32_t n) override { events.push_back((9ull << 32) | n); }
};

// Runs instance `i` of `graph` for 300 frames, restarting commands round robin.
std::vector<std::uint64_t> run_traced(const std::shared_ptr<const Graph>& graph, std::size_t i) {
  Trace trace;
  {
    Instance instance(graph, InstanceOptions{i, nullptr, &trace});
    const auto& commands = graph->model().commands;
    std::size_t next = i;
    for (int frame = 0; frame < 300; ++frame) {
      if (!commands.empty() && instance.state() != CommandState::Running) {
        instance.start(commands[next++ % commands.size()].name);
      }
      instance.tick();
    }
  }
  return trace.events;
}

}  // namespace

TEST_CASE(
    "many instances of several shared graphs on four threads give the same traces as on one") {
  // Every corpus file (module calls and EXB expressions among them) built once and shared: each
  // instance runs alone first, then all of them at once on four threads (TSan in CI: .ci/run).
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  std::vector<std::shared_ptr<const Graph>> graphs;
  std::size_t with_modules = 0, with_expressions = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    graphs.push_back(
        std::make_shared<Graph>(load_file(path), NodeRegistry{}, corpus_options(resolver)));
    with_modules += arrays(*graphs.back()).module_calls().empty() ? 0 : 1;
    with_expressions += arrays(*graphs.back()).program() != nullptr ? 1 : 0;
  }
  if (graphs.empty()) return;
  CHECK(with_modules > 0);
  CHECK(with_expressions > 0);
  constexpr std::size_t kThreads = 4;
  const std::size_t instances = 4 * graphs.size();
  std::vector<std::vector<std::uint64_t>> alone(instances), together(instances);
  for (std::size_t i = 0; i < instances; ++i)
    alone[i] = run_traced(graphs[i % graphs.size()], i);
  auto worker = [&](std::size_t first) {
    for (std::size_t i = first; i < instances; i += kThreads) {
      together[i] = run_traced(graphs[i % graphs.size()], i);
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (auto& t : threads)
    t.join();
  std::size_t events = 0;
  for (std::size_t i = 0; i < instances; ++i) {
    CHECK_MESSAGE(alone[i] == together[i], "instance " << i);
    events += alone[i].size();
  }
  CHECK(events > 0);
  MESSAGE(instances << " instances of " << graphs.size() << " graphs (" << with_modules
                    << " with module calls, " << with_expressions << " with expressions) on "
                    << kThreads << " threads: " << events << " identical events");
}

TEST_CASE("a worker thread makes its EXB machines at its first evaluation, or when prepared") {
  const DirectoryResolver resolver({ainb::test::corpus_dir() / "ainb"});
  const auto graph = std::make_shared<Graph>(
      load_file(ainb::test::corpus_dir() / "ainb" / "Toby.utility.root.ainb"), NodeRegistry{},
      corpus_options(resolver));
  REQUIRE(arrays(*graph).program() != nullptr);
  // Made (and warmed: once-only warnings) on this thread, ticked on others.
  Instance actor(graph, InstanceOptions{1, nullptr, nullptr});
  const auto ticks = [&] {  // the stubs succeed at once: a restart every frame
    for (int frame = 0; frame < 20; ++frame) {
      actor.start(0);
      actor.tick();
    }
  };
  ticks();
  std::size_t unprepared = 0, prepared = 0;
  std::thread([&] {
    const auto before = ainb::test::allocations();
    ticks();
    unprepared = ainb::test::allocations() - before;
  }).join();
  std::thread([&] {
    actor.prepare_thread();
    const auto before = ainb::test::allocations();
    ticks();
    prepared = ainb::test::allocations() - before;
  }).join();
  CHECK(unprepared >= 2);  // the thread's machine and its arena
  CHECK(prepared == 0);
}
