#pragma once

// Hand-assembles EXB sections for tests: the layout of docs/exb.md, written field by field.

#include <cstdint>
#include <string>
#include <vector>

namespace ainb::test {

struct Ins {
  std::uint8_t op, type, lhs_source, rhs_source;
  std::uint16_t lhs, rhs;
};

struct FunctionSpec {
  std::int32_t setup_base = -1;
  std::uint32_t setup_count = 0;
  std::int32_t main_base = 0;
  std::uint32_t main_count = 0;
  std::uint16_t output_type = 3, input_type = 0;
  std::uint32_t static_size = 0x10;
  std::uint16_t scratch32 = 4, scratch64 = 0;
};

struct ExbSpec {
  std::uint32_t version = 2;
  std::vector<FunctionSpec> functions;
  std::vector<Ins> instructions;
  std::vector<std::uint32_t> signatures;  // string-pool offsets
  std::vector<std::uint8_t> param_region;
  std::string pool;  // NUL-separated strings
};

std::vector<std::uint8_t> assemble(const ExbSpec& spec);

}  // namespace ainb::test
