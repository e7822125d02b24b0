#pragma once

// Tracing: an instance calls its observer (if any) at each event. With no observer attached the
// cost is one predictable branch per event. Every event names the instance it comes from: a
// module call runs in a sub-instance (Instance::parent() leads back to the caller), so one
// observer sees the whole actor.

#include <cstdint>
#include <string_view>

#include "ainb/runtime/node_class.hpp"

namespace ainb::runtime {

class Observer {
 public:
  virtual ~Observer() = default;
  // Whether it is called for each node's own events (on_enter, on_update, on_leave, on_xlink).
  // One that is not, as coverage over many runs (`ainb explore`), leaves the scheduler the short
  // paths it takes with no observer, about twice as fast, and is called for the other events;
  // Instance::was_entered then tells which nodes were entered. Read when it is attached.
  virtual bool node_events() const { return true; }
  virtual void on_command(const Instance&, std::string_view /*name*/) {}
  virtual void on_enter(const Instance&, std::uint32_t /*node*/) {}
  virtual void on_update(const Instance&, std::uint32_t /*node*/, Result /*result*/) {}
  virtual void on_leave(const Instance&, std::uint32_t /*node*/) {}
  // An active root was replaced: `from` (the node whose transition was taken; a Fork for each of
  // its paths) led to `to`.
  virtual void on_transition(const Instance&, std::uint32_t /*from*/, std::uint32_t /*to*/) {}
  // A decision: a selector chose its child plug `plug` (counted among its child plugs after the
  // file's replacement table, an empty plug included), at its Enter and at each Update that
  // chooses again; a user class (or a stub passing through) ran child `plug`
  // (NodeContext::run_child); a module's ModuleIF_Child entered child `plug` of the module node
  // that called it (`node` is then the caller's, `Instance` the caller). Coverage reads these; the
  // trace does not print them.
  virtual void on_branch(const Instance&, std::uint32_t /*node*/, std::uint32_t /*plug*/) {}
  // Whether on_branch is called at each decision. One that is not, as coverage over many runs
  // (`ainb explore`), reads Instance::branch_taken once a run is over: a decision then costs a
  // bit set instead of a call. Read when it is attached.
  virtual bool branch_events() const { return true; }
  virtual void on_alert(const Instance&, std::uint32_t /*node*/, std::string_view /*message*/) {}
  // A node with XLink actions was entered: the game sets the actor's action slot.
  virtual void on_xlink(const Instance&, std::uint32_t /*node*/, std::string_view /*slot*/,
                        std::string_view /*action*/) {}
  // The instance moved to a newer graph of its file (hot reload: Instance::switch_to_latest, or
  // a start after Runtime::reload). Node indices from here on are the new graph's.
  virtual void on_reload(const Instance&) {}
  // The host or a node class wrote a blackboard entry (index into Model::blackboard.entries).
  virtual void on_blackboard(const Instance&, std::size_t /*entry*/) {}
};

}  // namespace ainb::runtime
