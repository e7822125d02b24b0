// EXB expressions (docs/exb.md): a parameter's expression evaluated on the thread's machine,
// Element_Expression's own function with its inputs and outputs in user slots, setup blocks.

#include "protocol.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>

namespace ainb::runtime {

namespace {

exb::DataType exb_type(ParamType type) {
  switch (type) {
    case ParamType::Int:
      return exb::DataType::Int;
    case ParamType::Bool:
      return exb::DataType::Bool;
    case ParamType::Float:
      return exb::DataType::Float;
    case ParamType::String:
      return exb::DataType::String;
    case ParamType::Vec3f:
      return exb::DataType::Vec3f;
    default:
      return exb::DataType::None;
  }
}

// UserIn/UserOut slot space (index from Space::UserInBool) of a parameter type; -1 for none.
std::int32_t slot_space(ParamType type) {
  const auto k = exb::value_type_index(exb_type(type));
  return k < exb::kValueTypeCount ? static_cast<std::int32_t>(k) : -1;
}

}  // namespace

// Element_Expression's memory: its inputs and outputs are the function's user slots, numbered
// per type, at most kSlots of each (a function reading more fails with BadFrame).
struct detail::Scheduler::ExpressionSlots {
  static constexpr std::size_t kSlots = 16;
  std::array<std::array<std::uint8_t, kSlots * 12>, 12> bytes{};
};

// The setup blocks of the expressions a node owns: run once per Enter, of a node or a query.
void detail::Scheduler::run_setup_blocks(std::uint32_t node) {
  for (const auto site : graph_->sites_of(node)) {
    const auto function = graph_->expression_sites()[site].function;
    if (graph_->program()->functions()[function].setup < 0) continue;
    const auto run = [&](auto& frame) {
      guarded(Fault::Source::UserFunction, node, "an expression's setup block",
              [&] { return machine()->run_setup(function, frame); });
    };
    if (static_cast<std::int32_t>(site) == graph_->node_site(node)) {
      // An Element_Expression's own function may use its user slots in either block.
      ExpressionSlots slots;
      auto frame = expression_frame(node, site, slots);
      run(frame);
    } else {
      auto frame = site_frame(site);
      run(frame);
    }
  }
}

exb::BasicFrame detail::Scheduler::site_frame(std::uint32_t site) const {
  const auto& s = graph_->expression_sites()[site];
  exb::BasicFrame frame;
  frame.static_memory = {expression_memory_ + s.static_offset, s.static_size};
  frame.host = host_;
  return frame;
}

void Instance::prepare_thread() const {
  if (graph_->program() != nullptr) (void)machine();
  for (const auto* sub : modules_)
    sub->prepare_thread();
}

exb::MachineLease detail::Scheduler::machine() const {
  return exb::thread_machine(*graph_->program());
}

Value detail::Scheduler::evaluate(std::int32_t site, ParamType type, const Value& input,
                                  const Value& fallback) const {
  if (site < 0) return fallback;
  const auto function = graph_->expression_sites()[site].function;
  const auto& source = *graph_->program()->functions()[function].source;
  auto frame = site_frame(static_cast<std::uint32_t>(site));
  if (exb::value_size(source.input_type) != 0) exb::write_value(exb_value(input), frame.input);
  if (run_main_of(static_cast<std::uint32_t>(site), frame) != exb::Status::Ok) return fallback;
  // (A mismatch the loader allows only for Element_Expression's own function.)
  if (!result_reads_as(source.output_type, type)) return fallback;
  return model_value(exb::read_value(exb_type(type), frame.output.data()), fallback);
}

// The frame of Element_Expression `node`'s own function (`site`): its inputs' values in the user
// slots, room for its outputs.
exb::Frame detail::Scheduler::expression_frame(std::uint32_t node, std::uint32_t site,
                                               ExpressionSlots& slots) const {
  exb::Frame frame;
  static_cast<exb::BasicFrame&>(frame) = site_frame(site);
  const auto& m = graph_->model();
  const auto& n = m.nodes[node];
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto k = slot_space(type);
    if (k < 0) continue;
    const auto width = exb::value_size(exb_type(type));
    const auto inputs = m.inputs_of(n, type);
    const auto outputs = m.outputs_of(n, type);
    frame.user[k] = slots.bytes[k].data();
    frame.user_slots[k] = static_cast<std::uint32_t>(std::min(inputs.size(), slots.kSlots));
    frame.user[k + 6] = slots.bytes[k + 6].data();
    frame.user_slots[k + 6] = static_cast<std::uint32_t>(std::min(outputs.size(), slots.kSlots));
    for (std::size_t i = 0; i < frame.user_slots[k]; ++i) {
      std::array<std::uint8_t, 12> bytes{};
      exb::write_value(exb_value(input_value(inputs[i])), bytes);
      std::memcpy(slots.bytes[k].data() + i * width, bytes.data(), width);
    }
  }
  return frame;
}

Result detail::Scheduler::update_expression(std::uint32_t node) {
  const auto site = graph_->node_site(node);
  if (site < 0) return Result::Success;
  ExpressionSlots slots;
  auto frame = expression_frame(node, static_cast<std::uint32_t>(site), slots);
  if (run_main_of(static_cast<std::uint32_t>(site), frame) != exb::Status::Ok) {
    return Result::Failure;
  }
  const auto& n = graph_->model().nodes[node];
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto k = slot_space(type);
    if (k < 0) continue;
    const auto width = exb::value_size(exb_type(type));
    for (std::size_t i = 0; i < frame.user_slots[k + 6]; ++i) {
      const auto index = n.outputs[t].base + static_cast<std::uint32_t>(i);
      set_output(t, index,
                 model_value(exb::read_value(exb_type(type), slots.bytes[k + 6].data() + i * width),
                             output(t, index)));
    }
  }
  return Result::Success;
}

}  // namespace ainb::runtime
