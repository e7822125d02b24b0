#include "exb_assembler.hpp"

namespace ainb::test {

namespace {

void put32(std::vector<std::uint8_t>& v, std::uint32_t x) {
  for (int i = 0; i < 4; ++i)
    v.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
}
void put16(std::vector<std::uint8_t>& v, std::uint16_t x) {
  v.push_back(static_cast<std::uint8_t>(x));
  v.push_back(static_cast<std::uint8_t>(x >> 8));
}
void patch32(std::vector<std::uint8_t>& v, std::size_t at, std::uint32_t x) {
  for (int i = 0; i < 4; ++i)
    v[at + i] = static_cast<std::uint8_t>(x >> (8 * i));
}

}  // namespace

std::vector<std::uint8_t> assemble(const ExbSpec& s) {
  std::vector<std::uint8_t> v = {'E', 'X', 'B', ' '};
  put32(v, s.version);
  for (int i = 0; i < 9; ++i)
    put32(v, 0);
  patch32(v, 0x08, 0x20);  // static size
  patch32(v, 0x18, static_cast<std::uint32_t>(v.size()));
  put32(v, static_cast<std::uint32_t>(s.functions.size()));
  for (const auto& f : s.functions) {
    put32(v, static_cast<std::uint32_t>(f.setup_base));
    if (s.version != 1) put32(v, f.setup_count);
    put32(v, static_cast<std::uint32_t>(f.main_base));
    if (s.version != 1) put32(v, f.main_count);
    put32(v, f.static_size);
    put16(v, f.scratch32);
    put16(v, f.scratch64);
    put16(v, f.output_type);
    put16(v, f.input_type);
  }
  patch32(v, 0x1C, static_cast<std::uint32_t>(v.size()));
  put32(v, static_cast<std::uint32_t>(s.instructions.size()));
  for (const auto& i : s.instructions) {
    v.insert(v.end(), {i.op, i.type, i.lhs_source, i.rhs_source});
    put16(v, i.lhs);
    put16(v, i.rhs);
  }
  patch32(v, 0x20, static_cast<std::uint32_t>(v.size()));
  put32(v, static_cast<std::uint32_t>(s.signatures.size()));
  for (const auto sig : s.signatures)
    put32(v, sig);
  patch32(v, 0x24, static_cast<std::uint32_t>(v.size()));
  v.insert(v.end(), s.param_region.begin(), s.param_region.end());
  patch32(v, 0x28, static_cast<std::uint32_t>(v.size()));
  v.insert(v.end(), s.pool.begin(), s.pool.end());
  return v;
}

}  // namespace ainb::test
