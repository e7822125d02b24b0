#pragma once

// A file's graph as Graphviz DOT (commands, nodes, plugs by kind, queries, data links, module
// calls), and the `dot` program that lays it out: what `ainb graph` prints and what a page shows.

#include <cstdint>
#include <map>
#include <string>

#include "ainb/model.hpp"

namespace ainb::report {

struct DotOptions {
  // A node's fill by its last result in a run: "Success", "Failure", "Running", or anything
  // else for a node that was entered only. Nodes not listed are drawn as not reached.
  std::map<std::uint32_t, std::string> results;
  // Non-empty: the SVG that dot makes names each element after it, so a page finds them: node N
  // is IDS "n" N, command C is IDS "c" C, the edge of node N's child plug K is IDS "b" N "_" K,
  // of its transition plug K IDS "t" N "_" K (K counting the plugs of that kind), and the graph
  // IDS itself.
  std::string ids;
};

std::string graph_dot(const Model& model, const DotOptions& options = {});

// How the graph names node `node`: "#12 Element_S32Selector", "#3 ExecuteMove" (a user class).
std::string node_label(const Model& model, std::uint32_t node);

// The `dot` program on PATH; empty when Graphviz is not installed.
std::string find_dot();

struct Rendered {
  bool ok = false;
  std::string svg;       // the SVG, when no output file was named
  std::string messages;  // what dot said on its standard error
  std::string error;     // why it failed: "dot failed (dot -Tsvg)"
};
// Runs `program` (dot) on `dot_text` for SVG, into `output_file` (empty: Rendered::svg). Without
// a shell, through unlinked temporary files.
Rendered render_svg(const std::string& program, const std::string& dot_text,
                    const std::string& output_file = {});

}  // namespace ainb::report
