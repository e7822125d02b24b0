#pragma once

// What the steps of a graph's build share (docs/architecture.md, "Inside the runtime"): its state
// across module files, and the node-type questions more than one step asks. Internal to the
// runtime.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ainb/exb/program.hpp"
#include "ainb/runtime/graph.hpp"

namespace ainb::runtime {

struct Graph::Build {
  const GraphOptions& options;
  std::vector<std::string> chain = {};  // the files being built, outermost first
  // Module files already built (null: missing, running as stubs), so a file called from several
  // places is one graph.
  std::map<std::string, std::shared_ptr<const Graph>, std::less<>> done = {};
  Build& self() { return *this; }
};

namespace detail {

inline bool is_module_input(NodeType t) {
  return t >= NodeType::ModuleIFInputS32 && t <= NodeType::ModuleIFInputPtr;
}
inline bool is_module_output(NodeType t) {
  return t >= NodeType::ModuleIFOutputS32 && t <= NodeType::ModuleIFOutputPtr;
}

// The type of a selector's input.
inline std::size_t selector_input_type(NodeType type) {
  switch (type) {
    case NodeType::BoolSelector:
      return static_cast<std::size_t>(ParamType::Bool);
    case NodeType::F32Selector:
      return static_cast<std::size_t>(ParamType::Float);
    case NodeType::StringSelector:
      return static_cast<std::size_t>(ParamType::String);
    default:
      return static_cast<std::size_t>(ParamType::Int);
  }
}

}  // namespace detail

using detail::GraphNode;
using detail::GraphTransition;
using detail::InputBinding;
using detail::is_composite;
using detail::is_module_input;
using detail::is_module_output;
using detail::ModuleCall;
using detail::QueryStep;
using detail::result_reads_as;
using detail::selector_input_type;
using detail::SelectorCase;
using detail::StubOutput;

}  // namespace ainb::runtime
