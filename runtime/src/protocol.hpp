#pragma once

// The scheduler's protocol (docs/semantics.md, "Frames, results and calls"): each of its rules
// written once, and the short paths a tick takes through plain nodes and composites when no
// observer watches, inlined into the loops that call them. The general paths are in protocol.cpp;
// each built-in kind's own Enter, Update and Leave is in a file of its own (docs/architecture.md).
// Internal to the runtime.

#include <cstdint>
#include <exception>
#include <variant>

#include "ainb/exb/binding.hpp"
#include "ainb/exb/thread_machines.hpp"
#include "ainb/runtime/instance.hpp"

namespace ainb::runtime {

namespace detail {

template <typename T>
T value_or(const Value& v, T fallback) {
  if (const auto* p = std::get_if<T>(&v)) return *p;
  return fallback;
}

// Host code threw (docs/robustness.md): carried from detail::Scheduler::guarded to the entry point.
// Not a std::exception, so nothing in between mistakes it for an ordinary error.
struct FaultException {
  Fault fault;
};

inline bool is_module_if(NodeType t) {
  return t >= NodeType::ModuleIFInputS32 && t <= NodeType::ModuleIFChild;
}

}  // namespace detail

using detail::FaultException;
using detail::GraphNode;
using detail::InputBinding;
using detail::is_module_if;
using detail::value_or;

inline Instance& detail::Scheduler::self() {
  return static_cast<Instance&>(*this);
}
inline const Instance& detail::Scheduler::self() const {
  return static_cast<const Instance&>(*this);
}

// ---- failure behaviour (docs/robustness.md) ---------------------------------------------------

// Inlined: the try costs nothing until something throws, and a call per node update does.
template <typename F>
[[gnu::always_inline]] inline decltype(auto) detail::Scheduler::guarded(Fault::Source source,
                                                                        std::int64_t node,
                                                                        const char* call,
                                                                        F&& f) const {
  try {
    return f();
  } catch (const FaultException&) {
    throw;  // already named (an observer called from a class's blackboard write)
  } catch (const std::exception& e) {
    throw_fault(source, node, call, e.what());
  } catch (...) {
    throw_fault(source, node, call, "an exception that is not a std::exception");
  }
}

// The entry points run their work through this: a fault thrown inside stops the instance (state
// Faulted, every node inactive, no class or observer called again). Nested calls (a class
// writing the blackboard during a tick, a module's sub-instance) leave it to the outer one.
template <typename F>
void detail::Scheduler::catching(F&& f) {
  // (inside_entry() for a top-level instance; hosts never reach a sub-instance's entry points)
  if (has(kEntered)) return f();
  set(kEntered, true);
  try {
    f();
  } catch (FaultException& e) {
    return stop_on_fault(e.fault);
  } catch (...) {
    forget_thrown();
    throw;
  }
  // A fault a class caught and did not rethrow: the first one thrown. (thrown_ is null outside
  // an entry point, so this is the only check a fault-free call makes, of a bit in the object's
  // first cache line.)
  if ((marks_ & kFaultThrown) != 0) [[unlikely]]
    return stop_on_fault(*thrown_);
  set(kEntered, false);
}

// start, stop and tick run the scheduler. Called from inside it (a node class calling them on the
// instance that runs it) they would leave nodes twice, or recurse until the stack overflows, so
// they are refused, as set_observer is: the class's call throws, a fault of its node. (A
// sub-instance is always inside its top-level instance's entry points: kEntered.)
template <typename F>
void detail::Scheduler::scheduling(const char* call, F&& f) {
  if (has(kEntered)) throw_reentered(call);
  catching(std::forward<F>(f));
}

// ---- the rules, written once ------------------------------------------------------------------

// A node may have several parents (files are DAGs): the first Enter starts it from a fresh state,
// a further parent's only counts it. True: the node is entered now.
[[gnu::always_inline]] inline bool detail::Scheduler::first_enter(NodeState& s) {
  if (s.active != 0) {
    ++s.active;
    return false;
  }
  s = NodeState{.active = 1, .bits = kWasEntered};
  return true;
}

// The Leave of a parent that is not the last counts it down (a node not active is not left).
// True: the last parent leaves it now; the caller leaves what it holds, then marks it inactive.
[[gnu::always_inline]] inline bool detail::Scheduler::last_leave(NodeState& s) {
  if (s.active != 1) {
    if (s.active > 1) --s.active;
    return false;
  }
  return true;
}

// A node is updated once per epoch (a tick, or a command start): an update starts with
// `if (updated_in_epoch(s)) return s.last;`, so that a second parent in the same frame gets the
// first update's result, which it records here.
[[gnu::always_inline]] inline Result detail::Scheduler::record_update(NodeState& s, Result result) {
  s.epoch = epoch_;
  s.last = result;
  return result;
}

// ---- the short paths --------------------------------------------------------------------------

// A stub: Running for the configured updates, then Success.
inline Result detail::Scheduler::update_stub(NodeState& s) const {
  if (s.counter >= graph_->stub_running_updates()) return Result::Success;
  ++s.counter;  // stops at the setting, which fits the 16-bit counter (Graph::kMaxStubUpdates)
  return Result::Running;
}

// A registered class's update: inlined into the short path (update_plain), out of line for the
// other callers, whose own code stays lean without its exception handling.
[[gnu::always_inline]] inline Result detail::Scheduler::call_update(std::uint32_t node,
                                                                    const GraphNode& g) {
  NodeContext context(self(), node, class_state(g), g.class_state_size);
  return guarded(Fault::Source::NodeClass, node, "update",
                 [&] { return g.user_class->update(context); });
}

// The short paths: what enter, update and leave below do for a plain node (a registered class
// or a stub) with no observer attached, the common case of real trees. Sequential and
// Simultaneous call them directly, so they are inlined; the node's own work stays out of line.
[[gnu::always_inline]] inline void detail::Scheduler::enter_plain(std::uint32_t node,
                                                                  const GraphNode& g,
                                                                  NodeState& s) {
  if (first_enter(s) && g.enter_work) enter_own(node);
}

[[gnu::always_inline]] inline Result detail::Scheduler::update_plain(std::uint32_t node,
                                                                     const GraphNode& g,
                                                                     NodeState& s) {
  if (updated_in_epoch(s)) return s.last;
  return record_update(s, g.user_class != nullptr ? call_update(node, g) : update_stub(s));
}

[[gnu::always_inline]] inline void detail::Scheduler::leave_plain(std::uint32_t node,
                                                                  const GraphNode& g,
                                                                  NodeState& s) {
  if (!last_leave(s)) return;
  if (g.calls_leave) leave_own(node);
  s.active = 0;
}

// A parent's loop over its children (and the active node array over its roots): the short path
// when it applies. `quiet`: no observer.
[[gnu::always_inline]] inline void detail::Scheduler::enter_child(std::uint32_t node,
                                                                  const GraphNode& g, NodeState& s,
                                                                  bool quiet) {
  if (quiet) {
    if (g.plain) return enter_plain(node, g, s);
    if (g.plain_composite) return enter_composite(node, g, s);
  }
  enter_node(node, g, s);
}
[[gnu::always_inline]] inline Result detail::Scheduler::update_child(std::uint32_t node,
                                                                     const GraphNode& g,
                                                                     NodeState& s, bool quiet) {
  if (quiet) {
    if (g.plain_update) return update_plain(node, g, s);
    if (g.plain_composite) return update_composite(node, g.type, s);
    if (g.plain) return update_plain_transition(node, g, s);
  }
  return update_node(node, g, s);
}

[[gnu::always_inline]] inline void detail::Scheduler::leave_child(std::uint32_t node,
                                                                  const GraphNode& g, NodeState& s,
                                                                  bool quiet) {
  if (quiet) {
    if (g.plain) return leave_plain(node, g, s);
    if (g.plain_composite) return leave_composite(node, s);
  }
  leave_node(node, g, s);
}

// Enter, Update and Leave of one node: the short path when it applies, else the general one.
[[gnu::always_inline]] inline void detail::Scheduler::enter(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  enter_child(node, g, nodes_[g.state_index], !general_paths());
}
[[gnu::always_inline]] inline Result detail::Scheduler::update(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  return update_child(node, g, nodes_[g.state_index], !general_paths());
}
[[gnu::always_inline]] inline void detail::Scheduler::leave(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  leave_child(node, g, nodes_[g.state_index], !general_paths());
}

// The loop of a composite: Sequential, Simultaneous or a selector.
[[gnu::always_inline]] inline Result detail::Scheduler::composite_loop(std::uint32_t node,
                                                                       NodeType type,
                                                                       NodeState& s) {
  switch (type) {
    case NodeType::Sequential:
      return update_sequential(node, s);
    case NodeType::Simultaneous:
      return update_simultaneous(node, s);
    default:
      return update_selector(node, s);
  }
}

// The children a composite holds, left last first: a Sequential's current child (none once the
// sequence finished), a selector's chosen one, a Simultaneous's unfinished ones. Only these: a
// child it does not hold may be active for another parent (a shared node), and stays so.
[[gnu::always_inline]] inline void detail::Scheduler::leave_held_children(std::uint32_t node,
                                                                          NodeState& s,
                                                                          bool quiet) {
  if (graph_->nodes()[node].type == NodeType::Simultaneous)
    return leave_simultaneous(node, s, quiet);
  leave_current_child(node, s, quiet);
}

// The child at a Sequential's or selector's cursor, if it holds one (a Sequential past its end, a
// selector whose chosen plug is empty hold none).
[[gnu::always_inline]] inline void detail::Scheduler::leave_current_child(std::uint32_t node,
                                                                          NodeState& s,
                                                                          bool quiet) {
  const auto children = graph_->children(node);
  if (s.cursor >= children.size()) return;
  const auto child = children[s.cursor];
  leave_child(child, graph_->nodes()[child], nodes_[graph_->child_states(node)[s.cursor]], quiet);
}

// ---- commands ---------------------------------------------------------------------------------

// Inlined: a tree restarted every frame ends its command every frame.
[[gnu::always_inline]] inline void detail::Scheduler::end_command(Result result) {
  if (has(kOtherRoots)) leave_secondary_root();
  // After a frame's last root finished, nothing is left to leave (the common end).
  if (has_roots()) leave_roots();
  state_ = ended(result);
}

// A frame's calculation in the current epoch: a top-level tick's, or a module call's.
inline void detail::Scheduler::calculate_frame() {
  if (has(kLogic)) return tick_logic();
  if (state_ != CommandState::Running) return;
  if (has(kSingleRoot)) return calculate_root();
  tick_command();
}

// ---- expressions ------------------------------------------------------------------------------

// The main block of a site's function, on its frame; what it throws is a fault of the site's
// owner.
template <typename F>
[[gnu::always_inline]] inline exb::Status detail::Scheduler::run_main_of(std::uint32_t site,
                                                                         F& frame) const {
  const auto& s = graph_->expression_sites()[site];
  return guarded(Fault::Source::UserFunction, s.owner, "an expression",
                 [&] { return machine()->run_main(s.function, frame); });
}

}  // namespace ainb::runtime
