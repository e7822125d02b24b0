// Element_Simultaneous (docs/semantics.md, "Built-in nodes"): every child entered at once and
// updated each frame until it finishes; it succeeds when all did, fails when any failed.

#include "protocol.hpp"

namespace ainb::runtime {

// Enter: every child, each held until it finishes.
[[gnu::always_inline]] inline void detail::Scheduler::enter_simultaneous(std::uint32_t node,
                                                                         const GraphNode& g,
                                                                         NodeState& s, bool quiet) {
  const auto children = graph_->children(node);
  const auto* states = graph_->child_states(node).data();
  const auto* graph_nodes = graph_->nodes().data();
  const auto held = held_children(g, s);
  for (std::size_t k = 0; k < children.size(); ++k) {
    held.set(k, true);
    enter_child(children[k], graph_nodes[children[k]], nodes_[states[k]], quiet);
  }
}

Result detail::Scheduler::update_simultaneous(std::uint32_t node, NodeState& s) {
  bool running = false;
  const auto* graph_nodes = graph_->nodes().data();
  const bool quiet = !general_paths();  // fixed during a tick (set_observer)
  const auto children = graph_->children(node);
  const auto* states = graph_->child_states(node).data();
  const auto held = held_children(graph_nodes[node], s);
  for (std::size_t k = 0; k < children.size(); ++k) {
    if (!held.holds(k)) continue;  // finished (and left) earlier
    auto& cs = nodes_[states[k]];
    const auto child = children[k];
    const auto& c = graph_nodes[child];
    const auto result = update_child(child, c, cs, quiet);
    if (result == Result::Running) {
      running = true;
      continue;
    }
    held.set(k, false);
    leave_child(child, c, cs, quiet);
    if (result == Result::Failure) ++s.counter;
    if (graph_nodes[node].ends_with_first_child) {
      leave_simultaneous(node, s, quiet);  // the first to finish ends the node
      return result;
    }
  }
  if (running) return Result::Running;
  return s.counter == 0 ? Result::Success : Result::Failure;
}

// Leave: the children it still holds, last first.
[[gnu::always_inline]] inline void detail::Scheduler::leave_simultaneous(std::uint32_t node,
                                                                         NodeState& s, bool quiet) {
  const auto children = graph_->children(node);
  const auto* states = graph_->child_states(node).data();
  const auto* graph_nodes = graph_->nodes().data();
  const auto held = held_children(graph_nodes[node], s);
  for (auto k = children.size(); k-- > 0;) {
    if (!held.holds(k)) continue;
    held.set(k, false);
    leave_child(children[k], graph_nodes[children[k]], nodes_[states[k]], quiet);
  }
}

}  // namespace ainb::runtime
