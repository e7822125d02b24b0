// A file's graph as Graphviz DOT; element ids for pages (DotOptions::ids).

#include "ainb/report/dot.hpp"

#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ainb::report {

namespace {

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

const char* colour(std::string_view result) {
  if (result == "Success") return "#b7e4b0";
  if (result == "Failure") return "#f4b6b0";
  if (result == "Running") return "#fbe6a2";
  return "#ffffff";
}

// What a child edge says: the plug's name, or a selector's condition for that child.
std::string child_label(const Model& m, const Plug& plug) {
  auto bb = [&](const PlugBlackboard& b, BlackboardType type, std::string value) {
    if (!b.used) return value;
    const auto entries = m.blackboard.of_type(type);
    return b.index < entries.size() ? std::string(entries[b.index].name) : value;
  };
  return std::visit(
      [&](const auto& d) -> std::string {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, S32Condition>) {
          if (d.is_default) return "default";
          return "= " + bb(d.blackboard, BlackboardType::S32, std::to_string(d.value));
        } else if constexpr (std::is_same_v<T, StringCondition>) {
          if (d.is_default) return "default";
          return "= " + bb(d.blackboard, BlackboardType::String, fmt::format("\"{}\"", d.value));
        } else if constexpr (std::is_same_v<T, F32Condition>) {
          if (d.is_default) return "default";
          return fmt::format(
              "[{}, {}]", bb(d.min.blackboard, BlackboardType::F32, fmt::format("{}", d.min.value)),
              bb(d.max.blackboard, BlackboardType::F32, fmt::format("{}", d.max.value)));
        } else if constexpr (std::is_same_v<T, RandomWeight>) {
          return "weight " + bb(d.blackboard, BlackboardType::F32, fmt::format("{}", d.weight));
        } else if constexpr (std::is_same_v<T, EnumCondition>) {
          return fmt::format("= {}", d.value);
        } else {
          return std::string(plug.name);
        }
      },
      plug.data);
}

// An element's id attribute (DotOptions::ids), with `lead` before it when there is one.
std::string id_attribute(const DotOptions& options, std::string_view lead, std::string_view what) {
  if (options.ids.empty()) return {};
  return fmt::format("{}id=\"{}{}\"", lead, escape(options.ids), what);
}

}  // namespace

std::string node_label(const Model& m, std::uint32_t node) {
  return fmt::format("#{} {}", node, node_class_name(m.nodes[node]));
}

std::string graph_dot(const Model& m, const DotOptions& options) {
  std::string out = fmt::format("digraph \"{}\" {{\n", escape(m.name));
  if (!options.ids.empty()) out += fmt::format("  {};\n", id_attribute(options, "", ""));
  out +=
      "  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", "
      "fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (std::size_t c = 0; c < m.commands.size(); ++c) {
    const auto& command = m.commands[c];
    out += fmt::format("  command{} [label=\"{}\", shape=cds, fillcolor=\"#d6e4ff\"{}];\n", c,
                       escape(command.name), id_attribute(options, ", ", fmt::format("c{}", c)));
    out += fmt::format("  command{} -> node{};\n", c, command.root);
    if (command.secondary_root) {
      out += fmt::format("  command{} -> node{} [style=dashed, label=\"secondary\"];\n", c,
                         *command.secondary_root);
    }
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    const auto label = escape(node_label(m, i));
    std::string shape = n.is_module() ? "component" : n.is_query() ? "ellipse" : "box";
    const auto it = options.results.find(i);
    const auto* fill = it != options.results.end() ? colour(it->second) : "#ffffff";
    const auto* pen = it != options.results.end() ? "black" : "gray60";
    out += fmt::format("  node{} [label=\"{}{}\", shape={}, fillcolor=\"{}\", color={}{}];\n", i,
                       label, n.is_module() ? "\\n(module)" : "", shape, fill, pen,
                       id_attribute(options, ", ", fmt::format("n{}", i)));
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    // An empty plug (it leads nowhere) ends at a point of its own, so its case stays visible.
    std::size_t empty_plugs = 0;
    const auto target = [&](const Plug& plug) {
      if (plug.target) return fmt::format("node{}", *plug.target);
      const auto point = fmt::format("empty{}_{}", i, empty_plugs++);
      out += fmt::format("  {} [label=\"empty\", shape=plaintext, fontcolor=gray50];\n", point);
      return point;
    };
    std::uint32_t k = 0;
    for (const auto& plug : m.plugs_of(n, PlugKind::Child)) {
      const auto label = child_label(m, plug);
      const auto to = target(plug);
      std::string attributes = label.empty() ? "" : fmt::format("label=\"{}\"", escape(label));
      attributes +=
          id_attribute(options, attributes.empty() ? "" : ", ", fmt::format("b{}_{}", i, k++));
      out += fmt::format("  node{} -> {}{};\n", i, to,
                         attributes.empty() ? "" : fmt::format(" [{}]", attributes));
    }
    k = 0;
    for (const auto& plug : m.plugs_of(n, PlugKind::Transition)) {
      const auto& t = m.transitions[plug.transition_index];
      const auto to = target(plug);
      out += fmt::format("  node{} -> {} [color=\"#3465a4\", style=bold, label=\"{}\"{}];\n", i, to,
                         t.type() == 0 ? escape(t.command) : (t.post_calc() ? "post calc" : ""),
                         id_attribute(options, ", ", fmt::format("t{}_{}", i, k++)));
    }
    for (const auto q : m.queries_of(n)) {
      out +=
          fmt::format("  node{} -> node{} [style=dashed, color=gray50, label=\"query\"];\n", i, q);
    }
    // Data links: one edge from each node whose outputs this node's inputs read, labelled with
    // those inputs. (The input plugs are not used: both ends of a link list one.)
    std::map<std::int16_t, std::vector<std::string_view>> sources;
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      for (const auto& in : m.inputs_of(n, static_cast<ParamType>(t))) {
        if (in.has_node_source()) sources[in.raw_node_index].push_back(in.name);
        for (const auto& s : m.sources_of(in)) {
          if (s.node_index >= 0) sources[s.node_index].push_back(in.name);
        }
      }
    }
    for (const auto& [source, inputs] : sources) {
      out += fmt::format(
          "  node{} -> node{} [style=dotted, color=gray60, arrowhead=open, label=\"{}\"];\n",
          source, i, escape(fmt::format("{}", fmt::join(inputs, ", "))));
    }
  }
  out += "}\n";
  return out;
}

}  // namespace ainb::report
