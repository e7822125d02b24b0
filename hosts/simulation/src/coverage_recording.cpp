// Coverage, recording: the items a graph and its modules have to reach, what some run can reach
// (the walk from the commands and roots), and what each run reports reaching. The report of it is
// coverage_report.cpp.

#include <algorithm>

#include "ainb/simulation/coverage.hpp"
#include "coverage_graph.hpp"

namespace ainb::simulation {

namespace {

using coverage_graph::runs_child;

// A node that chooses among its child plugs: a selector (its input's or the draw's choice, the
// node-type table's is_selector), or a user node (a class, or a stub) with child plugs, which
// NodeContext::run_child runs.
bool is_decision(const runtime::Graph& graph, std::uint32_t node) {
  const auto type = graph.model().nodes[node].type;
  return !runtime::GraphView(graph).children(node).empty() &&
         (is_selector(type) || type == NodeType::UserDefined);
}

}  // namespace

Coverage::Coverage(const runtime::Graph& graph) {
  add_file(graph);
  for (std::size_t i = 0; i < files_.size(); ++i) {
    for (const auto* module : files_[i].graph->module_graphs()) {
      if (file_of(*module) == nullptr) add_file(*module);
    }
  }
  // What runs as the stubs behave here (a stub runs no children, or its first); then what any
  // run can reach, a scenario's "child" choosing a stub's plug, and which stub each node the
  // first walk missed is below.
  walk(true, [](File& file, std::uint32_t node, const Blocker&) {
    if ((file.nodes[node] & kRunsHere) != 0) return false;
    file.nodes[node] |= kRunsHere;
    return true;
  });
  // A node first found below a module that was not found is walked again when a path without
  // one leads to it.
  walk(false, [](File& file, std::uint32_t node, const Blocker& below) {
    auto& flags = file.nodes[node];
    if ((flags & kReachable) != 0 || (below.module && (flags & kWalked) != 0)) return false;
    flags |= below.module ? kWalked : kReachable;
    if ((flags & kRunsHere) == 0) file.blocked[node] = below;
    return true;
  });
  for (auto& file : files_) {
    for (std::size_t b = 0; b < file.branch_items.size(); ++b) {
      const auto [node, plug] = file.branch_items[b];
      if ((file.nodes[node] & kReachable) == 0) continue;
      // A module not found passes through to its first plug at most: no scenario picks another.
      if (file.graph->model().nodes[node].is_module() &&
          !runs_child(runtime::GraphView(*file.graph), node, plug))
        continue;
      file.branches[b] |= kReachable;
    }
    for (std::size_t t = 0; t < file.transition_items.size(); ++t) {
      if ((file.nodes[file.transition_items[t].from] & kReachable) != 0)
        file.transitions[t] |= kReachable;
    }
  }
}

template <typename Visit>
void Coverage::walk(bool as_run, Visit visit) {
  struct Step {
    std::size_t file;
    std::uint32_t node;
    Blocker below;
  };
  std::vector<Step> work;
  // A file's entry points: its commands' roots (a module runs its first command; the top file
  // any), else its Logic roots; and its module outputs, which a start enters too.
  auto enter_file = [&](std::size_t f, bool top, const Blocker& below) {
    const auto& graph = *files_[f].graph;
    const runtime::GraphView view(graph);
    const auto& commands = graph.model().commands;
    for (std::size_t c = 0; c < commands.size() && (top || c == 0); ++c) {
      if (!as_run) files_[f].commands[c] |= kReachable;
      work.push_back({f, commands[c].root, below});
      if (commands[c].secondary_root) work.push_back({f, *commands[c].secondary_root, below});
    }
    if (commands.empty()) {
      for (const auto root : view.logic_roots())
        work.push_back({f, root, below});
    }
    for (const auto out : view.module_outputs())
      work.push_back({f, out, below});
  };
  enter_file(0, true, {});
  while (!work.empty()) {
    const auto [f, node, below] = work.back();
    work.pop_back();
    auto& file = files_[f];
    if (node >= file.nodes.size() || !visit(file, node, below)) continue;
    const runtime::GraphView view(*file.graph);
    const auto children = view.children(node);
    for (std::uint32_t k = 0; k < children.size(); ++k) {
      const bool runs = runs_child(view, node, k);
      if (children[k] == view.kNoChild || (!runs && as_run)) continue;
      // The first stub on the way, unless a module not found comes after it: that one blocks
      // every run.
      auto child_below = below;
      if (!runs && file.graph->model().nodes[node].is_module() && !below.module) {
        child_below = {static_cast<std::int32_t>(f), node, true};
      } else if (!runs && below.file < 0) {
        child_below = {static_cast<std::int32_t>(f), node, false};
      }
      work.push_back({f, children[k], child_below});
    }
    for (const auto query : view.queries(node))
      work.push_back({f, query, below});
    for (const auto& t : view.transitions(node))
      work.push_back({f, t.target, below});
    if (const auto* called = view.module_graph(node)) {
      enter_file(static_cast<std::size_t>(file_of(*called) - files_.data()), false, below);
    }
  }
}

void Coverage::add_file(const runtime::Graph& graph) {
  File file;
  file.graph = &graph;
  const runtime::GraphView view(graph);
  const auto count = static_cast<std::uint32_t>(view.node_count());
  file.nodes.assign(count, 0);
  file.first_branch.assign(count, kNoBranch);
  for (std::uint32_t n = 0; n < count; ++n) {
    if (is_decision(graph, n)) {
      file.first_branch[n] = static_cast<std::uint32_t>(file.branch_items.size());
      for (std::uint32_t k = 0; k < view.children(n).size(); ++k)
        file.branch_items.push_back({n, k});
    }
    for (const auto& t : view.transitions(n))
      file.transition_items.push_back({n, t.target});
  }
  file.branches.assign(file.branch_items.size(), 0);
  file.transitions.assign(file.transition_items.size(), 0);
  file.commands.assign(graph.model().commands.size(), 0);
  file.blocked.assign(count, Blocker{});
  files_.push_back(std::move(file));
}

Coverage::File* Coverage::file_of(const runtime::Graph& graph) {
  if (last_ < files_.size() && files_[last_].graph == &graph) return &files_[last_];
  for (std::size_t f = 0; f < files_.size(); ++f) {
    if (files_[f].graph == &graph) {
      last_ = f;
      return &files_[f];
    }
  }
  return nullptr;
}

void Coverage::entered(const runtime::Graph& graph, std::uint32_t node) {
  if (auto* f = file_of(graph); f != nullptr && node < f->nodes.size()) f->nodes[node] |= kReached;
}

void Coverage::reached_by(const runtime::Instance& actor) {
  const auto& graph = actor.graph();
  auto* f = file_of(graph);
  if (f == nullptr) return;
  const auto count = std::min(f->nodes.size(), graph.model().nodes.size());
  for (std::uint32_t n = 0; n < count; ++n) {
    if (actor.was_entered(n)) f->nodes[n] |= kReached;
    if (f->first_branch[n] != kNoBranch) {
      const auto plugs = runtime::GraphView(graph).children(n).size();
      for (std::uint32_t k = 0; k < plugs; ++k) {
        if (actor.branch_taken(n, k)) f->branches[f->first_branch[n] + k] |= kReached;
      }
    }
    if (const auto* module = actor.module_instance(n)) reached_by(*module);
  }
}

void Coverage::branched(const runtime::Graph& graph, std::uint32_t node, std::uint32_t plug) {
  auto* f = file_of(graph);
  if (f == nullptr) return;
  if (node >= f->first_branch.size() || f->first_branch[node] == kNoBranch) return;
  if (plug < runtime::GraphView(graph).children(node).size())
    f->branches[f->first_branch[node] + plug] |= kReached;
}

void Coverage::transitioned(const runtime::Graph& graph, std::uint32_t from, std::uint32_t to) {
  auto* f = file_of(graph);
  if (f == nullptr) return;
  for (std::size_t t = 0; t < f->transition_items.size(); ++t) {
    if (f->transition_items[t].from == from && f->transition_items[t].to == to)
      f->transitions[t] |= kReached;
  }
}

void Coverage::commanded(const runtime::Graph& graph, std::string_view command) {
  auto* f = file_of(graph);
  if (f == nullptr) return;
  const auto& commands = graph.model().commands;
  for (std::size_t c = 0; c < commands.size(); ++c) {
    if (commands[c].name == command) f->commands[c] |= kReached;
  }
}

void Coverage::clear_reached() {
  auto clear = [](std::vector<std::uint8_t>& flags) {
    for (auto& f : flags)
      f = static_cast<std::uint8_t>(f & ~kReached);
  };
  for (auto& f : files_) {
    clear(f.nodes);
    clear(f.branches);
    clear(f.transitions);
    clear(f.commands);
  }
}

}  // namespace ainb::simulation
