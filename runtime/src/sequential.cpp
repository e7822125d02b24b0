// Element_Sequential (docs/semantics.md, "Built-in nodes"): its children one after another; a loop
// (IsLoop, NumLoop) starts them again. Its Leave is the child it holds (leave_current_child).

#include "protocol.hpp"

namespace ainb::runtime {

// Enter: its first child.
[[gnu::always_inline]] inline void detail::Scheduler::enter_sequential(std::uint32_t node,
                                                                       bool quiet) {
  const auto children = graph_->children(node);
  if (children.empty()) return;
  const auto first = children[0];
  enter_child(first, graph_->nodes()[first], nodes_[graph_->child_states(node)[0]], quiet);
}

Result detail::Scheduler::update_sequential(std::uint32_t node, NodeState& s) {
  const auto children = graph_->children(node);
  if (children.empty()) return Result::Success;
  const auto* states = graph_->child_states(node).data();
  const auto* graph_nodes = graph_->nodes().data();
  const auto& g = graph_nodes[node];
  const bool next_in_frame = g.update_next_in_frame;
  const bool loop = g.loop;
  const auto loops = g.loop_count;
  const bool quiet = !general_paths();  // fixed during a tick (set_observer)
  // Finished, and updated again without a new Enter (a Logic file's root, which is never left):
  // it holds no child and keeps its result.
  if (s.cursor >= children.size()) return s.last;
  // An endless loop runs each child at most once per update: when it comes back to the child it
  // started this update with, that child is entered and updated next frame. Otherwise a loop
  // whose children all finish at once, with IsUpdateNextInFrame, would never end the frame.
  const auto first = s.cursor;
  bool wrapped = false;
  for (;;) {
    const auto child = children[s.cursor];
    const auto& c = graph_nodes[child];
    auto& cs = nodes_[states[s.cursor]];
    const auto result = update_child(child, c, cs, quiet);
    if (result == Result::Running) return Result::Running;
    leave_child(child, c, cs, quiet);
    if (result == Result::Failure) {
      s.cursor = static_cast<std::uint8_t>(children.size());  // it holds no child now
      return Result::Failure;
    }
    if (++s.cursor == children.size()) {
      if (!loop || (loops > 0 && ++s.counter >= loops)) {
        return result;
      }
      s.cursor = 0;
      wrapped = true;
    }
    const auto next = children[s.cursor];
    enter_child(next, graph_nodes[next], nodes_[states[s.cursor]], quiet);
    if (!next_in_frame || (wrapped && loops == 0 && s.cursor == first)) return Result::Running;
  }
}

}  // namespace ainb::runtime
