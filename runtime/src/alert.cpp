// Element_Alert: a debug message for the observer (a trace shows it) and the host's log, and the
// result its property names.

#include "protocol.hpp"

namespace ainb::runtime {

void detail::Scheduler::log_alert(std::uint32_t node, std::string_view message) const {
  const auto& log = *options_.log;
  if (!log) return;
  guarded(Fault::Source::Observer, node, "log sink", [&] {
    log(LogEvent{.level = LogLevel::Info,
                 .kind = LogKind::Alert,
                 .file = graph_->model().name,
                 .node = node,
                 .message = message});
  });
}

// Element_Alert: a debug message, an event for the observer (a trace shows it); its `Result`
// property (the game's result enum: 0 None, 1 Busy, 2 Success, 3 Failure) says what it returns.
Result detail::Scheduler::update_alert(std::uint32_t node) {
  NodeContext context(self(), node, nullptr, 0);
  auto message = context.input_string("Message");
  if (message.empty()) message = context.property_string("Message");
  if (attached()) {
    guarded(Fault::Source::Observer, node, "on_alert",
            [&] { options_.observer->on_alert(self(), node, message); });
  }
  // The host's log (InstanceOptions::log, shared by module sub-instances): one pointer test
  // when none is set; the message is the file's own view, nothing is copied.
  if (options_.log != nullptr) [[unlikely]] {
    log_alert(node, message);
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
