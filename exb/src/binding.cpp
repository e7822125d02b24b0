#include "ainb/exb/binding.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ainb::exb {

DataType type_of(const Value& value) {
  static constexpr DataType kTypes[] = {DataType::None, DataType::Bool,  DataType::Int,
                                        DataType::UInt, DataType::Float, DataType::String,
                                        DataType::Vec3f};
  return kTypes[value.index()];
}

void write_value(const Value& value, std::array<std::uint8_t, 12>& bytes) {
  bytes.fill(0);
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          const std::uint32_t raw = v ? 1 : 0;
          std::memcpy(bytes.data(), &raw, 4);
        } else if constexpr (!std::is_same_v<T, std::monostate>) {
          std::memcpy(bytes.data(), &v, sizeof v);
        }
      },
      value);
}

Value read_value(DataType type, const std::uint8_t* bytes) {
  switch (type) {
    case DataType::Bool:
      return detail::load<bool>(bytes);
    case DataType::Int:
      return detail::load<std::int32_t>(bytes);
    case DataType::UInt:
      return detail::load<std::uint32_t>(bytes);
    case DataType::Float:
      return detail::load<float>(bytes);
    case DataType::String:
      return detail::load<const char*>(bytes);
    case DataType::Vec3f:
      return detail::load<Vec3>(bytes);
    default:
      return std::monostate{};
  }
}

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
  static constexpr const char* kNames[] = {"bool", "int", "uint", "float", "string", "vec3f"};
  const auto& used = program.functions().at(function).user_slots;
  std::string missing;
  for (std::size_t k = 0; k < used.size(); ++k) {
    if (used[k] <= available[k]) continue;
    if (!missing.empty()) missing += "; ";
    missing += fmt::format("reads {} {} {}(s), the node has {}", used[k], kNames[k % 6],
                           k < 6 ? "input" : "output", available[k]);
  }
  return missing;
}

}  // namespace ainb::exb
