// The reference tool's JSON layout (dt-12345/ainb, `ainb_to_json`). Key names, key order and the
// conditions under which keys appear follow that tool; docs/dump-json.md lists where the values
// deliberately differ (the tool's bugs are not reproduced).

#include <fmt/format.h>

#include "ainb/byte_reader.hpp"
#include "ainb/dump/json.hpp"
#include "json_values.hpp"

namespace ainb {

namespace {

using json = nlohmann::ordered_json;

constexpr std::string_view kPlugKeys[kPlugKindCount] = {"Bool/Float Input Link and Output Link",
                                                        "null",
                                                        "Standard Link",
                                                        "Resident Update Link",
                                                        "String Input Link",
                                                        "Int Input Link",
                                                        "null",
                                                        "null",
                                                        "null",
                                                        "null"};

constexpr std::string_view kParamKeys[kParamTypeCount] = {"s32",    "bool",  "f32",
                                                          "string", "vec3f", "pointer"};

json peer_value_json(const Value& value) {
  return json_values::to_json(value, json_values::Pointers::AsRaw);
}

std::string_view exb_source_name(std::uint8_t source) {
  static constexpr std::string_view kNames[] = {"Imm",         "ImmStr",  "StaticMem", "ParamTbl",
                                                "ParamTblStr", "Output",  "Input",     "Scratch32",
                                                "Scratch64",   "UserOut", "UserIn"};
  return source <= exb::kMaxSource ? kNames[source] : "Unknown";
}

class PeerWriter {
 public:
  explicit PeerWriter(const Model& m) : m_(m) {}

  json run() {
    json out;
    out["Info"] = {{"Magic", "AIB "},
                   {"Version", fmt::format("{:#x}", m_.version())},
                   {"Filename", std::string(m_.header.file_name)},
                   {"File Category", std::string(m_.header.category_name)}};
    if (!m_.commands.empty()) {
      auto& commands = out["Commands"] = json::array();
      for (const auto& c : m_.commands) {
        commands.push_back({{"Name", std::string(c.name)},
                            {"GUID", c.guid.to_string()},
                            {"Left Node Index", c.root},
                            {"Right Node Index", c.secondary_root ? int{*c.secondary_root} : -1}});
      }
    }
    if (auto bb = blackboard(); !bb.empty()) out["Blackboard Parameters"] = std::move(bb);
    if (!m_.modules.empty()) {
      auto& modules = out["Modules"] = json::array();
      for (const auto& mod : m_.modules) {
        modules.push_back({{"File Path", std::string(mod.path)},
                           {"File Category", std::string(mod.category)},
                           {"Count", mod.instance_count}});
      }
    }
    if (!m_.nodes.empty()) {
      auto& nodes = out["Nodes"] = json::array();
      for (const auto& n : m_.nodes)
        nodes.push_back(node(n));
    }
    auto& hashes = out["File Hashes"] = json::object();
    hashes["Unknown File Hash"] = fmt::format("{:#x}", m_.blackboard_id);
    if (m_.parent_blackboard_id != 0) {
      hashes["Unknown Parent File Hash"] = fmt::format("{:#x}", m_.parent_blackboard_id);
    }
    return out;
  }

 private:
  json blackboard() {
    json out = json::object();
    // The tool's type order; U32 (0x408, unknown to the tool) goes after s32.
    static constexpr BlackboardType kOrder[] = {
        BlackboardType::String, BlackboardType::S32,   BlackboardType::U32,    BlackboardType::F32,
        BlackboardType::Bool,   BlackboardType::Vec3f, BlackboardType::Pointer};
    for (const auto type : kOrder) {
      const auto entries = m_.blackboard.of_type(type);
      if (entries.empty()) continue;
      auto& list = out[std::string(blackboard_type_name(type))] = json::array();
      for (const auto& e : entries) {
        json entry = {{"Name", std::string(e.name)}, {"Notes", std::string(e.notes)}};
        entry["Default Value"] =
            type == BlackboardType::Pointer ? json(nullptr) : peer_value_json(e.default_value);
        if (e.file_reference) {
          entry["File Reference"] = {
              {"Filename", std::string(m_.blackboard.file_references[*e.file_reference].path)}};
        }
        list.push_back(std::move(entry));
      }
    }
    return out;
  }

  void add_source_flags(json& out, const ParamFlags& flags) {
    json list = json::array();
    if (flags.bit23()) list.push_back("Pulse TLS");
    if (flags.bit24()) list.push_back("Is Output");
    if (!list.empty()) out["Flags"] = std::move(list);
    switch (flags.source()) {
      case ParamFlags::Source::Constant:
        break;
      case ParamFlags::Source::Blackboard:
        out["Blackboard Index"] = flags.index();
        break;
      case ParamFlags::Source::Expression:
        out["Expression Index"] = flags.index();
        out["Expression"] = expression(flags.index());
        break;
    }
  }

  json property(const Property& p) {
    json out = {{"Name", std::string(p.name)}};
    if (p.type == ParamType::Pointer) out["Class"] = std::string(p.class_name);
    add_source_flags(out, p.flags);
    if (p.type != ParamType::Pointer) out["Value"] = peer_value_json(p.value);
    return out;
  }

  template <typename Owner>
  json properties(const Owner& owner) {
    json out = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto list = m_.properties_of(owner, static_cast<ParamType>(t));
      if (list.empty()) continue;
      auto& entries = out[std::string(kParamKeys[t])] = json::array();
      for (const auto& p : list)
        entries.push_back(property(p));
    }
    return out;
  }

  json input(const Input& in) {
    json out = {{"Name", std::string(in.name)}};
    if (in.type == ParamType::Pointer) out["Class"] = std::string(in.class_name);
    out["Node Index"] = in.raw_node_index;
    // As stored, bit 15 (the "set blackboard" flag) included: the layout has no key of its own
    // for it, and the reference tool's writer keeps it only this way.
    out["Output Index"] = in.raw_output_index;
    if (!in.is_multi_source()) add_source_flags(out, in.flags);
    out["Value"] = peer_value_json(in.default_value);
    if (in.is_multi_source()) {
      auto& sources = out["Sources"] = json::array();
      for (const auto& s : m_.sources_of(in)) {
        json source = {{"Node Index", s.node_index}, {"Output Index", s.output_index}};
        add_source_flags(source, s.flags);
        sources.push_back(std::move(source));
      }
    }
    return out;
  }

  json output(const Output& o) {
    json out = {{"Name", std::string(o.name)}};
    if (o.is_output) out["Is Output"] = true;
    if (o.type == ParamType::Pointer) out["Class"] = std::string(o.class_name);
    return out;
  }

  json plug(const Node& n, const Plug& p, std::optional<std::uint16_t>& node_blackboard) {
    // As the peer tool prints it: the stored word, unsigned (a multi-source mark too).
    json out = {{"Node Index", p.multi_source_mark != 0
                                   ? static_cast<std::uint32_t>(p.multi_source_mark)
                                   : p.target.value_or(kEmptyPlugIndex)}};
    if (p.kind == PlugKind::Transition) {
      const auto& tr = m_.transitions[p.transition_index];
      json flags = json::array();
      if (tr.post_calc()) flags.push_back("Update Post Current Command Calc");
      if (tr.type() != 0) flags.push_back("Is Valid Update");
      json info = {{"Flags", std::move(flags)}};
      if (tr.type() == 0) info["String"] = std::string(tr.command);
      out["Update Info"] = std::move(info);
      return out;
    }
    out["Plug Name"] = std::string(p.name);
    if (const auto* s = std::get_if<S32Condition>(&p.data)) {
      if (s->blackboard.used) node_blackboard = s->blackboard.index;
      if (s->is_default) {
        out["Condition"] = "Default";
      } else {
        out["Condition"] = s->value;
      }
    } else if (const auto* str = std::get_if<StringCondition>(&p.data)) {
      if (str->blackboard.used) node_blackboard = str->blackboard.index;
      if (str->is_default) {
        out[std::string(str->value)] = "Default";
      } else {
        out["Condition"] = std::string(str->value);
      }
    } else if (const auto* f = std::get_if<F32Condition>(&p.data)) {
      if (f->is_default) {
        out[std::string(f->default_name)] = "Default";
      } else {
        if (f->min.blackboard.used) node_blackboard = f->min.blackboard.index;
        out["Condition Min"] = json_values::float_json(f->min.value);
        out["Condition Max"] = json_values::float_json(f->max.value);
      }
    } else if (const auto* w = std::get_if<RandomWeight>(&p.data)) {
      if (w->blackboard.used) node_blackboard = w->blackboard.index;
      out["Weight"] = json_values::float_json(w->weight);
    } else if (const auto* e = std::get_if<EnumCondition>(&p.data)) {
      // The reference tool names the two words of a `__CHILD_ENUM[k]` plug by position.
      out["Unknown 1"] = e->blackboard.used ? 0x80000000u | e->blackboard.index : 0u;
      out["Unknown 2"] = e->value;
    } else if (n.type == NodeType::UserDefined && p.name.starts_with("__CHILD_STRING") &&
               std::uint64_t{p.offset} + 16 <= m_.bytes.size()) {
      // A string-choosing updater's plug (SelectorBSAFormChangeUpdater): two words the loader
      // keeps unread (the writer keeps them as bytes), which the tool prints by position.
      const ByteReader bytes(m_.bytes, m_.name);
      out["Unknown 1"] = bytes.u32(p.offset + 8);
      out["Unknown 2"] = bytes.u32(p.offset + 12);
    } else if (const auto* extra = std::get_if<InputPlugExtra>(&p.data)) {
      // Selector input plugs show their stored default as the "Condition".
      if (n.type == NodeType::S32Selector && p.kind == PlugKind::Int) {
        out["Condition"] = static_cast<std::int32_t>(extra->default_raw);
      } else if (n.type == NodeType::StringSelector && p.kind == PlugKind::String) {
        out["Condition"] = std::string(extra->default_string);
      }
    }
    return out;
  }

  // Replacement-table marks: which plugs and attachments the game removes or replaces.
  struct Marks {
    std::vector<bool> removed;                           // per plug of Model::plugs
    std::vector<std::optional<std::uint16_t>> replaced;  // per plug
    std::vector<bool> attachment_removed;                // per attachment record
  };

  Marks marks() {
    Marks marks{std::vector<bool>(m_.plugs.size()),
                std::vector<std::optional<std::uint16_t>>(m_.plugs.size()),
                std::vector<bool>(m_.attachments.size())};
    if (!m_.replacements) return marks;
    for (const auto& rep : m_.replacements->entries) {
      const auto& n = m_.nodes[rep.node_index];
      const auto child = n.plugs[static_cast<std::size_t>(PlugKind::Child)];
      switch (rep.type) {
        case ReplacementType::RemoveChild:
          marks.removed[child.base + rep.target] = true;
          break;
        case ReplacementType::ReplaceChild:
          marks.replaced[child.base + rep.target] = rep.replacement_node;
          break;
        case ReplacementType::RemoveAttachment:
          marks.attachment_removed[m_.attachment_indices[n.attachments.base + rep.target]] = true;
          break;
      }
    }
    return marks;
  }

  json node(const Node& n) {
    if (!marks_) marks_ = marks();
    json out = {{"Node Type", std::string(node_type_name(n.type))}, {"Node Index", n.index}};
    if (n.flags != 0) {
      json flags = json::array();
      if (n.is_query()) flags.push_back("Is Query");
      if (n.is_module()) flags.push_back("Is Module");
      if (n.has_flag(node_flags::kIsRoot)) flags.push_back("Is Resident Node");
      out["Flags"] = std::move(flags);
    }
    out["Name"] = std::string(n.name);
    out["GUID"] = n.guid.to_string();
    if (n.queries.count > 0) {
      // The tool prints the stored values: indices among query nodes.
      auto& queries = out["Queries"] = json::array();
      for (std::uint32_t i = 0; i < n.queries.count; ++i) {
        queries.push_back(m_.query_indices[n.queries.base + i]);
      }
    }
    if (n.attachments.count > 0) {
      auto& list = out["Attachments"] = json::array();
      for (const auto index : m_.attachments_of(n)) {
        const auto& a = m_.attachments[index];
        json entry = {{"Name", std::string(a.name)}};
        if (auto props = properties(a); !props.empty()) entry["Properties"] = std::move(props);
        if (marks_->attachment_removed[index]) entry["Is Removed at Runtime"] = true;
        list.push_back(std::move(entry));
      }
    }
    if (auto props = properties(n); !props.empty()) out["Properties"] = std::move(props);
    json inputs = json::object(), outputs = json::object();
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      for (const auto& in : m_.inputs_of(n, type))
        inputs[std::string(kParamKeys[t])].push_back(input(in));
      for (const auto& o : m_.outputs_of(n, type))
        outputs[std::string(kParamKeys[t])].push_back(output(o));
    }
    if (!inputs.empty()) out["Inputs"] = std::move(inputs);
    if (!outputs.empty()) out["Outputs"] = std::move(outputs);
    std::optional<std::uint16_t> node_blackboard;
    json plugs = json::object();
    for (std::size_t k = 0; k < kPlugKindCount; ++k) {
      const auto range = n.plugs[k];
      for (std::uint32_t i = 0; i < range.count; ++i) {
        const auto index = range.base + i;
        auto entry = plug(n, m_.plugs[index], node_blackboard);
        if (marks_->removed[index]) entry["Is Removed at Runtime"] = true;
        if (marks_->replaced[index]) entry["Replacement Node Index"] = *marks_->replaced[index];
        plugs[std::string(kPlugKeys[k])].push_back(std::move(entry));
      }
    }
    if (!plugs.empty()) out["Plugs"] = std::move(plugs);
    if (node_blackboard) out["Blackboard Index"] = *node_blackboard;
    // The tool keeps one action per node (the last); several are printed as a list.
    json actions = json::array();
    for (const auto& action : m_.xlink_actions) {
      if (action.node_index != n.index) continue;
      actions.push_back(
          {{"Action Slot", std::string(action.slot)}, {"Action", std::string(action.action)}});
    }
    if (actions.size() == 1) out["XLink Actions"] = actions[0];
    if (actions.size() > 1) out["XLink Actions"] = std::move(actions);
    return out;
  }

  // Operands were bounds-checked when the section was decoded.
  json param_table_value(const exb::Section& s, exb::DataType type, std::uint16_t offset) {
    const ByteReader region(s.param_region, m_.name);
    const auto f32 = [&](std::uint64_t at) { return json_values::float_json(region.f32(at)); };
    switch (type) {
      case exb::DataType::Bool:
        return region.u32(offset) != 0;
      case exb::DataType::Int:
        return region.s32(offset);
      case exb::DataType::UInt:
        return region.u32(offset);
      case exb::DataType::Float:
        return f32(offset);
      case exb::DataType::Vec3f:
        return json::array({f32(offset), f32(offset + 4u), f32(offset + 8u)});
      default:
        return nullptr;
    }
  }

  json instruction(const exb::Section& s, const exb::Instruction& ins) {
    json out = {{"Type", std::string(exb::peer_name(ins.opcode))}};
    const auto shape = ins.shape();
    if (shape == exb::Shape::None) return out;
    out["Data Type"] = std::string(exb::peer_name(ins.type));
    if (shape == exb::Shape::Call) {
      out["Static Memory Index"] = ins.static_offset;
      out["Signature"] = std::string(s.signatures[ins.signature_index]);
      return out;
    }
    const std::uint8_t sources[2] = {ins.raw[2], ins.raw[3]};
    std::uint16_t values[2] = {static_cast<std::uint16_t>(ins.raw[4] | (ins.raw[5] << 8)),
                               static_cast<std::uint16_t>(ins.raw[6] | (ins.raw[7] << 8))};
    out["LHS Source"] = std::string(exb_source_name(sources[0]));
    out["RHS Source"] = std::string(exb_source_name(sources[1]));
    // A float read of one component of a vec3f user slot (right-hand side only in the tool).
    std::optional<std::string> component;
    const auto rhs = static_cast<exb::Source>(sources[1]);
    if ((rhs == exb::Source::UserIn || rhs == exb::Source::UserOut) &&
        ins.type == exb::DataType::Float && (values[1] & 0x8000) != 0) {
      static constexpr const char* kComponents[] = {"vec3f.x", "vec3f.y", "vec3f.z"};
      const auto byte_offset = (values[1] >> 8) & 0x7F;
      if (byte_offset % 4 == 0 && byte_offset <= 8) component = kComponents[byte_offset / 4];
      values[1] = values[1] & 0xFF;
    }
    out["LHS Index/Value"] = values[0];
    out["RHS Index/Value"] = values[1];
    for (int side = 0; side < 2; ++side) {
      const auto key = side == 0 ? "LHS Value" : "RHS Value";
      switch (static_cast<exb::Source>(sources[side])) {
        case exb::Source::Immediate:
          out[key] = values[side];
          break;
        case exb::Source::ImmediateString:
          out[key] = std::string(s.string_at(values[side]));
          break;
        case exb::Source::ParamTable:
          if (auto v = param_table_value(s, side == 0 ? ins.type : exb::rhs_type(shape, ins.type),
                                         values[side]);
              !v.is_null()) {
            out[key] = std::move(v);
          }
          break;
        case exb::Source::ParamTableString:
          out[key] =
              std::string(s.string_at(ByteReader(s.param_region, m_.name).u32(values[side])));
          break;
        default:
          break;
      }
    }
    if (component) out["Sub Data Type"] = *component;
    return out;
  }

  json expression(std::uint16_t index) {
    const auto& s = *m_.expressions;
    const auto& f = s.functions[index];
    json out = {{"Output Data Type", std::string(exb::peer_name(f.output_type))},
                {"Input Data Type", std::string(exb::peer_name(f.input_type))}};
    if (f.has_setup) {
      auto& setup = out["Setup Expression"] = json::array();
      for (const auto& ins : s.block(f.setup))
        setup.push_back(instruction(s, ins));
    }
    auto& main = out["Main Expression"] = json::array();
    for (const auto& ins : s.block(f.main))
      main.push_back(instruction(s, ins));
    return out;
  }

  const Model& m_;
  std::optional<Marks> marks_;
};

}  // namespace

json dump_peer_json(const Model& model) {
  return PeerWriter(model).run();
}

}  // namespace ainb
