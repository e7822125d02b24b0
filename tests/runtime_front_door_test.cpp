// The front door (runtime/runtime.hpp): a Runtime with classes and lambda nodes loads a real file
// with its modules and runs it; what it refuses, and why.

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ainb/gamedata/use_romfs.hpp"
#include "ainb/runtime/runtime.hpp"
#include "build_paths.hpp"
#include "support/corpus.hpp"
#include "support/scratch.hpp"

using namespace ainb;
using runtime::NodeContext;
using runtime::Result;
using runtime::detail::arrays;  // the graph as the scheduler reads it

namespace {

std::filesystem::path bulk_file(const std::string& name) {
  for (const auto& file : test::corpus_bulk_ainb_files())
    if (file.filename() == name) return file;
  return {};
}

// Which nodes of which file an actor updated, in order ("File #node"), as a trace would say.
struct UpdateLog : runtime::Observer {
  std::vector<std::string> lines;
  void on_update(const runtime::Instance& instance, std::uint32_t node, Result result) override {
    lines.push_back(fmt::format("{} #{} {}", instance.graph().model().name, node,
                                runtime::result_name(result)));
  }
};

}  // namespace

TEST_CASE("the front door runs a real file whose queries are lambda nodes") {
  const auto file = bulk_file("Toby.SelectorPassableRoute.module.ainb");
  if (file.empty()) return;  // corpus missing outside CI (corpus_bulk_ainb_files said so)

  // Two query classes as one-line nodes: line of sight when the check distance is over 20, the
  // straight path always passable. Node 0 selects on the first, node 1 on the second.
  runtime::Runtime runtime;
  std::vector<float> distances;
  runtime.add("QueryPathfindingCheckLineOfSightWithDir", [&](NodeContext& c) {
    distances.push_back(c.input<float>("Distance"));
    c.output<bool>("HasLineOfSight", c.input<float>("Distance") > 20);
    return Result::Success;
  });
  runtime.add("QueryTobyPassableStraightDir", [](NodeContext& c) {
    c.output<bool>("IsPassable", true);
    return Result::Success;
  });
  runtime.add_function("GetBBCodeFloat( Float, Int )", [](std::int32_t) { return 1.0f; });
  UpdateLog log;
  runtime::Instance actor(runtime.load(file.string()), {.observer = &log});
  actor.start("Root");
  CHECK(actor.tick_while_running(10) == runtime::CommandState::Succeeded);
  CHECK(actor.frame() == 1);
  // The blackboard's CheckDistance; the query is calculated for each of its 4 readers, as `ainb
  // run` counts its stub's updates.
  CHECK(distances == std::vector<float>(4, 15.0f));
  const std::string name = file.string();
  auto updates_of = [&](std::uint32_t node) {
    return std::count(log.lines.begin(), log.lines.end(),
                      fmt::format("{} #{} Success", name, node));
  };
  // Without line of sight, node 0 chose node 1, which chose the passable branch (ModuleIF_Child
  // 12; at the top level a ModuleIF_Child has no caller's child to run and succeeds).
  CHECK(updates_of(1) == 1);
  CHECK(updates_of(12) == 1);
  CHECK(updates_of(11) == 0);

  log.lines.clear();
  CHECK(actor.set_float("CheckDistance", 30));
  actor.start("Root");
  CHECK(actor.tick_while_running(10) == runtime::CommandState::Succeeded);
  CHECK(distances.size() == 8);
  CHECK(distances.back() == 30.0f);
  CHECK(updates_of(11) == 1);  // line of sight: the True branch
  CHECK(updates_of(1) == 0);
}

namespace {

// The module calls a graph resolved (missing ones run as stubs), by file name.
std::vector<std::string> called_files(const runtime::Graph& graph) {
  std::vector<std::string> files;
  for (const auto* module : graph.module_graphs())
    files.push_back(std::filesystem::path(module->model().name).filename().string());
  return files;
}

}  // namespace

TEST_CASE("the front door finds modules in the folders added, else in the file's own folder") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  // Toby.action.basicattack calls 9 modules; the corpus holds one of them beside it, called by
  // nodes 55 and 59.
  const auto file = (corpus / "ainb/Toby.action.basicattack.module.ainb").string();
  const std::vector<std::string> found(2, "_LocalModule_d0e7ebe89ded.module.ainb");
  runtime::Runtime runtime;
  std::vector<std::string> said;
  runtime.set_log([&](const runtime::LogEvent& e) { said.emplace_back(e.subject); });
  CHECK_THROWS_WITH_AS(runtime.load(file),
                       doctest::Contains("node 24 calls module "
                                         "\"Toby.action.basicattack.preaction.module.ainb\", "
                                         "which was not found"),
                       LoadError);
  said.clear();
  runtime.options().missing_modules = runtime::MissingModulePolicy::Stub;
  int positions = 0;
  runtime.add("QueryActorGetPosition", [&](NodeContext&) { return ++positions, Result::Success; });
  const auto graph = runtime.load(file);
  CHECK(called_files(*graph) == found);
  // Once per missing module and unregistered function of each file, to the runtime's sink.
  CHECK(said ==
        std::vector<std::string>{
            "GetBBCodeInt( Int, Int )", "GetBBCodeFloat( Float, Int )",
            "Toby.action.basicattack.preaction.module.ainb",
            "_LocalModule_91370975f24e.module.ainb", "_LocalModule_85bf9bb2b929.module.ainb",
            "_LocalModule_5e15204dbe2c.module.ainb", "Toby.SelectorPassableRoute.module.ainb",
            "Toby.QueryIsGroundInFront.module.ainb", "_LocalModule_db010ba9c141.module.ainb",
            "Toby.QueryUserPerceptionIsInside.module.ainb"});
  CHECK(arrays(*graph).module_calls()[0].node == 55);
  runtime::Instance actor(graph);
  actor.start("Root");
  CHECK(actor.tick_while_running(30) == runtime::CommandState::Succeeded);
  CHECK(actor.frame() == 1);
  CHECK(positions == 10);  // as `ainb run` counts the stub's updates

  runtime::Runtime elsewhere;  // a folder added replaces the file's own
  elsewhere.options().missing_modules = runtime::MissingModulePolicy::Stub;
  elsewhere.add_module_folder(test::fresh_dir("front_door_no_modules"));
  CHECK(elsewhere.load(file)->module_graphs().empty());
  elsewhere.add_module_folder(corpus / "ainb");  // searched after the first
  CHECK(called_files(*elsewhere.load(file)) == found);
}

TEST_CASE("the front door opens a pack member through the game-data layer") {
  const auto corpus = test::corpus_dir();
  if (corpus.empty()) return;
  const auto pack = corpus / "packs/Npc_TripMaster_02.pack.zs";
  runtime::Runtime runtime;
  runtime.options().missing_modules = runtime::MissingModulePolicy::Stub;  // NPCCommon's
  gamedata::use_romfs(runtime, {}, corpus / "zsdic");
  const auto graph = runtime.load(pack.string() + ":AI/NpcTripMaster.utility.root.ainb");
  CHECK(graph->model().name == pack.string() + ":AI/NpcTripMaster.utility.root.ainb");
  runtime::Instance actor(graph);
  actor.start(std::size_t{0});
  CHECK(actor.state() == runtime::CommandState::Running);
  // A member the pack lacks is the game-data layer's error.
  CHECK_THROWS_WITH_AS(runtime.load(pack.string() + ":AI/Nothing.ainb"),
                       doctest::Contains("the pack has no file AI/Nothing.ainb"), LoadError);
}

namespace {

class EntersWithoutSayingSo : public runtime::NodeClass {
 public:
  EntersWithoutSayingSo() : NodeClass(kUpdateOnly) {}
  void enter(NodeContext&) override {}
  Result update(NodeContext&) override { return Result::Success; }
};
struct Frames {
  int left;
};
class LeavesWithoutSayingSo : public runtime::StatefulNodeClass<Frames> {
 public:
  LeavesWithoutSayingSo() : StatefulNodeClass(kEnter) {}
  void on_enter(NodeContext&, Frames&) override {}
  Result on_update(NodeContext&, Frames&) override { return Result::Success; }
  void on_leave(NodeContext&, Frames&) override {}
};
class SaysSo : public runtime::StatefulNodeClass<Frames> {
 public:
  SaysSo() : StatefulNodeClass(kEnter) {}
  void on_enter(NodeContext&, Frames&) override {}
  Result on_update(NodeContext&, Frames&) override { return Result::Success; }
};

}  // namespace

TEST_CASE("a class overriding a hook its Hooks leave out is refused when it is added") {
  runtime::Runtime runtime;
  CHECK_THROWS_WITH_AS(runtime.add<EntersWithoutSayingSo>("Wait"),
                       "node class \"Wait\" overrides enter but its hooks leave it out, so it "
                       "would never be called: construct it with NodeClass::kEnter (or "
                       "kEnterAndLeave)",
                       std::invalid_argument);
  runtime::NodeRegistry registry;  // the registry checks the same
  CHECK_THROWS_WITH_AS(registry.add("Turn", std::make_shared<LeavesWithoutSayingSo>()),
                       "node class \"Turn\" overrides leave but its hooks leave it out, so it "
                       "would never be called: construct it with NodeClass::kLeave (or "
                       "kEnterAndLeave)",
                       std::invalid_argument);
  CHECK(registry.find("Turn") == nullptr);
  CHECK_NOTHROW(runtime.add<SaysSo>("Fine"));
  CHECK(runtime.registry().find("Fine") != nullptr);
  static_assert(runtime::overridden_hooks<SaysSo>() == runtime::NodeClass::kEnter);
  static_assert(runtime::overridden_hooks<EntersWithoutSayingSo>() == runtime::NodeClass::kEnter);
  static_assert(runtime::overridden_hooks<LeavesWithoutSayingSo>() ==
                runtime::NodeClass::kEnterAndLeave);
}

TEST_CASE("tick_while_running stops at the command's end or the frame limit") {
  runtime::Runtime runtime;
  int updates = 0;
  runtime.add("MoveTo",
              [&](NodeContext&) { return ++updates < 5 ? Result::Running : Result::Failure; });
  const auto graph = runtime.load((ainb::test::examples_dir() / "patrol.root.ainb").string());
  runtime::Instance actor(graph);
  CHECK(actor.tick_while_running(3) == runtime::CommandState::Idle);  // nothing started
  CHECK(actor.frame() == 0);
  actor.start("Root");
  CHECK(actor.tick_while_running(3) == runtime::CommandState::Running);
  CHECK(actor.frame() == 3);
  // The walk fails on its 5th update: the patrol's Sequential fails, and so does the command.
  CHECK(actor.tick_while_running(100) == runtime::CommandState::Failed);
  CHECK(actor.frame() == 5);
  CHECK(updates == 5);
}
