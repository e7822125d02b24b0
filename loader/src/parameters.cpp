// The blackboard and the parameter tables: properties, inputs and outputs, multi-source inputs.

#include <algorithm>

#include "loader_state.hpp"

namespace ainb::detail {

Value Loader::read_value(Cursor& c, ParamType type, std::string_view what) {
  switch (type) {
    case ParamType::Int:
      return c.s32(what);
    case ParamType::Bool:
      return c.u32(what) != 0;
    case ParamType::Float:
      return c.f32(what);
    case ParamType::String:
      return value_string_ref(c, what);
    case ParamType::Vec3f: {
      Vec3f v;
      v.x = c.f32(what);
      v.y = c.f32(what);
      v.z = c.f32(what);
      return v;
    }
    case ParamType::Pointer:
      return PointerValue{c.u32(what)};
  }
  return {};
}

void Loader::read_blackboard() {
  auto scope = section(header_slot::kBlackboard);
  const auto begin = offset(header_slot::kBlackboard);
  const auto types = blackboard_types(m_.version());
  const std::uint64_t header_size = types.size() * 8;
  auto& bb = m_.blackboard;
  std::array<std::uint16_t, kBlackboardTypeCount> value_offset{};
  std::uint32_t total = 0;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const auto t = static_cast<std::size_t>(types[i]);
    bb.count[t] = r_.u16(begin + i * 8, "entry count");
    value_offset[t] = r_.u16(begin + i * 8 + 4, "value offset");
    bb.first[t] = static_cast<std::uint16_t>(total);
    total += bb.count[t];
  }
  const std::uint64_t info_begin = begin + header_size;
  r_.require(info_begin, std::uint64_t{total} * 8, "blackboard entries");
  const std::uint64_t value_base = info_begin + std::uint64_t{total} * 8;
  bb.entries.reserve(total);
  int max_file_reference = -1;
  for (const auto type : types) {
    const auto t = static_cast<std::size_t>(type);
    const auto size = blackboard_value_size(type);
    for (std::uint32_t j = 0; j < bb.count[t]; ++j) {
      Cursor c(r_, info_begin + 8 * bb.entries.size());
      BlackboardEntry e;
      e.type = type;
      const auto word_at = c.offset();
      e.raw_word = c.u32("name word");
      e.name = string(word_at, e.raw_word & 0x3FFFFF, "blackboard name");
      e.inherit = static_cast<InheritMode>((e.raw_word >> 22) & 3);
      if ((e.raw_word & 0x80000000u) != 0) {
        e.file_reference = static_cast<std::uint8_t>((e.raw_word >> 24) & 0x7F);
        max_file_reference = std::max<int>(max_file_reference, *e.file_reference);
      }
      e.notes = string_ref(c, "blackboard notes");
      Cursor v(r_, value_base + value_offset[t] + std::uint64_t{j} * size);
      switch (type) {
        case BlackboardType::String:
          e.default_value = string_ref(v, "default value");
          break;
        case BlackboardType::S32:
          e.default_value = v.s32("default value");
          break;
        case BlackboardType::U32:
          e.default_value = v.u32("default value");
          break;
        case BlackboardType::F32:
          e.default_value = v.f32("default value");
          break;
        case BlackboardType::Bool:
          e.default_value = v.u32("default value") != 0;
          break;
        case BlackboardType::Vec3f:
          e.default_value = read_value(v, ParamType::Vec3f, "default value");
          break;
        case BlackboardType::Pointer:
          e.default_value = PointerValue{};
          break;
      }
      bb.entries.push_back(e);
    }
  }
  // File references follow the last default values (vec3f; pointers store none).
  const auto vec3f = static_cast<std::size_t>(BlackboardType::Vec3f);
  const std::uint64_t refs_begin = value_base + value_offset[vec3f] + 12ull * bb.count[vec3f];
  for (int k = 0; k <= max_file_reference; ++k) {
    Cursor c(r_, refs_begin + 16ull * k);
    FileReference ref;
    ref.path = string_ref(c, "file reference path");
    ref.path_hash = c.u32("path hash");
    ref.name_hash = c.u32("name hash");
    ref.extension_hash = c.u32("extension hash");
    bb.file_references.push_back(ref);
  }
}

void Loader::read_properties() {
  auto scope = section(header_slot::kProperties);
  const auto table = offset(header_slot::kProperties);
  std::array<std::uint32_t, kParamTypeCount + 1> bounds{};
  for (std::size_t t = 0; t < kParamTypeCount; ++t)
    bounds[t] = r_.u32(table + 4 * t, "offset");
  bounds[kParamTypeCount] = offset(header_slot::kInputsOutputs);
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    // An offset of 0 (the header, never a table) is a type without properties, as a modders'
    // tool writes an empty table; the type's entries then end at the next type's offset.
    if (bounds[t] == 0) continue;
    auto end = t + 1;
    while (bounds[end] == 0 && end < kParamTypeCount)
      ++end;
    const auto count = array_count(bounds[t], bounds[end], property_entry_size(type), "properties",
                                   param_type_name(type));
    auto& out = m_.properties[t];
    out.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto at = bounds[t] + std::uint64_t{i} * property_entry_size(static_cast<ParamType>(t));
      Cursor c(r_, at);
      Property p;
      p.type = type;
      p.offset = static_cast<std::uint32_t>(at);
      p.name = string_ref(c, "property name");
      if (type == ParamType::Pointer) {
        p.class_name = string_ref(c, "class name");
        p.flags.raw = c.u32("flags");
        p.value = PointerValue{};
      } else {
        p.flags.raw = c.u32("flags");
        p.value = read_value(c, type, "value");
      }
      out.push_back(p);
    }
  }
}

void Loader::read_inputs_outputs() {
  auto scope = section(header_slot::kInputsOutputs);
  const auto table = offset(header_slot::kInputsOutputs);
  std::array<std::uint32_t, 2 * kParamTypeCount + 1> bounds{};
  for (std::size_t i = 0; i < 2 * kParamTypeCount; ++i) {
    bounds[i] = r_.u32(table + 4 * i, "offset");
  }
  bounds[2 * kParamTypeCount] = offset(header_slot::kMultiParams);
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto in_count =
        array_count(bounds[2 * t], bounds[2 * t + 1], input_entry_size(static_cast<ParamType>(t)),
                    "inputs", param_type_name(type));
    m_.inputs[t].reserve(in_count);
    for (std::uint32_t i = 0; i < in_count; ++i) {
      const auto at =
          bounds[2 * t] + std::uint64_t{i} * input_entry_size(static_cast<ParamType>(t));
      Cursor c(r_, at);
      Input in;
      in.type = type;
      in.offset = static_cast<std::uint32_t>(at);
      in.name = string_ref(c, "input name");
      if (type == ParamType::Pointer) in.class_name = string_ref(c, "class name");
      in.raw_node_index = c.s16("source node index");
      in.raw_output_index = c.s16("source output index");
      in.flags.raw = c.u32("flags");
      in.default_value = read_value(c, type, "default value");
      m_.inputs[t].push_back(in);
    }
    const std::uint32_t out_size = type == ParamType::Pointer ? 8 : 4;
    const auto out_count = array_count(bounds[2 * t + 1], bounds[2 * t + 2], out_size, "outputs",
                                       param_type_name(type));
    m_.outputs[t].reserve(out_count);
    for (std::uint32_t i = 0; i < out_count; ++i) {
      const auto at = bounds[2 * t + 1] + std::uint64_t{i} * out_size;
      Cursor c(r_, at);
      Output o;
      o.type = type;
      o.offset = static_cast<std::uint32_t>(at);
      const auto word = c.u32("output name");
      o.name = string(at, word & 0x3FFFFFFF, "output name");
      o.is_output = (word & 0x80000000u) != 0;
      if (type == ParamType::Pointer) o.class_name = string_ref(c, "class name");
      m_.outputs[t].push_back(o);
    }
  }
}

void Loader::read_multi_sources() {
  auto scope = section(header_slot::kMultiParams);
  const auto begin = offset(header_slot::kMultiParams);
  const auto size = entry_size(header_slot::kMultiParams, m_.version());
  const auto count =
      slot_array_count(header_slot::kMultiParams, begin, offset(header_slot::kTransitions));
  m_.multi_sources.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    Cursor c(r_, begin + std::uint64_t{size} * i);
    MultiSource s;
    s.node_index = c.s16("node index");
    s.output_index = c.s16("output index");
    s.flags.raw = c.u32("flags");
    m_.multi_sources.push_back(s);
  }
}

}  // namespace ainb::detail
