// Model -> text: to_text() and ToText, which nest the model's flat arrays per node
// (docs/text-form.md).

#include <cmath>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "text_form_common.hpp"

namespace ainb::writer {

namespace {

using detail::json;
using detail::kInherit;
using detail::kNodeFlags;
using detail::kPlugKinds;
using detail::kReplacementTypes;
using detail::source_param_type;

std::string hex(std::uint32_t v) {
  return fmt::format("{:#x}", v);
}

std::string hex_bytes(std::span<const std::uint8_t> bytes) {
  std::string out;
  for (const auto b : bytes) {
    if (!out.empty()) out += ' ';
    out += fmt::format("{:02x}", b);
  }
  return out;
}

// float32 as the shortest decimal that reads back as the same float; non-finite as strings.
json float_json(float f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  return std::stod(fmt::format("{}", f));
}

std::string label(const Node& n) {
  return n.name.empty() ? std::string(node_type_name(n.type)) : std::string(n.name);
}

class ToText {
 public:
  explicit ToText(const Model& m) : m_(m), layout_(capture_layout(m)) {}

  json run() {
    json out;
    out["format"] = kTextFormat;
    out["version"] = hex(m_.version());
    out["file_name"] = std::string(m_.header.file_name);
    out["category"] = std::string(m_.header.category_name);
    out["header"] = header();
    out["commands"] = json::array();
    for (const auto& c : m_.commands) {
      json cmd;
      cmd["name"] = std::string(c.name);
      cmd["guid"] = c.guid.to_string();
      cmd["root"] = c.root;
      cmd["root_name"] = label(m_.nodes[c.root]);
      if (c.secondary_root) cmd["secondary_root"] = *c.secondary_root;
      out["commands"].push_back(cmd);
    }
    out["blackboard"] = blackboard();
    if (!m_.blackboard.file_references.empty()) {
      out["blackboard_files"] = json::array();
      for (const auto& f : m_.blackboard.file_references) {
        // The hashes only when they are not those of the path (no corpus file has such).
        const auto derived = file_reference(f.path);
        json file = {{"path", std::string(f.path)}};
        if (f.path_hash != derived.path_hash) file["path_hash"] = hex(f.path_hash);
        if (f.name_hash != derived.name_hash) file["name_hash"] = hex(f.name_hash);
        if (f.extension_hash != derived.extension_hash) {
          file["extension_hash"] = hex(f.extension_hash);
        }
        out["blackboard_files"].push_back(file);
      }
    }
    out["blackboard_id"] = hex(m_.blackboard_id);
    out["parent_blackboard_id"] = hex(m_.parent_blackboard_id);
    out["nodes"] = json::array();
    for (const auto& n : m_.nodes)
      out["nodes"].push_back(node(n));
    if (!m_.attachments.empty()) {
      out["attachments"] = json::array();
      for (const auto& a : m_.attachments)
        out["attachments"].push_back(attachment(a));
    }
    if (!m_.transitions.empty()) {
      out["transitions"] = json::array();
      for (const auto& t : m_.transitions) {
        json tr;
        tr["word"] = hex(t.word);
        if (t.type() == 0) tr["command"] = std::string(t.command);
        out["transitions"].push_back(tr);
      }
    }
    out["modules"] = json::array();
    for (const auto& mod : m_.modules) {
      out["modules"].push_back({{"path", std::string(mod.path)},
                                {"category", std::string(mod.category)},
                                {"instance_count", mod.instance_count}});
    }
    if (!m_.xlink_actions.empty()) {
      out["xlink_actions"] = json::array();
      for (const auto& x : m_.xlink_actions) {
        out["xlink_actions"].push_back({{"node", x.node_index},
                                        {"node_name", label(m_.nodes[x.node_index])},
                                        {"slot", std::string(x.slot)},
                                        {"action", std::string(x.action)}});
      }
    }
    if (m_.replacements) {
      const auto& t = *m_.replacements;
      json r;
      r["applied"] = t.applied;
      r["node_count_after"] = t.node_count_after;
      r["attachment_count_after"] = t.attachment_count_after;
      r["entries"] = json::array();
      for (const auto& e : t.entries) {
        json entry = {{"type", kReplacementTypes[static_cast<std::size_t>(e.type)]},
                      {"node", e.node_index},
                      {"target", e.target}};
        if (e.type == ReplacementType::ReplaceChild) entry["replacement_node"] = e.replacement_node;
        r["entries"].push_back(entry);
      }
      out["replacements"] = r;
    }
    if (!m_.enum_resolves.empty()) {
      out["enum_resolves"] = json::array();
      for (const auto& e : m_.enum_resolves) {
        json entry;
        if (auto patch = patch_target(e.patch_offset)) {
          entry["patch"] = std::move(*patch);
        } else {
          entry["patch_offset"] = hex(e.patch_offset);
        }
        entry["class"] = std::string(e.class_name);
        entry["value"] = std::string(e.value_name);
        out["enum_resolves"].push_back(entry);
      }
    }
    if (m_.section_0x58) {
      out["section_0x58"] = {{"description", std::string(m_.section_0x58->description)},
                             {"unknown", m_.section_0x58->unknown}};
    }
    if (m_.expressions) out["expressions"] = expressions(*m_.expressions);
    out["layout"] = layout();
    return out;
  }

 private:
  json header() {
    const auto& h = m_.header;
    json out;
    out["category_value"] = h.category;
    if (h.output_node_count != module_output_node_count(m_)) {
      out["output_node_count"] = h.output_node_count;
    }
    std::uint32_t queries = 0;
    for (const auto& n : m_.nodes)
      queries += n.is_query() ? 1 : 0;
    if (h.query_count != queries) out["query_count"] = h.query_count;
    if (!layout_.unknown_0x50_is_queries) {
      out["unknown_0x50"] = hex(h.offsets[header_slot::kUnknown50]);
    }
    if (h.offsets[header_slot::kUnknown54] != 0) {
      out["unknown_0x54"] = hex(h.offsets[header_slot::kUnknown54]);
    }
    return out;
  }

  json blackboard() {
    json out = json::object();
    for (const auto type : blackboard_types(m_.version())) {
      const auto entries = m_.blackboard.of_type(type);
      if (entries.empty()) continue;
      json list = json::array();
      for (const auto& e : entries) {
        json entry;
        entry["name"] = std::string(e.name);
        if (!e.notes.empty()) entry["notes"] = std::string(e.notes);
        if (type != BlackboardType::Pointer) {
          entry["default"] = value(e.default_value);
        }
        if (e.inherit != InheritMode::FromRoot) {
          entry["inherit"] = kInherit[static_cast<std::size_t>(e.inherit)];
        }
        if (e.file_reference) entry["file_reference"] = *e.file_reference;
        list.push_back(entry);
      }
      out[std::string(blackboard_type_name(type))] = list;
    }
    return out;
  }

  json value(const Value& v) {
    return std::visit(
        [](const auto& x) -> json {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, Vec3f>) {
            return json::array({float_json(x.x), float_json(x.y), float_json(x.z)});
          } else if constexpr (std::is_same_v<T, PointerValue>) {
            return x.raw == 0 ? json(nullptr) : json(x.raw);
          } else if constexpr (std::is_same_v<T, float>) {
            return float_json(x);
          } else if constexpr (std::is_same_v<T, std::string_view>) {
            return std::string(x);
          } else {
            return x;
          }
        },
        v);
  }

  void source(json& out, ParamType type, const ParamFlags& f) {
    if (f.raw != 0) out["flags"] = hex(f.raw);
    switch (f.source()) {
      case ParamFlags::Source::Constant:
        break;
      case ParamFlags::Source::Blackboard: {
        const auto bb = m_.blackboard.of_type(blackboard_type_for(type, f));
        out["blackboard"] = {{"index", f.index()}, {"name", std::string(bb[f.index()].name)}};
        break;
      }
      case ParamFlags::Source::Expression:
        out["expression"] = f.index();
        break;
    }
  }

  json link(std::int16_t node, std::int16_t output, ParamType type, const ParamFlags& f) {
    json out;
    out["node"] = node;
    out["node_name"] = label(m_.nodes[static_cast<std::size_t>(node)]);
    out["output"] = output;
    if (const auto st = source_param_type(m_, type, f)) {
      const auto outs = m_.outputs_of(m_.nodes[static_cast<std::size_t>(node)], *st);
      if (output >= 0 && static_cast<std::size_t>(output) < outs.size()) {
        out["output_name"] = std::string(outs[static_cast<std::size_t>(output)].name);
      }
    }
    return out;
  }

  json properties(const std::array<Range, kParamTypeCount>& ranges) {
    json out = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      if (ranges[t].count == 0) continue;
      const auto type = static_cast<ParamType>(t);
      json list = json::array();
      for (std::uint32_t i = ranges[t].base; i < ranges[t].end(); ++i) {
        const auto& p = m_.properties[t][i];
        json prop;
        prop["name"] = std::string(p.name);
        if (type == ParamType::Pointer) prop["class"] = std::string(p.class_name);
        prop["value"] = value(p.value);
        source(prop, type, p.flags);
        list.push_back(prop);
      }
      out[std::string(param_type_name(type))] = list;
    }
    return out;
  }

  json node(const Node& n) {
    json out;
    out["index"] = n.index;
    out["type"] = std::string(node_type_name(n.type));
    out["name"] = std::string(n.name);
    json flags = json::array();
    std::uint8_t known = 0;
    for (const auto& [bit, name] : kNodeFlags) {
      known |= bit;
      if (n.has_flag(bit)) flags.push_back(name);
    }
    if ((n.flags & ~known) != 0) flags.push_back(hex(n.flags & ~known));
    if (!flags.empty()) out["flags"] = flags;
    out["guid"] = n.guid.to_string();
    if (m_.version() != kVersion404 && n.name_hash != murmur3_32(n.name)) {
      out["name_hash"] = hex(n.name_hash);
    }
    stated_expression_use(out, n, expression_use(m_, n));
    if (n.multi_param_count != 0) out["multi_param_count"] = n.multi_param_count;
    if (n.state_info) {
      out["state_info"] = {{"desired_state", std::string(n.state_info->desired_state)},
                           {"unknown", n.state_info->unknown}};
    } else if (n.state_info_offset != 0) {
      out["state_info_offset"] = hex(n.state_info_offset);
    }
    if (n.attachments.count != 0) {
      out["attachments"] = json::array();
      for (const auto a : m_.attachments_of(n))
        out["attachments"].push_back(a);
    }
    if (n.queries.count != 0) {
      out["queries"] = json::array();
      for (const auto q : m_.queries_of(n))
        out["queries"].push_back(q);
    }
    if (auto props = properties(n.properties); !props.empty()) out["properties"] = props;
    json inputs = json::object();
    json outputs = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      const auto key = std::string(param_type_name(type));
      for (const auto& in : m_.inputs_of(n, type)) {
        json j;
        j["name"] = std::string(in.name);
        if (type == ParamType::Pointer) j["class"] = std::string(in.class_name);
        j["default"] = value(in.default_value);
        if (in.is_multi_source()) {
          if (in.flags.raw != 0) j["flags"] = hex(in.flags.raw);
          j["sources"] = json::array();
          for (const auto& s : m_.sources_of(in)) {
            json src = s.node_index >= 0 ? link(s.node_index, s.output_index, type, s.flags)
                                         : json{{"node", s.node_index}, {"output", s.output_index}};
            source(src, type, s.flags);
            j["sources"].push_back(src);
          }
        } else {
          if (in.has_node_source()) {
            j["source"] = link(in.raw_node_index, in.source_output(), type, in.flags);
            if (in.set_blackboard()) j["set_blackboard"] = true;
          } else if (in.raw_node_index != -1 || in.raw_output_index != 0) {
            j["raw_link"] = {in.raw_node_index, in.raw_output_index};
          }
          source(j, type, in.flags);
        }
        inputs[key].push_back(j);
      }
      for (const auto& o : m_.outputs_of(n, type)) {
        json j;
        j["name"] = std::string(o.name);
        if (type == ParamType::Pointer) j["class"] = std::string(o.class_name);
        if (o.is_output) j["is_output"] = true;
        outputs[key].push_back(j);
      }
    }
    if (!inputs.empty()) out["inputs"] = inputs;
    if (!outputs.empty()) out["outputs"] = outputs;
    json plugs = json::object();
    for (const auto kind : kPlugKinds) {
      for (const auto& p : m_.plugs_of(n, kind)) {
        plugs[std::string(plug_kind_name(kind))].push_back(plug(p));
      }
    }
    if (!plugs.empty()) out["plugs"] = plugs;
    return out;
  }

  // A selector condition's blackboard index, with the entry's name beside it.
  void bb_ref(json& out, const std::string& key, const PlugBlackboard& bb, BlackboardType type) {
    if (!bb.used) return;
    out[key] = bb.index;
    out[key + "_name"] = std::string(m_.blackboard.of_type(type)[bb.index].name);
  }

  json plug(const Plug& p) {
    json out;
    if (p.target) {
      out["node"] = *p.target;
      out["node_name"] = label(m_.nodes[*p.target]);
    } else {
      out["node"] = nullptr;  // an empty plug
    }
    if (p.multi_source_mark != 0) out["multi_source_mark"] = p.multi_source_mark;
    if (p.kind == PlugKind::Transition) {
      out["transition"] = p.transition_index;
      return out;
    }
    out["name"] = std::string(p.name);
    std::visit(
        [&](const auto& d) {
          using T = std::decay_t<decltype(d)>;
          if constexpr (std::is_same_v<T, S32Condition>) {
            if (!d.is_default)
              out["condition"] = d.value;
            else if (d.value != 0)
              out["condition"] = d.value;
            bb_ref(out, "blackboard", d.blackboard, BlackboardType::S32);
          } else if constexpr (std::is_same_v<T, StringCondition>) {
            out["condition"] = std::string(d.value);
            bb_ref(out, "blackboard", d.blackboard, BlackboardType::String);
          } else if constexpr (std::is_same_v<T, F32Condition>) {
            if (d.is_default) {
              out["default_name"] = std::string(d.default_name);
            } else {
              out["min"] = float_json(d.min.value);
              bb_ref(out, "min_blackboard", d.min.blackboard, BlackboardType::F32);
              out["max"] = float_json(d.max.value);
              bb_ref(out, "max_blackboard", d.max.blackboard, BlackboardType::F32);
            }
          } else if constexpr (std::is_same_v<T, RandomWeight>) {
            out["weight"] = float_json(d.weight);
            bb_ref(out, "blackboard", d.blackboard, BlackboardType::F32);
          } else if constexpr (std::is_same_v<T, EnumCondition>) {
            out["enum_value"] = d.value;
            if (d.blackboard.used) out["blackboard"] = d.blackboard.index;
          } else if constexpr (std::is_same_v<T, InputPlugExtra>) {
            out["unknown"] = d.unknown;
            if (p.kind == PlugKind::String) {
              out["default"] = std::string(d.default_string);
            } else {
              out["default"] = d.default_raw;
            }
          }
        },
        p.data);
    return out;
  }

  // The stored EXB function count and result size, when they are not the derived ones.
  template <typename Owner>  // Node or Attachment
  static void stated_expression_use(json& out, const Owner& owner, const ExpressionUse& derived) {
    if (owner.exb_function_count != derived.function_count) {
      out["exb_functions"] = owner.exb_function_count;
    }
    if (owner.exb_io_size != derived.io_size) out["exb_io_size"] = owner.exb_io_size;
  }

  // The parameter entry an enum resolve patches (a property or input of a node, a property of
  // an attachment), so that an edit moving the entry moves the patch; nullopt for other places.
  std::optional<json> patch_target(std::uint32_t offset) const {
    // The entry of `range` holding `offset`: its index in the range and the offset inside it.
    const auto find =
        [&](const auto& entries, Range range,
            std::uint32_t size) -> std::optional<std::pair<std::uint32_t, std::uint32_t>> {
      for (std::uint32_t k = 0; k < range.count; ++k) {
        const auto start = entries[range.base + k].offset;
        if (offset >= start && offset - start < size) return std::pair{k, offset - start};
      }
      return std::nullopt;
    };
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      const auto name = std::string(param_type_name(type));
      for (const auto& n : m_.nodes) {
        if (auto hit = find(m_.properties[t], n.properties[t], property_entry_size(type))) {
          return json{{"node", n.index},
                      {"property", name},
                      {"index", hit->first},
                      {"offset", hit->second}};
        }
        if (auto hit = find(m_.inputs[t], n.inputs[t], input_entry_size(type))) {
          return json{
              {"node", n.index}, {"input", name}, {"index", hit->first}, {"offset", hit->second}};
        }
      }
      for (std::size_t a = 0; a < m_.attachments.size(); ++a) {
        const auto& att = m_.attachments[a];
        if (auto hit = find(m_.properties[t], att.properties[t], property_entry_size(type))) {
          return json{{"attachment", a},
                      {"property", name},
                      {"index", hit->first},
                      {"offset", hit->second}};
        }
      }
    }
    return std::nullopt;
  }

  json attachment(const Attachment& a) {
    json out;
    out["name"] = std::string(a.name);
    if (m_.version() != kVersion404 && a.name_hash != murmur3_32(a.name)) {
      out["name_hash"] = hex(a.name_hash);
    }
    if (a.debug != 0) out["debug"] = hex(a.debug);
    stated_expression_use(out, a, expression_use(m_, a));
    if (auto props = properties(a.properties); !props.empty()) out["properties"] = props;
    return out;
  }

  json expressions(const exb::Section& s) {
    const auto src = exb::to_assembly(s);
    json out;
    out["version"] = src.version;
    out["static_size"] = hex(src.static_size);
    out["instance_count"] = src.instance_count;
    out["scratch32_size"] = hex(src.scratch32_size);
    out["scratch64_size"] = hex(src.scratch64_size);
    out["functions"] = json::array();
    for (const auto& f : src.functions) {
      json fn;
      fn["input"] = std::string(exb::data_type_name(f.input_type));
      fn["output"] = std::string(exb::data_type_name(f.output_type));
      fn["static_size"] = hex(f.static_size);
      fn["scratch32_size"] = hex(f.scratch32_size);
      fn["scratch64_size"] = hex(f.scratch64_size);
      if (f.setup) fn["setup"] = *f.setup;
      fn["main"] = f.main;
      out["functions"].push_back(fn);
    }
    out["layout"] = {{"parameter_region", hex_bytes(src.param_region)},
                     {"strings", src.strings},
                     {"signatures", src.signatures}};
    return out;
  }

  json layout() {
    json out;
    out["strings"] = layout_.strings;
    if (!layout_.gaps.empty()) {
      out["gaps"] = json::array();
      for (const auto& g : layout_.gaps)
        out["gaps"].push_back({{"before", g.before}, {"bytes", hex_bytes(g.bytes)}});
    }
    if (!layout_.padding.empty()) {
      out["padding"] = json::object();
      for (const auto& [key, bytes] : layout_.padding)
        out["padding"][key] = hex_bytes(bytes);
    }
    if (!layout_.unknown_0x50_is_queries) out["unknown_0x50_is_queries"] = false;
    // The query array as stored, when it is not the nodes' lists one after another.
    std::vector<std::uint16_t> array;
    bool canonical = true;
    for (const auto& n : m_.nodes) {
      const auto base = n.queries.count == 0 ? 0u : static_cast<std::uint32_t>(array.size());
      canonical = canonical && base == n.queries.base;
      for (std::uint32_t k = 0; k < n.queries.count; ++k)
        array.push_back(m_.query_indices[n.queries.base + k]);
    }
    canonical = canonical && array == m_.query_indices;
    if (!canonical) {
      json bases = json::array();
      for (const auto& n : m_.nodes)
        bases.push_back(n.queries.base);
      out["queries"] = {{"array", m_.query_indices}, {"bases", bases}};
    }
    if (layout_.unknown_0x6c_word != 0) out["unknown_0x6c_word"] = hex(layout_.unknown_0x6c_word);
    if (layout_.zero_property_offsets != 0)
      out["zero_property_offsets"] = layout_.zero_property_offsets;
    if (layout_.empty_string_at_pool_end) out["empty_string_at_pool_end"] = true;
    return out;
  }

  const Model& m_;
  Layout layout_;
};

}  // namespace

nlohmann::ordered_json to_text(const Model& model) {
  return ToText(model).run();
}

}  // namespace ainb::writer
