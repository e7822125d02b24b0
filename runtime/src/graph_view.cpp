// GraphView: the graph's arrays read in place, for hosts (graph_view.hpp).

#include "ainb/runtime/graph_view.hpp"

#include "ainb/runtime/graph.hpp"

namespace ainb::runtime {

static_assert(GraphView::kNoChild == detail::GraphArrays::kNoChild);

GraphView::GraphView(const Graph& graph) : graph_(&graph), arrays_(&detail::arrays(graph)) {}

const Model& GraphView::model() const {
  return graph_->model();
}

std::size_t GraphView::node_count() const {
  return graph_->node_count();
}

std::span<const std::uint32_t> GraphView::children(std::uint32_t node) const {
  return arrays_->children(node);
}

std::span<const std::uint32_t> GraphView::child_plugs(std::uint32_t node) const {
  return arrays_->child_plugs(node);
}

std::span<const std::uint32_t> GraphView::queries(std::uint32_t node) const {
  return arrays_->queries(node);
}

std::span<const GraphTransition> GraphView::transitions(std::uint32_t node) const {
  return arrays_->transitions(node);
}

std::span<const SelectorCase> GraphView::selector_cases(std::uint32_t node) const {
  return arrays_->selector_cases(node);
}

const Value& GraphView::blackboard_default(std::uint32_t entry) const {
  return arrays_->blackboard_default(entry);
}

bool GraphView::is_stub(std::uint32_t node) const {
  return arrays_->nodes()[node].is_stub;
}

std::optional<std::uint32_t> GraphView::stub_child(std::uint32_t node) const {
  const auto& g = arrays_->nodes()[node];
  if (!g.is_stub || g.named_plugs[0] < 0) return std::nullopt;
  return static_cast<std::uint32_t>(g.named_plugs[0]);
}

std::optional<std::uint32_t> GraphView::true_plug(std::uint32_t node) const {
  const auto& g = arrays_->nodes()[node];
  if (g.type != NodeType::BoolSelector || g.named_plugs[0] < 0) return std::nullopt;
  return static_cast<std::uint32_t>(g.named_plugs[0]);
}

bool GraphView::ends_with_first_child(std::uint32_t node) const {
  return arrays_->nodes()[node].ends_with_first_child;
}

std::span<const std::uint32_t> GraphView::logic_roots() const {
  return arrays_->logic_roots();
}

std::span<const std::uint32_t> GraphView::module_outputs() const {
  return arrays_->module_outputs();
}

const Graph* GraphView::module_graph(std::uint32_t node) const {
  return graph_->module_graph(node);
}

std::span<const ModuleArgument> GraphView::module_arguments(std::uint32_t node) const {
  const auto module = arrays_->nodes()[node].module;
  if (module < 0) return {};
  return arrays_->module_calls()[static_cast<std::size_t>(module)].arguments;
}

}  // namespace ainb::runtime
