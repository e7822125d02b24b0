#pragma once

// What coverage's recording and its report both ask of a graph (coverage_recording.cpp,
// coverage_report.cpp).

#include <cstdint>

// The graph as the scheduler runs it: children after replacement, stubs, module calls.
#include "ainb/runtime/detail/graph_arrays.hpp"

namespace ainb::simulation::coverage_graph {

// A stub's children it can run: none, or the one it passes through to.
inline bool runs_child(const runtime::detail::GraphNode& g, std::uint32_t plug) {
  if (!g.is_stub) return true;
  return g.named_plugs[0] >= 0 && static_cast<std::uint32_t>(g.named_plugs[0]) == plug;
}

}  // namespace ainb::simulation::coverage_graph
