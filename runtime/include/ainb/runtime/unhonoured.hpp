#pragma once

// Properties of built-in nodes whose values the runtime reads but does not implement: real files
// set them, no source says what they do (docs/semantics.md, "Properties not honoured"). A run
// behaves as for the value listed here; a node carrying another value is reported, so a reader of
// a trace knows where the simulation may differ from the game.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::runtime {

struct UnhonouredProperty {
  std::uint32_t node = 0;
  NodeType type = NodeType::UserDefined;
  std::string_view property;  // points into a static table
  ParamType param = ParamType::Int;
  std::int32_t value = 0;  // a bool as 0 or 1
};

// Every such property of `model` whose value is not the one the runtime behaves as, in node
// order, then in the table's order.
std::vector<UnhonouredProperty> unhonoured_properties(const Model& model);

// "BusyPolicy 2" (a bool: "ChildFrameSync true").
std::string describe(const UnhonouredProperty& property);

// Where the rule and the evidence are written.
inline constexpr std::string_view kUnhonouredDoc = "docs/semantics.md, \"Properties not honoured\"";

}  // namespace ainb::runtime
