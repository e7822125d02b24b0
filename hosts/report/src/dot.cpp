// A file's graph as Graphviz DOT; element ids for pages (DotOptions::ids).

#include "ainb/report/dot.hpp"

#include <map>
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

// An element's id (DotOptions::ids); empty when the options ask for none.
std::string element_id(const DotOptions& options, std::string_view what) {
  return options.ids.empty() ? std::string() : fmt::format("{}{}", options.ids, what);
}

std::string id_attribute(std::string_view lead, const std::string& id) {
  return id.empty() ? std::string() : fmt::format("{}id=\"{}\"", lead, escape(id));
}

std::string box_dot(const Drawing::Box& b) {
  using Kind = Drawing::BoxKind;
  switch (b.kind) {
    case Kind::Command:
      return fmt::format("  {} [label=\"{}\", shape=cds, fillcolor=\"#d6e4ff\"{}];\n", b.key,
                         escape(b.label), id_attribute(", ", b.id));
    case Kind::Empty:
      return fmt::format("  {} [label=\"empty\", shape=plaintext, fontcolor=gray50];\n", b.key);
    default:
      return fmt::format("  {} [label=\"{}{}\", shape={}, fillcolor=\"{}\", color={}{}];\n", b.key,
                         escape(b.label), b.kind == Kind::Module ? "\\n(module)" : "",
                         b.kind == Kind::Module  ? "component"
                         : b.kind == Kind::Query ? "ellipse"
                                                 : "box",
                         b.fill, b.reached ? "black" : "gray60", id_attribute(", ", b.id));
  }
}

std::string line_dot(const Drawing::Line& l) {
  using Kind = Drawing::LineKind;
  const auto label = escape(l.label);
  switch (l.kind) {
    case Kind::Root:
      return fmt::format("  {} -> {};\n", l.from, l.to);
    case Kind::Secondary:
      return fmt::format("  {} -> {} [style=dashed, label=\"secondary\"];\n", l.from, l.to);
    case Kind::Child: {
      std::string attributes = label.empty() ? "" : fmt::format("label=\"{}\"", label);
      attributes += id_attribute(attributes.empty() ? "" : ", ", l.id);
      return fmt::format("  {} -> {}{};\n", l.from, l.to,
                         attributes.empty() ? "" : fmt::format(" [{}]", attributes));
    }
    case Kind::Transition:
      return fmt::format("  {} -> {} [color=\"#3465a4\", style=bold, label=\"{}\"{}];\n", l.from,
                         l.to, label, id_attribute(", ", l.id));
    case Kind::Query:
      return fmt::format("  {} -> {} [style=dashed, color=gray50, label=\"query\"];\n", l.from,
                         l.to);
    case Kind::Data:
      return fmt::format("  {} -> {} [style=dotted, color=gray60, arrowhead=open, label=\"{}\"];\n",
                         l.from, l.to, label);
  }
  return {};
}

}  // namespace

std::string node_label(const Model& m, std::uint32_t node) {
  return fmt::format("#{} {}", node, node_class_name(m.nodes[node]));
}

Drawing graph_drawing(const Model& m, const DotOptions& options) {
  using Box = Drawing::Box;
  using Line = Drawing::Line;
  using BoxKind = Drawing::BoxKind;
  using LineKind = Drawing::LineKind;
  Drawing d{.name = std::string(m.name), .id = element_id(options, ""), .items = {}};
  const auto node_key = [](std::uint32_t i) { return fmt::format("node{}", i); };
  for (std::size_t c = 0; c < m.commands.size(); ++c) {
    const auto& command = m.commands[c];
    const auto key = fmt::format("command{}", c);
    d.items.emplace_back(Box{.kind = BoxKind::Command,
                             .key = key,
                             .label = std::string(command.name),
                             .fill = "#d6e4ff",
                             .reached = true,
                             .id = element_id(options, fmt::format("c{}", c))});
    d.items.emplace_back(Line{
        .kind = LineKind::Root, .from = key, .to = node_key(command.root), .label = {}, .id = {}});
    if (command.secondary_root) {
      d.items.emplace_back(Line{.kind = LineKind::Secondary,
                                .from = key,
                                .to = node_key(*command.secondary_root),
                                .label = "secondary",
                                .id = {}});
    }
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    const auto it = options.results.find(i);
    d.items.emplace_back(Box{.kind = n.is_module()  ? BoxKind::Module
                                     : n.is_query() ? BoxKind::Query
                                                    : BoxKind::Node,
                             .key = node_key(i),
                             .label = node_label(m, i),
                             .fill = it != options.results.end() ? colour(it->second) : "#ffffff",
                             .reached = it != options.results.end(),
                             .id = element_id(options, fmt::format("n{}", i))});
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    // An empty plug (it leads nowhere) ends at a point of its own, so its case stays visible.
    std::size_t empty_plugs = 0;
    const auto target = [&](const Plug& plug) {
      if (plug.target) return node_key(*plug.target);
      const auto point = fmt::format("empty{}_{}", i, empty_plugs++);
      d.items.emplace_back(
          Box{.kind = BoxKind::Empty, .key = point, .label = "empty", .fill = {}, .id = {}});
      return point;
    };
    std::uint32_t k = 0;
    for (const auto& plug : m.plugs_of(n, PlugKind::Child)) {
      auto label = child_label(m, plug);
      auto to = target(plug);
      d.items.emplace_back(Line{.kind = LineKind::Child,
                                .from = node_key(i),
                                .to = std::move(to),
                                .label = std::move(label),
                                .id = element_id(options, fmt::format("b{}_{}", i, k++))});
    }
    k = 0;
    for (const auto& plug : m.plugs_of(n, PlugKind::Transition)) {
      const auto& t = m.transitions[plug.transition_index];
      auto to = target(plug);
      d.items.emplace_back(
          Line{.kind = LineKind::Transition,
               .from = node_key(i),
               .to = std::move(to),
               .label = t.type() == 0 ? std::string(t.command) : (t.post_calc() ? "post calc" : ""),
               .id = element_id(options, fmt::format("t{}_{}", i, k++))});
    }
    for (const auto q : m.queries_of(n)) {
      d.items.emplace_back(Line{.kind = LineKind::Query,
                                .from = node_key(i),
                                .to = node_key(q),
                                .label = "query",
                                .id = {}});
    }
    // Data links: one line from each node whose outputs this node's inputs read, labelled with
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
      d.items.emplace_back(Line{.kind = LineKind::Data,
                                .from = fmt::format("node{}", source),
                                .to = node_key(i),
                                .label = fmt::format("{}", fmt::join(inputs, ", ")),
                                .id = {}});
    }
  }
  return d;
}

std::string graph_dot(const Model& m, const DotOptions& options) {
  return dot_text(graph_drawing(m, options));
}

std::string dot_text(const Drawing& drawing) {
  std::string out = fmt::format("digraph \"{}\" {{\n", escape(drawing.name));
  if (!drawing.id.empty()) out += fmt::format("  {};\n", id_attribute("", drawing.id));
  out +=
      "  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", "
      "fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (const auto& item : drawing.items) {
    out += std::visit(
        [](const auto& x) {
          if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Drawing::Box>) {
            return box_dot(x);
          } else {
            return line_dot(x);
          }
        },
        item);
  }
  out += "}\n";
  return out;
}

}  // namespace ainb::report
