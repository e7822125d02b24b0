// The front door (runtime.hpp): loads files with the runtime's classes, functions and module
// resolvers.

#include "ainb/runtime/runtime.hpp"

#include <system_error>

namespace ainb::runtime {

void Runtime::add_module_folder(std::filesystem::path folder) {
  folders_.push_back(std::move(folder));
}

void Runtime::add_module_resolver(std::shared_ptr<const ModuleResolver> resolver) {
  if (resolver != nullptr) resolvers_.push_back(std::move(resolver));
}

std::shared_ptr<const Graph> Runtime::load(std::string_view spec) {
  std::shared_ptr<const Graph> graph;
  const std::filesystem::path path(spec);
  if (opener_) {
    // A plain file's folder still holds its modules; a pack member's has none to offer.
    std::error_code error;
    const bool plain = std::filesystem::is_regular_file(path, error);
    graph = build(opener_(spec), plain ? path.parent_path() : std::filesystem::path{});
  } else {
    auto folder = path.parent_path();
    graph = build(load_file(path), folder.empty() ? std::filesystem::path(".") : folder);
  }
  loaded_.insert_or_assign(std::string(spec), graph);
  return graph;
}

std::shared_ptr<const Graph> Runtime::load(std::span<const std::uint8_t> bytes, std::string name) {
  auto graph = build(ainb::load({bytes.begin(), bytes.end()}, name));
  loaded_.insert_or_assign(std::move(name), graph);
  return graph;
}

std::shared_ptr<const Graph> Runtime::build(std::shared_ptr<const Model> model,
                                            const std::filesystem::path& folder) {
  // Resolvers made per load, so that a file edited since the last load is read again.
  const DirectoryResolver folders(folders_);
  ChainResolver modules;
  if (!folders_.empty()) modules.add(&folders);
  for (const auto& resolver : resolvers_)
    modules.add(resolver.get());
  const DirectoryResolver own_folder(folder.empty() ? std::vector<std::filesystem::path>{}
                                                    : std::vector{folder});
  if (folders_.empty() && resolvers_.empty() && !folder.empty()) modules.add(&own_folder);

  auto options = options_;
  options.functions = &functions_;
  options.modules = &modules;
  options.log = log();
  return std::make_shared<const Graph>(std::move(model), registry_, options);
}

// Here, outside the scheduler's unity group: a second caller of tick() there would make the
// compiler outline tick()'s catching (5 instructions more per tick, docs/benchmarks.md).
CommandState Instance::tick_while_running(std::uint64_t max_frames) {
  for (std::uint64_t k = 0; k < max_frames && state() == CommandState::Running; ++k)
    tick();
  return state();
}

}  // namespace ainb::runtime
