#pragma once

// The actor a run builds before its first frame: the file (a path or PACK:MEMBER) loaded, its
// modules resolved as the run's options say, its classes registered. `simulate` builds one per
// run; explore builds one for all its runs.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ainb/exb/user_functions.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/simulation/simulation.hpp"

namespace ainb::formats {
class NodeCatalogue;
}

namespace ainb::simulation {

struct Actor {
  std::shared_ptr<const runtime::Graph> graph;
  // Blackboard parameter files that were missing or did not fit (also sent to the run's log).
  std::vector<std::string> warnings;
  // The node definitions' output defaults, which stubs write (none without definitions).
  std::shared_ptr<const formats::NodeCatalogue> catalogue;
  runtime::StubOutputDefaults stub_outputs;
};

// Registers the run's own classes (a scenario's scripted ones, say), after the host's
// RunOptions::node_classes and before the generic ones, so that they win over both.
using AddClasses = std::function<void(runtime::NodeRegistry&)>;

// The node definitions RunOptions::definitions (or its romfs) names, read.
std::shared_ptr<const formats::NodeCatalogue> load_catalogue(const RunOptions& options);

// Throws LoadError (the file or a module). `functions` must outlive the graph's build.
Actor build_actor(const std::filesystem::path& file, const RunOptions& options,
                  const AddClasses& add_classes, const exb::UserFunctions& functions);

// The actor's file named `file` (empty: the graph's own), or null.
const runtime::Graph* actor_file(const runtime::Graph& graph, std::string_view file);

// One of the run's own warnings to the host's log (a host's whole line as the message).
void log_warning(const runtime::LogSink* log, runtime::LogKind kind, std::string_view file,
                 std::string_view subject, std::string_view text);

}  // namespace ainb::simulation
