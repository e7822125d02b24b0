// Hot reload (Runtime::reload, Instance::switch_to_latest): an edit of a file reaches running
// actors at their next start or on request, their blackboard kept; a file that fails to load keeps
// the old graph; a module's edit is read with its caller; actors ticking on two threads move over
// while the file is reloaded (a TSan case in CI).

#include <atomic>
#include <thread>

#include <doctest/doctest.h>

#include "ainb/runtime/runtime.hpp"
#include "runtime_probe.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

// The probes' log and the instance's commands and reloads, in order.
struct ReloadLog : Observer {
  Log& log;
  explicit ReloadLog(Log& l) : log(l) {}
  void on_command(const Instance&, std::string_view name) override {
    log.push_back(fmt::format("command {}", name));
  }
  void on_reload(const Instance& instance) override {
    log.push_back(fmt::format("reload ({} nodes)", instance.graph().model().nodes.size()));
  }
};

// "Root": a Bool selector on the blackboard's Flag (default false), its True plug to `yes` and its
// False plug to "No".
std::vector<std::uint8_t> patrol(const std::string& yes) {
  AinbSpec spec;
  spec.file_name = "Patrol.root";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Flag", false}, {BlackboardType::String, "Say", ""}};
  spec.nodes = {flag_selector(), user(yes), user("No")};
  return build(spec);
}

struct Fixture {
  Log log;
  ReloadLog observer{log};
  Runtime runtime;
  std::filesystem::path file = fresh_dir("reload") / "Patrol.root.ainb";

  Fixture() {
    for (const auto* name : {"Yes", "Charge", "No"})
      runtime.add<Probe>(name, name, log, std::vector<Result>{R, R, S});
  }
  Log step(const std::function<void()>& action) {
    log.clear();
    action();
    return log;
  }
};

}  // namespace

TEST_CASE("an edit reaches a running actor at its next start, its blackboard kept") {
  Fixture f;
  write_file(f.file, patrol("Yes"));
  const auto graph = f.runtime.load(f.file.string());
  Instance actor(graph, {.observer = &f.observer});
  CHECK(actor.set_bool("Flag", true));
  CHECK(actor.set_string("Say", "halt"));
  CHECK(f.step([&] { actor.start("Root"); }) == Log{"command Root", "enter Yes"});
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Yes"});

  // The designer changes the True branch and saves.
  write_file(f.file, patrol("Charge"));
  const auto reload = f.runtime.reload(f.file.string());
  REQUIRE(reload);
  CHECK(reload.error.empty());
  CHECK(graph->successor() == reload.graph);
  CHECK(Graph::latest(graph) == reload.graph);

  // The running command goes on with the graph it started with.
  CHECK(&actor.graph() == graph.get());
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Yes"});
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Yes", "leave Yes"});
  CHECK(actor.state() == CommandState::Succeeded);

  // Its next start moves it: the edited branch runs, chosen by the Flag it kept.
  CHECK(f.step([&] { actor.start("Root"); }) ==
        Log{"reload (3 nodes)", "command Root", "enter Charge"});
  CHECK(&actor.graph() == reload.graph.get());
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Charge"});
  CHECK(actor.frame() == 4);  // the actor's frames go on
  CHECK(std::get<std::string_view>(*actor.blackboard("Say")) == "halt");

  // An actor created from the first graph's handle runs the newest.
  Instance late(graph);
  CHECK(&late.graph() == reload.graph.get());

  // The start by index names a command of the graph the actor ran; it starts the same command.
  write_file(f.file, patrol("Yes"));
  REQUIRE(f.runtime.reload(f.file.string()));
  CHECK(f.step([&] { actor.start(std::size_t{0}); }) ==
        Log{"leave Charge", "reload (3 nodes)", "command Root", "enter Yes"});
}

TEST_CASE("switch_to_latest moves a running actor now and restarts its command") {
  Fixture f;
  write_file(f.file, patrol("Yes"));
  Instance actor(f.runtime.load(f.file.string()), {.observer = &f.observer});
  actor.set_bool("Flag", true);
  actor.start("Root");
  actor.tick();
  CHECK_FALSE(actor.switch_to_latest());  // nothing newer yet

  write_file(f.file, patrol("Charge"));
  REQUIRE(f.runtime.reload(f.file.string()));
  CHECK(f.step([&] { CHECK(actor.switch_to_latest()); }) ==
        Log{"leave Yes", "reload (3 nodes)", "command Root", "enter Charge"});
  CHECK(actor.state() == CommandState::Running);
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Charge"});

  // An actor whose command ended moves without starting one.
  actor.tick();
  actor.tick();
  REQUIRE(actor.state() == CommandState::Succeeded);
  write_file(f.file, patrol("Yes"));
  REQUIRE(f.runtime.reload(f.file.string()));
  CHECK(f.step([&] { CHECK(actor.switch_to_latest()); }) == Log{"reload (3 nodes)"});
  CHECK(actor.state() == CommandState::Idle);
}

TEST_CASE("a file that fails to load keeps the old graph and says why") {
  Fixture f;
  write_file(f.file, patrol("Yes"));
  const auto graph = f.runtime.load(f.file.string());
  Instance actor(graph, {.observer = &f.observer});
  actor.set_bool("Flag", true);

  // Saved half-written: the file is cut short.
  auto bytes = patrol("Charge");
  bytes.resize(0x30);
  write_file(f.file, bytes);
  auto reload = f.runtime.reload(f.file.string());
  CHECK_FALSE(reload);
  CHECK(reload.graph == nullptr);
  CHECK(reload.error == f.file.string() +
                            ": header at offset 0x0: file is 48 bytes, too small for the 0x74-byte "
                            "header");
  CHECK_FALSE(graph->has_successor());
  CHECK(f.step([&] { actor.start("Root"); }) == Log{"command Root", "enter Yes"});

  // A class the registry refuses (strict policy): the same.
  f.runtime.registry().unknown_classes = UnknownClassPolicy::Strict;
  write_file(f.file, patrol("Unknown"));
  reload = f.runtime.reload(f.file.string());
  CHECK_FALSE(reload);
  CHECK(reload.error == f.file.string() +
                            ": nodes at offset 0xc8: node 1 uses class \"Unknown\", which no node "
                            "class is registered for (strict policy)");
  CHECK_FALSE(graph->has_successor());

  // The next good save is the successor of the graph the actors run.
  write_file(f.file, patrol("Charge"));
  REQUIRE(f.runtime.reload(f.file.string()));
  CHECK(f.step([&] { actor.stop(); }) == Log{"leave Yes"});
  CHECK(f.step([&] { actor.start("Root"); }) ==
        Log{"reload (3 nodes)", "command Root", "enter Charge"});
}

TEST_CASE("a reload reads the file's modules again") {
  Fixture f;
  AinbSpec root;
  root.file_name = "Caller.root";
  root.commands = {{"Main", 0, {}}};
  root.nodes = {BuildNode{.name = "Step.module", .flags = node_flags::kIsModule}};
  root.modules = {{"Step.module.ainb"}};
  auto module = [](const std::string& does) {
    AinbSpec spec;
    spec.file_name = "Step.module";
    spec.commands = {{"Run", 0, {}}};
    spec.nodes = {user(does)};
    return build(spec);
  };
  const auto folder = f.file.parent_path();
  write_file(folder / "Caller.root.ainb", build(root));
  write_file(folder / "Step.module.ainb", module("Yes"));
  const auto path = (folder / "Caller.root.ainb").string();
  Instance actor(f.runtime.load(path));
  actor.start("Main");
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Yes"});

  // Only the module changed; reloading its caller reads it again.
  write_file(folder / "Step.module.ainb", module("Charge"));
  REQUIRE(f.runtime.reload(path));
  actor.switch_to_latest();
  CHECK(f.step([&] { actor.tick(); }) == Log{"update Charge"});
}

TEST_CASE("a Logic file moves on request: its roots left, then entered on the new graph") {
  Fixture f;
  auto logic = [](const std::string& root) {
    AinbSpec spec;
    spec.file_name = "Group.logic.root";
    spec.blackboard = {{BlackboardType::S32, "Wave", 0}};
    spec.nodes = {user(root)};
    return build(spec);
  };
  Instance group(f.runtime.load(logic("Yes"), "Group.logic.root.ainb"), {.observer = &f.observer});
  CHECK(group.state() == CommandState::Running);
  group.set_int("Wave", 3);
  CHECK(f.step([&] { group.tick(); }) == Log{"update Yes"});
  REQUIRE(f.runtime.reload(logic("Charge"), "Group.logic.root.ainb"));
  // A Logic file has no command to start: it moves only on request.
  CHECK(f.step([&] { group.tick(); }) == Log{"update Yes"});
  CHECK(f.step([&] { CHECK(group.switch_to_latest()); }) ==
        Log{"leave Yes", "reload (1 nodes)", "enter Charge"});
  CHECK(group.state() == CommandState::Running);
  CHECK(std::get<std::int32_t>(*group.blackboard("Wave")) == 3);
  CHECK(f.step([&] { group.tick(); }) == Log{"update Charge"});
}

TEST_CASE("a file loaded from bytes reloads by its name") {
  Fixture f;
  const auto bytes = patrol("Yes");
  Instance actor(f.runtime.load(bytes, "Patrol.root.ainb"), {.observer = &f.observer});
  actor.set_bool("Flag", true);
  actor.start("Root");
  REQUIRE(f.runtime.reload(patrol("Charge"), "Patrol.root.ainb"));
  CHECK(f.step([&] { actor.switch_to_latest(); }) ==
        Log{"leave Yes", "reload (3 nodes)", "command Root", "enter Charge"});
}

TEST_CASE("hot reload while actors tick on two threads: each moves over at its next start") {
  // Each actor counts its reloads; the classes share nothing (a flyweight keeps no state).
  struct Count : Observer {
    std::uint32_t reloads = 0;
    void on_reload(const Instance&) override { ++reloads; }
  };
  Runtime runtime;
  runtime.add("Yes", [](NodeContext&) { return S; });
  runtime.add("Charge", [](NodeContext&) { return S; });
  runtime.add("No", [](NodeContext&) { return S; });
  const auto file = fresh_dir("reload-threads") / "Patrol.root.ainb";
  write_file(file, patrol("Yes"));
  const auto first = runtime.load(file.string());

  constexpr std::size_t kActors = 8;
  std::vector<Count> counts(kActors);
  std::vector<std::unique_ptr<Instance>> actors;
  for (std::size_t i = 0; i < kActors; ++i)
    actors.push_back(std::make_unique<Instance>(first, InstanceOptions{.observer = &counts[i]}));
  std::atomic<bool> done = false;
  std::atomic<int> frames[2] = {0, 0};
  auto game = [&](std::size_t half) {
    while (!done.load()) {
      for (std::size_t i = half * kActors / 2; i < (half + 1) * kActors / 2; ++i) {
        // Every frame starts each actor again (its command ends in one).
        actors[i]->start("Root");
        actors[i]->tick();
      }
      ++frames[half];
    }
  };
  std::thread one(game, 0), two(game, 1);
  constexpr int kReloads = 20;
  for (int k = 0; k < kReloads; ++k) {
    write_file(file, patrol(k % 2 == 0 ? "Charge" : "Yes"));
    REQUIRE(runtime.reload(file.string()));
    const int seen[2] = {frames[0].load(), frames[1].load()};
    while (frames[0].load() < seen[0] + 2 || frames[1].load() < seen[1] + 2)
      std::this_thread::yield();
  }
  done = true;
  one.join();
  two.join();
  const auto last = Graph::latest(first);
  CHECK(last->model().nodes[1].name == "Yes");
  for (std::size_t i = 0; i < kActors; ++i) {
    // Two frames after each reload: each actor moved at one of them, at most once per reload.
    CHECK(&actors[i]->graph() == last.get());
    CHECK(counts[i].reloads >= 1);
    CHECK(counts[i].reloads <= kReloads);
  }
}
