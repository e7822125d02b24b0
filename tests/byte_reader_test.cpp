#include <vector>

#include <doctest/doctest.h>

#include "ainb/byte_reader.hpp"

using ainb::ByteReader;
using ainb::Cursor;
using ainb::LoadError;

TEST_CASE("ByteReader reads little-endian values and checks every bound") {
  const std::vector<std::uint8_t> data = {0x01, 0x02, 0x03, 0x04, 0x00, 0x00,
                                          0x80, 0x3F, 'a',  'b',  0x00, 'c'};
  const ByteReader r(data, "x.bin");
  CHECK(r.u8(0) == 0x01);
  CHECK(r.u16(0) == 0x0201);
  CHECK(r.u32(0) == 0x04030201u);
  CHECK(r.s16(2) == 0x0403);
  CHECK(r.f32(4) == 1.0f);
  CHECK(r.c_string(8) == "ab");
  CHECK(r.c_string(10).empty());
  // Unaligned reads are fine: sections after the EXB section start at odd offsets.
  CHECK(r.u32(1) == 0x00040302u);

  CHECK_THROWS_WITH(r.u32(10, "count"),
                    "x.bin: file at offset 0xa: count (0x4 bytes) runs past the end of the data "
                    "(size 0xc)");
  CHECK_THROWS_WITH(r.c_string(11),
                    "x.bin: file at offset 0xb: string has no NUL terminator before "
                    "the end of the data");
  CHECK_THROWS_WITH(r.c_string(12),
                    "x.bin: file at offset 0xc: string starts past the end of the "
                    "data (size 0xc)");
  CHECK_THROWS_AS(r.bytes(4, ~std::uint64_t{0}), LoadError);  // no overflow in the check
}

TEST_CASE("sections name errors and sub-readers keep file offsets") {
  const std::vector<std::uint8_t> data(16, 0);
  const ByteReader r(data, "y.bin");
  {
    auto scope = r.section("nodes");
    CHECK(r.current_section() == "nodes");
    const auto sub = r.sub(8, 4, "EXB");
    CHECK(sub.base() == 8);
    CHECK_THROWS_WITH(sub.u32(2),
                      "y.bin: nodes at offset 0xa: u32 (0x4 bytes) runs past the end of "
                      "the data (size 0x4)");
    {
      auto inner = r.section("plugs");
      CHECK_THROWS_WITH(r.fail(3, "bad {}", 7), "y.bin: plugs at offset 0x3: bad 7");
    }
    CHECK(r.current_section() == "nodes");
  }
  CHECK(r.current_section() == "file");
}

TEST_CASE("Cursor reads fields in sequence") {
  const std::vector<std::uint8_t> data = {0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0xFF, 0xFF};
  const ByteReader r(data, "z.bin");
  Cursor c(r, 0);
  CHECK(c.u16() == 1);
  CHECK(c.u32() == 2);
  CHECK(c.s16() == -1);
  CHECK(c.offset() == 8);
  CHECK_THROWS_AS(c.u8(), LoadError);
}

TEST_CASE("ByteReader reads big-endian data through the same checks") {
  const std::vector<std::uint8_t> data = {0x01, 0x02, 0x03, 0x04, 0x3F, 0x80, 0x00, 0x00,
                                          0x3F, 0xF0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  const ByteReader little(data, "be.bin");
  const auto big = little.with_byte_order(std::endian::big);
  CHECK(big.byte_order() == std::endian::big);
  CHECK(big.u16(0) == 0x0102);
  CHECK(big.u32(0) == 0x01020304u);
  CHECK(big.u24(1) == 0x020304u);
  CHECK(little.u24(1) == 0x040302u);
  CHECK(big.f32(4) == 1.0f);
  CHECK(big.f64(8) == 1.0);
  CHECK(big.u64(0) == 0x010203043F800000ull);
  CHECK(little.u64(0) == 0x0000803F04030201ull);
  // Sub-readers keep the order; errors are the same as for little-endian data.
  CHECK(big.sub(4, 4, "float").f32(0) == 1.0f);
  CHECK_THROWS_WITH(big.u64(12, "double"),
                    "be.bin: file at offset 0xc: double (0x8 bytes) runs past the end of the "
                    "data (size 0x10)");
}
