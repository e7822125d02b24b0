// Element_SplitTiming: its Enter plug runs once when it is entered, its Update plug while it is
// active, its Leave plug once when it is left.

#include "protocol.hpp"

namespace ainb::runtime {

// Enter: the Enter plug's child runs once (entered, updated, left); the Update plug's is entered.
void detail::Scheduler::enter_split_timing(std::uint32_t node, const GraphNode& g) {
  const auto children = graph_->children(node);
  if (const auto on_enter = g.named_plugs[0]; on_enter >= 0) run_once(children[on_enter]);
  if (const auto on_update = g.named_plugs[1]; on_update >= 0) enter(children[on_update]);
}

Result detail::Scheduler::update_split_timing(std::uint32_t node) {
  const auto on_update = graph_->nodes()[node].named_plugs[1];
  if (on_update < 0) return Result::Success;
  return update(graph_->children(node)[on_update]);
}

// Leave: the Update plug's child is left, then the Leave plug's runs once.
void detail::Scheduler::leave_split_timing(std::uint32_t node, const GraphNode& g) {
  const auto children = graph_->children(node);
  if (const auto on_update = g.named_plugs[1]; on_update >= 0) leave(children[on_update]);
  if (const auto on_leave = g.named_plugs[2]; on_leave >= 0) run_once(children[on_leave]);
}

[[gnu::always_inline]] inline void detail::Scheduler::run_once(std::uint32_t node) {
  enter(node);
  update(node);
  leave(node);
}

}  // namespace ainb::runtime
