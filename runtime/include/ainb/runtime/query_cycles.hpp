#pragma once

// Query cycles: queries that are, through their own queries, their own query. The game ships such
// a file (a counter reset by a comparison of its own output), so a run calculates them by the
// rule of docs/semantics.md, "Query cycles"; `ainb lint` notes them.

#include <cstdint>
#include <string>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::runtime {

// The strongly connected parts of the "queries" relation that hold a cycle (two or more nodes,
// or a node that lists itself), each in node order; the parts in the order of their first node.
std::vector<std::vector<std::uint32_t>> query_cycles(const Model& model);

// "nodes 14, 27 and 28".
std::string describe_query_cycle(const std::vector<std::uint32_t>& cycle);

// Where the rule and the evidence are written.
inline constexpr std::string_view kQueryCycleDoc = "docs/semantics.md, \"Query cycles\"";

}  // namespace ainb::runtime
