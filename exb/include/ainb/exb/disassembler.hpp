#pragma once

// EXB assembly text (docs/exb.md, "Assembly syntax"): the syntax of the reference library's
// listings, with each function's types and memory sizes as attributes.
//
//   .version 2
//
//   .expression0 input=NONE output=BOOL static=0x8 scratch32=0x0 scratch64=0x0
//       .main
//           0x0000    STR int GMem[0x0], int 7
//           0x0008    CFN GetBBCodeBool( Bool, Int ), GMem[0x0]

#include <optional>
#include <string>

#include "ainb/exb/section.hpp"

namespace ainb::exb {

// The whole section, or only `function`.
std::string disassemble(const Section& section, std::optional<std::uint32_t> function = {});

// One instruction without its address ("ADD float GMem[0x0], float -10.0").
std::string format_instruction(const Section& section, const Instruction& instruction);

// One operand of `type` ("float -10.0", "int GMem[0x4]", "float UserIn[0x0].y").
std::string format_operand(const Section& section, const Operand& operand, DataType type);

}  // namespace ainb::exb
