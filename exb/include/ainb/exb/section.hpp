#pragma once

// The decoded EXB ("expression binary") section: the functions, instructions, signatures,
// parameter region and string pool of one AINB file's expressions, checked for every bound the
// bytes alone allow (see docs/exb.md). Executing them is the machine's job (machine.hpp).
//
// Instruction format (8 bytes, little endian):
//
//   byte 0   opcode                      (Opcode, 1..kMaxOpcode)
//   byte 1   data type                   (DataType, version-specific encoding)
//   byte 2   destination / left source   (Source)
//   byte 3   right source                (Source)
//   u16 @4   destination / left value    (meaning depends on the source)
//   u16 @6   right value
//
// Which fields an instruction uses is its opcode's Shape (below). UserFunction reuses bytes 2-7:
// u16 @2 static-memory offset of the argument block, u32 @4 signature index. JumpIfLHSZero:
// condition in (byte 2, u16 @4), target in u16 @6. Jump: target in u16 @6. Jump targets are
// instruction indices relative to the block start.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ainb/byte_reader.hpp"
#include "ainb/exb/data_types.hpp"

namespace ainb::exb {

// The EXB section header's size: eleven u32 fields, then the tables it points at.
inline constexpr std::uint32_t kSectionHeaderSize = 0x2C;

// What an instruction's bytes 2-7 hold: which operands it has, and so how it is decoded, checked,
// compiled, printed, assembled and dumped. Every one of those asks shape_of(opcode).
enum class Shape : std::uint8_t {
  None,    // no operands: END, which stops the block
  Unary,   // lhs, the destination, read and written (the rhs bytes are decoded, never used)
  Binary,  // lhs, the destination, and rhs, both of the instruction's type
  Scalar,  // lhs, a destination of the instruction's type, and rhs, a float
  Call,    // u16 @2 the argument block in static memory, u32 @4 a signature index
  Branch,  // lhs, the condition, and u16 @6 the target
  Jump,    // u16 @6 the target
};

// The opcodes, one row each: enumerator, value (1, 2, ... in order), mnemonic, shape, and the
// reference Python tool's name (`ainb dump --format peer`). The rows build the enum, the
// mnemonic and name tables, shape_of and kMaxOpcode. Adding an opcode: docs/exb.md.
#define AINB_EXB_OPCODES(X)                                        \
  X(Terminator, 1, "END", None, "Terminator")                      \
  X(Store, 2, "STR", Binary, "Store")                              \
  X(Negate, 3, "NEG", Unary, "Negate")                             \
  X(NegateBool, 4, "NOT", Unary, "NegateBool")                     \
  X(Add, 5, "ADD", Binary, "Add")                                  \
  X(Subtract, 6, "SUB", Binary, "Subtract")                        \
  X(Multiply, 7, "MUL", Binary, "Multiply")                        \
  X(Divide, 8, "DIV", Binary, "Divide")                            \
  X(Modulus, 9, "MOD", Binary, "Modulus")                          \
  X(Increment, 10, "INC", Unary, "Increment")                      \
  X(Decrement, 11, "DEC", Unary, "Decrement")                      \
  X(ScalarMultiplyVec3f, 12, "VMS", Scalar, "ScalarMultiplyVec3f") \
  X(ScalarDivideVec3f, 13, "VDS", Scalar, "ScalarDivideVec3f")     \
  X(LeftShift, 14, "LSH", Binary, "LeftShift")                     \
  X(RightShift, 15, "RSH", Binary, "RightShift")                   \
  X(LessThan, 16, "LST", Binary, "LessThan")                       \
  X(LessThanEqual, 17, "LTE", Binary, "LessThanEqual")             \
  X(GreaterThan, 18, "GRT", Binary, "GreaterThan")                 \
  X(GreaterThanEqual, 19, "GTE", Binary, "GreaterThanEqual")       \
  X(Equal, 20, "EQL", Binary, "Equal")                             \
  X(NotEqual, 21, "NEQ", Binary, "NotEqual")                       \
  X(BitAnd, 22, "AND", Binary, "And")                              \
  X(BitXor, 23, "XOR", Binary, "Xor")                              \
  X(BitOr, 24, "ORR", Binary, "Or")                                \
  X(LogicalAnd, 25, "LAN", Binary, "LogicalAnd")                   \
  X(LogicalOr, 26, "LOR", Binary, "LogicalOr")                     \
  X(UserFunction, 27, "CFN", Call, "UserFunction")                 \
  X(JumpIfLHSZero, 28, "JZE", Branch, "JumpIfLhsZero")             \
  X(Jump, 29, "JMP", Jump, "Jump")

enum class Opcode : std::uint8_t {
#define AINB_EXB_OPCODE_ENUM(name, value, mnemonic, shape, peer) name = value,
  AINB_EXB_OPCODES(AINB_EXB_OPCODE_ENUM)
#undef AINB_EXB_OPCODE_ENUM
};
inline constexpr std::uint8_t kMaxOpcode = [] {
  std::uint8_t most = 0;
#define AINB_EXB_OPCODE_MAX(name, value, mnemonic, shape, peer) \
  if (value > most) most = value;
  AINB_EXB_OPCODES(AINB_EXB_OPCODE_MAX)
#undef AINB_EXB_OPCODE_MAX
  return most;
}();
std::string_view mnemonic(Opcode op);                    // "END", "STR", ...
std::optional<Opcode> opcode_of(std::string_view text);  // the opcode of a mnemonic
std::string_view peer_name(Opcode op);  // the reference tool's: "Terminator", "Store", ...

constexpr Shape shape_of(Opcode op) {
  switch (op) {
#define AINB_EXB_OPCODE_SHAPE(name, value, mnemonic, shape, peer) \
  case Opcode::name:                                              \
    return Shape::shape;
    AINB_EXB_OPCODES(AINB_EXB_OPCODE_SHAPE)
#undef AINB_EXB_OPCODE_SHAPE
  }
  return Shape::None;
}
constexpr bool has_lhs(Shape s) {
  return s == Shape::Unary || s == Shape::Binary || s == Shape::Scalar || s == Shape::Branch;
}
constexpr bool has_rhs(Shape s) {
  return s == Shape::Binary || s == Shape::Scalar;
}
constexpr bool has_target(Shape s) {
  return s == Shape::Branch || s == Shape::Jump;
}

// The type an instruction of `shape` and data type `type` reads its right operand with.
constexpr DataType rhs_type(Shape shape, DataType type) {
  return shape == Shape::Scalar ? DataType::Float : type;
}

enum class Source : std::uint8_t {
  Immediate = 0,
  ImmediateString = 1,
  Static = 2,
  ParamTable = 3,
  ParamTableString = 4,
  Output = 5,
  Input = 6,
  Scratch32 = 7,
  Scratch64 = 8,
  UserOut = 9,
  UserIn = 10,
};
inline constexpr std::uint8_t kMaxSource = 10;
std::string_view source_name(Source source);

struct Operand {
  Source source = Source::Immediate;
  std::uint16_t value = 0;
};

struct Instruction {
  Opcode opcode = Opcode::Terminator;
  DataType type = DataType::None;
  Operand lhs;  // destination for stores and arithmetic; condition for JumpIfLHSZero
  Operand rhs;
  std::uint16_t static_offset = 0;    // UserFunction: argument block in static memory
  std::uint32_t signature_index = 0;  // UserFunction
  std::uint16_t jump_target = 0;      // Jump, JumpIfLHSZero: index relative to the block
  std::array<std::uint8_t, 8> raw{};  // the bytes as stored (for dumps of unused fields)

  Shape shape() const { return shape_of(opcode); }
};

// A contiguous run of instructions in the section's instruction table.
struct Block {
  std::uint32_t base = 0;
  std::uint32_t count = 0;
};

// One "command info" entry: a function with an optional setup block and a main block.
struct Function {
  bool has_setup = false;
  Block setup;
  Block main;
  std::uint32_t static_size = 0;
  std::uint16_t scratch32_size = 0;
  std::uint16_t scratch64_size = 0;
  DataType output_type = DataType::None;
  DataType input_type = DataType::None;
};

struct Section {
  std::uint32_t version = 0;
  std::uint32_t static_size = 0;
  std::uint32_t instance_count = 0;  // parameter slots of the file that use an expression
  std::uint32_t scratch32_size = 0;
  std::uint32_t scratch64_size = 0;
  std::vector<Function> functions;
  std::vector<Instruction> instructions;
  std::vector<std::string_view> signatures;
  std::span<const std::uint8_t> param_region;
  std::span<const std::uint8_t> string_pool;
  std::uint32_t file_offset = 0;        // where the section starts in its AINB file
  std::uint32_t instruction_table = 0;  // offset of the instruction table in the section

  // The file offset of instruction `index` (for messages).
  std::uint64_t instruction_offset(std::uint32_t index) const {
    return std::uint64_t{file_offset} + instruction_table + 4 + 8ull * index;
  }

  std::span<const Instruction> block(const Block& b) const {
    return std::span(instructions).subspan(b.base, b.count);
  }
  // A string of the EXB string pool; the offset was checked by decode().
  std::string_view string_at(std::uint32_t offset) const;
};

// Decodes and bounds-checks an EXB section. `reader` covers exactly the section's bytes (its
// base() is the section's file offset, so error offsets stay file offsets). Throws LoadError.
Section decode(const ByteReader& reader);

}  // namespace ainb::exb
