// The active node array (docs/semantics.md, "Transitions, Fork and Join"): a command's root, or
// the paths of a Fork, each with the transition it asked for; its calculation in a frame, and the
// transitions applied between calculations.

#include "protocol.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

void detail::Scheduler::leave_roots() {
  // Later roots first, like the children of a node.
  for (auto k = root_count_; k-- > 0;) {
    if (!roots_[k].dormant && !roots_[k].done) leave(roots_[k].node);
  }
  root_count_ = 0;
  // A waiting Fork keeps kTransitionRequested set (apply_transitions), so a command start that
  // leaves roots without one does not touch fork_'s line of the object.
  if (has(kTransitionRequested)) fork_ = {};
  set(kTransitionRequested | kPostRequested, false);
}

inline detail::Scheduler::ActiveRoot& detail::Scheduler::push_root(ActiveRoot root) {
  // Graph::max_active_roots() bounds the array (a command's root, or a Fork's paths).
  if (root_count_ == graph_->max_active_roots()) throw_array_full();
  return roots_[root_count_++] = root;
}

void detail::Scheduler::throw_array_full() const {
  throw std::logic_error(fmt::format("{}: the active node array is full ({} roots)",
                                     graph_->model().name, root_count_));
}

// A frame of a running command (Logic files take tick_logic): a function of its own, so the
// registers its calculation needs are not saved for the other frames.
void detail::Scheduler::tick_command() {
  // Requested last frame: applied "before the next calculation".
  if (has(kTransitionRequested)) apply_transitions(false);
  calculate_roots(false);
  // The common frame tests the flags once: no transition, StateEnd or other roots.
  if (has(kTransitionRequested | kStateEndRequested | kOtherRoots)) return finish_frame();
  end_if_done();
}

// Post-calc transitions: their targets are entered and calculated in this frame. A chain of them
// is bounded, so a cycle of post-calc transitions cannot hang a frame.
void detail::Scheduler::calculate_post_transitions() {
  const auto rounds = graph_->nodes().size();
  for (std::size_t round = 0; round <= rounds && has(kPostRequested); ++round) {
    apply_transitions(true);
    calculate_roots(true);
  }
}

// Inlined into the frame (one copy more for post-calc transitions), as it runs every frame.
[[gnu::always_inline]] inline void detail::Scheduler::calculate_roots(bool only_fresh) {
  const auto* nodes = graph_->nodes().data();
  const bool quiet = !general_paths();  // fixed during a tick (set_observer)
  bool removed = false;
  for (std::uint32_t i = 0; i < root_count_; ++i) {
    auto& root = roots_[i];
    if (root.done || (only_fresh && !root.fresh)) continue;
    root.fresh = false;
    if (root.dormant) {
      if (!wake_join(i)) continue;
      removed = true;  // its other copies may have left the array
    }
    const auto node = root.node;
    current_root_ = static_cast<std::int32_t>(i);
    const auto& g = nodes[node];
    const auto result = update_child(node, g, nodes_[g.state_index], quiet);
    current_root_ = -1;
    if (result == Result::Running) continue;
    // A path that ends (no transition) with Failure fails the command, whatever the others do
    // (a Fork's paths, as a Simultaneous's children: docs/semantics.md).
    if (root.next < 0 && result == Result::Failure) marks_ |= kPathFailed;
    last_root_result_ = (marks_ & kPathFailed) != 0 ? Result::Failure : result;
    leave_child(node, g, nodes_[g.state_index], quiet);
    root.done = true;
    if (root.next < 0) removed = true;
  }
  // Only a root this loop finished, or a Join copy a woken Join dropped, leaves the array.
  if (!removed) return;
  // The common removal, a single root that finished (a tree restarted every frame), without the
  // loop.
  if (root_count_ == 1 && roots_[0].leaves_array()) {
    root_count_ = 0;
  } else {
    remove_finished_roots();
  }
}

// A plain loop: the array has one or a few roots, where std::remove_if's unrolled search costs
// more than the copies (a tree restarted every frame removes its root's root every frame).
void detail::Scheduler::remove_finished_roots() {
  std::uint16_t kept = 0;
  for (std::uint32_t i = 0; i < root_count_; ++i) {
    if (!roots_[i].leaves_array()) roots_[kept++] = roots_[i];
  }
  root_count_ = kept;
}

// After a frame's calculation (post true) the post-calc requests are due; at a frame's start
// (post false) every pending one is: a post-calc request still pending then was carried over from
// a chain cut at its limit (calculate_post_transitions), and its root's root has finished.
void detail::Scheduler::apply_transitions(bool post) {
  const auto due = [post](bool post_calc) { return !post || post_calc; };
  const auto& nodes = graph_->nodes();
  // Set again below for requests of the other timing; every post-calc request is due here.
  set(kTransitionRequested | kPostRequested, false);
  auto place = [&](ActiveRoot& root, std::uint32_t from, std::uint32_t target) {
    if (attached()) {
      guarded(Fault::Source::Observer, from, "on_transition",
              [&] { options_.observer->on_transition(self(), from, target); });
    }
    root =
        ActiveRoot{.node = target, .dormant = nodes[target].type == NodeType::Join, .fresh = true};
    if (!root.dormant) enter(target);
  };
  if (fork_.node >= 0 && due(fork_.post)) {
    // A Fork replaces the whole array with its paths.
    const auto fork = static_cast<std::uint32_t>(fork_.node);
    fork_ = {};
    leave_roots();
    // Nothing is requested now: paths that all finish in this calculation end the command in
    // this frame (their Join copies are counted as the array is calculated).
    for (const auto& t : graph_->transitions(fork)) {
      place(push_root({}), fork, t.target);
    }
    return;
  }
  if (fork_.node >= 0) set(kTransitionRequested, true);
  for (auto& root : roots()) {
    if (root.next >= 0 && !due(root.next_post)) set(kTransitionRequested, true);
    if (root.next < 0 || !due(root.next_post)) continue;
    if (!root.dormant && !root.done) leave(root.node);  // a root that finished was left then
    place(root, root.next_from, static_cast<std::uint32_t>(root.next));
  }
}

bool detail::Scheduler::request_transition(std::uint32_t node, std::uint32_t k) {
  const auto transitions = graph_->transitions(node);
  if (k >= transitions.size()) return false;
  if (current_root_ < 0) return false;  // not inside the calculation of an active root
  auto& root = roots_[static_cast<std::size_t>(current_root_)];
  if (root.next >= 0) return true;  // the first request of a frame wins
  root.next = static_cast<std::int32_t>(transitions[k].target);
  root.next_from = node;
  root.next_post = transitions[k].post_calc;
  set(kTransitionRequested, true);
  if (root.next_post) set(kPostRequested, true);
  return true;
}

}  // namespace ainb::runtime
