// The enumeration tables (AINB_EXB_OPCODES, AINB_NODE_TYPES) against what their consumers do:
// every opcode's shape in the decoder, the disassembler, the assembler and the verifier, the
// names both ways, and the node types' names and kinds.

#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/exb/disassembler.hpp"
#include "ainb/exb/program.hpp"
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

TEST_CASE("node types: the selectors are one column, asked by coverage, explore and the graph") {
  // One definition (docs/semantics.md, "Built-in nodes"): the five Element_*Selector types choose
  // one child plug, four by their Input and the Random one by a draw; nothing else chooses.
  std::size_t selectors = 0;
  for (std::uint32_t raw = 0; raw <= 0xFFFF; ++raw) {
    const auto type = static_cast<NodeType>(raw);
    const auto name = node_type_name(type);
    if (name.empty()) continue;
    CAPTURE(name);
    CHECK(is_selector(type) == name.ends_with("Selector"));
    CHECK((node_choice(type) == NodeChoice::Draw) == (type == NodeType::RandomSelector));
    if (is_selector(type)) {
      ++selectors;
      CHECK(node_kind(type) == NodeKind::Composite);
    }
  }
  CHECK(selectors == 5);
  static_assert(is_selector(NodeType::RandomSelector));
  static_assert(node_choice(NodeType::BoolSelector) == NodeChoice::Input);
  static_assert(!is_selector(NodeType::Sequential) && !is_selector(NodeType::UserDefined));
}
