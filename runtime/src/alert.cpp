// Element_Alert: a debug message for the observer (a trace shows it), and the result its
// property names.

#include "protocol.hpp"

namespace ainb::runtime {

// Element_Alert: a debug message, an event for the observer (a trace shows it); its `Result`
// property (the game's result enum: 0 None, 1 Busy, 2 Success, 3 Failure) says what it returns.
Result Instance::update_alert(std::uint32_t node) {
  NodeContext context(*this, node, nullptr, 0);
  auto message = context.input_string("Message");
  if (message.empty()) message = context.property_string("Message");
  if (observed()) {
    guarded(Fault::Source::Observer, node, "on_alert",
            [&] { options_.observer->on_alert(*this, node, message); });
  }
  switch (context.property_int("Result")) {
    case 1:
      return Result::Running;
    case 3:
      return Result::Failure;
    default:
      return Result::Success;
  }
}

}  // namespace ainb::runtime
