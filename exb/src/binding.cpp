#include "ainb/exb/binding.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ainb::exb {

ParameterBinding bind_parameter(const Program& program, std::uint32_t function,
                                DataType parameter_type) {
  if (function >= program.functions().size()) {
    throw std::invalid_argument(fmt::format("expression {} does not exist (the file has {})",
                                            function, program.functions().size()));
  }
  const auto& source = *program.functions()[function].source;
  // An int parameter may take a UInt result (EXB v3) and vice versa: same bits.
  const bool integers =
      (source.output_type == DataType::Int || source.output_type == DataType::UInt) &&
      (parameter_type == DataType::Int || parameter_type == DataType::UInt);
  if (source.output_type != parameter_type && !integers) {
    throw std::invalid_argument(fmt::format("expression {} returns {}, but the parameter is {}",
                                            function, data_type_name(source.output_type),
                                            data_type_name(parameter_type)));
  }
  ParameterBinding binding;
  binding.function_ = function;
  binding.input_type_ = source.input_type;
  binding.output_type_ = parameter_type;
  binding.static_size_ = source.static_size;
  return binding;
}

Status ParameterBinding::setup(Machine& machine, std::span<std::uint8_t> static_memory,
                               void* host) const {
  BasicFrame frame;
  frame.static_memory = static_memory;
  frame.host = host;
  return machine.run_setup(function_, frame);
}

Status ParameterBinding::evaluate(Machine& machine, std::span<std::uint8_t> static_memory,
                                  const Value& input, Value& output, void* host) const {
  BasicFrame frame;
  frame.static_memory = static_memory;
  frame.host = host;
  if (value_size(input_type_) != 0) write_value(input, frame.input);
  const auto status = machine.run_main(function_, frame);
  if (status == Status::Ok) output = read_value(output_type_, frame.output.data());
  return status;
}

std::string check_user_slots(const Program& program, std::uint32_t function,
                             const std::array<std::uint16_t, 12>& available) {
  const auto& used = program.functions().at(function).user_slots;
  std::string missing;
  for (std::size_t k = 0; k < used.size(); ++k) {
    if (used[k] <= available[k]) continue;
    if (!missing.empty()) missing += "; ";
    missing += fmt::format("reads {} {} {}(s), the node has {}", used[k],
                           data_type_noun(kValueTypes[k % kValueTypeCount]),
                           k < kValueTypeCount ? "input" : "output", available[k]);
  }
  return missing;
}

}  // namespace ainb::exb
