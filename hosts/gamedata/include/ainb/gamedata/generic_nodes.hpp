#pragma once
// The generic node classes of TotK's AI files that need no game world: blackboard writes, result
// setters and math queries, implemented as their names and parameters say (docs/generic-nodes.md
// gives each one and what is our reading). With them an offline run follows the data a tree
// computes instead of stubs' zeros: selectors fed by a math query choose as in the game, and an
// edit of a blackboard key or a constant shows in a trace.

#include <string>
#include <vector>

#include "ainb/runtime/node_class.hpp"

namespace ainb::gamedata {

// Which classes add_generic_nodes registers besides those whose names, parameters and wiring
// determine their behaviour.
struct GenericNodeOptions {
  // Also our readings of common classes the evidence leaves open (ExecuteGenericCounter,
  // QueryGenericMultiBool, SelectorBoolTrigger, ...: docs/generic-nodes.md, "Readings").
  bool ambiguous_readings = false;
};

// Registers every generic class in `registry` (a class already registered there is kept: the
// host's own implementation wins).
void add_generic_nodes(runtime::NodeRegistry& registry, const GenericNodeOptions& options = {});

// The names of the generic classes, sorted.
std::vector<std::string> generic_node_names(const GenericNodeOptions& options = {});

}  // namespace ainb::gamedata
