#pragma once

// Tracing: an instance calls its observer (if any) at each event. With no observer attached the
// cost is one predictable branch per event.

#include <cstdint>
#include <string_view>

#include "ainb/runtime/node_class.hpp"

namespace ainb::runtime {

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_command(std::string_view /*name*/) {}
  virtual void on_enter(std::uint32_t /*node*/) {}
  virtual void on_update(std::uint32_t /*node*/, Result /*result*/) {}
  virtual void on_leave(std::uint32_t /*node*/) {}
  virtual void on_alert(std::uint32_t /*node*/, std::string_view /*message*/) {}
  // A node with XLink actions was entered: the game sets the actor's action slot.
  virtual void on_xlink(std::uint32_t /*node*/, std::string_view /*slot*/,
                        std::string_view /*action*/) {}
  // The host or a node class wrote a blackboard entry (index into Model::blackboard.entries).
  virtual void on_blackboard(std::size_t /*entry*/) {}
};

}  // namespace ainb::runtime
