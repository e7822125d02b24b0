// The enumeration tables (AINB_EXB_OPCODES, AINB_NODE_TYPES, AINB_EXB_DATA_TYPES) against what
// their consumers do: every opcode's shape in the decoder, the disassembler, the assembler and
// the verifier, the names both ways, and the node types' names and kinds; each data type's
// spellings both ways, its byte in each EXB version, and its values to their bytes and back.

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/exb/data_types.hpp"
#include "ainb/exb/disassembler.hpp"
#include "ainb/exb/program.hpp"
#include "ainb/exb/signature.hpp"
#include "ainb/load_error.hpp"
#include "ainb/model.hpp"
#include "ainb/runtime/graph.hpp"
#include "exb_assembler.hpp"

using namespace ainb;
using namespace ainb::exb;

namespace {

// On-disk codes of EXB version 3 (the one with UInt).
constexpr std::uint8_t kBool = 2, kInt = 3, kUInt = 4, kFloat = 5, kString = 6, kVec = 7;
constexpr std::uint8_t kImm = 0, kStatic = 2, kScratch64 = 8;

std::vector<Opcode> all_opcodes() {
  std::vector<Opcode> out;
  for (std::uint8_t raw = 1; raw <= kMaxOpcode; ++raw)
    out.push_back(static_cast<Opcode>(raw));
  return out;
}

// A v3 section whose one function's main block is `ins` then END, with one signature,
// "F( Float )", and a static memory of 0x40 bytes.
test::ExbSpec one_instruction(test::Ins ins) {
  test::ExbSpec spec;
  spec.version = 3;
  spec.pool = std::string("F( Float )\0", 11);
  spec.signatures = {0};
  spec.param_region = {0, 0, 0, 0};
  spec.instructions = {ins, {1, 0, 0, 0, 0, 0}};
  spec.functions = {{-1, 0, 0, 2, kInt, kInt, 0x40, 0x10, 0x10}};
  return spec;
}

// What decoding `spec` says: "accepted" or the reason it was refused.
std::string decoding(const test::ExbSpec& spec) {
  const auto bytes = test::assemble(spec);
  try {
    decode(ByteReader(bytes, "tables.ainb"));
  } catch (const LoadError& e) {
    return e.reason();
  }
  return "accepted";
}

// The canonical instruction of each shape (every byte one the assembler writes back).
test::Ins canonical(Opcode op) {
  const auto raw = static_cast<std::uint8_t>(op);
  switch (shape_of(op)) {
    case Shape::None:
      return {raw, 0, 0, 0, 0, 0};
    case Shape::Unary:
      return {raw, kInt, kStatic, 0, 4, 0};
    case Shape::Binary:
      return {raw, kInt, kStatic, kStatic, 4, 8};
    case Shape::Scalar:
      return {raw, kVec, kStatic, kStatic, 4, 0};
    case Shape::Call:
      return {raw, kFloat, 8, 0, 0, 0};  // argument block at 8, signature 0
    case Shape::Branch:
      return {raw, kBool, kStatic, 0, 4, 1};
    case Shape::Jump:
      return {raw, 0, 0, 0, 0, 1};
  }
  return {};
}

}  // namespace

TEST_CASE("every opcode's mnemonic and reference name round-trip, each name once") {
  std::set<std::string_view> mnemonics, peer_names;
  for (const auto op : all_opcodes()) {
    CAPTURE(static_cast<int>(op));
    const auto text = mnemonic(op);
    CHECK(text.size() == 3);
    CHECK(opcode_of(text) == op);
    CHECK(!peer_name(op).empty());
    mnemonics.insert(text);
    peer_names.insert(peer_name(op));
  }
  CHECK(mnemonics.size() == kMaxOpcode);
  CHECK(peer_names.size() == kMaxOpcode);
  CHECK(kMaxOpcode == 29);
  CHECK(opcode_of("FOO") == std::nullopt);
  CHECK(opcode_of("") == std::nullopt);
  CHECK(mnemonic(static_cast<Opcode>(0)).empty());
  CHECK(peer_name(static_cast<Opcode>(kMaxOpcode + 1)).empty());
}

TEST_CASE("the decoder takes exactly the opcodes of the table") {
  for (const std::uint8_t raw : {std::uint8_t{0}, static_cast<std::uint8_t>(kMaxOpcode + 1)}) {
    CHECK(decoding(one_instruction({raw, 0, 0, 0, 0, 0})) ==
          fmt::format("instruction 0: unknown opcode {:#x}", raw));
  }
  for (const auto op : all_opcodes()) {
    CAPTURE(mnemonic(op));
    CHECK(decoding(one_instruction(canonical(op))) == "accepted");
  }
}

TEST_CASE("each opcode has the operands of its shape in the decoder, disassembler and assembler") {
  for (const auto op : all_opcodes()) {
    const auto shape = shape_of(op);
    const auto name = std::string(mnemonic(op));
    CAPTURE(name);
    const auto spec = one_instruction(canonical(op));
    const auto bytes = test::assemble(spec);
    const auto section = decode(ByteReader(bytes, "tables.ainb"));
    const auto& ins = section.instructions[0];
    CHECK(ins.shape() == shape);

    // The fields the decoder fills.
    CHECK((ins.lhs.source == Source::Static && ins.lhs.value == 4) == has_lhs(shape));
    CHECK((ins.rhs.source == Source::Static) == has_rhs(shape));
    CHECK((ins.jump_target == 1) == has_target(shape));
    CHECK((ins.static_offset == 8) == (shape == Shape::Call));

    // The text the disassembler writes for each shape.
    static const std::map<Shape, std::string> kText = {
        {Shape::None, ""},
        {Shape::Unary, " int GMem[0x4]"},
        {Shape::Binary, " int GMem[0x4], int GMem[0x8]"},
        {Shape::Scalar, " vec3f GMem[0x4], float GMem[0x0]"},
        {Shape::Call, " F( Float ), GMem[0x8]"},
        {Shape::Branch, " bool GMem[0x4], 0x8"},
        {Shape::Jump, " 0x8"}};
    CHECK(format_instruction(section, ins) == name + kText.at(shape));

    // The assembler reads it back to the same bytes.
    const auto again = assemble(to_assembly(section));
    const auto back = decode(ByteReader(again, "tables.ainb"));
    REQUIRE(back.instructions.size() == 2);
    CHECK(back.instructions[0].raw == ins.raw);
  }
}

TEST_CASE("the decoder checks the operands of an opcode's shape, with the types it says") {
  for (const auto op : all_opcodes()) {
    const auto shape = shape_of(op);
    const auto raw = static_cast<std::uint8_t>(op);
    CAPTURE(mnemonic(op));
    const std::string refused = "instruction 0: an immediate cannot hold a VECTOR3F value";
    // An immediate vec3f on the left: refused where there is a left operand.
    CHECK(decoding(one_instruction({raw, kVec, kImm, kStatic, 0, 0})) ==
          (has_lhs(shape) ? refused : "accepted"));
    // On the right: refused only where the right operand has the instruction's type (a scalar's
    // is a float).
    CHECK(decoding(one_instruction({raw, kVec, kStatic, kImm, 0, 0})) ==
          (has_rhs(shape) && rhs_type(shape, DataType::Vec3f) == DataType::Vec3f ? refused
                                                                                 : "accepted"));
    // The right source byte is decoded for every shape with operands of a type, also where it
    // goes unused (a unary instruction).
    const bool reads_sources =
        shape == Shape::Unary || shape == Shape::Binary || shape == Shape::Scalar;
    CHECK(decoding(one_instruction({raw, kInt, kStatic, 11, 0, 0})) ==
          (reads_sources ? "instruction 0: unknown operand source 11" : "accepted"));
  }
}

TEST_CASE("the verifier selects an operation for the data types each opcode takes") {
  // docs/exb.md, "Verification": the types each operation takes.
  const std::map<std::string_view, std::set<std::uint8_t>> kTakes = {
      {"STR", {kBool, kInt, kUInt, kFloat, kString, kVec}},
      {"NEG", {kInt, kUInt, kFloat, kVec}},
      {"NOT", {kBool}},
      {"ADD", {kInt, kUInt, kFloat, kVec}},
      {"SUB", {kInt, kUInt, kFloat, kVec}},
      {"MUL", {kInt, kUInt, kFloat}},
      {"DIV", {kInt, kUInt, kFloat}},
      {"MOD", {kInt, kUInt}},
      {"INC", {kInt, kUInt, kFloat}},
      {"DEC", {kInt, kUInt, kFloat}},
      {"VMS", {kVec}},
      {"VDS", {kVec}},
      {"LSH", {kInt, kUInt}},
      {"RSH", {kInt, kUInt}},
      {"LST", {kInt, kUInt, kFloat}},
      {"LTE", {kInt, kUInt, kFloat}},
      {"GRT", {kInt, kUInt, kFloat}},
      {"GTE", {kInt, kUInt, kFloat}},
      {"EQL", {kBool, kInt, kUInt, kFloat, kString, kVec}},
      {"NEQ", {kBool, kInt, kUInt, kFloat, kString, kVec}},
      {"AND", {kInt, kUInt, kBool}},
      {"XOR", {kInt, kUInt, kBool}},
      {"ORR", {kInt, kUInt, kBool}},
      {"LAN", {kBool}},
      {"LOR", {kBool}}};
  std::size_t checked = 0;
  for (const auto op : all_opcodes()) {
    const auto shape = shape_of(op);
    if (shape != Shape::Unary && shape != Shape::Binary && shape != Shape::Scalar) continue;
    const auto name = mnemonic(op);
    CAPTURE(name);
    REQUIRE(kTakes.count(name) == 1);
    for (const std::uint8_t type : {kBool, kInt, kUInt, kFloat, kString, kVec}) {
      CAPTURE(static_cast<int>(type));
      // Strings live in scratch-64; a scalar's right operand is a float in static memory.
      const std::uint8_t place = type == kString ? kScratch64 : kStatic;
      const std::uint8_t right = shape == Shape::Scalar ? kStatic : place;
      const auto bytes = test::assemble(
          one_instruction({static_cast<std::uint8_t>(op), type, place, right, 0, 0x8}));
      const auto section = decode(ByteReader(bytes, "tables.ainb"));
      bool compiled = true;
      try {
        Program program(section, "tables.ainb", nullptr);
      } catch (const LoadError& e) {
        compiled = false;
        CHECK(std::string(e.reason()).find("does not take") != std::string::npos);
      }
      CHECK(compiled == (kTakes.at(name).count(type) == 1));
    }
    ++checked;
  }
  CHECK(checked == kTakes.size());
}

TEST_CASE("node types: each name round-trips, and the kinds agree with the value ranges") {
  std::set<std::string_view> names;
  for (std::uint32_t raw = 0; raw <= 0xFFFF; ++raw) {
    const auto type = static_cast<NodeType>(raw);
    const auto name = node_type_name(type);
    CAPTURE(raw);
    REQUIRE(is_known_node_type(static_cast<std::uint16_t>(raw)) == !name.empty());
    if (name.empty()) continue;
    CHECK(node_type_named(name) == type);
    CHECK(names.insert(name).second);
    CHECK((name == "UserDefined" || name.starts_with("Element_")));
    // The runtime finds ModuleIF nodes by these value ranges, and their value type by value % 100.
    const auto kind = node_kind(type);
    CHECK((kind == NodeKind::User) == (raw == 0));
    CHECK((kind == NodeKind::Composite) == (raw >= 1 && raw <= 7));
    CHECK((kind == NodeKind::ModuleInput) == (raw >= 100 && raw <= 105));
    CHECK((kind == NodeKind::ModuleOutput) == (raw >= 200 && raw <= 205));
    CHECK((kind == NodeKind::ModuleChild) == (raw == 300));
    CHECK(runtime::detail::is_composite(type) == (kind == NodeKind::Composite));
  }
  CHECK(names.size() == 27);
  CHECK(node_type_named("Element_Nothing") == std::nullopt);
  CHECK(node_type_named("") == std::nullopt);
  CHECK(node_type_named("element_fork") == std::nullopt);
}

TEST_CASE("every data type's spellings round-trip, each spelling once") {
  // The reference tool's names (`ainb dump --format peer`), the assembly's words and the
  // signatures' words, as their readers and writers spell them.
  const std::map<DataType, std::array<std::string_view, 5>> kSpellings = {
      {DataType::None, {"NONE", "", "Void", "none", ""}},
      {DataType::Immediate, {"IMM", "", "Void", "immediate_or_user", ""}},
      {DataType::Bool, {"BOOL", "bool", "Bool", "bool", "bool"}},
      {DataType::Int, {"INT", "int", "Int", "s32", "int"}},
      {DataType::UInt, {"UINT", "uint", "UInt", "u32", "uint"}},
      {DataType::Float, {"FLOAT", "float", "Float", "f32", "float"}},
      {DataType::String, {"STRING", "str", "String", "string", "string"}},
      {DataType::Vec3f, {"VECTOR3F", "vec3f", "Vector3F", "vec3f", "vec3f"}}};
  REQUIRE(kDataTypeCount == kSpellings.size());
  std::set<std::string_view> names, words, peer_names;
  for (std::uint8_t raw = 0; raw < kDataTypeCount; ++raw) {
    const auto type = static_cast<DataType>(raw);
    CAPTURE(static_cast<int>(raw));
    const auto& s = kSpellings.at(type);
    CHECK(data_type_name(type) == s[0]);
    CHECK(assembly_word(type) == s[1]);
    CHECK(signature_type_name(type) == s[2]);
    CHECK(peer_name(type) == s[3]);
    CHECK(data_type_noun(type) == s[4]);
    CHECK(data_type_named(s[0]) == type);
    CHECK(names.insert(s[0]).second);
    CHECK(peer_names.insert(s[3]).second);
    // Only the types with values have an operand word, a signature word and a size.
    CHECK(is_value_type(type) == !s[1].empty());
    CHECK(is_value_type(type) == !s[4].empty());
    if (is_value_type(type)) {
      CHECK(data_type_of_word(s[1]) == type);
      CHECK(data_type_of_signature_word(s[2]) == type);
      CHECK(words.insert(s[1]).second);
      CHECK(kValueTypes[value_type_index(type)] == type);
    } else {
      CHECK(value_type_index(type) == kValueTypeCount);
    }
  }
  CHECK(data_type_of_signature_word("Void") == DataType::None);
  CHECK(data_type_named("") == std::nullopt);
  CHECK(data_type_named("vec3f") == std::nullopt);
  CHECK(data_type_of_word("") == std::nullopt);
  CHECK(data_type_of_word("string") == std::nullopt);
  CHECK(data_type_name(static_cast<DataType>(kDataTypeCount)).empty());
  CHECK(kValueTypes == std::array{DataType::Bool, DataType::Int, DataType::UInt, DataType::Float,
                                  DataType::String, DataType::Vec3f});
  CHECK(value_size(DataType::Bool) == 4);
  CHECK(value_size(DataType::String) == 8);
  CHECK(value_size(DataType::Vec3f) == 12);
  CHECK(value_size(DataType::Immediate) == 0);
}

TEST_CASE("each data type's byte in every EXB version, through the decoder and the assembler") {
  for (const std::uint32_t version : {1u, 2u, 3u}) {
    CAPTURE(version);
    // v1 and v2: NONE IMM BOOL INT FLOAT STRING VECTOR3F; v3 inserts UINT at 4.
    const std::vector<DataType> kOrder =
        version >= 3
            ? std::vector{DataType::None, DataType::Immediate, DataType::Bool,   DataType::Int,
                          DataType::UInt, DataType::Float,     DataType::String, DataType::Vec3f}
            : std::vector{DataType::None,  DataType::Immediate, DataType::Bool, DataType::Int,
                          DataType::Float, DataType::String,    DataType::Vec3f};
    for (std::uint8_t raw = 0; raw < 10; ++raw) {
      CAPTURE(static_cast<int>(raw));
      const auto type = data_type_of_byte(version, raw);
      REQUIRE(type.has_value() == (raw < kOrder.size()));
      if (type) {
        CHECK(*type == kOrder[raw]);
        CHECK(data_type_byte(version, *type) == raw);
      }
    }
    CHECK(data_type_byte(version, DataType::UInt).has_value() == (version >= 3));
  }
  // The decoder reads each value type's byte, the disassembler writes its word, and the assembler
  // reads it back to the same byte, in a v2 section and a v3 one.
  for (const std::uint32_t version : {2u, 3u}) {
    for (const auto type : kValueTypes) {
      if (!data_type_byte(version, type)) continue;
      CAPTURE(version);
      CAPTURE(data_type_name(type));
      const auto raw = *data_type_byte(version, type);
      const std::uint8_t place = type == DataType::String ? kScratch64 : kStatic;
      auto spec = one_instruction({2, raw, place, place, 0, 0x10});  // STR
      spec.version = version;
      const auto bytes = test::assemble(spec);
      const auto section = decode(ByteReader(bytes, "tables.ainb"));
      const auto& ins = section.instructions[0];
      CHECK(ins.type == type);
      const auto word = std::string(assembly_word(type));
      const auto space = type == DataType::String ? "LMem64" : "GMem";
      CHECK(format_instruction(section, ins) ==
            fmt::format("STR {} {}[0x0], {} {}[0x10]", word, space, word, space));
      const auto again = assemble(to_assembly(section));
      CHECK(decode(ByteReader(again, "tables.ainb")).instructions[0].raw == ins.raw);
    }
  }
}

TEST_CASE("each value type in a signature, and a value of it to its bytes and back") {
  const std::vector<exb::Value> kValues = {true, std::int32_t{-7}, std::uint32_t{4000000000u},
                                           2.5f, "text",           Vec3{1, -2, 3.5f}};
  REQUIRE(kValues.size() == kValueTypeCount);
  for (std::size_t k = 0; k < kValueTypeCount; ++k) {
    const auto type = kValueTypes[k];
    CAPTURE(data_type_name(type));
    const auto signature =
        fmt::format("F( {}, {} )", signature_type_name(type), signature_type_name(type));
    const auto parsed = parse_signature(signature);
    REQUIRE(parsed.has_value());
    CHECK(parsed->result == type);
    CHECK(parsed->arguments == std::vector{type});
    CHECK(parsed->block_size() == value_size(type));

    const auto& value = kValues[k];
    CHECK(type_of(value) == type);
    std::array<std::uint8_t, 16> memory;
    memory.fill(0xAA);
    store_value(value, memory.data());  // its size, and not a byte more
    CHECK(memory[value_size(type)] == 0xAA);
    CHECK(read_value(type, memory.data()) == value);
    std::array<std::uint8_t, 12> block;
    block.fill(0xAA);
    write_value(value, block);
    CHECK(std::equal(block.begin(), block.begin() + value_size(type), memory.begin()));
    CHECK(std::all_of(block.begin() + value_size(type), block.end(),
                      [](std::uint8_t b) { return b == 0; }));
  }
  // A bool is a 32-bit word: written 1, any non-zero word read as true.
  std::array<std::uint8_t, 4> word{};
  store_value(true, word.data());
  CHECK(word == std::array<std::uint8_t, 4>{1, 0, 0, 0});
  word = {0, 0, 1, 0};
  CHECK(read_value(DataType::Bool, word.data()) == exb::Value(true));
  CHECK(type_of(exb::Value{}) == DataType::None);
  CHECK(read_value(DataType::Immediate, word.data()) == exb::Value{});
}
