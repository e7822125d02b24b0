#include "ainb/runtime/unhonoured.hpp"

#include <array>

#include <fmt/format.h>

namespace ainb::runtime {
namespace {

struct Row {
  NodeType type;
  ParamType param;
  std::string_view property;
  std::int32_t runs_as;  // the value whose behaviour the runtime implements
};

// One row per property and node type; the values the real files set are in docs/semantics.md.
constexpr std::array kTable{
    Row{NodeType::Sequential, ParamType::Int, "BusyPolicy", 0},
    Row{NodeType::Sequential, ParamType::Int, "PlayPolicy", 0},
    Row{NodeType::Sequential, ParamType::Int, "ResultPolicy", 0},
    Row{NodeType::Sequential, ParamType::Bool, "IsDelayJudge", 0},
    Row{NodeType::Simultaneous, ParamType::Int, "EndPolicy", 0},
    Row{NodeType::Simultaneous, ParamType::Int, "ResultPolicy", 0},
    Row{NodeType::BoolSelector, ParamType::Int, "CalculateTiming", 0},
    Row{NodeType::BoolSelector, ParamType::Bool, "ChildFrameSync", 0},
    Row{NodeType::S32Selector, ParamType::Int, "CalculateTiming", 0},
    Row{NodeType::S32Selector, ParamType::Bool, "ChildFrameSync", 0},
    Row{NodeType::S32Selector, ParamType::Bool, "IsNoSelectIfSameInstance", 0},
    Row{NodeType::F32Selector, ParamType::Int, "CalculateTiming", 0},
    Row{NodeType::F32Selector, ParamType::Bool, "ChildFrameSync", 0},
    Row{NodeType::F32Selector, ParamType::Int, "PlugJudgeType", 0},
    Row{NodeType::StringSelector, ParamType::Int, "CalculateTiming", 0},
    Row{NodeType::StringSelector, ParamType::Bool, "ChildFrameSync", 0},
    Row{NodeType::SplitTiming, ParamType::Int, "ChildStateSyncPolicy", 0},
};

}  // namespace

std::vector<UnhonouredProperty> unhonoured_properties(const Model& model) {
  std::vector<UnhonouredProperty> found;
  for (std::uint32_t i = 0; i < model.nodes.size(); ++i) {
    const auto& n = model.nodes[i];
    for (const auto& row : kTable) {
      if (row.type != n.type) continue;
      for (const auto& p : model.properties_of(n, row.param)) {
        if (p.name != row.property) continue;
        // A value an expression computes is not known here: only stored constants are judged.
        std::int32_t value = row.runs_as;
        if (const auto* b = std::get_if<bool>(&p.value)) value = *b ? 1 : 0;
        if (const auto* k = std::get_if<std::int32_t>(&p.value)) value = *k;
        if (value != row.runs_as) found.push_back({i, n.type, row.property, row.param, value});
      }
    }
  }
  return found;
}

std::string describe(const UnhonouredProperty& property) {
  if (property.param == ParamType::Bool)
    return fmt::format("{} {}", property.property, property.value != 0);
  return fmt::format("{} {}", property.property, property.value);
}

}  // namespace ainb::runtime
