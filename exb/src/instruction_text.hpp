#pragma once

// One instruction as assembly text, by its opcode's shape: the disassembler's line, and the
// assembler's exact form of it (to_assembly), which differ only in how they write an operand.

#include <string>

#include <fmt/format.h>

#include "ainb/exb/section.hpp"

namespace ainb::exb {

// `operand(op, type)` writes one operand of `type` ("int GMem[0x4]", "float -10.0").
template <typename OperandText>
std::string instruction_text(const Section& s, const Instruction& ins, OperandText operand) {
  const auto name = mnemonic(ins.opcode);
  const auto shape = ins.shape();
  switch (shape) {
    case Shape::None:
      return std::string(name);
    case Shape::Call:
      return fmt::format("{} {}, GMem[{:#x}]", name, s.signatures[ins.signature_index],
                         ins.static_offset);
    case Shape::Jump:
      return fmt::format("{} {:#x}", name, ins.jump_target * 8u);
    case Shape::Branch: {
      auto condition = operand(ins.lhs, ins.type);
      if (condition.starts_with(' ')) condition.erase(0, 1);  // no type word for NONE
      return fmt::format("{} {}, {:#x}", name, condition, ins.jump_target * 8u);
    }
    case Shape::Unary:
      return fmt::format("{} {}", name, operand(ins.lhs, ins.type));
    case Shape::Binary:
    case Shape::Scalar:
      return fmt::format("{} {}, {}", name, operand(ins.lhs, ins.type),
                         operand(ins.rhs, rhs_type(shape, ins.type)));
  }
  return std::string(name);
}

}  // namespace ainb::exb
