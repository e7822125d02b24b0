#include "ainb/exb/disassembler.hpp"

#include <cstring>

#include <fmt/format.h>

#include "ainb/byte_reader.hpp"
#include "instruction_text.hpp"

namespace ainb::exb {

namespace {

// Shortest text that reads back as the same float32, always with a decimal point.
std::string float_text(float value) {
  auto text = fmt::format("{}", value);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string place(std::string_view name, std::uint16_t offset) {
  return fmt::format("{}[{:#x}]", name, offset);
}

}  // namespace

std::string format_operand(const Section& s, const Operand& op, DataType type) {
  const ByteReader region(s.param_region, "EXB parameter region");
  const auto word = assembly_word(type);
  switch (op.source) {
    case Source::Immediate:
      switch (type) {
        case DataType::Bool:
          return fmt::format("bool {}", op.value != 0 ? "True" : "False");
        case DataType::Float:
          return fmt::format("float {}", float_text(static_cast<float>(op.value)));
        default:
          return fmt::format("{} {}", word, op.value);
      }
    case Source::ImmediateString:
      return "str " + quoted(s.string_at(op.value));
    case Source::ParamTable:
      switch (type) {
        case DataType::Bool:
          return fmt::format("bool {}", region.u32(op.value) != 0 ? "True" : "False");
        case DataType::Int:
          return fmt::format("int {}", region.s32(op.value));
        case DataType::UInt:
          return fmt::format("uint {}", region.u32(op.value));
        case DataType::Float:
          return "float " + float_text(region.f32(op.value));
        case DataType::Vec3f:
          return fmt::format("vec3f ({}, {}, {})", float_text(region.f32(op.value)),
                             float_text(region.f32(op.value + 4u)),
                             float_text(region.f32(op.value + 8u)));
        default:
          return "?";
      }
    case Source::ParamTableString:
      return "str " + quoted(s.string_at(region.u32(op.value)));
    case Source::Static:
      return fmt::format("{} {}", word, place("GMem", op.value));
    case Source::Output:
      return fmt::format("{} {}", word, place("Out", op.value));
    case Source::Input:
      return fmt::format("{} {}", word, place("In", op.value));
    case Source::Scratch32:
      return fmt::format("{} {}", word, place("LMem32", op.value));
    case Source::Scratch64:
      return fmt::format("{} {}", word, place("LMem64", op.value));
    case Source::UserOut:
    case Source::UserIn: {
      const auto name = op.source == Source::UserIn ? "UserIn" : "UserOut";
      if (type == DataType::Float && (op.value & 0x8000) != 0) {
        static constexpr const char* kComponent[] = {"x", "?", "?", "?", "y", "?", "?", "?", "z"};
        const auto byte = (op.value >> 8) & 0x7F;
        return fmt::format("float {}.{}", place(name, op.value & 0xFF),
                           byte <= 8 ? kComponent[byte] : "?");
      }
      return fmt::format("{} {}", word, place(name, op.value));
    }
  }
  return "?";
}

std::string format_instruction(const Section& s, const Instruction& ins) {
  return instruction_text(
      s, ins, [&](const Operand& op, DataType type) { return format_operand(s, op, type); });
}

std::string disassemble(const Section& s, std::optional<std::uint32_t> only) {
  std::string out = fmt::format(".version {}\n", s.version);
  for (std::uint32_t f = 0; f < s.functions.size(); ++f) {
    if (only && *only != f) continue;
    const auto& fn = s.functions[f];
    out += fmt::format(
        "\n.expression{} input={} output={} static={:#x} scratch32={:#x} scratch64={:#x}\n", f,
        data_type_name(fn.input_type), data_type_name(fn.output_type), fn.static_size,
        fn.scratch32_size, fn.scratch64_size);
    auto block = [&](std::string_view label, const Block& b) {
      out += fmt::format("    .{}\n", label);
      std::uint32_t index = 0;
      for (const auto& ins : s.block(b)) {
        out += fmt::format("        {:#06x}    {}\n", index++ * 8u, format_instruction(s, ins));
      }
    };
    if (fn.has_setup) block("setup", fn.setup);
    block("main", fn.main);
  }
  return out;
}

}  // namespace ainb::exb
