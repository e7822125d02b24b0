#pragma once

// What coverage's recording and its report both ask of a graph (coverage_recording.cpp,
// coverage_report.cpp).

#include <cstdint>

#include "ainb/runtime/graph_view.hpp"

namespace ainb::simulation::coverage_graph {

// A stub's children it can run: none, or the one it passes through to.
inline bool runs_child(const runtime::GraphView& view, std::uint32_t node, std::uint32_t plug) {
  return !view.is_stub(node) || view.stub_child(node) == plug;
}

}  // namespace ainb::simulation::coverage_graph
