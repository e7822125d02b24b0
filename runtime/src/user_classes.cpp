// Registered node classes and stubs: their own Enter, Update and Leave, and the children a class
// runs through NodeContext::run_child.

#include "protocol.hpp"

#include <cstring>

namespace ainb::runtime {

void detail::Scheduler::enter_own(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  for (const auto& out : graph_->stub_outputs(node))
    set_output(static_cast<std::size_t>(out.type), out.index, out.value);
  if (g.module >= 0)
    return modules_[static_cast<std::size_t>(g.module)]->begin_module(self().frame());
  // (A slot is padded to 16 bytes (Graph), so a small state is zeroed by one store, not a call.)
  if (g.class_state_size > 16) {
    std::memset(class_states_ + g.class_state, 0, g.class_state_size);
  } else if (g.class_state_size != 0) {
    std::memset(class_states_ + g.class_state, 0, 16);
  }
  if (g.calls_enter) {
    NodeContext context(self(), node, class_state(g), g.class_state_size);
    guarded(Fault::Source::NodeClass, node, "enter", [&] { g.user_class->enter(context); });
  }
}

Result detail::Scheduler::call_update_outlined(std::uint32_t node, const GraphNode& g) {
  return call_update(node, g);
}

void detail::Scheduler::leave_own(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  if (g.module >= 0) return modules_[static_cast<std::size_t>(g.module)]->end_module();
  if (g.calls_leave) {
    NodeContext context(self(), node, class_state(g), g.class_state_size);
    guarded(Fault::Source::NodeClass, node, "leave", [&] { g.user_class->leave(context); });
  }
}

// A user node's children (NodeContext::run_child): held from the Enter run_child gives them
// until they finish or the node leaves them.
Result detail::Scheduler::run_user_child(std::uint32_t node, std::size_t k) {
  const auto& g = graph_->nodes()[node];
  const auto children = graph_->children(node);
  if (k >= children.size()) return Result::Success;
  if (attached()) observe_branch(node, static_cast<std::uint32_t>(k));
  if (children[k] == Graph::kNoChild) return Result::Success;
  if (faulting()) return Result::Failure;  // a child's fault the class caught: run no more
  const auto held = held_children(g, state_of(node));
  if (!held.holds(k)) {
    held.set(k, true);
    enter(children[k]);
  }
  const auto result = update(children[k]);
  if (result != Result::Running) leave_user_child(node, k);
  return result;
}

void detail::Scheduler::leave_user_child(std::uint32_t node, std::size_t k) {
  const auto& g = graph_->nodes()[node];
  const auto children = graph_->children(node);
  if (k >= children.size()) return;
  const auto held = held_children(g, state_of(node));
  if (!held.holds(k) || faulting()) return;  // after a fault nothing is left (robustness.md)
  held.set(k, false);
  leave(children[k]);
}

}  // namespace ainb::runtime
