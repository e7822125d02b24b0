#pragma once

// One self-contained HTML page of a run (docs/report.md): the graph of the file and of each module
// it called, laid out by Graphviz's dot, with a frame slider, a timeline, the node list and the
// blackboard over the run. Scripts, styles and data are inline: the page needs no network and no
// server. Without dot the graphs are left out and the page says how to install Graphviz; the rest
// works.

#include <string>

#include "ainb/report/timeline.hpp"
#include "ainb/simulation/simulation.hpp"

namespace ainb::report {

struct PageOptions {
  std::string title;  // empty: the file's name
  // The dot program; empty: looked up on PATH (find_dot). A path that does not exist stands for
  // a machine without Graphviz.
  std::string dot;
};

struct Page {
  std::string html;
  // Why graphs are missing from the page (dot not found, or failed on a file), which the page
  // also says; empty when every file's graph is there.
  std::string missing_graphs;
};

// The page of a run: `summary` (its graph, with the modules it loaded) and the run's events.
Page run_page(const simulation::Summary& summary, const Timeline& timeline,
              const PageOptions& options = {});

}  // namespace ainb::report
