// Query nodes (docs/semantics.md, "Parameters and queries"): calculated before their user is
// entered and before each of its updates, entered at their first user's need and left with their
// last.

#include "protocol.hpp"

namespace ainb::runtime {

// A node's queries, calculated before it is entered and before each of its updates: the
// unrolled walk of Graph::query_plan. A query is entered the first time one of its users needs
// it, and calculated after its own queries (real files chain them: an add of a multiply of two
// reads). One that is calculating already (reached again through a module's child plug while
// its module call runs) is skipped with its own queries.
void detail::Scheduler::calculate_queries(std::uint32_t node) {
  const auto plan = graph_->query_plan(node);
  for (std::size_t i = 0; i < plan.size();) {
    const auto q = plan[i].node, end = plan[i].end;  // (clang 14 cannot capture bindings)
    auto& s = nodes_[plan[i].state_index];
    if (end != 0) {  // the first step
      if ((s.bits & kCalculating) != 0) {
        i = end;
        continue;
      }
      if (s.active == 0) enter_query(q, s);
      s.bits = kWasEntered | kCalculating;  // (stores, not a read-modify-write: it is entered)
      if (end != i + 1) {                   // its own queries come first
        ++i;
        continue;
      }
    }
    // The last step (or a query's only one): its own queries are done.
    const auto& g = graph_->nodes()[q];
    const auto result = g.is_stub ? update_stub(s) : calculate(q);
    s.bits = kWasEntered;
    if (observed()) {
      guarded(Fault::Source::Observer, q, "on_update",
              [&] { options_.observer->on_update(self(), q, result); });
    }
    ++i;
  }
}

void detail::Scheduler::enter_query(std::uint32_t q, NodeState& s) {
  s.active = 1;
  s.bits |= kWasEntered;
  const auto& g = graph_->nodes()[q];
  for (const auto inner : graph_->queries(q)) {
    if (!g.in_query_cycle || graph_->counts_as_user(q, inner)) ++state_of(inner).query_users;
  }
  if (g.runs_setup) run_setup_blocks(q);  // as enter_node does, before the observer hears of it
  if (observed()) {
    guarded(Fault::Source::Observer, q, "on_enter",
            [&] { options_.observer->on_enter(self(), q); });
  }
  if (g.enter_work || g.module >= 0) enter_own(q);
}

// The same walk: a query its last user leaves is left, then its own queries; one still in use
// (or not active) is skipped with them. A query of a cycle, listed by a cycle-mate, counts only
// its users outside the cycle: it is left with the last of them.
void detail::Scheduler::leave_queries(std::uint32_t node) {
  const auto plan = graph_->query_plan(node);
  for (std::size_t i = 0; i < plan.size();) {
    const auto q = plan[i].node, end = plan[i].end;  // (clang 14 cannot capture bindings)
    if (end == 0) {
      ++i;
      continue;
    }
    auto& s = nodes_[plan[i].state_index];
    if (plan[i].within_cycle == 0 && s.active != 0 && s.query_users > 0) --s.query_users;
    if (s.active == 0 || s.query_users > 0) {
      i = end;
      continue;
    }
    if (const auto& g = graph_->nodes()[q]; g.calls_leave || g.module >= 0) leave_own(q);
    s.active = 0;
    if (observed()) {
      guarded(Fault::Source::Observer, q, "on_leave",
              [&] { options_.observer->on_leave(self(), q); });
    }
    ++i;
  }
}

// The calculation of a node that has no children protocol: a user class's update, a stub, an
// expression, a ModuleIF node. Queries are calculated this way.
Result detail::Scheduler::calculate(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  switch (g.type) {
    case NodeType::UserDefined:
      if (g.user_class) return call_update_outlined(node, g);
      if (g.module >= 0) return update_module_call(node);
      return update_stub(nodes_[g.state_index]);
    case NodeType::Expression:
      return update_expression(node);
    default:
      if (is_module_if(g.type)) return calculate_module_if(node);
      return Result::Success;
  }
}

}  // namespace ainb::runtime
