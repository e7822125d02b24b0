// The EXB assembler, the text form's notation for expressions: every corpus expression section
// assembles back byte for byte, and the text of constants with its errors.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"

using namespace ainb;
using namespace ainb::test;

TEST_CASE("exb assembler: every corpus expression section assembles back byte for byte") {
  std::size_t sections = 0, lines = 0;
  for (const auto& path : corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    CAPTURE(path.filename().string());
    const auto& s = *model->expressions;
    const auto begin = model->header.offsets[header_slot::kExpressions];
    const std::vector<std::uint8_t> original(
        model->bytes.begin() + begin,
        model->bytes.begin() + model->header.offsets[header_slot::kModules]);
    CHECK(exb::encode(s) == original);
    const auto source = exb::to_assembly(s);
    CHECK(exb::assemble(source) == original);
    ++sections;
    for (const auto& f : source.functions)
      lines += f.main.size() + (f.setup ? f.setup->size() : 0);
  }
  if (!corpus_dir().empty()) {
    CHECK(sections == 6);
    CHECK(lines == 144);
  }
}

TEST_CASE("exb assembler: the text of a parameter-region constant and its errors") {
  exb::AssemblySource src;
  src.version = 2;
  src.param_region = {0, 0, 0, 0, 0, 0, 0, 0};  // two zero words
  exb::AssemblyFunction fn;
  fn.output_type = exb::DataType::Float;
  fn.static_size = 0x10;
  fn.main = {"STR float GMem[0x0], float @imm 7.0",
             "STR float GMem[0x4], float 7.0",
             "STR int GMem[0x8], int -3",
             "STR int GMem[0xc], int @param[0x4] 0",
             "CFN GetBBCodeFloat( Float, Int ), GMem[0x8]",
             "END"};
  src.functions = {fn};
  const auto bytes = exb::assemble(src);
  const auto s = exb::decode(ByteReader(bytes, "test"));
  REQUIRE(s.instructions.size() == 6);
  CHECK(s.instructions[0].rhs.source == exb::Source::Immediate);
  CHECK(s.instructions[0].rhs.value == 7);
  CHECK(s.instructions[1].rhs.source == exb::Source::ParamTable);
  CHECK(s.instructions[1].rhs.value == 8);  // appended after the two words
  CHECK(s.instructions[2].rhs.source == exb::Source::ParamTable);
  CHECK(s.instructions[2].rhs.value == 12);
  CHECK(s.instructions[3].rhs.value == 4);  // the offset asked for, which holds the value
  CHECK(s.instructions[4].raw[1] == 4);     // CFN: the result type (v2 FLOAT)
  CHECK(s.signatures.at(0) == "GetBBCodeFloat( Float, Int )");

  fn.main = {"STR float GMem[0x0], float 1.0", "FOO int GMem[0x0], int 1"};
  src.functions = {fn};
  CHECK_THROWS_WITH_AS(exb::assemble(src), "expression 0 main line 1: unknown mnemonic \"FOO\"",
                       exb::AssemblyError);
  fn.main = {"STR float GMem[0x0], float @imm 1.5"};
  src.functions = {fn};
  try {
    exb::assemble(src);
    FAIL("expected an AssemblyError");
  } catch (const exb::AssemblyError& e) {
    CHECK(std::string(e.what()) ==
          "expression 0 main line 0: float 1.5 does not fit an immediate (a whole number "
          "0..65535)");
    CHECK(e.function() == 0u);
    CHECK(e.block() == "main");
    CHECK(e.line() == 0);
  }
  fn.main = {"ADD int GMem[0x0], float 1.0"};
  src.functions = {fn};
  CHECK_THROWS_WITH_AS(exb::assemble(src),
                       "expression 0 main line 0: operand \"float 1.0\" is not of the "
                       "instruction's type INT",
                       exb::AssemblyError);
  // Values past their 32-bit type are refused, not wrapped (99999999999 would become 1215752191)
  // or made infinite; the extremes themselves are kept.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"STR int GMem[0x0], int 99999999999", "int 99999999999 is past the 32-bit signed range"},
      {"STR int GMem[0x0], int 2147483648", "int 2147483648 is past the 32-bit signed range"},
      {"STR float GMem[0x0], float 1e40", "float 1e40 is past float's range (about 3.4e38)"}};
  for (const auto& [line, message] : refused) {
    fn.main = {line, "END"};
    src.functions = {fn};
    CHECK_THROWS_WITH_AS(exb::assemble(src), ("expression 0 main line 0: " + message).c_str(),
                         exb::AssemblyError);
  }
  fn.main = {"STR int GMem[0x0], int -2147483648", "STR int GMem[0x4], int 2147483647",
             "STR float GMem[0x8], float inf", "END"};
  src.functions = {fn};
  CHECK_NOTHROW(exb::assemble(src));
}
