// The checks once every section is read: each reference resolved against the section it names.

#include <algorithm>

#include "loader_state.hpp"

namespace ainb::detail {

template <typename Describe>
void Loader::check_blackboard_index(std::uint64_t at, BlackboardType type, std::uint16_t index,
                                    Describe&& describe) {
  const auto count = m_.blackboard.count[static_cast<std::size_t>(type)];
  if (index >= count) {
    r_.fail(at, "{} reads {} blackboard entry {}, but there are {}", describe(),
            blackboard_type_name(type), index, count);
  }
}

// `name` is the parameter's name: a function bound to a parameter returns its type, except an
// Element_Expression's own function (its ExpressionBase property), whose values go through user
// slots.
void Loader::check_flags(std::uint64_t at, ParamType type, const ParamFlags& flags,
                         std::string_view what, std::string_view name) {
  switch (flags.source()) {
    case ParamFlags::Source::Constant:
      break;
    case ParamFlags::Source::Blackboard:
      check_blackboard_index(at, blackboard_type_for(type, flags), flags.index(),
                             [&] { return what; });
      break;
    case ParamFlags::Source::Expression: {
      const auto count = m_.expressions ? m_.expressions->functions.size() : 0;
      if (flags.index() >= count) {
        r_.fail(at, "{} uses expression {}, but the file has {} expressions", what, flags.index(),
                count);
      }
      const auto returns = m_.expressions->functions[flags.index()].output_type;
      if (name != "ExpressionBase" && param_type_of(returns) != type) {
        r_.fail(at, "{} \"{}\" ({}) uses expression {}, which returns {}", what, name,
                param_type_name(type), flags.index(), exb::data_type_name(returns));
      }
      break;
    }
  }
}

// A node-output reference: node `node` output `output` of the type the reader expects.
void Loader::check_output_ref(std::uint64_t at, ParamType type, const ParamFlags& flags,
                              std::int16_t node, std::int16_t output, std::string_view what) {
  if (node < 0) return;
  if (static_cast<std::size_t>(node) >= m_.nodes.size()) {
    r_.fail(at, "{} reads node {}, but the file has {} nodes", what, node, m_.nodes.size());
  }
  // An expression may convert the source's type; its input type says which outputs to index.
  auto source_type = std::optional<ParamType>(type);
  if (flags.source() == ParamFlags::Source::Expression) {
    source_type = param_type_of(m_.expressions->functions[flags.index()].input_type);
  }
  if (!source_type) return;
  const auto& source = m_.nodes[static_cast<std::size_t>(node)];
  const auto available = source.outputs[static_cast<std::size_t>(*source_type)].count;
  if (output < 0 || static_cast<std::uint32_t>(output) >= available) {
    r_.fail(at, "{} reads {} output {} of node {}, which has {}", what,
            param_type_name(*source_type), output, node, available);
  }
}

void Loader::resolve_references() {
  {
    auto scope = section(header_slot::kProperties);
    for (const auto& list : m_.properties) {
      for (const auto& p : list)
        check_flags(p.offset, p.type, p.flags, "property", p.name);
    }
  }
  {
    auto scope = section(header_slot::kInputsOutputs);
    for (const auto& list : m_.inputs) {
      for (const auto& in : list) {
        if (in.is_multi_source()) {
          check_range(in.offset + 4, in.multi_sources(), m_.multi_sources.size(),
                      [] { return "multi-source input's sources"; });
          for (const auto& s : m_.sources_of(in)) {
            check_flags(in.offset, in.type, s.flags, "a source of multi-source input", in.name);
            check_output_ref(in.offset, in.type, s.flags, s.node_index, s.output_index,
                             "multi-source input");
          }
        } else {
          check_flags(in.offset, in.type, in.flags, "input", in.name);
          check_output_ref(in.offset, in.type, in.flags, in.raw_node_index, in.source_output(),
                           "input");
        }
      }
    }
  }
  auto scope = r_.section("nodes");
  std::vector<std::uint16_t> query_nodes;
  for (const auto& n : m_.nodes) {
    if (n.is_query()) query_nodes.push_back(n.index);
  }
  // Entries no node's window covers need not name a query node: a modders' tool writes a lone
  // 0 for an empty array (docs/loader.md, "Files modders' tools write").
  std::vector<std::uint8_t> covered(m_.query_indices.size(), 0);
  for (const auto& n : m_.nodes) {
    check_range(n.entry_offset + (m_.version() == kVersion404 ? 0x20 : 0x24), n.queries,
                m_.query_indices.size(), [&] { return fmt::format("node {} queries", n.index); });
    std::fill_n(covered.begin() + n.queries.base, n.queries.count, 1);
  }
  m_.query_nodes.reserve(m_.query_indices.size());
  for (std::size_t i = 0; i < m_.query_indices.size(); ++i) {
    const auto q = m_.query_indices[i];
    if (q < query_nodes.size()) {
      m_.query_nodes.push_back(query_nodes[q]);
    } else if (covered[i] == 0) {
      m_.query_nodes.push_back(Model::kUnresolvedQuery);
    } else {
      auto q_scope = section(header_slot::kQueries);
      r_.fail(offset(header_slot::kQueries) + entry_size(header_slot::kQueries, m_.version()) * i,
              "query {} names query node {}, but the file has {} query nodes", i, q,
              query_nodes.size());
    }
  }
  for (const auto& n : m_.nodes) {
    check_range(n.entry_offset + (m_.version() == kVersion404 ? 0x1C : 0x20), n.attachments,
                m_.attachment_indices.size(),
                [&] { return fmt::format("node {} attachments", n.index); });
    for (std::size_t k = 0; k < kPlugKindCount; ++k) {
      for (const auto& p : m_.plugs_of(n, static_cast<PlugKind>(k)))
        check_plug(n, p);
    }
  }
  if (m_.replacements) check_replacements();
}

void Loader::check_plug(const Node& n, const Plug& p) {
  const auto what = [&] { return fmt::format("node {} {} plug", n.index, plug_kind_name(p.kind)); };
  if (p.multi_source_mark != 0) {
    // A tool's stand-in for a source node: it must mark one of the node's multi-source inputs.
    bool marks_input = false;
    for (std::size_t t = 0; t < kParamTypeCount && !marks_input; ++t) {
      for (const auto& in : m_.inputs_of(n, static_cast<ParamType>(t)))
        marks_input = marks_input || in.raw_node_index == p.multi_source_mark;
    }
    if (!marks_input) {
      r_.fail(p.offset, "{} \"{}\" holds the multi-source mark {}, but no input of the node has it",
              what(), p.name, p.multi_source_mark);
    }
  }
  if (const auto* s = std::get_if<S32Condition>(&p.data); s && s->blackboard.used) {
    check_blackboard_index(p.offset, BlackboardType::S32, s->blackboard.index, what);
  } else if (const auto* str = std::get_if<StringCondition>(&p.data); str && str->blackboard.used) {
    check_blackboard_index(p.offset, BlackboardType::String, str->blackboard.index, what);
  } else if (const auto* f = std::get_if<F32Condition>(&p.data)) {
    if (f->min.blackboard.used) {
      check_blackboard_index(p.offset, BlackboardType::F32, f->min.blackboard.index, what);
    }
    if (f->max.blackboard.used) {
      check_blackboard_index(p.offset, BlackboardType::F32, f->max.blackboard.index, what);
    }
  } else if (const auto* w = std::get_if<RandomWeight>(&p.data); w && w->blackboard.used) {
    check_blackboard_index(p.offset, BlackboardType::F32, w->blackboard.index, what);
  }
}

void Loader::check_replacements() {
  auto scope = section(header_slot::kReplacements);
  const auto base = offset(header_slot::kReplacements) + 8ull;
  const auto size = entry_size(header_slot::kReplacements, m_.version());
  for (std::size_t i = 0; i < m_.replacements->entries.size(); ++i) {
    const auto& rep = m_.replacements->entries[i];
    const auto at = base + size * i;
    if (rep.node_index >= m_.nodes.size()) {
      r_.fail(at, "replacement {} names node {}, but the file has {} nodes", i, rep.node_index,
              m_.nodes.size());
    }
    const auto& n = m_.nodes[rep.node_index];
    const auto limit = rep.type == ReplacementType::RemoveAttachment
                           ? n.attachments.count
                           : n.plugs[static_cast<std::size_t>(PlugKind::Child)].count;
    if (rep.target >= limit) {
      r_.fail(at, "replacement {} targets {} {} of node {}, which has {}", i,
              rep.type == ReplacementType::RemoveAttachment ? "attachment" : "child plug",
              rep.target, rep.node_index, limit);
    }
    if (rep.type == ReplacementType::ReplaceChild && rep.replacement_node >= m_.nodes.size()) {
      r_.fail(at, "replacement {} substitutes node {}, but the file has {} nodes", i,
              rep.replacement_node, m_.nodes.size());
    }
  }
}

}  // namespace ainb::detail
