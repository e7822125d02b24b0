// Element_Fork, Element_Join and Element_StateEnd (docs/semantics.md, "Transitions, Fork and
// Join"): a Fork's paths replace the active node array, a Join waits for InFlowNum of them, a
// StateEnd ends the command (or returns from a module).

#include "protocol.hpp"

namespace ainb::runtime {

// Element_Fork: its paths (its transitions) replace the whole active node array, timed by its
// first transition's flag (apply_transitions); it runs until then.
Result detail::Scheduler::update_fork(std::uint32_t node, const GraphNode& g) {
  if (g.transitions.count == 0) return Result::Success;
  if (fork_.node < 0 && current_root_ >= 0) {
    fork_ = {static_cast<std::int32_t>(node), graph_->transitions(node)[0].post_calc};
    set(kTransitionRequested, true);
    if (fork_.post) set(kPostRequested, true);
  }
  return Result::Running;
}

// A Join runs once InFlowNum copies of it are in the array; the guard: the copy being
// calculated runs (the first, unless it is the post-calc pass's fresh one), the others leave the
// array. Out of line, as the frame's loop (calculate_roots) runs every frame and this rarely.
bool detail::Scheduler::wake_join(std::uint32_t i) {
  const auto node = roots_[i].node;
  std::uint32_t copies = 0;
  for (const auto& s : roots())
    copies += s.node == node && s.dormant && !s.done ? 1u : 0u;
  if (copies < graph_->nodes()[node].in_flow) return false;
  // Every other copy, before it in the array too: in the post-calc pass only the fresh copy at
  // the end is looked at, and an older copy left dormant would keep the command running.
  for (std::uint32_t j = 0; j < root_count_; ++j) {
    if (j != i && roots_[j].node == node && roots_[j].dormant) roots_[j].done = true;
  }
  roots_[i].dormant = false;
  enter(node);
  return true;
}

// Element_StateEnd was calculated: a module returns to its caller, which continues on the
// transition named by TransitionCommand; a top-level file switches to the command of that name,
// or ends its command.
void detail::Scheduler::finish_state_end() {
  set(kStateEndRequested, false);
  const auto name = state_end_;
  const auto& commands = graph_->model().commands;
  if (parent_ == nullptr) {
    for (std::size_t i = 0; i < commands.size(); ++i) {
      if (commands[i].name == name) {
        start_command(i);
        keep_state_end(name);
        return;
      }
    }
  }
  if (!commands.empty() && command_ >= 0) {
    end_command(Result::Success);
  } else {
    for (const auto root : graph_->logic_roots()) {
      if (self().is_active(root)) leave(root);
    }
    state_ = CommandState::Succeeded;
  }
  keep_state_end(name);
}

// Element_StateEnd: the first one calculated in a frame ends the command (or returns from the
// module) once the frame's calculation is done (finish_state_end).
Result detail::Scheduler::update_state_end(const GraphNode& g) {
  if (!has(kStateEndRequested)) {
    set(kStateEndRequested, true);
    keep_state_end(g.parameter);
  }
  return Result::Success;
}

}  // namespace ainb::runtime
