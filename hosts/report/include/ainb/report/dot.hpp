#pragma once

// A file's graph as Graphviz DOT (commands, nodes, plugs by kind, queries, data links, module
// calls), and the `dot` program that lays it out: what `ainb graph` prints and what a page shows.

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

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

// A file's graph as what is drawn, in the order DOT lists it: the boxes (commands, nodes, the
// point where an empty plug ends) and the lines between them. DOT (graph_dot) and the built-in
// layout (layout_svg, for builds without dot) both draw this.
struct Drawing {
  enum class BoxKind : std::uint8_t { Command, Node, Query, Module, Empty };
  struct Box {
    BoxKind kind;
    std::string key;    // the DOT name: command0, node3, empty3_0
    std::string label;  // "#3 ExecuteMove"; a command's name
    std::string fill;   // "#rrggbb"
    bool reached = false;
    std::string id;  // the SVG element's id (DotOptions::ids); empty for none
  };
  enum class LineKind : std::uint8_t { Root, Secondary, Child, Transition, Query, Data };
  struct Line {
    LineKind kind;
    std::string from, to;  // Box keys
    std::string label;
    std::string id;
  };
  std::string name;
  std::string id;                              // the graph's id; empty for none
  std::vector<std::variant<Box, Line>> items;  // in DOT's order
};
Drawing graph_drawing(const Model& model, const DotOptions& options = {});

std::string graph_dot(const Model& model, const DotOptions& options = {});
std::string dot_text(const Drawing& drawing);

// The drawing laid out by the report's own layered layout, as SVG whose elements carry the ids
// dot's would: what a page shows where Graphviz cannot run (no dot installed, the WebAssembly
// build). Columns by depth from the commands (left to right), rows as a tidy tree.
std::string layout_svg(const Drawing& drawing);

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
