// Coverage, reporting: what was reached and never reached, item by item, as counts, the JSON
// report and the text; and the merging of coverages of the same files. What a run reached is
// recorded by coverage_recording.cpp.

#include <ostream>

#include <fmt/format.h>

#include "ainb/simulation/coverage.hpp"
#include "coverage_graph.hpp"

namespace ainb::simulation {

namespace {

using coverage_graph::runs_child;

// What a stub does with its children, for the reports.
std::string stub_behaviour(const runtime::Graph& graph, std::uint32_t node) {
  if (graph.model().nodes[node].is_module())
    return "a module that was not found: it runs as a stub";
  return runtime::GraphView(graph).stub_child(node)
             ? "a stub that runs only its first child (a scenario's \"child\" picks another)"
             : "a stub that runs no children (--stub-children runs its first, a scenario's "
               "\"child\" any)";
}

std::string node_label(const runtime::Graph& graph, std::uint32_t node) {
  return fmt::format("#{} {}", node, node_class_name(graph.model().nodes[node]));
}

}  // namespace

void Coverage::merge(const Coverage& other) {
  for (std::size_t i = 0; i < files_.size() && i < other.files_.size(); ++i) {
    auto add = [](std::vector<std::uint8_t>& to, const std::vector<std::uint8_t>& from) {
      for (std::size_t k = 0; k < to.size() && k < from.size(); ++k)
        to[k] = static_cast<std::uint8_t>(to[k] | (from[k] & kReached));
    };
    add(files_[i].nodes, other.files_[i].nodes);
    add(files_[i].branches, other.files_[i].branches);
    add(files_[i].transitions, other.files_[i].transitions);
    add(files_[i].commands, other.files_[i].commands);
  }
}

namespace {

// A file's flags of one kind (const for a const file).
template <typename File>
auto& flags_of(File& file, Coverage::Item::Kind kind) {
  switch (kind) {
    case Coverage::Item::Kind::Branch:
      return file.branches;
    case Coverage::Item::Kind::Transition:
      return file.transitions;
    case Coverage::Item::Kind::Command:
      return file.commands;
    case Coverage::Item::Kind::Node:
      break;
  }
  return file.nodes;
}

}  // namespace

std::vector<Coverage::Item> Coverage::reached_beyond(const Coverage& base) const {
  std::vector<Item> items;
  for (std::uint32_t f = 0; f < files_.size() && f < base.files_.size(); ++f) {
    for (const auto kind :
         {Item::Kind::Branch, Item::Kind::Transition, Item::Kind::Command, Item::Kind::Node}) {
      const auto& mine = flags_of(files_[f], kind);
      const auto& theirs = flags_of(base.files_[f], kind);
      for (std::uint32_t i = 0; i < mine.size() && i < theirs.size(); ++i) {
        if ((mine[i] & kReached) != 0 && (theirs[i] & kReached) == 0) items.push_back({kind, f, i});
      }
    }
  }
  return items;
}

bool Coverage::reached(const Item& item) const {
  if (item.file >= files_.size()) return false;
  const auto& flags = flags_of(files_[item.file], item.kind);
  return item.index < flags.size() && (flags[item.index] & kReached) != 0;
}

void Coverage::mark_reached(const Item& item) {
  if (item.file >= files_.size()) return;
  auto& flags = flags_of(files_[item.file], item.kind);
  if (item.index < flags.size()) flags[item.index] |= kReached;
}

std::string Coverage::describe(const Item& item) const {
  const auto& f = files_[item.file];
  const auto& graph = *f.graph;
  switch (item.kind) {
    case Item::Kind::Node:
      return fmt::format("{} {}", graph.file_name(), node_label(graph, item.index));
    case Item::Kind::Branch: {
      const auto [node, plug] = f.branch_items[item.index];
      const runtime::GraphView view(graph);
      const auto child = view.children(node)[plug];
      const auto name = graph.model().plugs[view.child_plugs(node)[plug]].name;
      return fmt::format(
          "{} {} plug {}{} -> {}", graph.file_name(), node_label(graph, node), plug,
          name.empty() ? "" : fmt::format(" \"{}\"", name),
          child == view.kNoChild ? std::string("an empty plug") : fmt::format("#{}", child));
    }
    case Item::Kind::Transition:
      return fmt::format("{} transition #{} -> #{}", graph.file_name(),
                         f.transition_items[item.index].from, f.transition_items[item.index].to);
    case Item::Kind::Command:
      return fmt::format("{} command {}", graph.file_name(),
                         graph.model().commands[item.index].name);
  }
  return "";
}

std::vector<Coverage::Item> Coverage::unreached() const {
  std::vector<Item> items;
  for (std::uint32_t f = 0; f < files_.size(); ++f) {
    for (const auto kind :
         {Item::Kind::Branch, Item::Kind::Transition, Item::Kind::Command, Item::Kind::Node}) {
      const auto& flags = flags_of(files_[f], kind);
      for (std::uint32_t i = 0; i < flags.size(); ++i) {
        if ((flags[i] & kReached) == 0) items.push_back({kind, f, i});
      }
    }
  }
  return items;
}

std::pair<std::uint32_t, std::uint32_t> Coverage::branch_at(const Item& item) const {
  const auto& b = files_[item.file].branch_items[item.index];
  return {b.node, b.plug};
}

std::optional<std::uint32_t> Coverage::file_index(const runtime::Graph& graph) const {
  for (std::uint32_t f = 0; f < files_.size(); ++f) {
    if (files_[f].graph == &graph) return f;
  }
  return std::nullopt;
}

std::optional<Coverage::Item> Coverage::branch_item(std::uint32_t file, std::uint32_t node,
                                                    std::uint32_t plug) const {
  if (file >= files_.size()) return std::nullopt;
  const auto& first = files_[file].first_branch;
  if (node >= first.size() || first[node] == kNoBranch) return std::nullopt;
  const auto index = first[node] + plug;
  if (index >= files_[file].branch_items.size() || files_[file].branch_items[index].node != node)
    return std::nullopt;
  return Item{Item::Kind::Branch, file, index};
}

void Coverage::explain(const Item& item, std::string why) {
  explained_[{item.kind, item.file, item.index}] = std::move(why);
}

std::string Coverage::slug(const Item& item) const {
  const auto& f = files_[item.file];
  std::string what;
  switch (item.kind) {
    case Item::Kind::Node:
      what = fmt::format("n{}", item.index);
      break;
    case Item::Kind::Branch:
      what = fmt::format("n{}-plug{}", f.branch_items[item.index].node,
                         f.branch_items[item.index].plug);
      break;
    case Item::Kind::Transition:
      what = fmt::format("n{}-to-n{}", f.transition_items[item.index].from,
                         f.transition_items[item.index].to);
      break;
    case Item::Kind::Command:
      what = fmt::format("command{}", item.index);
      break;
  }
  auto name = f.graph->file_name();
  const auto slash = name.find_last_of("/:");
  if (slash != std::string::npos) name = name.substr(slash + 1);
  if (name.ends_with(".ainb")) name.resize(name.size() - 5);
  return name + "-" + what;
}

namespace {

Coverage::Counts count(const std::vector<std::uint8_t>& flags) {
  Coverage::Counts c;
  c.total = flags.size();
  for (const auto f : flags) {
    c.reached += (f & 1) != 0;
    c.reachable += (f & 2) != 0;
  }
  return c;
}

void add(Coverage::Counts& to, const Coverage::Counts& from) {
  to.reached += from.reached;
  to.reachable += from.reachable;
  to.total += from.total;
}

nlohmann::ordered_json counts_json(const Coverage::Counts& c) {
  return {{"reached", c.reached}, {"reachable", c.reachable}, {"total", c.total}};
}

}  // namespace

Coverage::Totals Coverage::totals() const {
  Totals t;
  for (const auto& f : files_) {
    add(t.nodes, count(f.nodes));
    add(t.branches, count(f.branches));
    add(t.transitions, count(f.transitions));
    add(t.commands, count(f.commands));
  }
  return t;
}

// Why a node was not reached, when the graph says: nothing leads to it, or it is below a stub
// that does not run the child leading there (a scenario's "child" would).
std::string Coverage::why_unreached(const File& file, std::uint32_t node) const {
  const auto& below = file.blocked[node];
  if ((file.nodes[node] & kReachable) == 0 && !below.module)
    return "no command, root or reachable node leads to it";
  if (below.file < 0) return "";
  const auto& stub = files_[static_cast<std::size_t>(below.file)];
  if (below.module) {
    return fmt::format("below {}{}, a module that was not found: it runs as a stub",
                       node_label(*stub.graph, below.node),
                       &stub == &file ? "" : " in " + stub.graph->file_name());
  }
  return fmt::format("below {}{}, {}", node_label(*stub.graph, below.node),
                     &stub == &file ? "" : " in " + stub.graph->file_name(),
                     stub_behaviour(*stub.graph, below.node));
}

nlohmann::ordered_json Coverage::to_json() const {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  auto explained = [&](Item::Kind kind, std::size_t file, std::size_t index,
                       nlohmann::ordered_json& item) {
    const auto it = explained_.find(
        {kind, static_cast<std::uint32_t>(file), static_cast<std::uint32_t>(index)});
    if (it != explained_.end()) item["why"] = it->second;
  };
  for (std::size_t file = 0; file < files_.size(); ++file) {
    const auto& f = files_[file];
    const auto& graph = *f.graph;
    const runtime::GraphView view(graph);
    const auto& model = graph.model();
    auto nodes = counts_json(count(f.nodes));
    nodes["unreached"] = nlohmann::ordered_json::array();
    for (std::uint32_t n = 0; n < f.nodes.size(); ++n) {
      if ((f.nodes[n] & kReached) != 0) continue;
      nlohmann::ordered_json item{{"node", n},
                                  {"type", std::string(node_class_name(model.nodes[n]))},
                                  {"reachable", (f.nodes[n] & kReachable) != 0}};
      if (const auto why = why_unreached(f, n); !why.empty()) item["why"] = why;
      explained(Item::Kind::Node, file, n, item);
      nodes["unreached"].push_back(std::move(item));
    }
    auto branches = counts_json(count(f.branches));
    branches["unreached"] = nlohmann::ordered_json::array();
    for (std::size_t b = 0; b < f.branch_items.size(); ++b) {
      if ((f.branches[b] & kReached) != 0) continue;
      const auto [node, plug] = f.branch_items[b];
      const auto child = view.children(node)[plug];
      nlohmann::ordered_json item{
          {"node", node},
          {"type", std::string(node_class_name(model.nodes[node]))},
          {"plug", plug},
          {"name", std::string(model.plugs[view.child_plugs(node)[plug]].name)}};
      item["to"] =
          child == view.kNoChild ? nlohmann::ordered_json() : nlohmann::ordered_json(child);
      item["reachable"] = (f.branches[b] & kReachable) != 0;
      if (auto why = why_unreached(f, node); !why.empty()) {
        item["why"] = std::move(why);
      } else if (!runs_child(view, node, plug)) {
        item["why"] = stub_behaviour(graph, node);
      }
      explained(Item::Kind::Branch, file, b, item);
      branches["unreached"].push_back(std::move(item));
    }
    auto transitions = counts_json(count(f.transitions));
    transitions["unreached"] = nlohmann::ordered_json::array();
    for (std::size_t t = 0; t < f.transition_items.size(); ++t) {
      if ((f.transitions[t] & kReached) != 0) continue;
      nlohmann::ordered_json item{{"from", f.transition_items[t].from},
                                  {"to", f.transition_items[t].to},
                                  {"reachable", (f.transitions[t] & kReachable) != 0}};
      explained(Item::Kind::Transition, file, t, item);
      transitions["unreached"].push_back(std::move(item));
    }
    auto commands = counts_json(count(f.commands));
    commands["unreached"] = nlohmann::ordered_json::array();
    for (std::size_t c = 0; c < f.commands.size(); ++c) {
      if ((f.commands[c] & kReached) == 0)
        commands["unreached"].push_back(std::string(model.commands[c].name));
    }
    files.push_back({{"file", graph.file_name()},
                     {"nodes", std::move(nodes)},
                     {"branches", std::move(branches)},
                     {"transitions", std::move(transitions)},
                     {"commands", std::move(commands)}});
  }
  const auto t = totals();
  return {{"schema", "ainb-coverage/1"},
          {"totals",
           {{"nodes", counts_json(t.nodes)},
            {"branches", counts_json(t.branches)},
            {"transitions", counts_json(t.transitions)},
            {"commands", counts_json(t.commands)}}},
          {"files", std::move(files)}};
}

std::vector<std::string> Coverage::unexpected() const {
  std::vector<std::string> found;
  auto check = [&](const File& f, std::uint8_t flags, const std::string& what) {
    if ((flags & kReached) != 0 && (flags & kReachable) == 0)
      found.push_back(fmt::format("{} {}", f.graph->file_name(), what));
  };
  for (const auto& f : files_) {
    for (std::uint32_t n = 0; n < f.nodes.size(); ++n)
      check(f, f.nodes[n], node_label(*f.graph, n));
    for (std::size_t b = 0; b < f.branch_items.size(); ++b)
      check(f, f.branches[b],
            fmt::format("{} plug {}", node_label(*f.graph, f.branch_items[b].node),
                        f.branch_items[b].plug));
    for (std::size_t t = 0; t < f.transition_items.size(); ++t)
      check(f, f.transitions[t],
            fmt::format("transition #{} -> #{}", f.transition_items[t].from,
                        f.transition_items[t].to));
    for (std::size_t c = 0; c < f.commands.size(); ++c)
      check(f, f.commands[c], fmt::format("command {}", f.graph->model().commands[c].name));
  }
  return found;
}

void Coverage::print(std::ostream& out) const {
  const auto t = totals();
  auto line = [&](const char* kind, const Counts& c) {
    out << fmt::format("  {:<12} {} of {} reachable ({} in the files)\n", kind, c.reached,
                       c.reachable, c.total);
  };
  out << "coverage:\n";
  line("nodes", t.nodes);
  line("branches", t.branches);
  line("transitions", t.transitions);
  line("commands", t.commands);
  const auto json = to_json();
  bool header = false;
  for (const auto& f : json["files"]) {
    const auto file = f["file"].get<std::string>();
    auto say = [&](const std::string& what, const nlohmann::ordered_json& item) {
      if (!header) out << "never reached:\n";
      header = true;
      out << fmt::format("  {} {}", file, what);
      if (item.contains("why")) out << fmt::format(" ({})", item["why"].get<std::string>());
      out << "\n";
    };
    // Nodes as ranges ("#2, #6-#9"), a line for each reason: a tree's unreached nodes come in
    // runs, most below a few stubs.
    std::vector<std::pair<std::string, std::vector<std::uint32_t>>> groups;
    for (const auto& n : f["nodes"]["unreached"]) {
      const auto why = n.value("why", std::string());
      auto it = std::find_if(groups.begin(), groups.end(), [&](auto& g) { return g.first == why; });
      if (it == groups.end()) it = groups.insert(groups.end(), {why, {}});
      it->second.push_back(n["node"].get<std::uint32_t>());
    }
    for (const auto& [why, nodes] : groups) {
      std::string ranges;
      for (std::size_t i = 0; i < nodes.size();) {
        const auto first = nodes[i];
        auto last = first;
        for (++i; i < nodes.size() && nodes[i] == last + 1; ++i)
          ++last;
        ranges += fmt::format(
            "{}#{}", ranges.empty() ? "" : ", ",
            first == last ? fmt::format("{}", first) : fmt::format("{}-#{}", first, last));
      }
      nlohmann::ordered_json item = nlohmann::ordered_json::object();
      if (!why.empty()) item["why"] = why;
      say("nodes " + ranges, item);
    }
    for (const auto& b : f["branches"]["unreached"]) {
      const auto to = b["to"].is_null() ? std::string("an empty plug")
                                        : fmt::format("#{}", b["to"].get<std::uint32_t>());
      const auto name = b["name"].get<std::string>();
      say(fmt::format("#{} {} plug {}{} -> {}", b["node"].get<std::uint32_t>(),
                      b["type"].get<std::string>(), b["plug"].get<std::uint32_t>(),
                      name.empty() ? "" : " \"" + name + "\"", to),
          b);
    }
    for (const auto& tr : f["transitions"]["unreached"])
      say(fmt::format("transition #{} -> #{}", tr["from"].get<std::uint32_t>(),
                      tr["to"].get<std::uint32_t>()),
          tr);
    for (const auto& c : f["commands"]["unreached"])
      say(fmt::format("command {}", c.get<std::string>()), c);
  }
}

}  // namespace ainb::simulation
