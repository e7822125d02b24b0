// Layout, a step of a graph's build: query plans, node states in visit order, held flags and
// each command's footprint (what a frame reads), so that a tick reads few cache lines
// (docs/benchmarks.md).

#include "graph_build.hpp"

#include "ainb/runtime/query_cycles.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

namespace {

// Sorted windows, with those at most `gap` apart joined (less than a cache line: a prefetch
// reads the lines between them anyway).
std::vector<Range> joined_windows(std::vector<Range> windows, std::uint32_t gap) {
  std::sort(windows.begin(), windows.end(),
            [](const Range& a, const Range& b) { return a.base < b.base; });
  std::vector<Range> joined;
  for (const auto w : windows) {
    if (!joined.empty() && w.base <= joined.back().end() + gap) {
      joined.back().count = std::max(joined.back().end(), w.end()) - joined.back().base;
    } else {
      joined.push_back(w);
    }
  }
  return joined;
}

// The cache lines joined windows of `unit`-byte elements span, counted as if the array began on
// a line.
std::uint64_t lines_spanned(const std::vector<Range>& windows, std::uint32_t unit) {
  std::uint64_t lines = 0;
  for (const auto w : windows) {
    if (w.count != 0)
      lines += (std::uint64_t{w.end()} * unit - 1) / 64 - std::uint64_t{w.base} * unit / 64 + 1;
  }
  return lines;
}

}  // namespace

// Depth first from each node with queries, without recursion. A query reached again while it is
// on the path (the node itself included) closes a cycle: it is not calculated again there, so
// its user reads what it holds (docs/semantics.md, "Query cycles").
void Graph::build_query_plans() {
  const auto& m = *model_;
  query_cycle_.assign(nodes_.size(), 0);
  const auto cycles = query_cycles(m);
  for (std::uint32_t c = 0; c < cycles.size(); ++c) {
    for (const auto n : cycles[c]) {
      query_cycle_[n] = c + 1;
      nodes_[n].in_query_cycle = true;
    }
  }
  std::vector<std::uint8_t> on_path(nodes_.size(), 0);
  struct Open {
    std::uint32_t node;
    std::uint32_t first_step;
    std::uint32_t next = 0;  // the next of its queries to unroll
  };
  std::vector<Open> path;
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    auto& range = nodes_[n].query_plan;
    range.base = static_cast<std::uint32_t>(query_plan_.size());
    if (nodes_[n].queries.count == 0) continue;
    on_path[n] = 1;
    path.push_back({n, 0});
    while (!path.empty()) {
      auto& open = path.back();
      const auto inner = queries(open.node);
      if (open.next == inner.size()) {
        if (path.size() > 1) {
          // The query's last step (none for a query without queries: its first step is its
          // only one), and where its first step skips to.
          if (query_plan_.size() - 1 != open.first_step) query_plan_.push_back({open.node, 0});
          // (Within the window; below kMaxQuerySteps, so it fits the field.)
          query_plan_[open.first_step].end =
              (static_cast<std::uint32_t>(query_plan_.size()) - range.base) & 0x7FFFFFFFu;
        }
        on_path[open.node] = 0;
        path.pop_back();
        continue;
      }
      const auto from = open.node;
      const auto q = inner[open.next++];
      if (on_path[q] != 0) continue;
      if (query_plan_.size() + 2 > kMaxQuerySteps) {
        throw LoadError(m.name, "nodes", m.nodes[n].entry_offset,
                        fmt::format("node {}: the queries unroll to more than {} steps (the "
                                    "limit, Graph::kMaxQuerySteps): queries shared along many "
                                    "paths or chained thousands deep",
                                    n, kMaxQuerySteps));
      }
      on_path[q] = 1;
      path.push_back({q, static_cast<std::uint32_t>(query_plan_.size())});
      query_plan_.push_back({q, 0, counts_as_user(from, q) ? 0u : 1u});
    }
    range.count = static_cast<std::uint32_t>(query_plan_.size()) - range.base;
  }
}

std::span<const std::uint32_t> Graph::entered_children(std::uint32_t node) const {
  if (nodes_[node].is_stub && !stubs_run_first_child_) return {};
  return children(node);
}

// An instance's node states are numbered in the order a frame reaches them, so a running tree
// reads few cache lines of its actor's state (the actor's own memory, which many actors do not
// keep in cache): from each root down, a node's queries and children get consecutive states
// (a Simultaneous checks all its children every frame, a selector reads its chosen child's,
// queries are calculated before their user), then each child's own are numbered, depth first.
// Roots come first: commands' main and secondary roots, Logic roots, module outputs, transition
// targets; nodes no root reaches last, in file order (reached_states_ counts the others). A stub
// that runs no children reaches none: with such wrappers (an event's Execute classes), the
// states of the commands' roots are together instead of a subtree apart.
void Graph::order_node_states() {
  const auto& m = *model_;
  constexpr auto kUnplaced = std::numeric_limits<std::uint32_t>::max();
  for (auto& g : nodes_)
    g.state_index = kUnplaced;
  std::uint32_t next = 0;
  std::vector<std::uint32_t> to_expand;  // placed nodes whose queries and children are not yet
  const auto place = [&](std::uint32_t node) {
    if (nodes_[node].state_index != kUnplaced) return false;
    nodes_[node].state_index = next++;
    return true;
  };
  const auto expand_from = [&](std::uint32_t root) {
    if (!place(root)) return;
    to_expand.push_back(root);
    while (!to_expand.empty()) {
      const auto node = to_expand.back();
      to_expand.pop_back();
      const auto first = to_expand.size();
      for (const auto list : {queries(node), entered_children(node)}) {
        for (const auto n : list) {
          if (n != kNoChild && place(n)) to_expand.push_back(n);
        }
      }
      std::reverse(to_expand.begin() + static_cast<std::ptrdiff_t>(first), to_expand.end());
    }
  };
  for (const auto& c : m.commands)
    expand_from(c.root);
  for (const auto& c : m.commands) {
    if (c.secondary_root) expand_from(*c.secondary_root);
  }
  for (const auto root : logic_roots_)
    expand_from(root);
  for (const auto out : module_outputs_)
    expand_from(out);
  for (const auto& t : transitions_)
    expand_from(t.target);
  reached_states_ = next;
  for (std::uint32_t n = 0; n < nodes_.size(); ++n)
    expand_from(n);
  for (auto& step : query_plan_)
    step.state_index = nodes_[step.node].state_index;
  child_states_.reserve(children_.size());
  for (const auto child : children_)
    child_states_.push_back(child == kNoChild ? 0 : nodes_[child].state_index);
}

void Graph::build_footprints() {
  const auto& m = *model_;
  // An instance's node state is 8 bytes (detail::Scheduler::NodeState).
  constexpr std::uint32_t kStateBytes = 8;
  const auto own_bytes = [&](std::uint32_t node) {
    std::uint64_t bytes = kStateBytes;
    for (std::size_t t = 0; t < kParamTypeCount; ++t)
      bytes += m.nodes[node].outputs[t].count * output_size(t);
    return bytes;
  };
  // What a frame of a running tree reads at most below a node: the node, its queries, and all
  // its children for an Element_Simultaneous (it updates each), else its largest child (the one
  // running). Depth first, without recursion (a long chain would overflow the stack, as in
  // check_child_cycles), each node once; a node reached again while it is on the path adds
  // nothing.
  std::vector<std::uint64_t> running_bytes(nodes_.size(), 0);
  std::vector<std::uint8_t> colour(nodes_.size(), 0);       // 0 unseen, 1 on the path, 2 done
  std::vector<std::pair<std::uint32_t, std::size_t>> path;  // node, next successor
  const auto running = [&](std::uint32_t root) {
    if (colour[root] == 0) {
      colour[root] = 1;
      path.push_back({root, 0});
    }
    while (!path.empty()) {
      const auto node = path.back().first;
      const auto own_queries = queries(node);
      const auto kids = entered_children(node);
      if (const auto k = path.back().second++; k < own_queries.size() + kids.size()) {
        const auto next = k < own_queries.size() ? own_queries[k] : kids[k - own_queries.size()];
        if (next != kNoChild && colour[next] == 0) {
          colour[next] = 1;
          path.push_back({next, 0});
        }
        continue;
      }
      std::uint64_t bytes = own_bytes(node), below = 0;
      for (const auto q : own_queries)
        bytes += running_bytes[q];
      for (const auto child : kids) {
        if (child == kNoChild) continue;
        const auto b = running_bytes[child];
        below = nodes_[node].type == NodeType::Simultaneous ? below + b : std::max(below, b);
      }
      running_bytes[node] = bytes + below;
      colour[node] = 2;
      path.pop_back();
    }
    return running_bytes[root];
  };
  const auto footprint_of = [&](std::vector<std::uint32_t> roots) {
    std::uint64_t every_frame = 0;
    for (const auto root : roots)
      every_frame += running(root);
    std::vector<bool> seen(nodes_.size());
    std::vector<Range> states, outputs, expression_memory;
    bool evaluates = false;
    auto to_visit = std::move(roots);
    while (!to_visit.empty()) {
      const auto node = to_visit.back();
      to_visit.pop_back();
      if (seen[node]) continue;
      seen[node] = true;
      states.push_back({nodes_[node].state_index, 1});
      for (std::size_t t = 0; t < kParamTypeCount; ++t) {
        const auto window = m.nodes[node].outputs[t];
        const auto size = static_cast<std::uint32_t>(output_size(t));
        if (window.count != 0)
          outputs.push_back({output_offset_[t] + window.base * size, window.count * size});
      }
      for (const auto site : sites_of(node)) {
        // A stub reads none of its inputs: their expressions run only a setup block, on Enter.
        const auto& s = sites_[site];
        if (nodes_[node].is_stub && program_->functions()[s.function].setup < 0) continue;
        evaluates = true;
        if (s.static_size != 0) expression_memory.push_back({s.static_offset, s.static_size});
      }
      for (const auto list : {queries(node), entered_children(node)}) {
        for (const auto n : list) {
          if (n != kNoChild) to_visit.push_back(n);
        }
      }
      for (const auto& t : transitions(node))
        to_visit.push_back(t.target);
    }
    // States windows 8 apart share a cache line, outputs windows 64 bytes apart.
    states = joined_windows(std::move(states), 64 / kStateBytes);
    outputs = joined_windows(std::move(outputs), 64);
    if (lines_spanned(states, kStateBytes) + lines_spanned(outputs, 1) < kMinFootprintLines)
      return Footprint{};
    return Footprint{std::move(states), std::move(outputs),
                     joined_windows(std::move(expression_memory), 64), evaluates,
                     every_frame >= kMinRunningBytes};
  };
  for (const auto& c : m.commands) {
    std::vector<std::uint32_t> roots{c.root};
    if (c.secondary_root) roots.push_back(*c.secondary_root);
    roots.insert(roots.end(), module_outputs_.begin(), module_outputs_.end());
    footprints_.push_back(footprint_of(std::move(roots)));
  }
  if (m.commands.empty()) {
    std::vector<std::uint32_t> roots = logic_roots_;
    roots.insert(roots.end(), module_outputs_.begin(), module_outputs_.end());
    footprints_.push_back(footprint_of(std::move(roots)));
  }
  worth_prefetching_ = std::any_of(footprints_.begin(), footprints_.end(),
                                   [](const auto& f) { return !f.states.empty(); });
}

// A node's state counts its holders in bytes (NodeState::active, query_users), which keeps an
// actor small. Counted here, conservatively, are the holders a node can have at once: each child
// plug that leads to it, each ModuleIF_Child of a module that enters it for its caller, the slots
// of the active node array that can hold it (its command's root or transition targets: at most
// max_active_roots() at a time), its command's secondary root, and once as a Logic root or module
// output; for a query, each node that lists it. A file over kMaxHolders is refused, not wrapped.
void Graph::check_holders() const {
  const auto& m = *model_;
  std::vector<std::uint32_t> parents(nodes_.size(), 0), users(nodes_.size(), 0);
  std::vector<std::uint32_t> slots(nodes_.size(), 0);
  for (const auto child : children_) {
    if (child != kNoChild) ++parents[child];
  }
  for (const auto query : queries_)
    ++users[query];
  for (const auto& t : transitions_)
    ++slots[t.target];
  std::vector<bool> root(nodes_.size(), false), secondary(nodes_.size(), false);
  for (const auto& c : m.commands) {
    root[c.root] = true;
    if (c.secondary_root) secondary[*c.secondary_root] = true;
  }
  for (const auto n : logic_roots_)
    ++parents[n];
  for (const auto n : module_outputs_)
    ++parents[n];
  for (const auto& call : module_calls_) {
    const auto plugs = children(call.node);
    for (std::size_t j = 0; j < call.links.size(); ++j) {
      const bool child_link = call.graph->model().nodes[j].type == NodeType::ModuleIFChild;
      if (child_link && call.links[j] >= 0)
        ++parents[plugs[static_cast<std::size_t>(call.links[j])]];  // never kNoChild (below)
    }
  }
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    const auto holders = parents[n] + std::min(slots[n] + (root[n] ? 1u : 0u), max_active_roots_) +
                         (secondary[n] ? 1u : 0u);
    if (holders > kMaxHolders) {
      throw LoadError(m.name, "nodes", m.nodes[n].entry_offset,
                      fmt::format("node {} can be entered by {} parents at once (child plugs, "
                                  "commands, transitions, module calls): over the limit of {} "
                                  "(Graph::kMaxHolders)",
                                  n, holders, kMaxHolders));
    }
    if (users[n] > kMaxHolders) {
      throw LoadError(m.name, "nodes", m.nodes[n].entry_offset,
                      fmt::format("node {} is a query of {} nodes: over the limit of {} "
                                  "(Graph::kMaxHolders)",
                                  n, users[n], kMaxHolders));
    }
  }
}

}  // namespace ainb::runtime
