// Node bodies: each node's parameter ranges and plugs, and a 0x404 node's state info.

#include "loader_state.hpp"

namespace ainb::detail {

namespace {

constexpr std::uint64_t kParamHeaderSize = 0x90;  // node body: parameter ranges
constexpr std::uint64_t kPlugHeaderSize = 0x14;   // node body: 10 x (count, base)
constexpr std::uint64_t kStateInfoSize = 0x14;

}  // namespace

void Loader::read_node_body(Node& n) {
  auto scope = r_.section("node bodies");
  const auto at = n.body_offset;
  const auto node = static_cast<std::size_t>(&n - m_.nodes.data());
  r_.require(at, kParamHeaderSize + kPlugHeaderSize, "node body header");
  if (at < nodes_end_ ||
      at + kParamHeaderSize + kPlugHeaderSize > offset(header_slot::kStringPool)) {
    r_.fail(n.entry_offset + (m_.version() == kVersion404 ? 0x10 : 0x14),
            "node {} body at {:#x} lies outside the space between the node array ({:#x}) and the "
            "string pool ({:#x})",
            node, at, nodes_end_, offset(header_slot::kStringPool));
  }
  Cursor c(r_, at);
  n.properties = read_property_ranges(c, "node", node);
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type_name = param_type_name(static_cast<ParamType>(t));
    auto range_at = c.offset();
    n.inputs[t] = {c.u32("input base"), c.u32("input count")};
    check_range(range_at, n.inputs[t], m_.inputs[t].size(),
                [&] { return fmt::format("node {} {} inputs", node, type_name); });
    range_at = c.offset();
    n.outputs[t] = {c.u32("output base"), c.u32("output count")};
    check_range(range_at, n.outputs[t], m_.outputs[t].size(),
                [&] { return fmt::format("node {} {} outputs", node, type_name); });
  }
  std::array<std::uint8_t, kPlugKindCount> counts{}, bases{};
  std::uint32_t slots = 0;
  for (std::size_t k = 0; k < kPlugKindCount; ++k) {
    counts[k] = c.u8("plug count");
    bases[k] = c.u8("plug base");
    slots += counts[k];
  }
  const auto table = c.offset();
  r_.require(table, 4ull * slots, "plug offset table");
  for (std::size_t k = 0; k < kPlugKindCount; ++k) {
    const auto kind = static_cast<PlugKind>(k);
    n.plugs[k] = {static_cast<std::uint32_t>(m_.plugs.size()), counts[k]};
    if (counts[k] == 0) continue;
    if (bases[k] + counts[k] > slots) {
      r_.fail(at + kParamHeaderSize + 2 * k,
              "node {}: {} plugs [{}, +{}) run past the {} plug slots", node, plug_kind_name(kind),
              bases[k], counts[k], slots);
    }
    for (std::uint32_t i = 0; i < counts[k]; ++i) {
      const auto slot_at = table + 4ull * (bases[k] + i);
      const auto entry = r_.u32(slot_at, "plug offset");
      m_.plugs.push_back(read_plug(n, node, kind, entry, i + 1 == counts[k]));
    }
  }
  if (m_.version() == kVersion404 && n.state_info_offset != 0) {
    auto info_scope = r_.section("node state info");
    r_.require(n.state_info_offset, kStateInfoSize, "node state info");
    Cursor s(r_, n.state_info_offset);
    NodeStateInfo info;
    info.desired_state = string_ref(s, "desired state");
    for (auto& word : info.unknown)
      word = s.u32("unknown");
    n.state_info = info;
  }
}

std::array<Range, kParamTypeCount> Loader::read_property_ranges(Cursor& c, std::string_view owner,
                                                                std::size_t index) {
  std::array<Range, kParamTypeCount> ranges{};
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto at = c.offset();
    ranges[t].base = c.u32("property base");
    ranges[t].count = c.u32("property count");
    check_range(at, ranges[t], m_.properties[t].size(), [&] {
      return fmt::format("{} {} {} properties", owner, index,
                         param_type_name(static_cast<ParamType>(t)));
    });
  }
  return ranges;
}

PlugBlackboard Loader::plug_blackboard(Cursor& c) {
  PlugBlackboard bb;
  bb.index = c.u16("blackboard index");
  bb.used = (c.u16("blackboard flag") & 0x8000) != 0;
  return bb;
}

Plug Loader::read_plug(const Node& n, std::size_t node, PlugKind kind, std::uint32_t at,
                       bool last) {
  Cursor c(r_, at);
  Plug p;
  p.kind = kind;
  p.offset = at;
  const auto target = c.s32("plug node index");
  if (kind == PlugKind::Generic && target <= kMultiSourceMark) {
    p.multi_source_mark = target;
  } else if (target != static_cast<std::int32_t>(kEmptyPlugIndex)) {
    if (target < 0 || static_cast<std::uint32_t>(target) >= m_.nodes.size()) {
      r_.fail(at, "node {}: {} plug leads to node {}, but the file has {} nodes", node,
              plug_kind_name(kind), target, m_.nodes.size());
    }
    p.target = static_cast<std::uint32_t>(target);
  }
  const bool v407 = m_.version() != kVersion404;
  switch (kind) {
    case PlugKind::Transition:
      p.transition_index = c.u32("transition index");
      if (p.transition_index >= m_.transitions.size()) {
        r_.fail(at + 4, "node {}: transition plug names transition {}, but the file has {}", node,
                p.transition_index, m_.transitions.size());
      }
      return p;
    case PlugKind::Generic:
      p.name = string_ref(c, "plug name");
      if (n.type == NodeType::BoolSelector || n.type == NodeType::F32Selector ||
          (n.type == NodeType::Expression && v407)) {
        p.data = InputPlugExtra{c.u32("unknown"), c.u32("default"), {}};
      }
      return p;
    case PlugKind::Child:
      p.name = string_ref(c, "plug name");
      read_child_condition(n, c, p, last);
      return p;
    case PlugKind::String:
    case PlugKind::Int: {
      p.name = string_ref(c, "plug name");
      const auto selector =
          kind == PlugKind::String ? NodeType::StringSelector : NodeType::S32Selector;
      if (v407 && (n.type == selector || n.type == NodeType::Expression)) {
        InputPlugExtra extra{c.u32("unknown"), c.u32("default"), {}};
        if (kind == PlugKind::String)
          extra.default_string = string(at + 0xC, extra.default_raw, "default");
        p.data = extra;
      }
      return p;
    }
    default:
      r_.fail(at, "node {}: unsupported plug kind {} (its layout is unknown)", node,
              static_cast<int>(kind));
  }
}

void Loader::read_child_condition(const Node& n, Cursor& c, Plug& p, bool last) {
  switch (n.type) {
    case NodeType::S32Selector: {
      S32Condition cond;
      cond.blackboard = plug_blackboard(c);
      cond.value = c.s32("condition");
      cond.is_default = last;
      p.data = cond;
      break;
    }
    case NodeType::StringSelector: {
      StringCondition cond;
      cond.blackboard = plug_blackboard(c);
      cond.value = string_ref(c, "condition");
      cond.is_default = last;
      p.data = cond;
      break;
    }
    case NodeType::F32Selector: {
      F32Condition cond;
      cond.is_default = last;
      if (last) {
        c.skip(4);
        cond.default_name = string_ref(c, "default plug name");
      } else {
        cond.min.blackboard = plug_blackboard(c);
        cond.min.value = c.f32("minimum");
        cond.max.blackboard = plug_blackboard(c);
        cond.max.value = c.f32("maximum");
      }
      c.bytes(last ? 0x18 : 0x10, "unused condition words");
      p.data = cond;
      break;
    }
    case NodeType::RandomSelector: {
      RandomWeight weight;
      weight.blackboard = plug_blackboard(c);
      weight.weight = c.f32("weight");
      p.data = weight;
      break;
    }
    case NodeType::UserDefined:
      if (is_child_enum_plug(n.type, p.name)) {
        EnumCondition cond;
        const auto word = c.u32("enum source");
        cond.value = c.u32("enum value");
        if ((word & 0x80000000u) != 0) cond.blackboard = {true, static_cast<std::uint16_t>(word)};
        p.data = cond;
      }
      break;
    default:
      break;
  }
}

}  // namespace ainb::detail
