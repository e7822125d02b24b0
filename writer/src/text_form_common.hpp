#pragma once

// Shared by both directions of the JSON text form (docs/text-form.md): the names the text uses
// for the model's enumerations, and what links an input to the outputs it reads.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "ainb/model.hpp"

namespace ainb::writer::detail {

using json = nlohmann::ordered_json;

inline constexpr std::array<std::pair<std::uint8_t, std::string_view>, 4> kNodeFlags = {
    {{node_flags::kIsQuery, "query"},
     {node_flags::kIsModule, "module"},
     {node_flags::kIsRoot, "root"},
     {node_flags::kMultiParamType2, "multi_param_type_2"}}};

inline constexpr std::array<std::string_view, 4> kInherit = {"from_root", "from_parent",
                                                             "dont_inherit", "unknown_3"};
inline constexpr std::array<std::string_view, 3> kReplacementTypes = {
    "remove_child", "replace_child", "remove_attachment"};
inline constexpr std::array<PlugKind, 5> kPlugKinds = {
    PlugKind::Generic, PlugKind::Child, PlugKind::Transition, PlugKind::String, PlugKind::Int};

// The parameter type whose outputs an input reads (an expression converts from its input type).
inline std::optional<ParamType> source_param_type(const Model& m, ParamType type,
                                                  const ParamFlags& f) {
  if (f.source() != ParamFlags::Source::Expression) return type;
  if (!m.expressions || f.index() >= m.expressions->functions.size()) return std::nullopt;
  return param_type_of(m.expressions->functions[f.index()].input_type);
}

}  // namespace ainb::writer::detail
