// What a graph is built with: the registry of node classes, NodeClass's declared parameters, and
// the module resolvers.

#include "ainb/runtime/graph.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

void NodeRegistry::add_class(std::string name, std::shared_ptr<NodeClass> node_class,
                             NodeClass::Hooks overridden) {
  if (node_class == nullptr) {
    throw std::invalid_argument(
        fmt::format("NodeRegistry::add(\"{}\"): no class (a null pointer)", name));
  }
  // A hook the class overrides but leaves out of its Hooks would silently never run.
  for (const auto& [hook, call] :
       {std::pair{NodeClass::kEnter, "enter"}, std::pair{NodeClass::kLeave, "leave"}}) {
    if ((overridden & hook) != 0 && (node_class->hooks() & hook) == 0) {
      throw std::invalid_argument(fmt::format(
          "node class \"{}\" overrides {} but its hooks leave it out, so it would never be "
          "called: construct it with NodeClass::{} (or kEnterAndLeave)",
          name, call, hook == NodeClass::kEnter ? "kEnter" : "kLeave"));
    }
  }
  classes_[std::move(name)] = std::move(node_class);
}

std::shared_ptr<NodeClass> NodeRegistry::find(std::string_view name) const {
  const auto it = classes_.find(std::string(name));
  return it == classes_.end() ? nullptr : it->second;
}

std::uint32_t NodeClass::declare(ParamKind kind, ParamType type, std::string name) {
  declared_.push_back({kind, type, std::move(name)});
  return static_cast<std::uint32_t>(declared_.size() - 1);
}

std::string_view result_name(Result result) {
  switch (result) {
    case Result::Running:
      return "Running";
    case Result::Success:
      return "Success";
    case Result::Failure:
      return "Failure";
  }
  return "";
}

DirectoryResolver::DirectoryResolver(std::vector<std::filesystem::path> directories)
    : directories_(std::move(directories)) {}

std::shared_ptr<const Model> DirectoryResolver::find(std::string_view path) const {
  std::lock_guard lock(mutex_);
  if (const auto it = loaded_.find(path); it != loaded_.end()) return it->second;
  for (const auto& directory : directories_) {
    for (const auto& candidate : {directory / path, directory / "AI" / path}) {
      std::error_code error;
      if (!std::filesystem::is_regular_file(candidate, error)) continue;
      auto model = load_file(candidate);
      loaded_.emplace(std::string(path), model);
      return model;
    }
  }
  return nullptr;
}

std::string DirectoryResolver::where() const {
  if (directories_.empty()) return "no module directories were given";
  std::string list;
  for (const auto& d : directories_)
    list += fmt::format("{}{}", list.empty() ? "" : ", ", d.string());
  return "searched " + list;
}

void MemoryResolver::add(std::string path, std::shared_ptr<const Model> model) {
  models_[std::move(path)] = std::move(model);
}

std::shared_ptr<const Model> MemoryResolver::find(std::string_view path) const {
  const auto it = models_.find(path);
  return it == models_.end() ? nullptr : it->second;
}

std::string MemoryResolver::where() const {
  return fmt::format("searched {} module(s) held in memory", models_.size());
}

std::shared_ptr<const Model> ChainResolver::find(std::string_view path) const {
  for (const auto* resolver : resolvers_) {
    if (auto model = resolver->find(path)) return model;
  }
  return nullptr;
}

std::string ChainResolver::where() const {
  if (resolvers_.empty()) return "no module directories were given";
  std::string text;
  for (const auto* resolver : resolvers_)
    text += (text.empty() ? "" : "; ") + resolver->where();
  return text;
}

}  // namespace ainb::runtime
