#pragma once

// What the runtime has to say that is not an error: a module or user function the host lacks
// (said while a graph is built), an Element_Alert's message (said while an instance ticks). The
// library prints nothing itself: it hands each event to the host's sink, if the host set one
// (GraphOptions::log, InstanceOptions::log), and the host decides where it goes (docs/embedding.md,
// "Logging").

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ainb::runtime {

enum class LogLevel : std::uint8_t {
  Info,     // an Element_Alert: the file's own debug message
  Warning,  // the file runs, but not as the game would (a stub where the game has code)
};

enum class LogKind : std::uint8_t {
  MissingModule,    // subject: the module's path ("X.module.ainb"); detail: where it was searched
  MissingFunction,  // subject: the user function's signature ("GetFoo( Int )")
  Alert,            // an Element_Alert node's message (subject empty)
  // Hosts' own (hosts/simulation passes its warnings through the same sink):
  ParameterFile,  // a blackboard entry's parameter file missing or not fitting (the message names
                  // both)
  Scenario,       // a step of a scenario the run never reaches (subject: its JSON path)
};

// Every view is valid during the sink's call only: copy what you keep.
struct LogEvent {
  LogLevel level = LogLevel::Warning;
  LogKind kind = LogKind::MissingModule;
  std::string_view file = {};  // the file it is about (a module's, for a module's node)
  std::int64_t node = -1;      // the node's index in `file`, or -1 when no node
  std::string_view subject = {};
  std::string_view detail = {};  // MissingModule: where the resolver looked; otherwise empty
  // One line. The runtime's events leave the file out (it is `file`): "module \"X.ainb\" not
  // found (...); node 3 runs as a stub". A host's own warning is its whole line.
  std::string_view message = {};
};

// Called on the thread that builds the graph or ticks the instance: a sink shared by instances
// ticked on several threads must synchronise itself.
using LogSink = std::function<void(const LogEvent&)>;

// Whether a sink is set: what a reporter tests before it formats an event's message.
inline bool listening(const LogSink* sink) {
  return sink != nullptr && static_cast<bool>(*sink);
}

std::string_view log_kind_name(LogKind kind);  // "missing-module", "alert", ...

// The event as a line of its own: "FILE: MESSAGE" for the runtime's events, the message alone for
// a host's (ParameterFile, Scenario: their message is the whole line) or an event of no file.
std::string log_line(const LogEvent& event);

}  // namespace ainb::runtime
