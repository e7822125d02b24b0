// Runtime harness: an AINB file is loaded, built into a graph (user classes and missing modules as
// stubs) and run for 60 frames, starting each command in turn every 15 frames, then stopped.

#include <memory>
#include <vector>

#include "ainb/load_error.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/instance.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_runtime(Bytes data) {
  using namespace ainb::runtime;
  std::shared_ptr<const Graph> graph;
  try {
    auto model = load(std::vector<std::uint8_t>(data.begin(), data.end()), "fuzz.ainb");
    NodeRegistry registry;
    registry.stub_running_updates = 1;
    graph = std::make_shared<Graph>(std::move(model), registry,
                                    GraphOptions{.missing_modules = MissingModulePolicy::Stub});
  } catch (const LoadError&) {
    return;
  }
  Instance instance(graph, InstanceOptions{.seed = data.size()});
  const auto& commands = graph->model().commands;
  for (std::size_t frame = 0; frame < 60; ++frame) {
    if (!commands.empty() && frame % 15 == 0) {
      instance.start(commands[(frame / 15) % commands.size()].name);
    }
    instance.tick();
  }
  instance.stop();
}

}  // namespace ainb::fuzz
