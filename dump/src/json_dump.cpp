// `ainb dump`: the whole model in the project's own schema (docs/dump-json.md). Arrays keep file
// order so an index in the JSON is the index in the file; resolved references sit beside the raw
// words they were decoded from.

#include <fmt/format.h>

#include "ainb/dump/json.hpp"
#include "json_values.hpp"

namespace ainb {

namespace {

using json = nlohmann::ordered_json;

std::string hex(std::uint32_t v) {
  return fmt::format("{:#010x}", v);
}

json model_value_json(const Value& value) {
  return json_values::to_json(value, json_values::Pointers::AsNull);
}

json source_json(const ParamFlags& flags) {
  json out;
  switch (flags.source()) {
    case ParamFlags::Source::Constant:
      out["kind"] = "constant";
      break;
    case ParamFlags::Source::Blackboard:
      out["kind"] = "blackboard";
      out["index"] = flags.index();
      if (const auto c = flags.component()) {
        static constexpr const char* kNames[] = {"x", "y", "z"};
        out["component"] = kNames[static_cast<int>(*c)];
      }
      break;
    case ParamFlags::Source::Expression:
      out["kind"] = "expression";
      out["index"] = flags.index();
      break;
  }
  out["flags"] = hex(flags.raw);
  return out;
}

json ranges_json(const std::array<Range, kParamTypeCount>& ranges) {
  json out = json::object();
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    if (ranges[t].count == 0) continue;
    out[std::string(param_type_name(static_cast<ParamType>(t)))] = {ranges[t].base,
                                                                    ranges[t].count};
  }
  return out;
}

json blackboard_ref(const PlugBlackboard& bb) {
  return bb.used ? json(bb.index) : json(nullptr);
}

json plug_data(const PlugData& data) {
  return std::visit(
      [](const auto& d) -> json {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, S32Condition>) {
          return {{"condition", d.value},
                  {"blackboard", blackboard_ref(d.blackboard)},
                  {"is_default", d.is_default}};
        } else if constexpr (std::is_same_v<T, StringCondition>) {
          return {{"condition", std::string(d.value)},
                  {"blackboard", blackboard_ref(d.blackboard)},
                  {"is_default", d.is_default}};
        } else if constexpr (std::is_same_v<T, F32Condition>) {
          if (d.is_default)
            return {{"is_default", true}, {"default_name", std::string(d.default_name)}};
          return {{"min", json_values::float_json(d.min.value)},
                  {"min_blackboard", blackboard_ref(d.min.blackboard)},
                  {"max", json_values::float_json(d.max.value)},
                  {"max_blackboard", blackboard_ref(d.max.blackboard)},
                  {"is_default", false}};
        } else if constexpr (std::is_same_v<T, RandomWeight>) {
          return {{"weight", json_values::float_json(d.weight)},
                  {"blackboard", blackboard_ref(d.blackboard)}};
        } else if constexpr (std::is_same_v<T, EnumCondition>) {
          return {{"enum_value", d.value}, {"blackboard", blackboard_ref(d.blackboard)}};
        } else if constexpr (std::is_same_v<T, InputPlugExtra>) {
          json out = {{"unknown", hex(d.unknown)}, {"default", hex(d.default_raw)}};
          if (!d.default_string.empty()) out["default_string"] = std::string(d.default_string);
          return out;
        } else {
          return nullptr;
        }
      },
      data);
}

json instruction_json(const exb::Instruction& ins) {
  json out = {{"op", std::string(exb::mnemonic(ins.opcode))},
              {"type", std::string(exb::data_type_name(ins.type))}};
  const auto shape = ins.shape();
  switch (shape) {
    case exb::Shape::None:
      break;
    case exb::Shape::Call:
      out["static_offset"] = ins.static_offset;
      out["signature"] = ins.signature_index;
      break;
    case exb::Shape::Jump:
      out["target"] = ins.jump_target;
      break;
    case exb::Shape::Branch:
      out["condition"] = {{"source", std::string(exb::source_name(ins.lhs.source))},
                          {"value", ins.lhs.value}};
      out["target"] = ins.jump_target;
      break;
    case exb::Shape::Unary:
    case exb::Shape::Binary:
    case exb::Shape::Scalar:
      out["lhs"] = {{"source", std::string(exb::source_name(ins.lhs.source))},
                    {"value", ins.lhs.value}};
      if (exb::has_rhs(shape)) {
        out["rhs"] = {{"source", std::string(exb::source_name(ins.rhs.source))},
                      {"value", ins.rhs.value}};
      }
      break;
  }
  return out;
}

json expressions_json(const exb::Section& s) {
  json out = {{"offset", s.file_offset},
              {"version", s.version},
              {"static_size", s.static_size},
              {"instance_count", s.instance_count},
              {"scratch32_size", s.scratch32_size},
              {"scratch64_size", s.scratch64_size}};
  auto& functions = out["functions"] = json::array();
  for (const auto& f : s.functions) {
    json fn = {{"input_type", std::string(exb::data_type_name(f.input_type))},
               {"output_type", std::string(exb::data_type_name(f.output_type))},
               {"static_size", f.static_size},
               {"scratch32_size", f.scratch32_size},
               {"scratch64_size", f.scratch64_size}};
    auto block = [&](const exb::Block& b) {
      json list = json::array();
      for (const auto& ins : s.block(b))
        list.push_back(instruction_json(ins));
      return json{{"base", b.base}, {"instructions", std::move(list)}};
    };
    fn["setup"] = f.has_setup ? block(f.setup) : json(nullptr);
    fn["main"] = block(f.main);
    functions.push_back(std::move(fn));
  }
  auto& signatures = out["signatures"] = json::array();
  for (const auto sig : s.signatures)
    signatures.push_back(std::string(sig));
  out["param_region_size"] = s.param_region.size();
  return out;
}

class DumpWriter {
 public:
  explicit DumpWriter(const Model& m) : m_(m) {}

  json run() {
    const auto& h = m_.header;
    json out = {{"schema", "ainb-dump/1"},
                {"file", m_.name},
                {"size", m_.bytes.size()},
                {"version", fmt::format("{:#x}", h.version)},
                {"file_name", std::string(h.file_name)},
                {"category", std::string(h.category_name)},
                {"category_id", h.category}};
    json offsets = json::object();
    for (std::size_t i = 0; i < kHeaderSlotCount; ++i)
      offsets[std::string(kHeaderSlots[i].key)] = hex(h.offsets[i]);
    out["header"] = {{"query_node_count", h.query_count},
                     {"output_node_count", h.output_node_count},
                     {"offsets", std::move(offsets)}};
    out["commands"] = commands();
    out["blackboard"] = blackboard();
    out["blackboard_ids"] = {{"self", hex(m_.blackboard_id)},
                             {"parent", hex(m_.parent_blackboard_id)}};
    out["nodes"] = nodes();
    out["properties"] = properties();
    out["inputs"] = inputs();
    out["outputs"] = outputs();
    out["multi_sources"] = multi_sources();
    out["attachments"] = attachments();
    out["transitions"] = transitions();
    out["modules"] = modules();
    out["xlink_actions"] = xlink_actions();
    out["replacements"] = replacements();
    out["enum_resolves"] = enum_resolves();
    out["expressions"] = m_.expressions ? expressions_json(*m_.expressions) : json(nullptr);
    if (m_.section_0x58) {
      out["section_58"] = {{"description", std::string(m_.section_0x58->description)},
                           {"unknown", m_.section_0x58->unknown}};
    }
    return out;
  }

 private:
  json commands() {
    json out = json::array();
    for (const auto& c : m_.commands) {
      out.push_back(
          {{"name", std::string(c.name)},
           {"guid", c.guid.to_string()},
           {"root", c.root},
           {"secondary_root", c.secondary_root ? json(*c.secondary_root) : json(nullptr)}});
    }
    return out;
  }

  json blackboard() {
    static constexpr const char* kInherit[] = {"from_root", "from_parent", "dont_inherit",
                                               "unknown3"};
    json entries = json::array();
    for (const auto& e : m_.blackboard.entries) {
      const auto t = static_cast<std::size_t>(e.type);
      entries.push_back(
          {{"type", std::string(blackboard_type_name(e.type))},
           {"index", &e - m_.blackboard.entries.data() - m_.blackboard.first[t]},
           {"name", std::string(e.name)},
           {"notes", std::string(e.notes)},
           {"inherit", kInherit[static_cast<int>(e.inherit)]},
           {"file_reference", e.file_reference ? json(*e.file_reference) : json(nullptr)},
           {"default", model_value_json(e.default_value)},
           {"word", hex(e.raw_word)}});
    }
    json refs = json::array();
    for (const auto& r : m_.blackboard.file_references) {
      refs.push_back({{"path", std::string(r.path)},
                      {"path_hash", hex(r.path_hash)},
                      {"name_hash", hex(r.name_hash)},
                      {"extension_hash", hex(r.extension_hash)}});
    }
    return {{"entries", std::move(entries)}, {"file_references", std::move(refs)}};
  }

  json nodes() {
    json out = json::array();
    for (const auto& n : m_.nodes) {
      json flags = json::array();
      if (n.is_query()) flags.push_back("query");
      if (n.is_module()) flags.push_back("module");
      if (n.has_flag(node_flags::kIsRoot)) flags.push_back("root");
      if (n.has_flag(node_flags::kMultiParamType2)) flags.push_back("multi_param_type_2");
      json node = {{"index", n.index},
                   {"type", std::string(node_type_name(n.type))},
                   {"name", std::string(n.name)},
                   {"guid", n.guid.to_string()},
                   {"flags", std::move(flags)},
                   {"flags_raw", n.flags},
                   {"name_hash", hex(n.name_hash)},
                   {"exb_function_count", n.exb_function_count},
                   {"exb_io_size", n.exb_io_size},
                   {"multi_param_count", n.multi_param_count},
                   {"queries", m_.queries_of(n)},
                   {"attachments", m_.attachments_of(n)},
                   {"properties", ranges_json(n.properties)},
                   {"inputs", ranges_json(n.inputs)},
                   {"outputs", ranges_json(n.outputs)}};
      json plugs = json::array();
      for (std::size_t k = 0; k < kPlugKindCount; ++k) {
        for (const auto& p : m_.plugs_of(n, static_cast<PlugKind>(k))) {
          json plug = {{"kind", std::string(plug_kind_name(p.kind))},
                       {"node", p.target ? json(*p.target) : json(nullptr)}};
          if (p.multi_source_mark != 0) plug["multi_source_mark"] = p.multi_source_mark;
          if (p.kind == PlugKind::Transition) {
            plug["transition"] = p.transition_index;
          } else {
            plug["name"] = std::string(p.name);
          }
          if (auto data = plug_data(p.data); !data.is_null()) plug["data"] = std::move(data);
          plugs.push_back(std::move(plug));
        }
      }
      node["plugs"] = std::move(plugs);
      json actions = json::array();
      for (const auto& a : m_.xlink_actions) {
        if (a.node_index == n.index) {
          actions.push_back({{"slot", std::string(a.slot)}, {"action", std::string(a.action)}});
        }
      }
      if (!actions.empty()) node["xlink_actions"] = std::move(actions);
      if (n.state_info) {
        node["state_info"] = {{"desired_state", std::string(n.state_info->desired_state)},
                              {"unknown", n.state_info->unknown}};
      }
      node["entry_offset"] = hex(n.entry_offset);
      node["body_offset"] = hex(n.body_offset);
      out.push_back(std::move(node));
    }
    return out;
  }

  json properties() {
    json out = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      json list = json::array();
      for (const auto& p : m_.properties[t]) {
        json entry = {{"name", std::string(p.name)}};
        if (p.type == ParamType::Pointer) entry["class"] = std::string(p.class_name);
        entry["source"] = source_json(p.flags);
        entry["value"] = model_value_json(p.value);
        list.push_back(std::move(entry));
      }
      out[std::string(param_type_name(static_cast<ParamType>(t)))] = std::move(list);
    }
    return out;
  }

  json inputs() {
    json out = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      json list = json::array();
      for (const auto& in : m_.inputs[t]) {
        json entry = {{"name", std::string(in.name)}};
        if (in.type == ParamType::Pointer) entry["class"] = std::string(in.class_name);
        if (in.is_multi_source()) {
          const auto range = in.multi_sources();
          entry["multi_sources"] = {range.base, range.count};
        } else {
          entry["link"] = in.has_node_source()
                              ? json{{"node", in.raw_node_index}, {"output", in.source_output()}}
                              : json(nullptr);
          entry["source"] = source_json(in.flags);
          if (in.set_blackboard()) entry["set_blackboard"] = true;
        }
        entry["default"] = model_value_json(in.default_value);
        list.push_back(std::move(entry));
      }
      out[std::string(param_type_name(static_cast<ParamType>(t)))] = std::move(list);
    }
    return out;
  }

  json outputs() {
    json out = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      json list = json::array();
      for (const auto& o : m_.outputs[t]) {
        json entry = {{"name", std::string(o.name)}, {"is_output", o.is_output}};
        if (o.type == ParamType::Pointer) entry["class"] = std::string(o.class_name);
        list.push_back(std::move(entry));
      }
      out[std::string(param_type_name(static_cast<ParamType>(t)))] = std::move(list);
    }
    return out;
  }

  json multi_sources() {
    json out = json::array();
    for (const auto& s : m_.multi_sources) {
      out.push_back(
          {{"node", s.node_index}, {"output", s.output_index}, {"source", source_json(s.flags)}});
    }
    return out;
  }

  json attachments() {
    json out = json::array();
    for (const auto& a : m_.attachments) {
      out.push_back({{"name", std::string(a.name)},
                     {"name_hash", hex(a.name_hash)},
                     {"debug", hex(a.debug)},
                     {"exb_function_count", a.exb_function_count},
                     {"exb_io_size", a.exb_io_size},
                     {"properties", ranges_json(a.properties)}});
    }
    return out;
  }

  json transitions() {
    json out = json::array();
    for (const auto& t : m_.transitions) {
      json entry = {{"type", t.type()}, {"post_calc", t.post_calc()}, {"word", hex(t.word)}};
      if (t.type() == 0) entry["command"] = std::string(t.command);
      out.push_back(std::move(entry));
    }
    return out;
  }

  json modules() {
    json out = json::array();
    for (const auto& mod : m_.modules) {
      out.push_back({{"path", std::string(mod.path)},
                     {"category", std::string(mod.category)},
                     {"instance_count", mod.instance_count}});
    }
    return out;
  }

  json xlink_actions() {
    json out = json::array();
    for (const auto& a : m_.xlink_actions) {
      out.push_back({{"node", a.node_index},
                     {"slot", std::string(a.slot)},
                     {"action", std::string(a.action)}});
    }
    return out;
  }

  json replacements() {
    if (!m_.replacements) return nullptr;
    static constexpr const char* kTypes[] = {"remove_child", "replace_child", "remove_attachment"};
    json entries = json::array();
    for (const auto& r : m_.replacements->entries) {
      json entry = {
          {"type", kTypes[static_cast<int>(r.type)]}, {"node", r.node_index}, {"target", r.target}};
      if (r.type == ReplacementType::ReplaceChild) entry["replacement_node"] = r.replacement_node;
      entries.push_back(std::move(entry));
    }
    return {{"applied", m_.replacements->applied},
            {"node_count_after", m_.replacements->node_count_after},
            {"attachment_count_after", m_.replacements->attachment_count_after},
            {"entries", std::move(entries)}};
  }

  json enum_resolves() {
    json out = json::array();
    for (const auto& e : m_.enum_resolves) {
      out.push_back({{"patch_offset", hex(e.patch_offset)},
                     {"class", std::string(e.class_name)},
                     {"value", std::string(e.value_name)}});
    }
    return out;
  }

  const Model& m_;
};

}  // namespace

json dump_json(const Model& model) {
  return DumpWriter(model).run();
}

}  // namespace ainb
