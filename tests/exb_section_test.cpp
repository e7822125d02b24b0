// The EXB section decoder: hand-assembled sections for each version and each rejection, and the
// corpus functions checked against the newer reference library's listing (`*.ainb2.json`).

#include <fstream>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ainb/exb/section.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"
#include "exb_assembler.hpp"

using namespace ainb;
using namespace ainb::exb;
using namespace ainb::test;

namespace {

Section decode_bytes(const std::vector<std::uint8_t>& bytes) {
  return decode(ByteReader(bytes, "test.ainb", 0x1000));
}

std::string decode_rejection(const ExbSpec& spec) {
  try {
    decode_bytes(assemble(spec));
  } catch (const LoadError& e) {
    return e.section() + ": " + e.reason();
  }
  return "accepted";
}

// setup: GMem[0] = 1.5 (from the parameter region); main: GMem[4] = GMem[0] * In; call; end.
ExbSpec sample() {
  ExbSpec s;
  s.pool = std::string("Sqrt(Float)\0hello\0", 18);
  s.signatures = {0};
  s.param_region = {0x00, 0x00, 0xC0, 0x3F, 0x01, 0x00, 0x00, 0x00, 12, 0, 0, 0};  // 1.5f, 1, 12
  s.instructions = {
      {2, 4, 2, 3, 0, 0},   // STR float GMem[0], ParamTbl[0]
      {1, 0, 0, 0, 0, 0},   // END
      {2, 4, 2, 6, 4, 0},   // STR float GMem[4], In[0]
      {7, 4, 2, 2, 4, 0},   // MUL float GMem[4], GMem[0]
      {27, 4, 8, 0, 0, 0},  // CFN Sqrt, GMem[8]
      {2, 5, 8, 1, 0, 12},  // STR string LMem64[0], ImmStr "hello"
      {28, 0, 2, 0, 4, 5},  // JZE GMem[4] -> 5
      {29, 0, 0, 0, 0, 6},  // JMP -> 6
      {1, 0, 0, 0, 0, 0},   // END
  };
  s.instructions[4] = {27, 4, 8, 0, 0, 0};
  s.functions = {{0, 2, 2, 7, 4, 4}};
  return s;
}

}  // namespace

TEST_CASE("a v2 section decodes functions, blocks, operands and tables") {
  const auto bytes = assemble(sample());  // the section views these bytes
  const auto section = decode_bytes(bytes);
  CHECK(section.version == 2);
  CHECK(section.static_size == 0x20);
  CHECK(section.file_offset == 0x1000);
  REQUIRE(section.functions.size() == 1);
  const auto& f = section.functions[0];
  CHECK(f.has_setup);
  CHECK(f.setup.base == 0);
  CHECK(f.setup.count == 2);
  CHECK(f.main.base == 2);
  CHECK(f.main.count == 7);
  CHECK(f.output_type == DataType::Float);
  CHECK(f.input_type == DataType::Float);
  CHECK(f.static_size == 0x10);
  CHECK(f.scratch32_size == 4);

  const auto main = section.block(f.main);
  CHECK(main[0].opcode == Opcode::Store);
  CHECK(main[0].lhs.source == Source::Static);
  CHECK(main[0].lhs.value == 4);
  CHECK(main[0].rhs.source == Source::Input);
  CHECK(main[1].opcode == Opcode::Multiply);
  CHECK(main[2].opcode == Opcode::UserFunction);
  CHECK(main[2].signature_index == 0);
  CHECK(main[2].static_offset == 8);
  CHECK(section.signatures[0] == "Sqrt(Float)");
  CHECK(main[3].type == DataType::String);
  CHECK(section.string_at(main[3].rhs.value) == "hello");
  CHECK(main[4].opcode == Opcode::JumpIfLHSZero);
  CHECK(main[4].jump_target == 5);
  CHECK(main[5].jump_target == 6);
  CHECK(mnemonic(main[5].opcode) == "JMP");
  CHECK(section.param_region.size() == 12);
}

TEST_CASE("v1 blocks have no counts and run to their terminator") {
  auto s = sample();
  s.version = 1;
  const auto bytes = assemble(s);
  const auto section = decode_bytes(bytes);
  CHECK(section.functions[0].setup.count == 2);
  CHECK(section.functions[0].main.count == 7);

  SUBCASE("a v1 block without terminator is rejected") {
    s.instructions.back().op = 2;
    CHECK(decode_rejection(s) ==
          "EXB command info: block starting at instruction 2 has no terminator");
  }
}

TEST_CASE("v3 inserts the UInt data type at 4") {
  auto s = sample();
  s.version = 3;
  s.functions[0].output_type = 4;
  s.instructions[0].type = 4;  // UInt from the parameter region
  s.instructions[2].type = 5;  // Float
  s.instructions[3].type = 5;
  s.instructions[5].type = 6;  // String
  const auto bytes = assemble(s);
  const auto section = decode_bytes(bytes);
  CHECK(section.functions[0].output_type == DataType::UInt);
  CHECK(section.instructions[0].type == DataType::UInt);
  CHECK(section.instructions[2].type == DataType::Float);
  CHECK(section.instructions[5].type == DataType::String);
  CHECK(data_type_name(DataType::UInt) == "UINT");
}

TEST_CASE("every malformed EXB section is rejected with its reason") {
  auto s = sample();
  SUBCASE("magic") {
    auto bytes = assemble(s);
    bytes[0] = 'Y';
    CHECK_THROWS_WITH(decode_bytes(bytes),
                      "test.ainb: EXB header at offset 0x1000: bad EXB magic (expected \"EXB \")");
  }
  SUBCASE("version") {
    s.version = 4;
    CHECK(decode_rejection(s) == "EXB header: unsupported EXB version 4");
  }
  SUBCASE("opcode") {
    s.instructions[3].op = 30;
    CHECK(decode_rejection(s) == "EXB instructions: instruction 3: unknown opcode 0x1e");
  }
  SUBCASE("data type") {
    s.instructions[3].type = 7;
    CHECK(decode_rejection(s) ==
          "EXB instructions: instruction 3: unknown data type 7 for EXB version 2");
  }
  SUBCASE("operand source") {
    s.instructions[3].rhs_source = 11;
    CHECK(decode_rejection(s) == "EXB instructions: instruction 3: unknown operand source 11");
  }
  SUBCASE("parameter region offset") {
    s.instructions[0].rhs = 10;
    CHECK(decode_rejection(s) ==
          "EXB instructions: instruction 0: parameter-region offset 0xa (+4) runs past its end "
          "(0xc)");
  }
  SUBCASE("immediate string offset") {
    s.instructions[5].rhs = 18;
    CHECK(decode_rejection(s) ==
          "EXB instructions: immediate string offset 0x12 lies outside the EXB string pool "
          "(size 0x12)");
  }
  SUBCASE("vec3f immediate") {
    s.instructions[2].type = 6;
    s.instructions[2].rhs_source = 0;
    CHECK(decode_rejection(s) ==
          "EXB instructions: instruction 2: an immediate cannot hold a VECTOR3F value");
  }
  SUBCASE("signature index") {
    s.instructions[4].lhs = 0;
    s.instructions[4].rhs = 1;  // u32 @4 = 0x00010000
    CHECK(decode_rejection(s) ==
          "EXB instructions: instruction 4: signature index 65536 past the signature table (1)");
  }
  SUBCASE("jump outside its block") {
    s.instructions[7].rhs = 7;
    CHECK(
        decode_rejection(s) ==
        "EXB command info: function 0 main block: instruction 5 jumps to 7, outside the block (7)");
  }
  SUBCASE("block past the instruction table") {
    s.functions[0].main_count = 8;
    CHECK(decode_rejection(s) ==
          "EXB command info: function 0 main block [2, +8) runs past the instruction table (9)");
  }
  SUBCASE("setup base neither -1 nor an index") {
    s.functions[0].setup_base = -2;
    CHECK(decode_rejection(s) ==
          "EXB command info: function 0: setup base -2 is neither -1 nor an index");
  }
  SUBCASE("static size beyond what 16-bit offsets reach (a fuzz finding: 4 GiB per instance)") {
    s.functions[0].static_size = 0x1000C;
    CHECK(decode_rejection(s) ==
          "EXB command info: function 0: static size 0x1000c is more than the 0x1000b bytes "
          "16-bit offsets can reach");
    s.functions[0].static_size = 0x1000B;
    CHECK(decode_rejection(s) == "accepted");
  }
  SUBCASE("truncated table") {
    auto bytes = assemble(s);
    bytes.resize(0x40);
    CHECK_THROWS_AS(decode_bytes(bytes), LoadError);
  }
}

TEST_CASE("every corpus EXB function decodes like the reference library lists it") {
  std::size_t functions = 0, instructions = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    auto listing_path = path;
    listing_path.replace_extension(".ainb2.json");
    const auto model = load_file(path);
    if (!std::filesystem::exists(listing_path)) {
      CHECK_FALSE(model->expressions);  // only the 0x404 file lacks a listing; it has no EXB
      continue;
    }
    std::ifstream in(listing_path);
    const auto reference = nlohmann::json::parse(in)["Expressions"];
    CAPTURE(path.filename().string());
    if (!model->expressions) {
      CHECK(reference.empty());
      continue;
    }
    const auto& section = *model->expressions;
    CHECK(reference["Version"] == section.version);
    const auto& list = reference["Expressions"];
    REQUIRE(list.size() == section.functions.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto& f = section.functions[i];
      CHECK(list[i]["Input Type"] == std::string(data_type_name(f.input_type)));
      CHECK(list[i]["Output Type"] == std::string(data_type_name(f.output_type)));
      const auto& main = list[i]["Main"];
      REQUIRE(main.size() == f.main.count);
      for (std::size_t k = 0; k < main.size(); ++k) {
        // "0x0008    ADD int GMem[0x0], ..." -> mnemonic at column 10. The reference prints
        // Decrement as INC (its known bug).
        const auto text = main[k].get<std::string>();
        auto expected = text.substr(10, 3);
        const auto ins = section.block(f.main)[k];
        const auto ours = ins.opcode == Opcode::Decrement ? "INC" : mnemonic(ins.opcode);
        CHECK_MESSAGE(expected == ours, text);
        ++instructions;
      }
      CHECK(list[i].contains("Setup") == f.has_setup);
      ++functions;
    }
  }
  MESSAGE(functions << " corpus functions, " << instructions << " instructions checked");
}
