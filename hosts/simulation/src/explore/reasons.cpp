#include "reasons.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "ainb/exb/section.hpp"
// Selector conditions as the scheduler reads them.
#include "ainb/runtime/graph_view.hpp"
#include "ainb/simulation/tracer.hpp"

namespace ainb::simulation::explorer {

namespace {

using runtime::SelectorCase;

// An earlier plug with the same condition takes every value this one would.
std::optional<std::string> shadowed(NodeType type, std::span<const SelectorCase> cases,
                                    std::uint32_t plug) {
  if (plug + 1 >= cases.size()) return std::nullopt;  // the default plug
  const auto& c = cases[plug];
  if (type == NodeType::F32Selector && c.entry < 0 && c.max_entry < 0 && c.min > c.max)
    return fmt::format("its range [{}, {}] is empty", c.min, c.max);
  if (type == NodeType::RandomSelector && c.entry < 0 && c.min <= 0)
    return std::string("its weight is 0");
  for (std::uint32_t k = 0; k < plug; ++k) {
    const auto& e = cases[k];
    if (e.entry >= 0 || c.entry >= 0) continue;
    if (type == NodeType::S32Selector && e.value == c.value)
      return fmt::format("plug {} has the same condition ({}) and is tried first", k, c.value);
    if (type == NodeType::StringSelector && e.text == c.text)
      return fmt::format("plug {} has the same condition (\"{}\") and is tried first", k, c.text);
    if (type == NodeType::F32Selector && e.max_entry < 0 && c.max_entry < 0 && e.min <= c.min &&
        c.max <= e.max)
      return fmt::format("plug {}'s range [{}, {}] holds its range and is tried first", k, e.min,
                         e.max);
  }
  return std::nullopt;
}

// Where a selector's input comes from, when no scenario sets it.
std::optional<std::string> fixed_input(const runtime::Graph& graph, bool top, std::uint32_t node,
                                       const Targets& targets) {
  const auto& m = graph.model();
  const auto type = m.nodes[node].type;
  if (type == NodeType::RandomSelector) return std::nullopt;
  for (const auto& in : m.inputs_of(m.nodes[node], selector_type(type))) {
    if (in.name != "Input") continue;
    if (in.flags.source() == ParamFlags::Source::Expression && m.expressions) {
      const auto function = in.flags.index();
      if (function < m.expressions->functions.size()) {
        // A scenario gives a user function one result for all its calls: an expression that
        // calls it twice may need two.
        const auto& f = m.expressions->functions[function];
        std::map<std::uint32_t, int> calls;
        for (const auto& ins : m.expressions->block(f.main)) {
          if (ins.opcode == exb::Opcode::UserFunction &&
              ins.signature_index < m.expressions->signatures.size() &&
              ++calls[ins.signature_index] == 2)
            return fmt::format(
                "its input is an expression that calls user function {} more "
                "than once, and a scenario gives a function one result for all "
                "its calls",
                m.expressions->signatures[ins.signature_index]);
        }
      }
    }
    if (in.has_node_source()) {
      const auto& s = m.nodes[static_cast<std::size_t>(in.raw_node_index)];
      if (node_kind(s.type) == NodeKind::ModuleInput)
        return fmt::format("its input comes from the module's caller (#{} {})", in.raw_node_index,
                           node_class_name(s));
      if (s.is_module())
        return fmt::format(
            "its input comes from module #{} {} (a scenario does not script "
            "modules)",
            in.raw_node_index, s.name);
      if (s.type == NodeType::UserDefined &&
          std::none_of(targets.classes.begin(), targets.classes.end(),
                       [&](const auto& c) { return c.name == s.name; }))
        return fmt::format(
            "its input comes from #{} {}, a class that computes it (not a stub "
            "a scenario scripts)",
            in.raw_node_index, s.name);
      return std::nullopt;
    }
    if (in.is_multi_source()) return std::nullopt;
    if (in.flags.source() == ParamFlags::Source::Blackboard) {
      if (top) return std::nullopt;
      const auto entries = m.blackboard.of_type(blackboard_type_for(in.type, in.flags));
      if (in.flags.index() >= entries.size()) return std::nullopt;
      const auto& entry = entries[in.flags.index()];
      // A scenario sets it (the module file's entry, or for one it inherits the top file's): no
      // reason.
      const bool inherited = entry.inherit != InheritMode::DontInherit;
      if (std::any_of(targets.entries.begin(), targets.entries.end(), [&](const auto& e) {
            return e.name == entry.name && e.type == param_type_of(entry.type) &&
                   (e.file == graph.file_name() || (inherited && e.file.empty()));
          }))
        return std::nullopt;
      return fmt::format(
          "its input is the module's blackboard entry {}, which each call of the module sets "
          "from its caller's argument",
          entry.name);
    }
    if (in.flags.source() == ParamFlags::Source::Constant)
      return fmt::format("its input is the constant {}", format_value(in.default_value));
  }
  return std::nullopt;
}

}  // namespace

void explain_unreached(Coverage& coverage, const Targets& targets) {
  // By file and node: why the one plug that leads to it cannot be taken, when one plug does.
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::string> only_way;
  for (const auto& item : coverage.unreached()) {
    if (item.kind != Coverage::Item::Kind::Branch) continue;
    const auto& graph = coverage.graph_of(item.file);
    const auto [node, plug] = coverage.branch_at(item);
    if (!coverage.reached({Coverage::Item::Kind::Node, item.file, node})) continue;
    const auto type = graph.model().nodes[node].type;
    const runtime::GraphView view(graph);
    const auto cases = view.selector_cases(node);
    auto why = shadowed(type, cases, plug);
    if (!why) why = fixed_input(graph, item.file == 0, node, targets);
    if (!why) continue;
    const auto child = view.children(node)[plug];
    if (child != view.kNoChild)
      only_way[{item.file, child}] =
          fmt::format("only {} leads to it: {}", coverage.describe(item), *why);
    coverage.explain(item, std::move(*why));
  }
  for (const auto& [place, why] : only_way) {
    const auto [file, node] = place;
    if (coverage.reached({Coverage::Item::Kind::Node, file, node})) continue;
    // Anything else that leads to it (another plug, a query's user, a transition) is a way.
    const runtime::GraphView view(coverage.graph_of(file));
    std::size_t ways = 0;
    for (std::uint32_t n = 0; n < view.node_count(); ++n) {
      for (const auto c : view.children(n))
        ways += c == node;
      for (const auto q : view.queries(n))
        ways += q == node;
      for (const auto& t : view.transitions(n))
        ways += t.target == node;
    }
    if (ways == 1) coverage.explain({Coverage::Item::Kind::Node, file, node}, why);
  }
}

}  // namespace ainb::simulation::explorer
