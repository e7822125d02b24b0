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

Graph::Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry,
             const exb::UserFunctions* functions)
    : model_(std::move(model)) {
  const auto& m = *model_;
  if (m.expressions) program_ = std::make_unique<exb::Program>(*m.expressions, m.name, functions);
  stub_running_updates_ = registry.stub_running_updates;
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
  for (const auto& action : m.xlink_actions)
    nodes_[action.node_index].has_xlink = true;
  collect_expression_sites();
}

void Graph::collect_expression_sites() {
  const auto& m = *model_;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    property_sites_[t].assign(m.properties[t].size(), -1);
    input_sites_[t].assign(m.inputs[t].size(), -1);
  }
  node_sites_.assign(m.nodes.size(), -1);
  if (!program_) return;
  auto add = [&](std::uint32_t function, std::uint32_t owner) {
    const auto size = program_->functions()[function].source->static_size;
    sites_.push_back({function, owner, expression_memory_});
    expression_memory_ += (size + 3u) & ~3u;
    return static_cast<std::int32_t>(sites_.size() - 1);
  };
  // Sites in node order, so each node's sites are contiguous in site_order_.
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    auto& g = nodes_[i];
    g.sites.base = static_cast<std::uint32_t>(site_order_.size());
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      const auto props = n.properties[t];
      for (std::uint32_t k = props.base; k < props.end(); ++k) {
        const auto& p = m.properties[t][k];
        if (p.flags.source() != ParamFlags::Source::Expression) continue;
        if (n.type == NodeType::Expression && p.name == "ExpressionBase") {
          node_sites_[i] = add(p.flags.index(), i);  // the node's own function
        } else {
          property_sites_[t][k] = add(p.flags.index(), i);
        }
        site_order_.push_back(static_cast<std::uint32_t>(sites_.size() - 1));
      }
      const auto ins = n.inputs[t];
      for (std::uint32_t k = ins.base; k < ins.end(); ++k) {
        const auto& in = m.inputs[t][k];
        if (in.is_multi_source() || in.flags.source() != ParamFlags::Source::Expression) continue;
        input_sites_[t][k] = add(in.flags.index(), i);
        site_order_.push_back(static_cast<std::uint32_t>(sites_.size() - 1));
      }
      (void)type;
    }
    g.sites.count = static_cast<std::uint32_t>(site_order_.size()) - g.sites.base;
  }
}

}  // namespace ainb::runtime
