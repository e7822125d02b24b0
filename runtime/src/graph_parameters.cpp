// Parameters, a step of a graph's build: the blackboard's defaults, the parameters node classes
// declared, the expression sites, and each input's binding (where its value is read from).

#include "graph_build.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

void Graph::build_blackboard(const GraphOptions& options) {
  const auto& entries = model_->blackboard.entries;
  blackboard_defaults_.reserve(entries.size());
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    auto value = entries[i].default_value;
    if (options.blackboard_defaults) {
      if (auto given = options.blackboard_defaults(*model_, i);
          given && given->index() == value.index()) {
        value = *given;
        if (const auto* s = std::get_if<std::string_view>(&value)) {
          value = std::string_view(stub_strings_.emplace_back(*s));
        }
      }
    }
    blackboard_defaults_.push_back(value);
  }
}

// Finds each parameter the node's class declared among the node's own, by kind, type and name.
void Graph::resolve_declared(std::uint32_t node, const NodeClass& node_class) {
  const auto& m = *model_;
  const auto& n = m.nodes[node];
  auto find = [](const auto& params, std::uint32_t base, std::string_view name) {
    for (std::uint32_t k = 0; k < params.size(); ++k) {
      if (params[k].name == name) return base + k;
    }
    return kNoParameter;
  };
  auto& g = nodes_[node];
  g.declared.base = static_cast<std::uint32_t>(declared_parameters_.size());
  for (const auto& d : node_class.declared()) {
    const auto t = static_cast<std::size_t>(d.type);
    auto& declared =
        declared_parameters_.emplace_back(DeclaredParameter{kNoParameter, d.kind, d.type});
    switch (d.kind) {
      case ParamKind::Input:
        declared.index = find(m.inputs_of(n, d.type), n.inputs[t].base, d.name);
        break;
      case ParamKind::Property:
        declared.index = find(m.properties_of(n, d.type), n.properties[t].base, d.name);
        break;
      case ParamKind::Output:
        declared.index = find(m.outputs_of(n, d.type), n.outputs[t].base, d.name);
        break;
    }
  }
  g.declared.count = static_cast<std::uint32_t>(declared_parameters_.size()) - g.declared.base;
}

std::vector<Graph::UnresolvedParameter> Graph::unresolved_parameters() const {
  std::vector<UnresolvedParameter> unresolved;
  for (std::uint32_t node = 0; node < nodes_.size(); ++node) {
    const auto slots = declared_parameters(node);
    for (std::uint32_t k = 0; k < slots.size(); ++k) {
      if (slots[k].index == kNoParameter) unresolved.push_back({node, k});
    }
  }
  return unresolved;
}

std::string Graph::describe(const UnresolvedParameter& parameter) const {
  static constexpr const char* kKinds[] = {"input", "property", "output"};
  const auto& d = nodes_[parameter.node].user_class->declared()[parameter.position];
  return fmt::format("node {} ({}) has no {} {} \"{}\", which its class declares", parameter.node,
                     model_->nodes[parameter.node].name, param_type_name(d.type),
                     kKinds[static_cast<std::size_t>(d.kind)], d.name);
}

void Graph::collect_expression_sites() {
  const auto& m = *model_;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    property_sites_[t].assign(m.properties[t].size(), -1);
    input_bindings_[t].assign(m.inputs[t].size(), InputBinding{});
  }
  node_sites_.assign(m.nodes.size(), -1);
  source_bindings_.assign(m.multi_sources.size(), InputBinding{});
  if (!program_) return;
  auto add = [&](std::uint32_t function, std::uint32_t owner) {
    // A function's static size is at most 0x1000B (the EXB decoder's check); every site has its
    // own copy in each instance, so the sum is bounded too (docs/robustness.md).
    const auto size = (program_->functions()[function].source->static_size + 3u) & ~3u;
    if (size > kMaxExpressionMemory - expression_memory_) {
      throw LoadError(m.name, "EXB", 0,
                      fmt::format("the expressions need more than {} bytes of static memory per "
                                  "instance (the limit, Graph::kMaxExpressionMemory)",
                                  kMaxExpressionMemory));
    }
    sites_.push_back(
        {function, owner, expression_memory_, program_->functions()[function].source->static_size});
    if (program_->functions()[function].setup >= 0) nodes_[owner].runs_setup = true;
    expression_memory_ += size;
    site_order_.push_back(static_cast<std::uint32_t>(sites_.size() - 1));
    return static_cast<std::int32_t>(sites_.size() - 1);
  };
  auto is_expression = [](ParamFlags f) { return f.source() == ParamFlags::Source::Expression; };
  // Sites in node order, so each node's sites are contiguous in site_order_. Input and
  // multi-source sites are parked in their bindings' slots; bind_inputs() completes them.
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    auto& g = nodes_[i];
    g.sites.base = static_cast<std::uint32_t>(site_order_.size());
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      for (std::uint32_t k = n.properties[t].base; k < n.properties[t].end(); ++k) {
        const auto& p = m.properties[t][k];
        if (!is_expression(p.flags)) continue;
        if (n.type == NodeType::Expression && p.name == "ExpressionBase") {
          node_sites_[i] = add(p.flags.index(), i);  // the node's own function
        } else {
          property_sites_[t][k] = add(p.flags.index(), i);
        }
      }
      for (std::uint32_t k = n.inputs[t].base; k < n.inputs[t].end(); ++k) {
        const auto& in = m.inputs[t][k];
        if (in.is_multi_source()) {
          const auto r = in.multi_sources();
          for (std::uint32_t s = r.base; s < r.end(); ++s) {
            if (!is_expression(m.multi_sources[s].flags)) continue;
            source_bindings_[s].kind = InputBinding::Kind::Expression;
            source_bindings_[s].index =
                static_cast<std::uint32_t>(add(m.multi_sources[s].flags.index(), i));
          }
        } else if (is_expression(in.flags)) {
          input_bindings_[t][k].kind = InputBinding::Kind::Expression;
          input_bindings_[t][k].index = static_cast<std::uint32_t>(add(in.flags.index(), i));
        }
      }
    }
    g.sites.count = static_cast<std::uint32_t>(site_order_.size()) - g.sites.base;
  }
}

void Graph::bind_inputs() {
  const auto& m = *model_;
  // One source (the input itself or a multi-source entry) of an input of type `type`.
  auto bind = [&](InputBinding& b, ParamType type, std::int16_t node, std::int16_t output,
                  ParamFlags flags) {
    const auto t = static_cast<std::size_t>(type);
    if (b.kind == InputBinding::Kind::Expression) {
      // The function's input is the linked output (of the function's input type), if any.
      if (node < 0) return;
      const auto function = sites_[b.index].function;
      static constexpr ParamType kByExb[] = {ParamType::Int,    ParamType::Int,  ParamType::Bool,
                                             ParamType::Int,    ParamType::Int,  ParamType::Float,
                                             ParamType::String, ParamType::Vec3f};
      const auto exb_type = program_->functions()[function].source->input_type;
      const auto st = kByExb[static_cast<std::size_t>(exb_type)];
      const auto range =
          m.nodes[static_cast<std::size_t>(node)].outputs[static_cast<std::size_t>(st)];
      if (static_cast<std::uint32_t>(output) < range.count) {
        b.source_type = st;
        b.source_index = static_cast<std::int32_t>(range.base + static_cast<std::uint32_t>(output));
      }
      return;
    }
    if (node >= 0) {
      const auto range = m.nodes[static_cast<std::size_t>(node)].outputs[t];
      if (static_cast<std::uint32_t>(output) < range.count) {
        b.kind = InputBinding::Kind::Output;
        b.index = range.base + static_cast<std::uint32_t>(output);
      }
      return;
    }
    if (flags.source() == ParamFlags::Source::Blackboard) {
      const auto component = blackboard_component(type, flags);
      b.kind = component ? InputBinding::Kind::Component : InputBinding::Kind::Blackboard;
      b.component = static_cast<std::uint8_t>(component.value_or(VectorComponent::X));
      b.index = m.blackboard.first[static_cast<std::size_t>(blackboard_type_for(type, flags))] +
                flags.index();
    }
  };
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    for (std::uint32_t k = 0; k < m.inputs[t].size(); ++k) {
      const auto& in = m.inputs[t][k];
      auto& b = input_bindings_[t][k];
      if (in.is_multi_source()) {
        const auto r = in.multi_sources();
        b.kind = InputBinding::Kind::MultiSource;
        b.index = r.base;
        b.count = r.count;
        for (std::uint32_t s = r.base; s < r.end(); ++s) {
          const auto& src = m.multi_sources[s];
          bind(source_bindings_[s], type, src.node_index, src.output_index, src.flags);
        }
      } else {
        bind(b, type, in.raw_node_index, in.source_output(), in.flags);
      }
    }
  }
  for (auto& g : nodes_) {
    if (g.selector_input < 0) continue;
    const auto t = selector_input_type(g.type);
    const auto& b = input_bindings_[t][static_cast<std::uint32_t>(g.selector_input)];
    if (b.kind == InputBinding::Kind::Output) {
      g.selector_source = GraphNode::SelectorSource::Output;
      g.selector_at = output_offset_[t] + b.index * static_cast<std::uint32_t>(output_size(t));
    } else if (b.kind == InputBinding::Kind::Blackboard) {
      g.selector_source = GraphNode::SelectorSource::Blackboard;
      g.selector_at = b.index;
    } else if (b.kind == InputBinding::Kind::Expression && b.source_index < 0 &&
               g.type != NodeType::StringSelector) {
      const auto& function = *program_->functions()[sites_[b.index].function].source;
      if (exb::value_size(function.input_type) == 0 &&
          result_reads_as(function.output_type, static_cast<ParamType>(t))) {
        g.selector_source = GraphNode::SelectorSource::Expression;
        g.selector_at = b.index;
      }
    }
  }
}

}  // namespace ainb::runtime
