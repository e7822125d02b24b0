#pragma once

// One self-contained HTML page of a run, a regression or an exploration (docs/report.md): the
// graph of the file and of each module it called, laid out by Graphviz's dot, with a frame
// slider, a timeline, the node list and the blackboard over the run. Scripts, styles and data are
// inline: the page needs no network and no server. Without dot the graphs are laid out by the
// report's own layout (layout_svg), and the page says how to install Graphviz for dot's.

#include <string>

#include "ainb/report/timeline.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/simulation/regress.hpp"
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
  // Why graphs are not dot's (dot not found, or failed on a file: the report's own layout drew
  // them), which the page also says; empty when dot drew every file's graph.
  std::string missing_graphs;
};

// The page of a run: `summary` (its graph, with the modules it loaded) and the run's events.
Page run_page(const simulation::Summary& summary, const Timeline& timeline,
              const PageOptions& options = {});

// The page of a regression: the original's and the edited file's graphs side by side (nodes
// paired as regress pairs them), both runs of the scenario `runs` kept on one timeline, the first
// differing event marked on both graphs and on the timeline, and the edits listed and marked.
// Throws std::invalid_argument when `runs` has no original run.
Page regress_page(const simulation::RegressResult& result, const simulation::RegressRuns& runs,
                  const PageOptions& options = {});

// The page of an exploration: what its runs reached on the graph (by plain runs, or only by the
// scenarios explore generated), what none reached with the reason explore gives, and the
// scenario that first reached each item.
Page coverage_page(const simulation::ExploreResult& result, const PageOptions& options = {});

}  // namespace ainb::report
