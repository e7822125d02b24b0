// BYML details the corpus lacks: big-endian files, 64-bit and null values, shared nodes, cycles
// and out-of-range offsets, laid out by hand.

#include <bit>

#include <doctest/doctest.h>

#include "ainb/formats/byml.hpp"

namespace byml = ainb::formats::byml;

namespace {

// Writes words in either byte order at chosen offsets of a buffer.
struct Writer {
  std::endian order;
  std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(0x100, 0);

  void u8(std::size_t at, std::uint8_t v) { bytes[at] = v; }
  void u16(std::size_t at, std::uint16_t v) { put(at, v, 2); }
  void u32(std::size_t at, std::uint32_t v) { put(at, v, 4); }
  void u64(std::size_t at, std::uint64_t v) { put(at, v, 8); }
  void u24(std::size_t at, std::uint32_t v) { put(at, v, 3); }
  void text(std::size_t at, std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i)
      bytes[at + i] = static_cast<std::uint8_t>(s[i]);
  }
  void put(std::size_t at, std::uint64_t v, int size) {
    for (int i = 0; i < size; ++i) {
      const int shift = order == std::endian::little ? 8 * i : 8 * (size - 1 - i);
      bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> shift);
    }
  }
};

// A document: root hash {"a": [int64, uint64, double, null, "s", <shared array>],
// "b": <the same shared array>}, with the shared array = [true, 1.5f].
Writer sample(std::endian order) {
  Writer w{order};
  w.text(0, order == std::endian::little ? "YB" : "BY");
  w.u16(2, 3);
  w.u32(4, 0x10);   // hash key table
  w.u32(8, 0x20);   // string table
  w.u32(12, 0x30);  // root
  // Hash key table: "a", "b".
  w.u8(0x10, 0xC2);
  w.u24(0x11, 2);
  // Offsets relative to the table: the keys sit at 0x70 and 0x72.
  w.u32(0x14, 0x60);
  w.u32(0x18, 0x62);
  w.u32(0x1C, 0x64);
  w.text(0x70, "a");
  w.text(0x72, "b");
  // String table: "s".
  w.u8(0x20, 0xC2);
  w.u24(0x21, 1);
  w.u32(0x24, 0x58);  // "s" at 0x20 + 0x58 = 0x78
  w.u32(0x28, 0x5A);
  w.text(0x78, "s");
  // Root hash with 2 entries.
  w.u8(0x30, 0xC1);
  w.u24(0x31, 2);
  w.u24(0x34, 0);
  w.u8(0x37, 0xC0);
  w.u32(0x38, 0x80);
  w.u24(0x3C, 1);
  w.u8(0x3F, 0xC0);
  w.u32(0x40, 0xC0);
  // Array "a" with 6 entries at 0x80: types at 0x84 (8 bytes padded), values at 0x8C.
  w.u8(0x80, 0xC0);
  w.u24(0x81, 6);
  const std::uint8_t types[] = {0xD4, 0xD5, 0xD6, 0xFF, 0xA0, 0xC0};
  for (std::size_t i = 0; i < 6; ++i)
    w.u8(0x84 + i, types[i]);
  w.u32(0x8C, 0xA8);
  w.u32(0x90, 0xB0);
  w.u32(0x94, 0xB8);
  w.u32(0x98, 0);
  w.u32(0x9C, 0);  // string index 0
  w.u32(0xA0, 0xC0);
  w.u64(0xA8, static_cast<std::uint64_t>(-5));
  w.u64(0xB0, 0xFFFFFFFF00000001ull);
  w.u64(0xB8, std::bit_cast<std::uint64_t>(2.25));
  // Shared array at 0xC0: [true, 1.5f].
  w.u8(0xC0, 0xC0);
  w.u24(0xC1, 2);
  w.u8(0xC4, 0xD0);
  w.u8(0xC5, 0xD2);
  w.u32(0xC8, 1);
  w.u32(0xCC, std::bit_cast<std::uint32_t>(1.5f));
  return w;
}

}  // namespace

TEST_CASE("BYML: both byte orders, 64-bit values, null and shared nodes") {
  for (const auto order : {std::endian::little, std::endian::big}) {
    const auto w = sample(order);
    const auto document = byml::read(w.bytes, "doc.byml");
    CHECK(document.byte_order == order);
    CHECK(document.version == 3);
    const auto* a = document.root.find("a");
    REQUIRE(a != nullptr);
    const auto& items = a->as_array();
    REQUIRE(items.size() == 6);
    CHECK(items[0].as_int64() == -5);
    CHECK(items[1].as_uint64() == 0xFFFFFFFF00000001ull);
    CHECK(items[2].as_double() == 2.25);
    CHECK(items[3].is_null());
    CHECK(items[4].as_string() == "s");
    CHECK(items[5].as_array()[0].as_bool());
    CHECK(items[5].as_array()[1].as_float() == 1.5f);
    const auto* b = document.root.find("b");
    REQUIRE(b != nullptr);
    // The node stored once at 0xC0 is decoded once and shared by both references.
    CHECK(b->container_identity() == items[5].container_identity());
  }
}

TEST_CASE("BYML: cycles, bad offsets, indices and types are load errors") {
  auto cycle = sample(std::endian::little);
  cycle.u32(0x40, 0x30);  // "b" points back at the root
  CHECK_THROWS_WITH(byml::read(cycle.bytes, "c.byml"),
                    "c.byml: nodes at offset 0x30: the container at 0x30 contains itself (a cycle "
                    "of offsets)");
  auto outside = sample(std::endian::little);
  outside.u32(0x40, 0x1000);
  CHECK_THROWS_WITH(
      byml::read(outside.bytes, "o.byml"),
      "o.byml: nodes at offset 0x1000: container header (0x4 bytes) runs past the end of "
      "the data (size 0x100)");
  auto unaligned = sample(std::endian::little);
  unaligned.u32(0x40, 0xC1);
  CHECK_THROWS_WITH(byml::read(unaligned.bytes, "a.byml"),
                    "a.byml: nodes at offset 0xc1: the container at 0xc1 is not 4-byte aligned");
  auto string_index = sample(std::endian::big);
  string_index.u32(0x9C, 7);
  CHECK_THROWS_WITH(byml::read(string_index.bytes, "s.byml"),
                    "s.byml: nodes at offset 0x9c: string index 7 is out of range (the string "
                    "table has 1)");
  auto key_index = sample(std::endian::little);
  key_index.u24(0x3C, 9);
  CHECK_THROWS_WITH(byml::read(key_index.bytes, "k.byml"),
                    "k.byml: nodes at offset 0x3c: hash key index 9 is out of range (the hash "
                    "key table has 2)");
  auto unknown = sample(std::endian::little);
  unknown.u8(0x87, 0x42);
  CHECK_THROWS_WITH(byml::read(unknown.bytes, "u.byml"),
                    "u.byml: nodes at offset 0x98: unknown node type 0x42");
  auto root_type = sample(std::endian::little);
  root_type.u8(0x30, 0xD1);
  CHECK_THROWS_WITH(byml::read(root_type.bytes, "r.byml"),
                    "r.byml: nodes at offset 0x30: node type 0xd1 at 0x30 is not a container "
                    "(array, hash or hash32 map)");
  auto version = sample(std::endian::little);
  version.u16(2, 9);
  CHECK_THROWS_WITH(byml::read(version.bytes, "v.byml"),
                    "v.byml: BYML header at offset 0x2: version 9 is not supported (1 to 7 are)");
  auto table = sample(std::endian::little);
  table.u8(0x20, 0xC1);
  CHECK_THROWS_WITH(byml::read(table.bytes, "t.byml"),
                    "t.byml: string table at offset 0x20: node type is 0xc1, expected a string "
                    "table (0xc2)");
  // An empty document (root offset 0) is Null.
  auto empty = sample(std::endian::little);
  empty.u32(12, 0);
  CHECK(byml::read(empty.bytes, "e.byml").root.is_null());
  // Deep nesting is bounded.
  byml::ReadOptions shallow;
  shallow.max_depth = 1;
  CHECK_THROWS_WITH(byml::read(sample(std::endian::little).bytes, "d.byml", shallow),
                    "d.byml: nodes at offset 0xc0: containers are nested deeper than 1 levels");
}
