// The selectors (docs/semantics.md, "Built-in nodes"): S32, F32, String, Bool and Random. A
// selector enters the child of the plug its input chooses and chooses again at every update.

#include "protocol.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace ainb::runtime {

// Enter: the child of the plug its input chooses (none when that plug is empty).
[[gnu::always_inline]] inline void detail::Scheduler::enter_selector(std::uint32_t node,
                                                                     NodeState& s, bool quiet) {
  const auto children = graph_->children(node);
  if (children.empty()) return;
  s.cursor = choose(node);
  if (s.cursor >= children.size()) return;
  const auto child = children[s.cursor];
  enter_child(child, graph_->nodes()[child], nodes_[graph_->child_states(node)[s.cursor]], quiet);
}

Result detail::Scheduler::update_selector(std::uint32_t node, NodeState& s) {
  const auto children = graph_->children(node);
  if (children.empty()) return Result::Success;
  // Re-evaluated at every update; a changed choice leaves the old child and enters the new one.
  // IsNoSelectWhenChildBusy keeps the current child while its last update said Running.
  // A cursor past the plugs: the chosen plug is empty, so it holds no child and succeeds.
  const auto target = [&](std::uint8_t k) {
    return k < children.size() ? children[k] : Graph::kNoChild;
  };
  const auto& g = graph_->nodes()[node];
  const bool holds = s.cursor < children.size();
  const bool busy = holds && [&] {
    const auto& current = nodes_[graph_->child_states(node)[s.cursor]];
    return current.epoch != 0 && current.last == Result::Running;
  }();
  if (g.type != NodeType::RandomSelector && !(g.no_select_when_busy && busy)) {
    const auto choice = choose(node);
    if (target(choice) != target(s.cursor)) {  // two plugs may lead to the same node
      if (holds) leave(children[s.cursor]);
      if (choice < children.size()) enter(children[choice]);
    }
    s.cursor = choice;
  }
  return s.cursor < children.size() ? update(children[s.cursor]) : Result::Success;
}

// A selector's input, typed: read straight from the output or blackboard entry it is bound to
// (the common sources), through its binding otherwise.
template <typename T>
[[gnu::always_inline]] inline T detail::Scheduler::selector_input(const GraphNode& g,
                                                                  ParamType type) const {
  switch (g.selector_source) {
    case GraphNode::SelectorSource::Output: {
      static_assert(std::is_trivially_copyable_v<T>);
      T value;
      std::memcpy(&value, outputs_ + g.selector_at, sizeof(T));
      return value;
    }
    case GraphNode::SelectorSource::Blackboard:
      return value_or(*bb_[g.selector_at], T{});
    default:  // (Expression tested here: a third case slows the two above)
      if constexpr (std::is_arithmetic_v<T>) {
        if (g.selector_source == GraphNode::SelectorSource::Expression)
          return evaluated_selector_input<T>(g, type);
      }
      return bound_selector_input<T>(g, type);
  }
}

// What evaluate() does for a selector's expression, without the Value conversions: the function
// takes no input (Graph::bind_inputs checked) and its output is read as the selector's type. A
// failed run gives the input's stored value, as evaluate() does. (An expression source means the
// file has a program, so there is a machine to run it.)
template <typename T>
T detail::Scheduler::evaluated_selector_input(const GraphNode& g, ParamType type) const {
  auto frame = site_frame(g.selector_at);
  if (run_main_of(g.selector_at, frame) != exb::Status::Ok) {
    const auto index = static_cast<std::uint32_t>(g.selector_input);
    return value_or(graph_->model().inputs[static_cast<std::size_t>(type)][index].default_value,
                    T{});
  }
  return exb::detail::load<T>(frame.output.data());
}

template <typename T>
T detail::Scheduler::bound_selector_input(const GraphNode& g, ParamType type) const {
  if (g.selector_input < 0) return T{};
  const auto index = static_cast<std::uint32_t>(g.selector_input);
  const auto& input = graph_->model().inputs[static_cast<std::size_t>(type)][index];
  return value_or(bound_value(graph_->input_binding(type, index), type, input.default_value), T{});
}

// An operand of a selector plug's condition: the blackboard entry when the plug names one (its
// SelectorCase index), else the constant.
template <typename T>
T detail::Scheduler::plug_operand(std::int32_t entry, T constant) const {
  return entry < 0 ? constant : value_or(*bb_[static_cast<std::size_t>(entry)], constant);
}

// A selector's choice as its cursor: past its plugs when the chosen plug is empty (it holds no
// child then, docs/semantics.md "Empty plugs").
std::uint8_t detail::Scheduler::choose(std::uint32_t node) {
  const auto k = choose_plug(node);
  const auto children = graph_->children(node);
  if (attached() && k < children.size()) [[unlikely]]
    observe_branch(node, k);
  // (A BoolSelector without the plug its input names chooses past its plugs.)
  return k >= children.size() || children[k] == Graph::kNoChild
             ? static_cast<std::uint8_t>(children.size())
             : k;
}

// The plug a selector chooses: the first whose condition holds, else the last (default) plug.
// The conditions were read into Graph::selector_cases when the graph was built. Bool and S32
// selectors, most of those in real files, are chosen here; the others out of line, so these
// do not pay for their registers.
std::uint8_t detail::Scheduler::choose_plug(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  const auto cases = graph_->selector_cases(node);
  const auto last = static_cast<std::uint8_t>(cases.size() - 1);
  switch (g.type) {
    case NodeType::BoolSelector: {
      const auto k = g.named_plugs[selector_input<bool>(g, ParamType::Bool) ? 0 : 1];
      return k >= 0 ? static_cast<std::uint8_t>(k) : static_cast<std::uint8_t>(cases.size());
    }
    case NodeType::S32Selector: {
      const auto x = selector_input<std::int32_t>(g, ParamType::Int);
      for (std::uint8_t i = 0; i < last; ++i) {
        if (x == plug_operand(cases[i].entry, cases[i].value)) return i;
      }
      return last;
    }
    default:
      return choose_other(g, cases);
  }
}

std::uint8_t detail::Scheduler::choose_other(const GraphNode& g,
                                             std::span<const SelectorCase> cases) {
  const auto last = static_cast<std::uint8_t>(cases.size() - 1);
  switch (g.type) {
    case NodeType::F32Selector: {
      const auto x = selector_input<float>(g, ParamType::Float);
      for (std::uint8_t i = 0; i < last; ++i) {
        const auto& c = cases[i];
        if (plug_operand(c.entry, c.min) <= x && x <= plug_operand(c.max_entry, c.max)) return i;
      }
      return last;
    }
    case NodeType::StringSelector: {
      const auto x = selector_input<std::string_view>(g, ParamType::String);
      for (std::uint8_t i = 0; i < last; ++i) {
        if (x == plug_operand(cases[i].entry, cases[i].text)) return i;
      }
      return last;
    }
    case NodeType::RandomSelector:
      return choose_random(cases);
    default:
      return 0;
  }
}

// Element_RandomSelector: a plug drawn with the weights of the plugs (a negative weight counts as
// 0; no weight at all picks the first plug).
std::uint8_t detail::Scheduler::choose_random(std::span<const SelectorCase> cases) {
  auto weight = [&](const SelectorCase& c) { return std::max(0.0f, plug_operand(c.entry, c.min)); };
  float total = 0;
  for (const auto& c : cases)
    total += weight(c);
  if (total <= 0) return 0;
  // Mapped by hand: std::uniform_real_distribution differs between standard libraries.
  const auto unit = static_cast<double>(random_() - std::minstd_rand::min()) /
                    static_cast<double>(std::minstd_rand::max() - std::minstd_rand::min() + 1);
  const auto pick = static_cast<float>(unit * total);
  float sum = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    sum += weight(cases[i]);
    if (pick < sum) return static_cast<std::uint8_t>(i);
  }
  return static_cast<std::uint8_t>(cases.size() - 1);
}

void detail::Scheduler::observe_branch(std::uint32_t node, std::uint32_t plug) {
  if ((marks_ & kBranchBits) != 0) {
    const auto bit = graph_->nodes()[node].children.base + plug;
    branches_[bit / 8] = static_cast<std::uint8_t>(branches_[bit / 8] | (1u << (bit % 8)));
    return;
  }
  guarded(Fault::Source::Observer, node, "on_branch",
          [&] { options_.observer->on_branch(self(), node, plug); });
}

}  // namespace ainb::runtime
