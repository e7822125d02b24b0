#include "ainb/writer/text_form.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/exb/program.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/writer.hpp"

// The schema is described in docs/text-form.md. Writing (to_text) nests the model's flat arrays
// per node; reading (from_text) lays them out again in node order, which is the order of every
// known file, so an unedited text gives the same arrays, ranges and bytes.

namespace ainb::writer {

namespace {

using json = nlohmann::ordered_json;

constexpr std::array<std::pair<std::uint8_t, std::string_view>, 4> kNodeFlags = {
    {{node_flags::kIsQuery, "query"},
     {node_flags::kIsModule, "module"},
     {node_flags::kIsRoot, "root"},
     {node_flags::kMultiParamType2, "multi_param_type_2"}}};

constexpr std::array<std::string_view, 4> kInherit = {"from_root", "from_parent", "dont_inherit",
                                                      "unknown_3"};
constexpr std::array<std::string_view, 3> kReplacementTypes = {"remove_child", "replace_child",
                                                               "remove_attachment"};
constexpr std::array<PlugKind, 5> kPlugKinds = {
    PlugKind::Generic, PlugKind::Child, PlugKind::Transition, PlugKind::String, PlugKind::Int};

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

// The parameter type whose outputs an input reads (an expression converts from its input type).
std::optional<ParamType> source_param_type(const Model& m, ParamType type, const ParamFlags& f) {
  if (f.source() != ParamFlags::Source::Expression) return type;
  if (!m.expressions || f.index() >= m.expressions->functions.size()) return std::nullopt;
  return param_type_of(m.expressions->functions[f.index()].input_type);
}

// ---------------------------------------------------------------------------------------------
// Model -> text

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
    return out;
  }

  const Model& m_;
  Layout layout_;
};

// ---------------------------------------------------------------------------------------------
// Text -> model

std::string type_of(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_float:
      return "a number";
    default:
      return "an integer";
  }
}

std::string escape_key(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

const json kNoEntries = json::object();  // an absent "blackboard"
const json kNoItems = json::array();     // absent "commands", "modules"

// A JSON value with its pointer, for messages.
struct At {
  const json& j;
  std::string path;

  [[noreturn]] void fail(const std::string& reason) const { throw TextFormError(path, reason); }

  bool has(std::string_view key) const { return j.is_object() && j.contains(key); }
  At operator[](std::string_view key) const {
    if (!j.is_object()) fail("expected an object, got " + type_of(j));
    const auto it = j.find(key);
    if (it == j.end()) fail(fmt::format("missing field \"{}\"", key));
    return {*it, path + "/" + escape_key(key)};
  }
  At operator[](std::size_t i) const { return {j[i], fmt::format("{}/{}", path, i)}; }
  // The field, or `fallback` (one of the empty values below) when the text leaves it out.
  At or_empty(std::string_view key, const json& fallback) const {
    if (!has(key)) return {fallback, path + "/" + escape_key(key)};
    return (*this)[key];
  }
  std::size_t size() const { return j.size(); }
  // Fails on a key outside `known` (a misspelt field would otherwise be ignored).
  void only(std::initializer_list<std::string_view> known) const {
    only(std::span<const std::string_view>(known.begin(), known.size()));
  }
  // `what` says where the fields belong, for a field that exists but not here.
  void only(std::span<const std::string_view> known, std::string_view what = {}) const {
    for (const auto& [key, value] : object().items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        fail(what.empty() ? fmt::format("unknown field \"{}\"", key)
                          : fmt::format("field \"{}\" does not apply to {}", key, what));
      }
    }
  }

  const json& object() const {
    if (!j.is_object()) fail("expected an object, got " + type_of(j));
    return j;
  }
  std::size_t array() const {
    if (!j.is_array()) fail("expected an array, got " + type_of(j));
    return j.size();
  }
  std::string string() const {
    if (!j.is_string()) fail("expected a string, got " + type_of(j));
    auto s = j.get<std::string>();
    // The file stores strings NUL-terminated: one inside would cut the string there.
    if (s.find('\0') != std::string::npos) fail("a string cannot hold a NUL character (\\u0000)");
    return s;
  }
  bool boolean() const {
    if (!j.is_boolean()) fail("expected true or false, got " + type_of(j));
    return j.get<bool>();
  }
  // An integer in [lo, hi]; hex strings ("0x1f") are accepted too.
  std::int64_t integer(std::int64_t lo, std::int64_t hi) const {
    std::int64_t v = 0;
    if (j.is_number_integer()) {
      v = j.get<std::int64_t>();
    } else if (j.is_string()) {
      const auto s = j.get<std::string>();
      std::size_t used = 0;
      try {
        v = s.starts_with("0x") ? static_cast<std::int64_t>(std::stoull(s.substr(2), &used, 16))
                                : std::stoll(s, &used, 10);
        if (s.starts_with("0x")) used += 2;
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != s.size()) fail(fmt::format("\"{}\" is not an integer", s));
    } else {
      fail("expected an integer, got " + type_of(j));
    }
    if (v < lo || v > hi) fail(fmt::format("{} is out of range [{}, {}]", v, lo, hi));
    return v;
  }
  std::uint32_t u32() const { return static_cast<std::uint32_t>(integer(0, 0xFFFFFFFFll)); }
  std::uint16_t u16() const { return static_cast<std::uint16_t>(integer(0, 0xFFFF)); }
  float f32() const {
    if (j.is_string()) {
      const auto s = j.get<std::string>();
      if (s == "nan") return std::numeric_limits<float>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<float>::infinity();
      if (s == "-inf") return -std::numeric_limits<float>::infinity();
      fail(fmt::format("expected a number or \"nan\", \"inf\", \"-inf\", got \"{}\"", s));
    }
    if (!j.is_number()) fail("expected a number, got " + type_of(j));
    const auto v = j.get<double>();
    // Past float's range a number would become an infinity: write "inf" for that.
    if (std::abs(v) > std::numeric_limits<float>::max()) {
      fail(fmt::format("{} is out of float32's range (write \"inf\" or \"-inf\" for an infinity)",
                       j.dump()));
    }
    return static_cast<float>(v);
  }
  // An index below `count`; `what` names the array ("nodes").
  std::uint32_t index(std::size_t count, std::string_view what) const {
    if (!j.is_number_integer()) fail("expected an index, got " + type_of(j));
    const auto v = j.get<std::int64_t>();
    if (v < 0 || static_cast<std::uint64_t>(v) >= count) {
      fail(fmt::format("index {} out of range (file has {} {})", v, count, what));
    }
    return static_cast<std::uint32_t>(v);
  }
};

std::vector<std::uint8_t> parse_hex_bytes(const At& at) {
  const auto s = at.string();
  std::vector<std::uint8_t> out;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] == ' ') {
      ++i;
      continue;
    }
    if (i + 2 > s.size() || !std::isxdigit(static_cast<unsigned char>(s[i])) ||
        !std::isxdigit(static_cast<unsigned char>(s[i + 1]))) {
      at.fail("expected hex bytes (\"00 1f ...\")");
    }
    out.push_back(static_cast<std::uint8_t>(std::stoul(s.substr(i, 2), nullptr, 16)));
    i += 2;
  }
  return out;
}

Guid parse_guid(const At& at) {
  const auto s = at.string();
  Guid g;
  const auto bad = [&] { at.fail(fmt::format("\"{}\" is not a GUID (8-4-4-4-12 hex digits)", s)); };
  if (s.size() != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-') bad();
  std::string digits;
  for (const char c : s) {
    if (c == '-') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) bad();
    digits += c;
  }
  std::array<std::uint8_t, 16> b{};
  for (std::size_t i = 0; i < 16; ++i)
    b[i] = static_cast<std::uint8_t>(std::stoul(digits.substr(2 * i, 2), nullptr, 16));
  // The text is u32, u16, u16 in big-endian digit order, then 8 bytes as stored.
  g.bytes = {b[3], b[2], b[1],  b[0],  b[5],  b[4],  b[7],  b[6],
             b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]};
  return g;
}

// Where an enum resolve patches: an entry of the model's flat property or input arrays, and the
// byte offset inside it. The file offset is known once the file is written.
struct PatchTarget {
  bool input = false;
  ParamType type = ParamType::Int;
  std::uint32_t index = 0;
  std::uint32_t offset = 0;
};

struct Built {
  Model model;
  std::vector<std::pair<std::size_t, PatchTarget>> patches;  // enum resolve index, target
  std::deque<std::string> strings;
  std::vector<std::uint8_t> exb;
  Layout layout;

  std::string_view keep(std::string s) {
    strings.push_back(std::move(s));
    return strings.back();
  }
};

class FromText {
 public:
  FromText(const json& text, Built& out) : root_{text, ""}, b_(out), m_(out.model) {}

  void run() {
    root_.only({"format",        "version",
                "file_name",     "category",
                "header",        "commands",
                "blackboard",    "blackboard_files",
                "blackboard_id", "parent_blackboard_id",
                "nodes",         "attachments",
                "transitions",   "modules",
                "xlink_actions", "replacements",
                "enum_resolves", "section_0x58",
                "expressions",   "layout"});
    if (root_.has("format")) {
      const auto format = root_["format"].string();
      if (format != kTextFormat) {
        root_["format"].fail(
            fmt::format("unknown format \"{}\" (expected \"{}\")", format, kTextFormat));
      }
    }
    const auto version = root_["version"].u32();
    if (version != kVersion404 && version != kVersion407 && version != kVersion408) {
      root_["version"].fail(fmt::format("unsupported AINB version {:#x}", version));
    }
    m_.header.version = version;
    m_.header.file_name = b_.keep(root_["file_name"].string());
    m_.header.category_name = b_.keep(root_["category"].string());
    read_layout();
    const auto nodes = root_["nodes"];
    node_count_ = nodes.array();
    if (node_count_ > 0x7FFF) nodes.fail(fmt::format("{} nodes, more than 32767", node_count_));
    read_expressions();
    read_blackboard();
    read_attachment_count();
    m_.nodes.resize(node_count_);
    // Outputs first: inputs name them.
    for (std::size_t i = 0; i < node_count_; ++i)
      read_outputs(nodes[i], i);
    for (std::size_t i = 0; i < node_count_; ++i)
      read_node(nodes[i], i);
    read_inputs_all(nodes);
    read_attachments();
    settle_expression_use();
    read_commands();
    read_transitions();
    for (std::size_t i = 0; i < node_count_; ++i)
      read_plugs(nodes[i], i);
    read_tail();
    read_header();
  }

 private:
  Value read_value(const At& at, ParamType type) {
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

  void read_layout() {
    if (!root_.has("layout")) return;
    const auto l = root_["layout"];
    l.only(
        {"strings", "gaps", "padding", "queries", "unknown_0x50_is_queries", "unknown_0x6c_word"});
    if (l.has("strings")) {
      const auto s = l["strings"];
      for (std::size_t i = 0; i < s.array(); ++i)
        b_.layout.strings.push_back(s[i].string());
    }
    if (l.has("gaps")) {
      const auto g = l["gaps"];
      for (std::size_t i = 0; i < g.array(); ++i) {
        g[i].only({"before", "bytes"});
        b_.layout.gaps.push_back({g[i]["before"].string(), parse_hex_bytes(g[i]["bytes"])});
      }
    }
    if (l.has("padding")) {
      const auto p = l["padding"];
      for (const auto& [key, value] : p.object().items()) {
        b_.layout.padding[key] = parse_hex_bytes(p[key]);
      }
    }
    if (l.has("unknown_0x50_is_queries")) {
      b_.layout.unknown_0x50_is_queries = l["unknown_0x50_is_queries"].boolean();
    }
    if (l.has("unknown_0x6c_word")) b_.layout.unknown_0x6c_word = l["unknown_0x6c_word"].u32();
  }

  void read_header() {
    auto& h = m_.header;
    h.output_node_count = module_output_node_count(m_);
    std::uint32_t queries = 0;
    for (const auto& n : m_.nodes)
      queries += n.is_query() ? 1 : 0;
    h.query_count = queries;
    if (!root_.has("header")) return;
    const auto hd = root_["header"];
    hd.only({"category_value", "output_node_count", "query_count", "unknown_0x50", "unknown_0x54"});
    if (hd.has("category_value")) h.category = hd["category_value"].u32();
    h.offsets[header_slot::kCategory] = h.category;
    if (hd.has("output_node_count")) h.output_node_count = hd["output_node_count"].u32();
    if (hd.has("query_count")) h.query_count = hd["query_count"].u32();
    if (hd.has("unknown_0x50")) {
      h.offsets[header_slot::kUnknown50] = hd["unknown_0x50"].u32();
      b_.layout.unknown_0x50_is_queries = false;
    }
    if (hd.has("unknown_0x54")) h.offsets[header_slot::kUnknown54] = hd["unknown_0x54"].u32();
  }

  void read_expressions() {
    if (!root_.has("expressions") || root_["expressions"].j.is_null()) return;
    const auto e = root_["expressions"];
    e.only({"version", "static_size", "instance_count", "scratch32_size", "scratch64_size",
            "functions", "layout"});
    exb::AssemblySource src;
    src.version = static_cast<std::uint32_t>(e["version"].integer(1, 3));
    src.static_size = e["static_size"].u32();
    src.instance_count = e["instance_count"].u32();
    src.scratch32_size = e["scratch32_size"].u32();
    src.scratch64_size = e["scratch64_size"].u32();
    const auto fns = e["functions"];
    const auto type = [&](const At& at) {
      const auto name = at.string();
      for (std::uint8_t t = 0; t <= static_cast<std::uint8_t>(exb::DataType::Vec3f); ++t) {
        if (exb::data_type_name(static_cast<exb::DataType>(t)) == name) {
          return static_cast<exb::DataType>(t);
        }
      }
      at.fail(fmt::format("unknown EXB data type \"{}\"", name));
    };
    const auto lines = [&](const At& at) {
      std::vector<std::string> out;
      for (std::size_t i = 0; i < at.array(); ++i)
        out.push_back(at[i].string());
      return out;
    };
    for (std::size_t f = 0; f < fns.array(); ++f) {
      const auto fn = fns[f];
      fn.only(
          {"input", "output", "static_size", "scratch32_size", "scratch64_size", "setup", "main"});
      exb::AssemblyFunction af;
      af.input_type = type(fn["input"]);
      af.output_type = type(fn["output"]);
      af.static_size = fn["static_size"].u32();
      af.scratch32_size = fn["scratch32_size"].u16();
      af.scratch64_size = fn["scratch64_size"].u16();
      if (fn.has("setup") && !fn["setup"].j.is_null()) af.setup = lines(fn["setup"]);
      af.main = lines(fn["main"]);
      src.functions.push_back(std::move(af));
    }
    if (e.has("layout")) {
      const auto l = e["layout"];
      l.only({"parameter_region", "strings", "signatures"});
      if (l.has("parameter_region")) src.param_region = parse_hex_bytes(l["parameter_region"]);
      if (l.has("strings")) src.strings = lines(l["strings"]);
      if (l.has("signatures")) src.signatures = lines(l["signatures"]);
    }
    try {
      b_.exb = exb::assemble(src);
    } catch (const exb::AssemblyError& err) {
      throw TextFormError(err.function() ? fmt::format("{}/functions/{}/{}/{}", e.path,
                                                       *err.function(), err.block(), err.line())
                                         : e.path,
                          err.reason());
    }
    try {
      m_.expressions = exb::decode(ByteReader(b_.exb, "EXB"));
    } catch (const LoadError& err) {
      e.fail(fmt::format("the assembled section does not decode: {}", err.reason()));
    }
  }

  void read_blackboard() {
    auto& bb = m_.blackboard;
    const auto types = blackboard_types(m_.version());
    const At j = root_.or_empty("blackboard", kNoEntries);
    j.object();
    for (const auto& item : j.j.items()) {
      const std::string& key = item.key();  // a plain name: clang 14 cannot capture bindings
      if (std::none_of(types.begin(), types.end(),
                       [&](BlackboardType t) { return blackboard_type_name(t) == key; })) {
        j[key].fail(fmt::format("no blackboard type \"{}\" in version {:#x}", key, m_.version()));
      }
    }
    std::uint32_t files = 0;
    if (root_.has("blackboard_files"))
      files = static_cast<std::uint32_t>(root_["blackboard_files"].array());
    std::uint32_t total = 0;
    for (const auto type : types) {
      const auto t = static_cast<std::size_t>(type);
      if (total > 0xFFFF) {
        j.fail(fmt::format("{} entries before the {} ones, past the 65,535 the format can index",
                           total, blackboard_type_name(type)));
      }
      bb.first[t] = static_cast<std::uint16_t>(total);
      const auto key = std::string(blackboard_type_name(type));
      if (!j.has(key)) continue;
      const auto list = j[key];
      const auto count = list.array();
      if (count > 0xFFFF) list.fail("too many entries");
      bb.count[t] = static_cast<std::uint16_t>(count);
      total += static_cast<std::uint32_t>(count);
      for (std::size_t i = 0; i < count; ++i) {
        const auto e = list[i];
        e.only({"name", "notes", "default", "inherit", "file_reference"});
        BlackboardEntry entry;
        entry.type = type;
        entry.name = b_.keep(e["name"].string());
        if (e.has("notes")) entry.notes = b_.keep(e["notes"].string());
        if (e.has("inherit")) {
          const auto name = e["inherit"].string();
          const auto it = std::find(kInherit.begin(), kInherit.end(), name);
          if (it == kInherit.end())
            e["inherit"].fail(fmt::format("unknown inherit mode \"{}\"", name));
          entry.inherit = static_cast<InheritMode>(it - kInherit.begin());
        }
        entry.raw_word = static_cast<std::uint32_t>(entry.inherit) << 22;
        if (e.has("file_reference")) {
          const auto ref = e["file_reference"].index(files, "blackboard files");
          if (ref > 0x7F) e["file_reference"].fail("index above 127");
          entry.file_reference = static_cast<std::uint8_t>(ref);
          entry.raw_word |= 0x80000000u | (ref << 24);
        }
        const auto def = [&]() -> At { return e["default"]; };
        switch (type) {
          case BlackboardType::String:
            entry.default_value = b_.keep(def().string());
            break;
          case BlackboardType::S32:
            entry.default_value = static_cast<std::int32_t>(def().integer(INT32_MIN, INT32_MAX));
            break;
          case BlackboardType::U32:
            entry.default_value = def().u32();
            break;
          case BlackboardType::F32:
            entry.default_value = def().f32();
            break;
          case BlackboardType::Bool:
            entry.default_value = def().boolean();
            break;
          case BlackboardType::Vec3f:
            entry.default_value = read_value(def(), ParamType::Vec3f);
            break;
          case BlackboardType::Pointer:
            entry.default_value = PointerValue{};
            break;
        }
        bb.entries.push_back(entry);
      }
    }
    if (files > 0) {
      const auto list = root_["blackboard_files"];
      for (std::size_t i = 0; i < files; ++i) {
        const auto f = list[i];
        f.only({"path", "path_hash", "name_hash", "extension_hash"});
        auto ref = file_reference(b_.keep(f["path"].string()));
        if (f.has("path_hash")) ref.path_hash = f["path_hash"].u32();
        if (f.has("name_hash")) ref.name_hash = f["name_hash"].u32();
        if (f.has("extension_hash")) ref.extension_hash = f["extension_hash"].u32();
        bb.file_references.push_back(ref);
      }
    }
    if (root_.has("blackboard_id")) m_.blackboard_id = root_["blackboard_id"].u32();
    if (root_.has("parent_blackboard_id")) {
      m_.parent_blackboard_id = root_["parent_blackboard_id"].u32();
    }
  }

  ParamFlags read_flags(const At& at, ParamType type) {
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
  void per_type(const At& at, Fn&& fn) {
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

  std::array<Range, kParamTypeCount> read_properties(const At& owner) {
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

  void read_attachment_count() {
    attachment_count_ = root_.has("attachments") ? root_["attachments"].array() : 0;
  }

  void read_outputs(const At& n, std::size_t i) {
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
      node.outputs[t].count =
          static_cast<std::uint32_t>(m_.outputs[t].size()) - node.outputs[t].base;
    });
  }

  void read_node(const At& n, std::size_t i) {
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
  void read_queries(const At& nodes) {
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
  void apply_query_layout() {
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
    for (const auto q_index : array) {
      if (q_index >= query_nodes.size()) return;
    }
    for (std::size_t i = 0; i < node_count_; ++i)
      m_.nodes[i].queries.base = bases_at[i].u32();
    m_.query_indices = array;
    m_.query_nodes.clear();
    for (const auto q_index : array)
      m_.query_nodes.push_back(query_nodes[q_index]);
  }

  // A node-output reference `at` ({node, output}) for an input of `type` with flags `f`.
  std::pair<std::int16_t, std::int16_t> read_link(const At& at, ParamType type,
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
    return {static_cast<std::int16_t>(node),
            static_cast<std::int16_t>(output.j.get<std::int64_t>())};
  }

  void read_inputs_all(const At& nodes) {
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
        node.inputs[t].count =
            static_cast<std::uint32_t>(m_.inputs[t].size()) - node.inputs[t].base;
      }
    }
  }

  void read_attachments() {
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

  // The EXB function count and result size as the JSON states them; what it leaves out is
  // derived once every parameter is read (settle_expression_use).
  struct StatedExpressionUse {
    std::optional<std::uint16_t> function_count, io_size;
  };
  static StatedExpressionUse read_expression_use(const At& owner) {
    StatedExpressionUse stated;
    if (owner.has("exb_functions")) stated.function_count = owner["exb_functions"].u16();
    if (owner.has("exb_io_size")) stated.io_size = owner["exb_io_size"].u16();
    return stated;
  }
  template <typename Owner>  // Node or Attachment
  void settle(Owner& owner, const StatedExpressionUse& stated) {
    const auto derived = expression_use(m_, owner);
    owner.exb_function_count = stated.function_count.value_or(derived.function_count);
    owner.exb_io_size = stated.io_size.value_or(derived.io_size);
  }
  void settle_expression_use() {
    for (std::size_t i = 0; i < m_.nodes.size(); ++i)
      settle(m_.nodes[i], node_expression_use_[i]);
    for (std::size_t i = 0; i < m_.attachments.size(); ++i)
      settle(m_.attachments[i], attachment_expression_use_[i]);
  }

  void read_commands() {
    const auto list = root_.or_empty("commands", kNoItems);
    for (std::size_t i = 0; i < list.array(); ++i) {
      const auto c = list[i];
      c.only({"name", "guid", "root", "root_name", "secondary_root"});
      Command cmd;
      cmd.name = b_.keep(c["name"].string());
      cmd.guid = c.has("guid") ? parse_guid(c["guid"]) : Guid{};
      cmd.root = static_cast<std::uint16_t>(c["root"].index(node_count_, "nodes"));
      if (c.has("secondary_root") && !c["secondary_root"].j.is_null()) {
        cmd.secondary_root =
            static_cast<std::uint16_t>(c["secondary_root"].index(node_count_, "nodes"));
      }
      m_.commands.push_back(cmd);
    }
  }

  void read_transitions() {
    if (!root_.has("transitions")) return;
    const auto list = root_["transitions"];
    for (std::size_t i = 0; i < list.array(); ++i) {
      const auto t = list[i];
      t.only({"word", "command"});
      Transition tr;
      tr.word = t["word"].u32();
      if (tr.type() == 0) tr.command = b_.keep(t["command"].string());
      m_.transitions.push_back(tr);
    }
  }

  PlugBlackboard plug_bb(const At& p, std::string_view key, BlackboardType type) {
    if (!p.has(key) || p[key].j.is_null()) return {};
    const auto count = m_.blackboard.count[static_cast<std::size_t>(type)];
    return {true, static_cast<std::uint16_t>(p[key].index(
                      count, fmt::format("{} blackboard entries", blackboard_type_name(type))))};
  }

  void read_plugs(const At& n, std::size_t i) {
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
        at.only(plug_fields(node, kind, last, name, v407),
                fmt::format("a {} plug of {}", plug_kind_name(kind),
                            node.type == NodeType::UserDefined
                                ? std::string(node.name)
                                : std::string(node_type_name(node.type))));
        Plug plug;
        plug.kind = kind;
        if (!at["node"].j.is_null()) plug.target = at["node"].index(node_count_, "nodes");
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
  static std::vector<std::string_view> plug_fields(const Node& node, PlugKind kind, bool last,
                                                   std::string_view name, bool v407) {
    if (kind == PlugKind::Transition) return {"node", "node_name", "transition"};
    std::vector<std::string_view> fields{"node", "node_name", "name"};
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

  void read_condition(const Node& node, const At& at, Plug& plug, bool last) {
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

  PatchTarget read_patch(const At& p) {
    p.only({"node", "attachment", "property", "input", "index", "offset"});
    PatchTarget target;
    target.input = p.has("input");
    if (target.input == p.has("property")) p.fail("expected one of \"property\" and \"input\"");
    const auto kind = p[target.input ? "input" : "property"];
    const auto name = kind.string();
    std::size_t t = 0;
    while (t < kParamTypeCount && param_type_name(static_cast<ParamType>(t)) != name)
      ++t;
    if (t == kParamTypeCount) kind.fail(fmt::format("unknown parameter type \"{}\"", name));
    target.type = static_cast<ParamType>(t);
    Range range;
    std::string owner;
    if (p.has("attachment")) {
      if (target.input) p.fail("attachments have no inputs");
      const auto a = p["attachment"].index(m_.attachments.size(), "attachments");
      range = m_.attachments[a].properties[t];
      owner = fmt::format("attachment {}", a);
    } else {
      const auto n = p["node"].index(node_count_, "nodes");
      range = target.input ? m_.nodes[n].inputs[t] : m_.nodes[n].properties[t];
      owner = fmt::format("node {}", n);
    }
    target.index =
        range.base + static_cast<std::uint32_t>(p["index"].index(
                         range.count, fmt::format("{} {} of {}", name,
                                                  target.input ? "inputs" : "properties", owner)));
    const auto size =
        target.input ? input_entry_size(target.type) : property_entry_size(target.type);
    target.offset = static_cast<std::uint32_t>(p["offset"].integer(0, size - 4));
    return target;
  }

  void read_tail() {
    const auto modules = root_.or_empty("modules", kNoItems);
    for (std::size_t i = 0; i < modules.array(); ++i) {
      const auto mod = modules[i];
      mod.only({"path", "category", "instance_count"});
      m_.modules.push_back({b_.keep(mod["path"].string()), b_.keep(mod["category"].string()),
                            mod["instance_count"].u32()});
    }
    if (root_.has("xlink_actions")) {
      const auto list = root_["xlink_actions"];
      for (std::size_t i = 0; i < list.array(); ++i) {
        const auto x = list[i];
        x.only({"node", "node_name", "slot", "action"});
        m_.xlink_actions.push_back({x["node"].index(node_count_, "nodes"),
                                    b_.keep(x["slot"].string()), b_.keep(x["action"].string())});
      }
    }
    if (root_.has("replacements") && !root_["replacements"].j.is_null()) {
      const auto r = root_["replacements"];
      if (m_.version() == kVersion404) r.fail("version 0x404 has no child replacement table");
      r.only({"applied", "node_count_after", "attachment_count_after", "entries"});
      ReplacementTable t;
      t.applied = r["applied"].boolean();
      t.node_count_after = static_cast<std::int16_t>(r["node_count_after"].integer(-32768, 32767));
      t.attachment_count_after =
          static_cast<std::int16_t>(r["attachment_count_after"].integer(-32768, 32767));
      const auto entries = r["entries"];
      for (std::size_t i = 0; i < entries.array(); ++i) {
        const auto e = entries[i];
        e.only({"type", "node", "target", "replacement_node"});
        Replacement rep;
        const auto type = e["type"].string();
        const auto it = std::find(kReplacementTypes.begin(), kReplacementTypes.end(), type);
        if (it == kReplacementTypes.end()) {
          e["type"].fail(fmt::format("unknown replacement type \"{}\"", type));
        }
        rep.type = static_cast<ReplacementType>(it - kReplacementTypes.begin());
        rep.node_index = static_cast<std::uint16_t>(e["node"].index(node_count_, "nodes"));
        const auto& n = m_.nodes[rep.node_index];
        const auto limit = rep.type == ReplacementType::RemoveAttachment
                               ? n.attachments.count
                               : n.plugs[static_cast<std::size_t>(PlugKind::Child)].count;
        rep.target = static_cast<std::uint16_t>(
            e["target"].index(limit, rep.type == ReplacementType::RemoveAttachment
                                         ? fmt::format("attachments on node {}", rep.node_index)
                                         : fmt::format("child plugs on node {}", rep.node_index)));
        if (rep.type == ReplacementType::ReplaceChild) {
          rep.replacement_node =
              static_cast<std::uint16_t>(e["replacement_node"].index(node_count_, "nodes"));
        }
        t.entries.push_back(rep);
      }
      m_.replacements = std::move(t);
    } else if (m_.version() != kVersion404) {
      m_.replacements = ReplacementTable{false, -1, -1, {}};
    }
    if (root_.has("enum_resolves")) {
      const auto list = root_["enum_resolves"];
      for (std::size_t i = 0; i < list.array(); ++i) {
        const auto e = list[i];
        e.only({"patch_offset", "patch", "class", "value"});
        EnumResolve resolve{0, b_.keep(e["class"].string()), b_.keep(e["value"].string())};
        if (e.has("patch")) {
          b_.patches.push_back({i, read_patch(e["patch"])});
        } else {
          resolve.patch_offset = e["patch_offset"].u32();
        }
        m_.enum_resolves.push_back(resolve);
      }
    }
    if (root_.has("section_0x58")) {
      const auto s = root_["section_0x58"];
      s.only({"description", "unknown"});
      Section0x58 sec;
      sec.description = b_.keep(s["description"].string());
      const auto unknown = s["unknown"];
      if (unknown.array() != 3) unknown.fail("expected 3 words");
      for (std::size_t i = 0; i < 3; ++i)
        sec.unknown[i] = unknown[i].u32();
      m_.section_0x58 = sec;
    }
  }

  At root_;
  Built& b_;
  Model& m_;
  std::size_t node_count_ = 0;
  std::size_t attachment_count_ = 0;
  std::vector<StatedExpressionUse> node_expression_use_, attachment_expression_use_;
};

}  // namespace

nlohmann::ordered_json to_text(const Model& model) {
  return ToText(model).run();
}

std::vector<std::uint8_t> from_text(const nlohmann::ordered_json& text, const std::string& name) {
  Built built;
  FromText(text, built).run();
  const auto write_and_load = [&] {
    std::vector<std::uint8_t> bytes;
    try {
      bytes = write(built.model, built.layout);
    } catch (const WriteError& e) {  // a count or offset past what the format stores
      throw TextFormError("", e.what());
    }
    std::shared_ptr<const Model> loaded;
    try {
      loaded = load(bytes, name);
    } catch (const LoadError& e) {
      throw TextFormError("", "the written file does not load: " + std::string(e.what()));
    }
    // The EXB verifier too, as a runtime would compile the expressions: an offset past static
    // memory or a jump out of its block is refused here, not when the file first runs.
    if (loaded->expressions) {
      try {
        const exb::Program verified(*loaded->expressions, name, nullptr);
      } catch (const LoadError& e) {
        throw TextFormError("/expressions",
                            "the EXB verifier refuses it: " + std::string(e.what()));
      }
    }
    return std::pair{bytes, loaded};
  };
  auto [bytes, written] = write_and_load();
  if (!built.patches.empty()) {
    // Enum resolves that name a parameter entry patch wherever the writer put it; the offsets
    // are fixed-size fields, so the second write lays out the same bytes around them.
    for (const auto& [resolve, target] : built.patches) {
      const auto t = static_cast<std::size_t>(target.type);
      const auto entries = target.input ? written->inputs[t].size() : written->properties[t].size();
      if (target.index >= entries) {  // the writer keeps the flat arrays as the model has them
        throw TextFormError("", "an enum resolve's parameter is missing from the written file");
      }
      const auto start = target.input ? written->inputs[t][target.index].offset
                                      : written->properties[t][target.index].offset;
      built.model.enum_resolves[resolve].patch_offset = start + target.offset;
    }
    bytes = write_and_load().first;
  }
  return bytes;
}

}  // namespace ainb::writer
