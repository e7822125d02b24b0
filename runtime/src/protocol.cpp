// Enter, Update and Leave of any node (docs/semantics.md): the general paths, for observed
// instances and the nodes the short paths of protocol.hpp do not take, and the dispatch to each
// kind's own file.

#include "protocol.hpp"

#include <cstring>

namespace ainb::runtime {

// What update() does for a plain composite with no observer: a small function, so a composite
// child does not pay for the general path's registers.
Result detail::Scheduler::update_composite(std::uint32_t node, NodeType type, NodeState& s) {
  if (updated_in_epoch(s)) return s.last;
  return record_update(s, composite_loop(node, type, s));
}

// What enter() and the general Enter do for a plain composite with no observer: no queries, setup
// blocks or events, so its Enter is its state and the children its kind enters.
void detail::Scheduler::enter_composite(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (first_enter(s)) enter_composite_children(node, g, s, true);
}

// The children a composite's Enter enters, as its kind says.
[[gnu::always_inline]] inline void detail::Scheduler::enter_composite_children(std::uint32_t node,
                                                                               const GraphNode& g,
                                                                               NodeState& s,
                                                                               bool quiet) {
  switch (g.type) {
    case NodeType::Sequential:
      return enter_sequential(node, quiet);
    case NodeType::Simultaneous:
      return enter_simultaneous(node, g, s, quiet);
    default:
      return enter_selector(node, s, quiet);
  }
}

// What leave() and the general Leave do for a plain composite with no observer.
void detail::Scheduler::leave_composite(std::uint32_t node, NodeState& s) {
  if (!last_leave(s)) return;
  leave_held_children(node, s, true);
  s.active = 0;
}

// The general Enter: any node, observed or not. What the common nodes with queries need is
// here; setup blocks and events out of line, so their registers are not saved on every Enter.
void detail::Scheduler::enter_node(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (!first_enter(s)) return;
  if (g.queries.count != 0) {
    for (const auto q : graph_->queries(node)) {
      if (!g.in_query_cycle || graph_->counts_as_user(node, q)) ++state_of(q).query_users;
    }
    calculate_queries(node);
  }
  if (g.runs_setup || observed()) enter_setup_and_events(node, g);
  if (g.type == NodeType::UserDefined) {
    // The children it holds: none yet (the bits are in the state cleared above).
    if (g.held != GraphNode::kHeldInState) std::memset(held_bytes(g), 0, g.children.count);
    return enter_own(node);
  }
  enter_builtin(node, g, s);
}

// The setup blocks of a node's expressions, then its Enter events.
void detail::Scheduler::enter_setup_and_events(std::uint32_t node, const GraphNode& g) {
  if (g.runs_setup) run_setup_blocks(node);
  if (!observed()) return;
  guarded(Fault::Source::Observer, node, "on_enter",
          [&] { options_.observer->on_enter(self(), node); });
  if (!g.has_xlink) return;
  for (const auto& action : graph_->model().xlink_actions) {
    if (action.node_index == node) {
      guarded(Fault::Source::Observer, node, "on_xlink",
              [&] { options_.observer->on_xlink(self(), node, action.slot, action.action); });
    }
  }
}

// The Enter of a built-in node: its children, as its kind says.
void detail::Scheduler::enter_builtin(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (is_composite(g.type)) return enter_composite_children(node, g, s, !general_paths());
  switch (g.type) {
    case NodeType::SplitTiming:
      return enter_split_timing(node, g);
    case NodeType::ModuleIFChild:
      return enter_module_child(node);
    default:
      return;
  }
}

// The Update of every other node: built-ins, stubs, module calls, ModuleIF nodes.
[[gnu::always_inline]] inline Result detail::Scheduler::update_builtin(std::uint32_t node,
                                                                       NodeState& s) {
  const auto& g = graph_->nodes()[node];
  if (is_composite(g.type)) return composite_loop(node, g.type, s);
  switch (g.type) {
    case NodeType::SplitTiming:
      return update_split_timing(node);
    case NodeType::Alert:
      return update_alert(node);
    case NodeType::Fork:
      return update_fork(node, g);
    case NodeType::StateEnd:
      return update_state_end(g);
    case NodeType::ModuleIFChild:
      return update_module_child(node);
    default:  // user classes, stubs, module calls, Element_Expression, ModuleIF in/out, Join
      return calculate(node);
  }
}

// A node that finishes takes its first ordinary transition, unless one was requested already
// (request_transition: the first request of a frame wins).
[[gnu::always_inline]] inline void detail::Scheduler::take_first_transition(std::uint32_t node,
                                                                            const GraphNode& g,
                                                                            Result result) {
  if (result != Result::Running && g.first_transition >= 0) {
    request_transition(node, static_cast<std::uint32_t>(g.first_transition));
  }
}

// The general Update.
Result detail::Scheduler::update_node(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (updated_in_epoch(s)) return s.last;
  if (g.queries.count != 0) calculate_queries(node);
  // User classes and stubs are the common case: handled here, the rest out of line.
  Result result;
  // (Quiet ticks come here too, for nodes without a short path: the flag, on the line they read
  // anyway, keeps them off the forced list.)
  const Result* forced = general_paths() ? forced_result(node) : nullptr;
  if (forced != nullptr) [[unlikely]] {
    result = *forced;  // neither its own update nor its children's (docs/semantics.md)
  } else if (g.user_class != nullptr) {
    result = call_update_outlined(node, g);
  } else if (g.is_stub) {
    result = g.named_plugs[0] >= 0
                 ? run_user_child(node, static_cast<std::size_t>(g.named_plugs[0]))
                 : update_stub(s);
  } else {
    result = update_builtin(node, s);
  }
  if (observed()) {
    guarded(Fault::Source::Observer, node, "on_update",
            [&] { options_.observer->on_update(self(), node, result); });
  }
  record_update(s, result);
  take_first_transition(node, g, result);
  return result;
}

// What update() does for a plain node with transitions and no observer: the short Update, and
// the transition when it finishes. Out of line: most plain nodes have no transitions.
Result detail::Scheduler::update_plain_transition(std::uint32_t node, const GraphNode& g,
                                                  NodeState& s) {
  if (updated_in_epoch(s)) return s.last;  // its transition was requested then
  const auto result =
      record_update(s, g.user_class != nullptr ? call_update(node, g) : update_stub(s));
  take_first_transition(node, g, result);
  return result;
}

// The general Leave.
void detail::Scheduler::leave_node(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (!last_leave(s)) return;
  if (g.type == NodeType::UserDefined) {
    auto leave_children = [&] {
      if (!held_children(g, s).any(g.children.count)) return;  // the common case: none held
      for (auto k = g.children.count; k-- > 0;)
        leave_user_child(node, k);
    };
    leave_children();  // the children it runs, before its own Leave
    leave_own(node);
    leave_children();  // any its leave() ran, so every Enter below it is matched
  } else {
    leave_builtin(node, g, s);
  }
  s.active = 0;
  if (observed()) {
    guarded(Fault::Source::Observer, node, "on_leave",
            [&] { options_.observer->on_leave(self(), node); });
  }
  if (g.queries.count != 0) leave_queries(node);
}

// The Leave of a built-in node: its children first, so a child never runs outside its parent.
void detail::Scheduler::leave_builtin(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (is_composite(g.type)) return leave_held_children(node, s, !general_paths());
  switch (g.type) {
    case NodeType::SplitTiming:
      return leave_split_timing(node, g);
    case NodeType::ModuleIFChild:
      return leave_module_child(node);
    default:
      return;
  }
}

}  // namespace ainb::runtime
