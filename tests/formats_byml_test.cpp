// BYML details the corpus lacks: big-endian files, 64-bit and null values, shared nodes, cycles
// and out-of-range offsets, laid out by hand.

#include <bit>

#include <doctest/doctest.h>

#include "ainb/formats/byml.hpp"
#include "format_samples.hpp"

namespace byml = ainb::formats::byml;

using ainb::test::byml_sample;

TEST_CASE("BYML: both byte orders, 64-bit values, null and shared nodes") {
  for (const auto order : {std::endian::little, std::endian::big}) {
    const auto w = byml_sample(order);
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
  auto cycle = byml_sample(std::endian::little);
  cycle.u32(0x40, 0x30);  // "b" points back at the root
  CHECK_THROWS_WITH(byml::read(cycle.bytes, "c.byml"),
                    "c.byml: nodes at offset 0x30: the container at 0x30 contains itself (a cycle "
                    "of offsets)");
  auto outside = byml_sample(std::endian::little);
  outside.u32(0x40, 0x1000);
  CHECK_THROWS_WITH(
      byml::read(outside.bytes, "o.byml"),
      "o.byml: nodes at offset 0x1000: container header (0x4 bytes) runs past the end of "
      "the data (size 0x100)");
  auto unaligned = byml_sample(std::endian::little);
  unaligned.u32(0x40, 0xC1);
  CHECK_THROWS_WITH(byml::read(unaligned.bytes, "a.byml"),
                    "a.byml: nodes at offset 0xc1: the container at 0xc1 is not 4-byte aligned");
  auto string_index = byml_sample(std::endian::big);
  string_index.u32(0x9C, 7);
  CHECK_THROWS_WITH(byml::read(string_index.bytes, "s.byml"),
                    "s.byml: nodes at offset 0x9c: string index 7 is out of range (the string "
                    "table has 1)");
  auto key_index = byml_sample(std::endian::little);
  key_index.u24(0x3C, 9);
  CHECK_THROWS_WITH(byml::read(key_index.bytes, "k.byml"),
                    "k.byml: nodes at offset 0x3c: hash key index 9 is out of range (the hash "
                    "key table has 2)");
  auto unknown = byml_sample(std::endian::little);
  unknown.u8(0x87, 0x42);
  CHECK_THROWS_WITH(byml::read(unknown.bytes, "u.byml"),
                    "u.byml: nodes at offset 0x98: unknown node type 0x42");
  // 0x21 (a v7+ "value hash map" some tools name, with no public layout): refused by name.
  unknown.u8(0x87, 0x21);
  CHECK_THROWS_WITH(byml::read(unknown.bytes, "u.byml"),
                    "u.byml: nodes at offset 0x98: unknown node type 0x21");
  auto root_type = byml_sample(std::endian::little);
  root_type.u8(0x30, 0xD1);
  CHECK_THROWS_WITH(byml::read(root_type.bytes, "r.byml"),
                    "r.byml: nodes at offset 0x30: node type 0xd1 at 0x30 is not a container "
                    "(array, hash or hash32 map)");
  auto version = byml_sample(std::endian::little);
  version.u16(2, 9);
  CHECK_THROWS_WITH(byml::read(version.bytes, "v.byml"),
                    "v.byml: BYML header at offset 0x2: version 9 is not supported (1 to 7 are)");
  auto table = byml_sample(std::endian::little);
  table.u8(0x20, 0xC1);
  CHECK_THROWS_WITH(byml::read(table.bytes, "t.byml"),
                    "t.byml: string table at offset 0x20: node type is 0xc1, expected a string "
                    "table (0xc2)");
  // An empty document (root offset 0) is Null.
  auto empty = byml_sample(std::endian::little);
  empty.u32(12, 0);
  CHECK(byml::read(empty.bytes, "e.byml").root.is_null());
  // Deep nesting is bounded.
  byml::ReadOptions shallow;
  shallow.max_depth = 1;
  CHECK_THROWS_WITH(byml::read(byml_sample(std::endian::little).bytes, "d.byml", shallow),
                    "d.byml: nodes at offset 0xc0: containers are nested deeper than 1 levels");
}
