#include "ainb/model.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ainb {

std::string Guid::to_string() const {
  const auto& b = bytes;
  const auto u32 = static_cast<std::uint32_t>(b[0] | (b[1] << 8) | (b[2] << 16)) |
                   (static_cast<std::uint32_t>(b[3]) << 24);
  const auto u16a = static_cast<unsigned>(b[4] | (b[5] << 8));
  const auto u16b = static_cast<unsigned>(b[6] | (b[7] << 8));
  return fmt::format("{:08x}-{:04x}-{:04x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", u32,
                     u16a, u16b, b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

std::string_view node_class_name(const Node& node) {
  return node.type == NodeType::UserDefined ? node.name : node_type_name(node.type);
}

std::string_view node_type_name(NodeType type) {
  switch (type) {
#define AINB_NODE_TYPE_NAME(name, value, text, kind, choice) \
  case NodeType::name:                                       \
    return text;
    AINB_NODE_TYPES(AINB_NODE_TYPE_NAME)
#undef AINB_NODE_TYPE_NAME
  }
  return {};
}

std::optional<NodeType> node_type_named(std::string_view name) {
#define AINB_NODE_TYPE_NAMED(name_, value, text, kind, choice) \
  if (name == text) return NodeType::name_;
  AINB_NODE_TYPES(AINB_NODE_TYPE_NAMED)
#undef AINB_NODE_TYPE_NAMED
  return std::nullopt;
}

bool is_known_node_type(std::uint16_t raw) {
  return !node_type_name(static_cast<NodeType>(raw)).empty();
}

std::string_view param_type_name(ParamType type) {
  static constexpr std::string_view kNames[] = {"int",    "bool",  "float",
                                                "string", "vec3f", "pointer"};
  return kNames[static_cast<std::size_t>(type)];
}

std::string_view blackboard_type_name(BlackboardType type) {
  static constexpr std::string_view kNames[] = {"string", "s32",   "u32",    "f32",
                                                "bool",   "vec3f", "pointer"};
  return kNames[static_cast<std::size_t>(type)];
}

bool is_child_enum_plug(NodeType type, std::string_view plug_name) {
  return type == NodeType::UserDefined && plug_name.starts_with("__CHILD_ENUM");
}

std::string_view plug_kind_name(PlugKind kind) {
  static constexpr std::string_view kNames[] = {"generic",  "unknown1", "child",    "transition",
                                                "string",   "int",      "unknown6", "unknown7",
                                                "unknown8", "unknown9"};
  return kNames[static_cast<std::size_t>(kind)];
}

// The blackboard type a parameter of `type` reads when its flags point at the blackboard.
// Blackboard type order in the file, per version.
std::span<const BlackboardType> blackboard_types(std::uint32_t version) {
  static constexpr BlackboardType k407[] = {BlackboardType::String, BlackboardType::S32,
                                            BlackboardType::F32,    BlackboardType::Bool,
                                            BlackboardType::Vec3f,  BlackboardType::Pointer};
  static constexpr BlackboardType k408[] = {
      BlackboardType::String, BlackboardType::S32,   BlackboardType::U32,    BlackboardType::F32,
      BlackboardType::Bool,   BlackboardType::Vec3f, BlackboardType::Pointer};
  if (version >= kVersion408) return k408;
  return k407;
}

std::uint32_t blackboard_value_size(BlackboardType type) {
  switch (type) {
    case BlackboardType::Vec3f:
      return 12;
    case BlackboardType::Pointer:
      return 0;
    default:
      return 4;
  }
}

std::optional<ParamType> param_type_of(exb::DataType type) {
  switch (type) {
    case exb::DataType::Bool:
      return ParamType::Bool;
    case exb::DataType::Int:
    case exb::DataType::UInt:
      return ParamType::Int;
    case exb::DataType::Float:
      return ParamType::Float;
    case exb::DataType::String:
      return ParamType::String;
    case exb::DataType::Vec3f:
      return ParamType::Vec3f;
    default:
      return std::nullopt;
  }
}

std::optional<VectorComponent> blackboard_component(ParamType type, const ParamFlags& flags) {
  return type == ParamType::Float ? flags.component() : std::nullopt;
}

BlackboardType blackboard_type_for(ParamType type, const ParamFlags& flags) {
  switch (type) {
    case ParamType::Int:
      return BlackboardType::S32;
    case ParamType::Bool:
      return BlackboardType::Bool;
    case ParamType::Float:
      return blackboard_component(type, flags) ? BlackboardType::Vec3f : BlackboardType::F32;
    case ParamType::String:
      return BlackboardType::String;
    case ParamType::Vec3f:
      return BlackboardType::Vec3f;
    case ParamType::Pointer:
      return BlackboardType::Pointer;
  }
  return BlackboardType::S32;
}

ParamType param_type_of(BlackboardType type) {
  switch (type) {
    case BlackboardType::S32:
    case BlackboardType::U32:
      return ParamType::Int;
    case BlackboardType::F32:
      return ParamType::Float;
    case BlackboardType::Bool:
      return ParamType::Bool;
    case BlackboardType::String:
      return ParamType::String;
    case BlackboardType::Vec3f:
      return ParamType::Vec3f;
    case BlackboardType::Pointer:
      break;
  }
  return ParamType::Pointer;
}

std::uint32_t property_entry_size(ParamType type) {
  return type == ParamType::Vec3f ? 0x14 : 0x0C;
}

std::uint32_t input_entry_size(ParamType type) {
  switch (type) {
    case ParamType::Vec3f:
      return 0x18;
    case ParamType::Pointer:
      return 0x14;
    default:
      return 0x10;
  }
}

namespace {

void add_expression(const Model& model, const ParamFlags& flags, ExpressionUse& use) {
  if (flags.source() != ParamFlags::Source::Expression) return;
  ++use.function_count;
  // An index the EXB section does not have counts as a function with no result (the loader
  // refuses such files; the text form reports them elsewhere).
  if (model.expressions && flags.index() < model.expressions->functions.size()) {
    use.io_size = static_cast<std::uint16_t>(
        use.io_size + exb::value_size(model.expressions->functions[flags.index()].output_type));
  }
}

template <typename Owner>  // Node or Attachment
void add_properties(const Model& model, const Owner& owner, ExpressionUse& use) {
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    for (const auto& p : model.properties_of(owner, static_cast<ParamType>(t)))
      add_expression(model, p.flags, use);
  }
}

}  // namespace

ExpressionUse expression_use(const Model& model, const Node& node) {
  ExpressionUse use;
  add_properties(model, node, use);
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    for (const auto& input : model.inputs_of(node, static_cast<ParamType>(t))) {
      if (!input.is_multi_source()) {
        add_expression(model, input.flags, use);
        continue;
      }
      for (const auto& source : model.sources_of(input))
        add_expression(model, source.flags, use);
    }
  }
  return use;
}

ExpressionUse expression_use(const Model& model, const Attachment& attachment) {
  ExpressionUse use;
  add_properties(model, attachment, use);
  return use;
}

std::uint32_t module_output_node_count(const Model& model) {
  return static_cast<std::uint32_t>(
      std::count_if(model.nodes.begin(), model.nodes.end(), [](const Node& n) {
        const auto type = static_cast<std::uint16_t>(n.type);
        return type >= 200 && type < 300;
      }));
}

std::vector<SectionCount> section_counts(const Model& m) {
  std::size_t properties = 0, inputs = 0, outputs = 0;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    properties += m.properties[t].size();
    inputs += m.inputs[t].size();
    outputs += m.outputs[t].size();
  }
  return {{"commands", m.commands.size()},
          {"nodes", m.nodes.size()},
          {"query nodes", m.header.query_count},
          {"blackboard entries", m.blackboard.entries.size()},
          {"properties", properties},
          {"inputs", inputs},
          {"outputs", outputs},
          {"multi-sources", m.multi_sources.size()},
          {"plugs", m.plugs.size()},
          {"transitions", m.transitions.size()},
          {"attachments", m.attachments.size()},
          {"modules", m.modules.size()},
          {"XLink actions", m.xlink_actions.size()},
          {"replacements", m.replacements ? m.replacements->entries.size() : 0},
          {"enum resolves", m.enum_resolves.size()},
          {"EXB functions", m.expressions ? m.expressions->functions.size() : 0}};
}

}  // namespace ainb
