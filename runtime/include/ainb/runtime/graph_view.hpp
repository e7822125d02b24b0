#pragma once

// A read-only view of a graph's structure as the scheduler runs it, for hosts that walk it
// (coverage, exploration, tracers): children after replacement, stubs, queries, transitions,
// selector conditions, module calls. It reads the graph's arrays in place (no copy) and lives no
// longer than the graph; the scheduler reads the arrays themselves.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "ainb/model.hpp"

namespace ainb::runtime {

class Graph;
namespace detail {
class GraphArrays;
}  // namespace detail

// One child plug of a selector, its condition read once: the constant operands, each replaced by
// a blackboard entry when the plug names one (an index into the instance's blackboard, -1 for the
// constant).
struct SelectorCase {
  std::int32_t value = 0;  // Element_S32Selector
  float min = 0, max = 0;  // Element_F32Selector; Element_RandomSelector's weight is `min`
  std::string_view text;   // Element_StringSelector
  std::int32_t entry = -1, max_entry = -1;  // for value, text, min or weight; for max
};

struct GraphTransition {
  std::uint32_t target = 0;
  bool post_calc = false;
  bool state_end = false;    // type 0: taken when a called module ends naming `command`
  std::string_view command;  // type 0 only
};

// A caller's property that sets its module's blackboard entry of the same name and type when the
// module is entered (how the corpus passes a module its constants).
struct ModuleArgument {
  ParamType type = ParamType::Int;
  std::uint32_t property = 0;  // index into the caller model's properties of `type`
  std::uint32_t entry = 0;     // the module's blackboard entry
};

class GraphView {
 public:
  explicit GraphView(const Graph& graph);

  const Graph& graph() const { return *graph_; }
  const Model& model() const;
  std::size_t node_count() const;

  // A node's children by child plug, after replacement. An empty plug is kNoChild where its
  // position means something (a selector's case, a user class's plug) and is left out elsewhere.
  static constexpr std::uint32_t kNoChild = ~0u;
  std::span<const std::uint32_t> children(std::uint32_t node) const;
  // The model plugs (indices into Model::plugs) behind children(node), in the same order.
  std::span<const std::uint32_t> child_plugs(std::uint32_t node) const;
  // The query nodes a node calculates before it reads their outputs.
  std::span<const std::uint32_t> queries(std::uint32_t node) const;
  std::span<const GraphTransition> transitions(std::uint32_t node) const;
  // A selector's conditions, by child plug (the last, default plug's is not read).
  std::span<const SelectorCase> selector_cases(std::uint32_t node) const;
  // The value an instance's blackboard entry starts with (GraphOptions::blackboard_defaults, or
  // the file's stored default).
  const Value& blackboard_default(std::uint32_t entry) const;

  // An unregistered class, or a module not found run as a stub.
  bool is_stub(std::uint32_t node) const;
  // The child plug a stub passes through to (NodeRegistry::stub_runs_first_child); none for a
  // stub that runs no children, and for any other node.
  std::optional<std::uint32_t> stub_child(std::uint32_t node) const;
  // An Element_BoolSelector's `True` plug (an index in children(node)); none when it has none.
  std::optional<std::uint32_t> true_plug(std::uint32_t node) const;
  // An Element_Simultaneous that ends with its first child (GraphOptions::simultaneous_ends_first).
  bool ends_with_first_child(std::uint32_t node) const;

  // Files without commands: the nodes no control-flow plug leads to, which run every frame.
  std::span<const std::uint32_t> logic_roots() const;
  // ModuleIF_Output nodes: calculated after each update of a module.
  std::span<const std::uint32_t> module_outputs() const;
  // The graph a module node calls (Graph::module_graph); null for another node or a stub.
  const Graph* module_graph(std::uint32_t node) const;
  // What a module node's call passes its module's blackboard; empty for another node.
  std::span<const ModuleArgument> module_arguments(std::uint32_t node) const;

 private:
  const Graph* graph_;
  const detail::GraphArrays* arrays_;
};

}  // namespace ainb::runtime
