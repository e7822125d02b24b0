#pragma once

// The executable graph: built once from a loaded model and a node registry, immutable, shared by
// any number of instances (and threads). Flat arrays; every class resolved once.

#include <memory>
#include <vector>

#include "ainb/loader.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::runtime {

struct GraphNode {
  NodeType type = NodeType::UserDefined;
  NodeClass* user_class = nullptr;  // UserDefined nodes with a registered class
  Range children;                   // window of Graph::children: the node's Child plugs in order
  Range queries;                    // window of Graph::queries: node indices
  // Element_Sequential's properties, read once (constant values; see docs/semantics.md).
  bool update_next_in_frame = false;
  bool loop = false;
  std::int32_t loop_count = 0;
};

class Graph {
 public:
  // Throws LoadError (strict policy: an unregistered class) naming the node and class. The
  // registry is only read here; the graph holds on to the classes it uses.
  Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry);

  const Model& model() const { return *model_; }
  const std::vector<GraphNode>& nodes() const { return nodes_; }
  std::span<const std::uint32_t> children(std::uint32_t node) const {
    const auto r = nodes_[node].children;
    return std::span(children_).subspan(r.base, r.count);
  }
  std::span<const std::uint32_t> queries(std::uint32_t node) const {
    const auto r = nodes_[node].queries;
    return std::span(queries_).subspan(r.base, r.count);
  }
  // Logic files: the nodes no plug leads to, which all run every frame.
  const std::vector<std::uint32_t>& logic_roots() const { return logic_roots_; }
  std::shared_ptr<const Model> model_ptr() const { return model_; }

 private:
  std::shared_ptr<const Model> model_;
  std::vector<GraphNode> nodes_;
  std::vector<std::uint32_t> children_;
  std::vector<std::uint32_t> queries_;
  std::vector<std::uint32_t> logic_roots_;
  // The classes the nodes use: the graph keeps them alive, so the registry it was built from
  // may go away.
  std::vector<std::shared_ptr<NodeClass>> classes_;
};

}  // namespace ainb::runtime
