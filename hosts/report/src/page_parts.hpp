#pragma once

// What every page is made of (page.cpp): one side per actor shown (a run's one, a regression's
// original and edited), each with its files' data and graphs, put into the template with the
// page's own data. The kinds of page (run, regress, coverage) differ only in that data.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/report/page.hpp"
#include "ainb/runtime/graph.hpp"

namespace ainb::report::detail {

struct Side {
  nlohmann::json data;  // label, files; the caller adds timeline and summary
  std::string graphs;   // the <div class="side"> with a <div class="layout"> per file laid out
  std::string failed;   // the files dot failed on, and why
};

// The template with each {{NAME}} replaced by its value; an unknown {{NAME}} stays as it is.
std::string fill_template(std::string_view page,
                          const std::map<std::string_view, std::string_view>& values);

// The dot program PageOptions names or PATH has; empty when there is none.
std::string dot_program(const PageOptions& options);

// The files `top` runs (the file, then each module as first called): each file's nodes (their
// text form, a label and the file a module node calls), commands and blackboard, and its graph
// laid out by `dot`, or by the report's own layout where dot is empty or fails. Element ids start
// with `prefix` and the file's number.
Side page_side(const runtime::Graph& top, const std::string& dot, std::string_view prefix,
               std::string label);

// A side that ran: page_side of the run's graph, with its timeline and summary.
Side run_side(const simulation::Summary& summary, const Timeline& timeline, const std::string& dot,
              std::string_view prefix, std::string label);

// The page: the template filled with `sides` and `data` (which gets "kind", "sides" and
// "graphviz", the message of graphs left out).
Page assemble(std::string_view kind, std::string_view title, const std::string& dot,
              std::vector<Side> sides, nlohmann::json data);

}  // namespace ainb::report::detail
