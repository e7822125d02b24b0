#include "ainb/runtime/graph.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ainb::runtime {

void NodeRegistry::add(std::string name, std::shared_ptr<NodeClass> node_class) {
  classes_[std::move(name)] = std::move(node_class);
}

std::shared_ptr<NodeClass> NodeRegistry::find(std::string_view name) const {
  const auto it = classes_.find(std::string(name));
  return it == classes_.end() ? nullptr : it->second;
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

Graph::Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry)
    : model_(std::move(model)) {
  const auto& m = *model_;
  nodes_.resize(m.nodes.size());
  std::vector<bool> is_target(m.nodes.size(), false);
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    auto& g = nodes_[i];
    g.type = n.type;
    if (n.type == NodeType::UserDefined && !n.is_module()) {
      if (auto found = registry.find(n.name)) {
        g.user_class = found.get();
        if (std::find(classes_.begin(), classes_.end(), found) == classes_.end()) {
          classes_.push_back(std::move(found));
        }
      }
      if (g.user_class == nullptr && registry.unknown_classes == UnknownClassPolicy::Strict) {
        throw LoadError(m.name, "nodes", n.entry_offset,
                        fmt::format("node {} uses class \"{}\", which no node class is registered "
                                    "for (strict policy)",
                                    i, n.name));
      }
    }
    if (n.type == NodeType::Sequential) {
      for (const auto& p : m.properties_of(n, ParamType::Bool)) {
        if (p.name == "IsUpdateNextInFrame") g.update_next_in_frame = std::get<bool>(p.value);
        if (p.name == "IsLoop") g.loop = std::get<bool>(p.value);
      }
      for (const auto& p : m.properties_of(n, ParamType::Int)) {
        if (p.name == "NumLoop") g.loop_count = std::get<std::int32_t>(p.value);
      }
    }
    g.children.base = static_cast<std::uint32_t>(children_.size());
    for (const auto& plug : m.plugs_of(n, PlugKind::Child)) {
      children_.push_back(plug.node_index);
      is_target[plug.node_index] = true;
    }
    g.children.count = static_cast<std::uint32_t>(children_.size()) - g.children.base;
    g.queries.base = static_cast<std::uint32_t>(queries_.size());
    for (const auto q : m.queries_of(n))
      queries_.push_back(q);
    g.queries.count = static_cast<std::uint32_t>(queries_.size()) - g.queries.base;
    // Transitions are control flow too; generic, string and int plugs are data links (an
    // output feeding a consumer) and make nobody a child.
    for (const auto& plug : m.plugs_of(n, PlugKind::Transition))
      is_target[plug.node_index] = true;
    for (const auto q : m.queries_of(n))
      is_target[q] = true;  // calculated by its user
  }
  if (m.commands.empty()) {
    for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
      if (!is_target[i]) logic_roots_.push_back(i);
    }
  }
}

}  // namespace ainb::runtime
