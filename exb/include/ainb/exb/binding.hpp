#pragma once

// How the runtime calls expressions:
//
// - A *parameter* (property, input or multi-source) whose flags say "expression" is bound with
//   bind_parameter: its function's output type must be the parameter's type; the function's
//   input is the parameter's source value (another node's output, a blackboard value or the
//   stored default), of the function's input type. Each owning context gives the binding its own
//   static memory (static_size() bytes), runs setup() when the node is entered and evaluate()
//   whenever the parameter is read.
// - An *Element_Expression* node runs its function with its inputs and outputs as user slots
//   (UserIn / UserOut, numbered per type); check_user_slots says whether a node offers every
//   slot the function touches.

#include <span>
#include <string>
#include <variant>

#include "ainb/exb/data_types.hpp"
#include "ainb/exb/machine.hpp"

namespace ainb::exb {

class ParameterBinding {
 public:
  std::uint32_t function() const { return function_; }
  DataType input_type() const { return input_type_; }
  DataType output_type() const { return output_type_; }
  std::uint32_t static_size() const { return static_size_; }

  Status setup(Machine& machine, std::span<std::uint8_t> static_memory, void* host) const;
  // Runs the main block with `input` (converted to nothing when the function takes none) and
  // stores its result in `output`.
  Status evaluate(Machine& machine, std::span<std::uint8_t> static_memory, const Value& input,
                  Value& output, void* host) const;

 private:
  friend ParameterBinding bind_parameter(const Program&, std::uint32_t, DataType);
  std::uint32_t function_ = 0;
  DataType input_type_ = DataType::None, output_type_ = DataType::None;
  std::uint32_t static_size_ = 0;
};

// Binds function `function` to a parameter of `parameter_type`. Throws std::invalid_argument
// when the index is out of range or the function's output type is not the parameter's type.
ParameterBinding bind_parameter(const Program& program, std::uint32_t function,
                                DataType parameter_type);

// Empty when a node with `available` slots per UserIn/UserOut space (index = space -
// Space::UserInBool) offers every slot `function` uses; otherwise what is missing.
std::string check_user_slots(const Program& program, std::uint32_t function,
                             const std::array<std::uint16_t, 12>& available);

}  // namespace ainb::exb
