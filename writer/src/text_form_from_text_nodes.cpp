// Text -> model, the nodes: their fields, parameters (properties, inputs, outputs), queries,
// attachments and plugs, for the reader declared in text_form_from_text.hpp.

#include <algorithm>
#include <cctype>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ainb/writer/writer.hpp"
#include "text_form_from_text.hpp"

namespace ainb::writer::detail {

Value FromText::read_value(const At& at, ParamType type) {
  switch (type) {
    case ParamType::Int:
      return static_cast<std::int32_t>(at.integer(INT32_MIN, INT32_MAX));
    case ParamType::Bool:
      return at.boolean();
    case ParamType::Float:
      return at.f32();
    case ParamType::String:
      return b_.keep(at.string());
    case ParamType::Vec3f: {
      if (at.array() != 3) at.fail("expected [x, y, z]");
      return Vec3f{at[0].f32(), at[1].f32(), at[2].f32()};
    }
    case ParamType::Pointer:
      if (at.j.is_null()) return PointerValue{};
      return PointerValue{at.u32()};
  }
  return {};
}

ParamFlags FromText::read_flags(const At& at, ParamType type) {
  ParamFlags f;
  if (at.has("blackboard") && at.has("expression")) {
    at.fail("both \"blackboard\" and \"expression\": a parameter has one source");
  }
  if (at.has("flags")) f.raw = at["flags"].u32();
  if (at.has("blackboard")) {
    const auto bb = at["blackboard"];
    const auto idx_at = bb.j.is_object() ? bb["index"] : bb;
    if ((f.raw & ParamFlags::kSourceMask) == 0) f.raw |= 0x80000000u;
    if ((f.raw & ParamFlags::kSourceMask) == ParamFlags::kSourceMask) {
      at.fail("\"blackboard\" with flags that mark an expression");
    }
    const auto bt = blackboard_type_for(type, f);
    const auto count = m_.blackboard.count[static_cast<std::size_t>(bt)];
    const auto index =
        idx_at.index(count, fmt::format("{} blackboard entries", blackboard_type_name(bt)));
    f.raw = (f.raw & ~0xFFFFu) | index;
  } else if (at.has("expression")) {
    const auto count = m_.expressions ? m_.expressions->functions.size() : 0;
    const auto index = at["expression"].index(count, "expressions");
    f.raw = (f.raw & ~0xFFFFu) | ParamFlags::kSourceMask | index;
  } else if (f.source() == ParamFlags::Source::Blackboard) {
    const auto bt = blackboard_type_for(type, f);
    const auto count = m_.blackboard.count[static_cast<std::size_t>(bt)];
    if (f.index() >= count) {
      at["flags"].fail(
          fmt::format("blackboard index {} out of range (file has {} {} blackboard entries)",
                      f.index(), count, blackboard_type_name(bt)));
    }
  } else if (f.source() == ParamFlags::Source::Expression) {
    const auto count = m_.expressions ? m_.expressions->functions.size() : 0;
    if (f.index() >= count) {
      at["flags"].fail(fmt::format("expression index {} out of range (file has {} expressions)",
                                   f.index(), count));
    }
  }
  return f;
}

// Checks every key of `at` names a parameter type; calls fn(type, list).
template <typename Fn>
void FromText::per_type(const At& at, Fn&& fn) {
  at.object();
  for (const auto& [key, value] : at.j.items()) {
    bool known = false;
    for (std::size_t t = 0; t < kParamTypeCount; ++t)
      known = known || param_type_name(static_cast<ParamType>(t)) == key;
    if (!known) at[key].fail(fmt::format("unknown parameter type \"{}\"", key));
  }
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto key = std::string(param_type_name(static_cast<ParamType>(t)));
    if (at.has(key)) fn(static_cast<ParamType>(t), at[key]);
  }
}

std::array<Range, kParamTypeCount> FromText::read_properties(const At& owner) {
  std::array<Range, kParamTypeCount> ranges{};
  for (std::size_t t = 0; t < kParamTypeCount; ++t)
    ranges[t].base = static_cast<std::uint32_t>(m_.properties[t].size());
  if (!owner.has("properties")) return ranges;
  per_type(owner["properties"], [&](ParamType type, const At& list) {
    const auto t = static_cast<std::size_t>(type);
    for (std::size_t i = 0; i < list.array(); ++i) {
      const auto p = list[i];
      p.only({"name", "class", "value", "flags", "blackboard", "expression"});
      Property prop;
      prop.type = type;
      prop.name = b_.keep(p["name"].string());
      if (type == ParamType::Pointer) prop.class_name = b_.keep(p["class"].string());
      prop.value = read_value(p["value"], type);
      prop.flags = read_flags(p, type);
      m_.properties[t].push_back(prop);
    }
    ranges[t].count = static_cast<std::uint32_t>(m_.properties[t].size()) - ranges[t].base;
  });
  return ranges;
}

void FromText::read_attachment_count() {
  attachment_count_ = root_.has("attachments") ? root_["attachments"].array() : 0;
}

void FromText::read_outputs(const At& n, std::size_t i) {
  auto& node = m_.nodes[i];
  for (std::size_t t = 0; t < kParamTypeCount; ++t)
    node.outputs[t].base = static_cast<std::uint32_t>(m_.outputs[t].size());
  if (!n.has("outputs")) return;
  per_type(n["outputs"], [&](ParamType type, const At& list) {
    const auto t = static_cast<std::size_t>(type);
    for (std::size_t k = 0; k < list.array(); ++k) {
      const auto o = list[k];
      o.only({"name", "class", "is_output"});
      Output out;
      out.type = type;
      out.name = b_.keep(o["name"].string());
      if (type == ParamType::Pointer) out.class_name = b_.keep(o["class"].string());
      if (o.has("is_output")) out.is_output = o["is_output"].boolean();
      m_.outputs[t].push_back(out);
    }
    node.outputs[t].count = static_cast<std::uint32_t>(m_.outputs[t].size()) - node.outputs[t].base;
  });
}

void FromText::read_node(const At& n, std::size_t i) {
  auto& node = m_.nodes[i];
  n.only({"index", "type", "name", "flags", "guid", "name_hash", "exb_functions", "exb_io_size",
          "multi_param_count", "state_info", "state_info_offset", "attachments", "queries",
          "properties", "inputs", "outputs", "plugs"});
  node.index = static_cast<std::uint16_t>(i);
  if (n.has("index") && n["index"].integer(0, 0xFFFF) != static_cast<std::int64_t>(i)) {
    n["index"].fail(
        fmt::format("index {} does not match the node's position {}", n["index"].j.dump(), i));
  }
  const auto type = n["type"].string();
  const auto node_type = node_type_named(type);
  if (!node_type) n["type"].fail(fmt::format("unknown node type \"{}\"", type));
  node.type = *node_type;
  // A built-in node's name is "" in every real file; a user node's is its class, so required.
  node.name = b_.keep(n.has("name") || node.type == NodeType::UserDefined ? n["name"].string()
                                                                          : std::string());
  if (n.has("flags")) {
    const auto flags = n["flags"];
    for (std::size_t k = 0; k < flags.array(); ++k) {
      const auto f = flags[k];
      const auto name = f.string();
      const auto known = std::find_if(kNodeFlags.begin(), kNodeFlags.end(),
                                      [&](const auto& p) { return p.second == name; });
      if (known != kNodeFlags.end()) {
        node.flags |= known->first;
      } else if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
        node.flags |= static_cast<std::uint8_t>(f.integer(0, 0xFF));  // unknown bits, as hex
      } else {
        f.fail(
            fmt::format("unknown flag \"{}\" (known: query, module, root, "
                        "multi_param_type_2, or a hex number for other bits)",
                        name));
      }
    }
  }
  node.guid = n.has("guid") ? parse_guid(n["guid"]) : Guid{};
  node.name_hash = n.has("name_hash") ? n["name_hash"].u32() : murmur3_32(node.name);
  node_expression_use_.push_back(read_expression_use(n));
  if (n.has("multi_param_count")) node.multi_param_count = n["multi_param_count"].u16();
  if (n.has("state_info")) {
    const auto s = n["state_info"];
    s.only({"desired_state", "unknown"});
    NodeStateInfo info;
    info.desired_state = b_.keep(s["desired_state"].string());
    const auto unknown = s["unknown"];
    if (unknown.array() != 4) unknown.fail("expected 4 words");
    for (std::size_t k = 0; k < 4; ++k)
      info.unknown[k] = unknown[k].u32();
    node.state_info = info;
  } else if (n.has("state_info_offset")) {
    node.state_info_offset = n["state_info_offset"].u32();
  }
  node.attachments.base = static_cast<std::uint32_t>(m_.attachment_indices.size());
  if (n.has("attachments")) {
    const auto list = n["attachments"];
    for (std::size_t k = 0; k < list.array(); ++k)
      m_.attachment_indices.push_back(list[k].index(attachment_count_, "attachments"));
    node.attachments.count = static_cast<std::uint32_t>(list.size());
  }
  node.properties = read_properties(n);
}

// Queries name query nodes, so they are read once every node's flags are known.
void FromText::read_queries(const At& nodes) {
  std::vector<std::int32_t> ordinal(node_count_, -1);
  std::int32_t next = 0;
  for (std::size_t i = 0; i < node_count_; ++i) {
    if (m_.nodes[i].is_query()) ordinal[i] = next++;
  }
  for (std::size_t i = 0; i < node_count_; ++i) {
    auto& node = m_.nodes[i];
    node.queries.base = static_cast<std::uint32_t>(m_.query_indices.size());
    const auto n = nodes[i];
    if (!n.has("queries")) continue;
    const auto list = n["queries"];
    for (std::size_t k = 0; k < list.array(); ++k) {
      const auto q = list[k].index(node_count_, "nodes");
      if (ordinal[q] < 0) list[k].fail(fmt::format("node {} is not a query node", q));
      m_.query_indices.push_back(static_cast<std::uint16_t>(ordinal[q]));
      m_.query_nodes.push_back(static_cast<std::uint16_t>(q));
    }
    node.queries.count = static_cast<std::uint32_t>(list.size());
  }
  // Canonical: each node's list after the previous ones, base 0 when empty.
  for (auto& node : m_.nodes) {
    if (node.queries.count == 0) node.queries.base = 0;
  }
  apply_query_layout();
}

// The stored query array of the layout, kept when every node's list is still found at its
// base there (an edit of the queries falls back to the canonical array).
void FromText::apply_query_layout() {
  if (!root_.has("layout") || !root_["layout"].has("queries")) return;
  const auto q = root_["layout"]["queries"];
  const auto array_at = q["array"];
  const auto bases_at = q["bases"];
  std::vector<std::uint16_t> array;
  for (std::size_t i = 0; i < array_at.array(); ++i)
    array.push_back(array_at[i].u16());
  if (bases_at.array() != node_count_) return;
  for (std::size_t i = 0; i < node_count_; ++i) {
    const auto base = bases_at[i].u32();
    const auto& n = m_.nodes[i];
    if (std::uint64_t{base} + n.queries.count > array.size()) return;
    for (std::uint32_t k = 0; k < n.queries.count; ++k) {
      if (array[base + k] != m_.query_indices[n.queries.base + k]) return;
    }
  }
  std::vector<std::uint16_t> query_nodes;
  for (const auto& n : m_.nodes) {
    if (n.is_query()) query_nodes.push_back(n.index);
  }
  for (std::size_t i = 0; i < node_count_; ++i)
    m_.nodes[i].queries.base = bases_at[i].u32();
  m_.query_indices = array;
  m_.query_nodes.clear();
  // (Entries the windows cover were checked above; the others may name no query node.)
  for (const auto q_index : array) {
    m_.query_nodes.push_back(q_index < query_nodes.size() ? query_nodes[q_index]
                                                          : Model::kUnresolvedQuery);
  }
}

// A node-output reference `at` ({node, output}) for an input of `type` with flags `f`.
std::pair<std::int16_t, std::int16_t> FromText::read_link(const At& at, ParamType type,
                                                          const ParamFlags& f) {
  const auto node = at["node"].index(node_count_, "nodes");
  const auto output = at["output"];
  const auto st = source_param_type(m_, type, f);
  if (st) {
    const auto count = m_.nodes[node].outputs[static_cast<std::size_t>(*st)].count;
    output.index(count, fmt::format("{} outputs on node {}", param_type_name(*st), node));
  } else {
    output.integer(0, 0x7FFF);
  }
  return {static_cast<std::int16_t>(node), static_cast<std::int16_t>(output.j.get<std::int64_t>())};
}

void FromText::read_inputs_all(const At& nodes) {
  read_queries(nodes);
  // Inputs of one type lie together in the file, node after node; multi-sources in the same
  // order.
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto key = std::string(param_type_name(type));
    for (std::size_t i = 0; i < node_count_; ++i) {
      auto& node = m_.nodes[i];
      node.inputs[t].base = static_cast<std::uint32_t>(m_.inputs[t].size());
      const auto n = nodes[i];
      if (!n.has("inputs")) continue;
      const auto inputs = n["inputs"];
      if (t == 0) per_type(inputs, [](ParamType, const At&) {});
      if (!inputs.has(key)) continue;
      const auto list = inputs[key];
      for (std::size_t k = 0; k < list.array(); ++k) {
        const auto in = list[k];
        in.only({"name", "class", "default", "flags", "blackboard", "expression", "source",
                 "set_blackboard", "sources", "raw_link"});
        Input input;
        input.type = type;
        input.name = b_.keep(in["name"].string());
        if (type == ParamType::Pointer) input.class_name = b_.keep(in["class"].string());
        input.default_value = read_value(in["default"], type);
        if (in.has("sources")) {
          for (const auto* single :
               {"source", "raw_link", "blackboard", "expression", "set_blackboard"}) {
            if (in.has(single)) {
              in.fail(
                  fmt::format("both \"sources\" and \"{}\": a multi-source input takes "
                              "its sources from its list",
                              single));
            }
          }
          if (in.has("flags")) input.flags.raw = in["flags"].u32();
          const auto sources = in["sources"];
          const auto base = m_.multi_sources.size();
          for (std::size_t s = 0; s < sources.array(); ++s) {
            const auto src = sources[s];
            MultiSource ms;
            ms.flags = read_flags(src, type);
            if (src["node"].j.is_number_integer() && src["node"].j.get<std::int64_t>() < 0) {
              ms.node_index = static_cast<std::int16_t>(src["node"].integer(-32768, -1));
              ms.output_index = static_cast<std::int16_t>(src["output"].integer(-32768, 32767));
            } else {
              std::tie(ms.node_index, ms.output_index) = read_link(src, type, ms.flags);
            }
            m_.multi_sources.push_back(ms);
          }
          if (base > 32667) sources.fail("too many multi-source entries");
          input.raw_node_index = static_cast<std::int16_t>(-100 - static_cast<int>(base));
          input.raw_output_index = static_cast<std::int16_t>(sources.size());
        } else {
          input.flags = read_flags(in, type);
          if (in.has("source") && in.has("raw_link")) {
            in.fail("both \"source\" and \"raw_link\": an input has one link");
          }
          if (in.has("source")) {
            const auto [node_index, output] = read_link(in["source"], type, input.flags);
            input.raw_node_index = node_index;
            input.raw_output_index = output;
            if (in.has("set_blackboard") && in["set_blackboard"].boolean()) {
              input.raw_output_index = static_cast<std::int16_t>(input.raw_output_index | 0x8000);
            }
          } else if (in.has("raw_link")) {
            const auto raw = in["raw_link"];
            if (raw.array() != 2) raw.fail("expected [node, output]");
            input.raw_node_index = static_cast<std::int16_t>(raw[0].integer(-99, -1));
            input.raw_output_index = static_cast<std::int16_t>(raw[1].integer(-32768, 32767));
          }
        }
        m_.inputs[t].push_back(input);
      }
      node.inputs[t].count = static_cast<std::uint32_t>(m_.inputs[t].size()) - node.inputs[t].base;
    }
  }
}

void FromText::read_attachments() {
  if (attachment_count_ == 0) return;
  const auto list = root_["attachments"];
  for (std::size_t i = 0; i < attachment_count_; ++i) {
    const auto a = list[i];
    a.only({"name", "name_hash", "debug", "exb_functions", "exb_io_size", "properties"});
    Attachment att;
    att.name = b_.keep(a["name"].string());
    att.name_hash = a.has("name_hash") ? a["name_hash"].u32() : murmur3_32(att.name);
    if (a.has("debug")) att.debug = a["debug"].u32();
    attachment_expression_use_.push_back(read_expression_use(a));
    att.properties = read_properties(a);
    m_.attachments.push_back(att);
  }
}

FromText::StatedExpressionUse FromText::read_expression_use(const At& owner) {
  StatedExpressionUse stated;
  if (owner.has("exb_functions")) stated.function_count = owner["exb_functions"].u16();
  if (owner.has("exb_io_size")) stated.io_size = owner["exb_io_size"].u16();
  return stated;
}

template <typename Owner>  // Node or Attachment
void FromText::settle(Owner& owner, const StatedExpressionUse& stated) {
  const auto derived = expression_use(m_, owner);
  owner.exb_function_count = stated.function_count.value_or(derived.function_count);
  owner.exb_io_size = stated.io_size.value_or(derived.io_size);
}

void FromText::settle_expression_use() {
  for (std::size_t i = 0; i < m_.nodes.size(); ++i)
    settle(m_.nodes[i], node_expression_use_[i]);
  for (std::size_t i = 0; i < m_.attachments.size(); ++i)
    settle(m_.attachments[i], attachment_expression_use_[i]);
}

PlugBlackboard FromText::plug_bb(const At& p, std::string_view key, BlackboardType type) {
  if (!p.has(key) || p[key].j.is_null()) return {};
  const auto count = m_.blackboard.count[static_cast<std::size_t>(type)];
  return {true, static_cast<std::uint16_t>(p[key].index(
                    count, fmt::format("{} blackboard entries", blackboard_type_name(type))))};
}

void FromText::read_plugs(const At& n, std::size_t i) {
  auto& node = m_.nodes[i];
  const bool v407 = m_.version() != kVersion404;
  for (std::size_t k = 0; k < kPlugKindCount; ++k)
    node.plugs[k].base = static_cast<std::uint32_t>(m_.plugs.size());
  if (!n.has("plugs")) {
    for (auto& r : node.plugs)
      r.base = static_cast<std::uint32_t>(m_.plugs.size());
    return;
  }
  const auto plugs = n["plugs"];
  plugs.object();
  for (const auto& item : plugs.j.items()) {
    const std::string& key = item.key();  // a plain name: clang 14 cannot capture bindings
    if (std::none_of(kPlugKinds.begin(), kPlugKinds.end(),
                     [&](PlugKind kind) { return plug_kind_name(kind) == key; })) {
      plugs[key].fail(fmt::format("unknown plug kind \"{}\"", key));
    }
  }
  std::size_t total = 0;
  for (std::size_t k = 0; k < kPlugKindCount; ++k) {
    const auto kind = static_cast<PlugKind>(k);
    node.plugs[k].base = static_cast<std::uint32_t>(m_.plugs.size());
    const auto key = std::string(plug_kind_name(kind));
    if (!plugs.has(key)) continue;
    const auto list = plugs[key];
    const auto count = list.array();
    if (count > 0xFF) list.fail("more than 255 plugs of one kind");
    total += count;
    for (std::size_t p = 0; p < count; ++p) {
      const auto at = list[p];
      const bool last = p + 1 == count;
      const auto name = at.has("name") ? at["name"].string() : std::string();
      at.only(
          plug_fields(node, kind, last, name, v407),
          fmt::format("a {} plug of {}", plug_kind_name(kind),
                      node.type == NodeType::UserDefined ? std::string(node.name)
                                                         : std::string(node_type_name(node.type))));
      Plug plug;
      plug.kind = kind;
      if (!at["node"].j.is_null()) plug.target = at["node"].index(node_count_, "nodes");
      if (at.has("multi_source_mark")) {
        plug.multi_source_mark = static_cast<std::int32_t>(at["multi_source_mark"].integer(
            std::numeric_limits<std::int32_t>::min(), kMultiSourceMark));
        if (plug.target)
          at["multi_source_mark"].fail(
              "a plug with a multi-source mark leads to no node (\"node\": null)");
      }
      if (kind == PlugKind::Transition) {
        plug.transition_index = at["transition"].index(m_.transitions.size(), "transitions");
        m_.plugs.push_back(plug);
        continue;
      }
      // A child plug's name may be left out ("" in most real files); a link plug's names the
      // parameter it feeds.
      plug.name = b_.keep(kind == PlugKind::Child ? name : at["name"].string());
      const auto extra = [&] {
        InputPlugExtra e;
        e.unknown = at.has("unknown") ? at["unknown"].u32() : 0;
        if (kind == PlugKind::String) {
          e.default_string = at.has("default") ? b_.keep(at["default"].string()) : "";
        } else {
          e.default_raw = at.has("default") ? at["default"].u32() : 0;
        }
        return e;
      };
      if (kind == PlugKind::Generic) {
        if (node.type == NodeType::BoolSelector || node.type == NodeType::F32Selector ||
            (node.type == NodeType::Expression && v407)) {
          plug.data = extra();
        }
      } else if (kind == PlugKind::String || kind == PlugKind::Int) {
        const auto selector =
            kind == PlugKind::String ? NodeType::StringSelector : NodeType::S32Selector;
        if (v407 && (node.type == selector || node.type == NodeType::Expression)) {
          plug.data = extra();
        }
      } else {
        read_condition(node, at, plug, last);
      }
      m_.plugs.push_back(plug);
    }
    node.plugs[k].count = static_cast<std::uint32_t>(count);
  }
  if (total > 0xFF) plugs.fail("more than 255 plugs");
}

// The fields a plug of `kind` on `node` can have (what read_condition and the extras read), so
// that one that does not apply (a "condition" on a Sequential's child) is an error, not
// silently dropped.
std::vector<std::string_view> FromText::plug_fields(const Node& node, PlugKind kind, bool last,
                                                    std::string_view name, bool v407) {
  if (kind == PlugKind::Transition) return {"node", "node_name", "transition"};
  std::vector<std::string_view> fields{"node", "node_name", "name"};
  if (kind == PlugKind::Generic) fields.push_back("multi_source_mark");
  auto add = [&](std::initializer_list<std::string_view> more) {
    fields.insert(fields.end(), more.begin(), more.end());
  };
  const bool expression_v407 = node.type == NodeType::Expression && v407;
  switch (kind) {
    case PlugKind::Generic:
      if (node.type == NodeType::BoolSelector || node.type == NodeType::F32Selector ||
          expression_v407) {
        add({"unknown", "default"});
      }
      break;
    case PlugKind::String:
    case PlugKind::Int: {
      const auto selector =
          kind == PlugKind::String ? NodeType::StringSelector : NodeType::S32Selector;
      if ((v407 && node.type == selector) || expression_v407) add({"unknown", "default"});
      break;
    }
    default:  // child plugs: the selectors' conditions
      switch (node.type) {
        case NodeType::S32Selector:
        case NodeType::StringSelector:
          add({"condition", "blackboard", "blackboard_name"});
          break;
        case NodeType::F32Selector:
          if (last) {
            add({"default_name"});
          } else {
            add({"min", "min_blackboard", "min_blackboard_name", "max", "max_blackboard",
                 "max_blackboard_name"});
          }
          break;
        case NodeType::RandomSelector:
          add({"weight", "blackboard", "blackboard_name"});
          break;
        case NodeType::UserDefined:
          if (is_child_enum_plug(node.type, name)) add({"enum_value", "blackboard"});
          break;
        default:
          break;
      }
  }
  return fields;
}

void FromText::read_condition(const Node& node, const At& at, Plug& plug, bool last) {
  switch (node.type) {
    case NodeType::S32Selector: {
      S32Condition c;
      c.blackboard = plug_bb(at, "blackboard", BlackboardType::S32);
      c.is_default = last;
      if (at.has("condition")) {
        c.value = static_cast<std::int32_t>(at["condition"].integer(INT32_MIN, INT32_MAX));
      } else if (!last) {
        at["condition"];  // reports the missing field
      }
      plug.data = c;
      break;
    }
    case NodeType::StringSelector: {
      StringCondition c;
      c.blackboard = plug_bb(at, "blackboard", BlackboardType::String);
      c.is_default = last;
      c.value = b_.keep(at["condition"].string());
      plug.data = c;
      break;
    }
    case NodeType::F32Selector: {
      F32Condition c;
      c.is_default = last;
      if (last) {
        c.default_name =
            b_.keep(at.has("default_name") ? at["default_name"].string() : std::string("その他"));
      } else {
        c.min.blackboard = plug_bb(at, "min_blackboard", BlackboardType::F32);
        c.min.value = at["min"].f32();
        c.max.blackboard = plug_bb(at, "max_blackboard", BlackboardType::F32);
        c.max.value = at["max"].f32();
      }
      plug.data = c;
      break;
    }
    case NodeType::RandomSelector: {
      RandomWeight w;
      w.blackboard = plug_bb(at, "blackboard", BlackboardType::F32);
      w.weight = at["weight"].f32();
      plug.data = w;
      break;
    }
    case NodeType::UserDefined:
      if (is_child_enum_plug(node.type, plug.name)) {
        EnumCondition c;
        if (at.has("blackboard")) {
          c.blackboard = {true, static_cast<std::uint16_t>(at["blackboard"].integer(0, 0xFFFF))};
        }
        c.value = at["enum_value"].u32();
        plug.data = c;
      }
      break;
    default:
      break;
  }
}

}  // namespace ainb::writer::detail
