// The enumeration tables (AINB_EXB_OPCODES, AINB_NODE_TYPES, AINB_EXB_DATA_TYPES,
// AINB_HEADER_SLOTS) against what their consumers do: every opcode's shape in the decoder, the
// disassembler, the assembler and the verifier, the names both ways, the node types' names and
// kinds; each data type's spellings both ways, its byte in each EXB version, and its values to
// their bytes and back; the header slots as the loader checks them, the writer lays them out and
// every real file has them.

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/dump/json.hpp"
#include "ainb/exb/assembler.hpp"
#include "ainb/exb/data_types.hpp"
#include "ainb/exb/disassembler.hpp"
#include "ainb/exb/program.hpp"
#include "ainb/exb/signature.hpp"
#include "ainb/load_error.hpp"
#include "ainb/loader.hpp"
#include "ainb/model.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/writer/writer.hpp"
#include "ainb_builder.hpp"
#include "corpus.hpp"
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

// The header slots (AINB_HEADER_SLOTS).

namespace {

std::uint32_t word_at(std::span<const std::uint8_t> bytes, std::uint64_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

std::vector<std::uint8_t> with_slot(std::vector<std::uint8_t> bytes, header_slot::Slot slot,
                                    std::uint32_t value) {
  std::memcpy(bytes.data() + header_slot_offset(slot), &value, 4);
  return bytes;
}

// The error loading `bytes` raises, or none.
std::optional<LoadError> load_error(const std::vector<std::uint8_t>& bytes) {
  try {
    load(bytes, "slots.ainb");
  } catch (const LoadError& e) {
    return e;
  }
  return std::nullopt;
}

// A file of `version` with something in every section a hand-made file can have.
test::AinbSpec every_section(std::uint32_t version) {
  test::AinbSpec spec;
  spec.version = version;
  spec.commands = {{"Root", 0, {}}};
  test::BuildNode root{.type = NodeType::Sequential, .flags = node_flags::kIsRoot};
  root.plugs = {{PlugKind::Child, 1, ""}};
  root.attachments = {0};
  test::BuildNode query{
      .type = NodeType::UserDefined, .name = "Query", .flags = node_flags::kIsQuery};
  query.inputs = {{ParamType::Int, "Sum", -100, 2, 0, std::int32_t{0}}};
  query.queries = {0};
  test::BuildNode source{.type = NodeType::UserDefined, .name = "Source"};
  source.outputs = {{ParamType::Int, "Value"}};
  spec.nodes = {root, query, source};
  spec.attachments = {{"Attachment", {}}};
  spec.multi_sources = {{2, 0, 0}, {2, 0, 0}};
  spec.blackboard = {{BlackboardType::S32, "Mode", std::int32_t{4}}};
  spec.modules = {{"Other.module.ainb"}};
  spec.xlink_actions = {{0, "Slot", "Action"}};
  if (version != kVersion404) spec.replacements = {{0, 0, 0, 0}};
  return spec;
}

// What a section of fixed-size entries takes in `model`: its head, if any, and its entries.
std::uint64_t expected_extent(const Model& m, header_slot::Slot slot) {
  const auto entry = entry_size(slot, m.version());
  switch (slot) {
    case header_slot::kEnumResolve:
      return 4 + entry * m.enum_resolves.size();
    case header_slot::kMultiParams:
      return entry * m.multi_sources.size();
    case header_slot::kAttachments:  // the entries, then each one's parameter block
      return (entry + kAttachmentParamsSize) * m.attachments.size();
    case header_slot::kAttachmentIndices:
      return entry * m.attachment_indices.size();
    case header_slot::kReplacements:
      return 8 + entry * m.replacements->entries.size();
    case header_slot::kQueries:
      return entry * m.query_indices.size();
    case header_slot::kModules:
      return 4 + entry * m.modules.size();
    case header_slot::kXLinkActions:
      return 4 + entry * m.xlink_actions.size();
    case header_slot::kSection58:
    case header_slot::kUnknown6C:
    case header_slot::kBlackboardIds:
      return entry;  // one record
    default:
      FAIL("no extent known for the slot of \"", kHeaderSlots[slot].name, "\"");
  }
  return 0;
}

// The slots' values in `bytes`, its sections in the table's file order, and each section of
// fixed-size entries up to the next one, as the table's entry sizes make it (less the layout's
// gap before the next, if any).
void check_header_agrees(const Model& m, std::span<const std::uint8_t> bytes,
                         const writer::Layout& layout) {
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
    CAPTURE(kHeaderSlots[i].name);
    CHECK(m.header.offsets[i] == word_at(bytes, kHeaderSlots[i].at));
  }
  std::vector<header_slot::Slot> present;
  for (const auto slot : kSectionsInFileOrder) {
    if (m.header.offsets[slot] != 0) present.push_back(slot);
  }
  REQUIRE(!present.empty());
  CHECK(present.front() == header_slot::kBlackboard);
  CHECK(present.back() == header_slot::kStringPool);
  CHECK(m.header.offsets[header_slot::kBlackboard] ==
        kHeaderSize + kCommandEntrySize * m.commands.size() +
            node_entry_size(m.version()) * m.nodes.size());
  for (std::size_t k = 0; k + 1 < present.size(); ++k) {
    const auto slot = present[k], next = present[k + 1];
    CAPTURE(kHeaderSlots[slot].section);
    const auto at = m.header.offsets[slot], end = m.header.offsets[next];
    REQUIRE(at <= end);
    if (entry_size(slot, m.version()) == 0) continue;
    std::uint64_t gaps = 0;
    for (const auto& gap : layout.gaps) {
      const bool parameters =
          gap.before.starts_with("attachment ") && gap.before.ends_with(" parameters");
      if (gap.before == kHeaderSlots[next].layout ||
          (parameters && slot == header_slot::kAttachments))
        gaps += gap.bytes.size();
    }
    CHECK(end - at - gaps == expected_extent(m, slot));
  }
}

}  // namespace

TEST_CASE("header slots: each name once, sections and layout keys where there is a section") {
  std::set<std::string_view> names, sections, layouts, keys;
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
    const auto& row = kHeaderSlots[i];
    CAPTURE(row.name);
    CHECK(names.insert(row.name).second);
    CHECK(keys.insert(row.key).second);
    const bool section =
        row.kind == HeaderSlotKind::Section || row.kind == HeaderSlotKind::Optional;
    // The 0x6C field is unread but written: the writer keeps its one word.
    CHECK((row.place != 0) == (section || i == header_slot::kUnknown6C));
    CHECK(row.section.empty() == (row.place == 0));
    CHECK(row.layout.empty() == (row.place == 0));
    if (row.place != 0) {
      CHECK(sections.insert(row.section).second);
      CHECK(layouts.insert(row.layout).second);
      CHECK(kSectionsInFileOrder[row.place - 1U] == i);
    }
    CHECK((row.since == kVersion404 || row.since == kVersion407));
    CHECK(!row.name.empty());
  }
  CHECK(kFileSectionCount == sections.size());
  CHECK(kSectionsInFileOrder.front() == header_slot::kBlackboard);
  CHECK(kSectionsInFileOrder.back() == header_slot::kStringPool);
}

TEST_CASE("header slots: the loader checks each slot at its offset as its kind says") {
  for (const auto version : {kVersion404, kVersion407, kVersion408}) {
    CAPTURE(version);
    const auto good = test::build(every_section(version));
    const auto size = static_cast<std::uint32_t>(good.size());
    REQUIRE(!load_error(good));
    for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
      const auto slot = static_cast<header_slot::Slot>(i);
      const auto& row = kHeaderSlots[slot];
      CAPTURE(row.name);
      // Past the file's end: refused for every offset, at the slot.
      const auto past = load_error(with_slot(good, slot, size + 4));
      if (row.kind == HeaderSlotKind::Field) {
        CHECK((!past || past->reason().find("past the end") == std::string::npos));
      } else {
        REQUIRE(past);
        CHECK(past->offset() == row.at);
        CHECK(past->reason() ==
              fmt::format("section offset {:#x} lies past the end of the file ({:#x})", size + 4,
                          size));
      }
      // Inside the header: refused for sections by the slot's name; an unread offset only
      // meets the check that no offset overlaps the node array.
      const auto inside = load_error(with_slot(good, slot, 0x10));
      if (row.kind == HeaderSlotKind::Section || row.kind == HeaderSlotKind::Optional) {
        REQUIRE(inside);
        CHECK(inside->offset() == row.at);
        CHECK(inside->reason() ==
              fmt::format("{} offset 0x10 lies inside the header (which ends at 0x74)", row.name));
      } else if (row.kind == HeaderSlotKind::Unread) {
        REQUIRE(inside);
        CHECK(inside->offset() == row.at);
        CHECK(inside->reason().starts_with("section offset 0x10 overlaps the command and node"));
      } else {
        CHECK((!inside || inside->reason().find("0x10 lies") == std::string::npos));
      }
      // 0: absent where a section is optional (or an offset unread).
      const auto zero = load_error(with_slot(good, slot, 0));
      if (row.kind == HeaderSlotKind::Section) {
        REQUIRE(zero);
        CHECK(zero->offset() == row.at);
      } else if (row.kind != HeaderSlotKind::Field) {
        CHECK(!zero);
      }
    }
    // A slot a version lacks is not read: at the file's very end, the section would be cut.
    const auto cut = load_error(with_slot(good, header_slot::kReplacements, size));
    CHECK(!cut == !has_header_slot(header_slot::kReplacements, version));
    if (cut) CHECK(cut->section() == kHeaderSlots[header_slot::kReplacements].section);
  }
}

TEST_CASE("header slots: the loader names a section's errors as the table does") {
  const auto good = test::build(every_section(kVersion407));
  // Two bytes before the end: the section's first read fails. Slots that end the array before
  // theirs (the input/output table ends the properties, ...) fail there first, and the attachment
  // index array is read with the attachments.
  for (const auto slot :
       {header_slot::kBlackboard, header_slot::kEnumResolve, header_slot::kProperties,
        header_slot::kAttachments, header_slot::kXLinkActions, header_slot::kBlackboardIds,
        header_slot::kReplacements, header_slot::kSection58}) {
    CAPTURE(kHeaderSlots[slot].name);
    const auto error =
        load_error(with_slot(good, slot, static_cast<std::uint32_t>(good.size() - 2)));
    REQUIRE(error);
    CHECK(error->section() == kHeaderSlots[slot].section);
  }
  // The counted arrays' messages name the array as the header field is named.
  for (const auto slot :
       {header_slot::kModules, header_slot::kXLinkActions, header_slot::kEnumResolve}) {
    CAPTURE(kHeaderSlots[slot].name);
    auto bytes = good;
    const std::uint32_t huge = 0x10000000;
    std::memcpy(bytes.data() + word_at(good, header_slot_offset(slot)), &huge, 4);
    const auto error = load_error(bytes);
    REQUIRE(error);
    CHECK(error->section() == kHeaderSlots[slot].section);
    CHECK(error->reason().find(kHeaderSlots[slot].name) != std::string::npos);
  }
}

TEST_CASE("header slots: the writer lays out each version's sections in the table's order") {
  for (const auto version : {kVersion404, kVersion407, kVersion408}) {
    CAPTURE(version);
    const auto model = test::load_spec(every_section(version));
    const auto bytes = writer::write(*model, writer::Layout{});
    const auto again = load(bytes, "written.ainb");
    check_header_agrees(*again, bytes, writer::Layout{});
    CHECK((again->header.offsets[header_slot::kReplacements] != 0) ==
          has_header_slot(header_slot::kReplacements, version));
    CHECK(again->header.offsets[header_slot::kUnknown50] ==
          again->header.offsets[header_slot::kQueries]);
  }
}

TEST_CASE("header slots: every real file's header agrees with the table") {
  const auto files = test::all_real_ainb_files();
  for (const auto& path : files) {
    const auto name = path.filename().string();
    CAPTURE(name);
    const auto model = load_file(path);
    const auto layout = writer::capture_layout(*model);
    check_header_agrees(*model, model->bytes, layout);
    // The dump's keys, and the section a difference at a section's start is reported in: the
    // last of the sections starting there, in the file's order.
    const auto offsets = dump_json(*model)["header"]["offsets"];
    REQUIRE(offsets.size() == kHeaderSlotCount);
    std::size_t i = 0;
    for (const auto& [key, value] : offsets.items()) {
      CHECK(key == kHeaderSlots[i].key);
      CHECK(value == fmt::format("{:#010x}", model->header.offsets[i++]));
    }
    for (std::size_t k = 0; k < kFileSectionCount; ++k) {
      const auto slot = kSectionsInFileOrder[k];
      const auto at = model->header.offsets[slot];
      bool last = at != 0;
      for (std::size_t later = k + 1; later < kFileSectionCount; ++later)
        last = last && model->header.offsets[kSectionsInFileOrder[later]] != at;
      for (const auto& n : model->nodes)
        last = last && n.body_offset != at;
      if (last) CHECK(writer::section_at(*model, at) == kHeaderSlots[slot].section);
    }
  }
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
