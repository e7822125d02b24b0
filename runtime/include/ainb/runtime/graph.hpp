#pragma once

// The executable graph: built once from a loaded model and a node registry, immutable, shared by
// any number of instances (and threads). Flat arrays; every class resolved once.

#include <memory>
#include <vector>

#include "ainb/exb/program.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::runtime {

struct GraphNode {
  NodeType type = NodeType::UserDefined;
  NodeClass* user_class = nullptr;  // UserDefined nodes with a registered class
  Range children;                   // window of Graph::children: the node's Child plugs in order
  Range queries;                    // window of Graph::queries: node indices
  // Element_Sequential's properties, read once (constant values; see docs/semantics.md).
  Range sites;             // window of the graph's site order: expression sites this node owns
  bool has_xlink = false;  // the file names XLink actions for this node
  bool update_next_in_frame = false;
  bool loop = false;
  std::int32_t loop_count = 0;
};

class Graph {
 public:
  // Throws LoadError (strict policy: an unregistered class) naming the node and class. The
  // registry is only read here; the graph holds on to the classes it uses.
  // `functions` resolves the user functions the file's expressions call (may be null: then
  // every call follows the instance's missing-function policy).
  Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry,
        const exb::UserFunctions* functions = nullptr);

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
  std::uint32_t stub_running_updates() const { return stub_running_updates_; }

  // Expressions: the compiled program (null when the file has none) and one use-site per
  // parameter that reads an expression and per Element_Expression node. Each use-site has its
  // own static memory in every instance, at `static_offset` of the instance's block.
  struct ExpressionSite {
    std::uint32_t function = 0;
    std::uint32_t owner = 0;  // the node whose Enter runs the setup block
    std::uint32_t static_offset = 0;
  };
  const exb::Program* program() const { return program_.get(); }
  const std::vector<ExpressionSite>& expression_sites() const { return sites_; }
  std::uint32_t expression_memory() const { return expression_memory_; }
  // The use-site of a property / input of the model (by type and index), or -1.
  std::int32_t property_site(ParamType type, std::uint32_t index) const {
    return property_sites_[static_cast<std::size_t>(type)][index];
  }
  std::int32_t input_site(ParamType type, std::uint32_t index) const {
    return input_sites_[static_cast<std::size_t>(type)][index];
  }
  std::int32_t node_site(std::uint32_t node) const { return node_sites_[node]; }
  // Sites whose setup blocks run when `node` is entered.
  std::span<const std::uint32_t> sites_of(std::uint32_t node) const {
    const auto r = nodes_[node].sites;
    return std::span(site_order_).subspan(r.base, r.count);
  }

 private:
  void collect_expression_sites();

  std::shared_ptr<const Model> model_;
  std::vector<GraphNode> nodes_;
  std::vector<std::uint32_t> children_;
  std::vector<std::uint32_t> queries_;
  std::vector<std::uint32_t> logic_roots_;
  // The classes the nodes use: the graph keeps them alive, so the registry it was built from
  // may go away.
  std::vector<std::shared_ptr<NodeClass>> classes_;
  std::uint32_t stub_running_updates_ = 0;
  std::unique_ptr<exb::Program> program_;
  std::vector<ExpressionSite> sites_;
  std::vector<std::uint32_t> site_order_;  // site indices grouped by owner node
  std::array<std::vector<std::int32_t>, kParamTypeCount> property_sites_, input_sites_;
  std::vector<std::int32_t> node_sites_;
  std::uint32_t expression_memory_ = 0;
};

}  // namespace ainb::runtime
