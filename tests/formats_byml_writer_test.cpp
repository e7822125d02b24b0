// The BYML writer: exact bytes for small documents (both byte orders, both placements of 64-bit
// values, binary and file data, shared containers, hash32 maps), its errors, and every corpus
// file read, written and read again.

#include <bit>
#include <cstring>

#include <doctest/doctest.h>

#include "ainb/bit_cast.hpp"
#include "ainb/formats/byml.hpp"
#include "corpus.hpp"

namespace byml = ainb::formats::byml;
using byml::Value;

namespace {

using Bytes = std::vector<std::uint8_t>;

Value hash(byml::Hash entries) {
  return Value::make_hash(std::make_shared<const byml::Hash>(std::move(entries)));
}
Value array(byml::Array items) {
  return Value::make_array(std::make_shared<const byml::Array>(std::move(items)));
}

// Read back, the document equals what was written.
void check_reads_back(const Bytes& bytes, const Value& root) {
  CHECK(byml::read(bytes, "written.byml").root == root);
}

}  // namespace

TEST_CASE("BYML writer: a tiny document byte for byte, hash entries sorted, both byte orders") {
  // Given as b, a: written a, b (the format keeps hashes sorted for binary search).
  const auto root = hash({{"b", Value::make_string("s")}, {"a", Value::make_int(1)}});
  const Bytes little = {
      0x59, 0x42, 0x07, 0x00, 0x10, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0x34, 0x00, 0x00,
      0x00,  // header: "YB", version 7, key table, string table, root
      0xC2, 0x02, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00,
      0x00, 'a',  0x00, 'b',  0x00,  // key table: "a", "b"
      0xC2, 0x01, 0x00, 0x00, 0x0C, 0x00, 0x00, 0x00, 0x0E, 0x00, 0x00, 0x00, 's',  0x00, 0x00,
      0x00,  // string table: "s", padded to 4
      0xC1, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xD1, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
      0xA0, 0x00, 0x00, 0x00, 0x00};  // root: a = int 1, b = string 0
  CHECK(byml::write(root) == little);
  const Bytes big = {0x42, 0x59, 0x00, 0x02, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x24,
                     0x00, 0x00, 0x00, 0x34, 0xC2, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x10,
                     0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x14, 'a',  0x00, 'b',  0x00,
                     0xC2, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0C, 0x00, 0x00, 0x00, 0x0E,
                     's',  0x00, 0x00, 0x00, 0xC1, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0xD1,
                     0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0xA0, 0x00, 0x00, 0x00, 0x00};
  CHECK(byml::write(root, {.version = 2, .byte_order = std::endian::big}) == big);
  const auto back = byml::read(big, "big.byml");
  CHECK(back.version == 2);
  CHECK(back.byte_order == std::endian::big);
  CHECK(back.root == hash({{"a", Value::make_int(1)}, {"b", Value::make_string("s")}}));
  // write(Document) keeps the document's version and byte order.
  CHECK(byml::write(back) == big);
  // An empty document: the header alone.
  CHECK(byml::write(Value()) == Bytes{0x59, 0x42, 0x07, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("BYML writer: 64-bit values before the root or after their container") {
  // [int64 -2, [double 0.5]], version 3 (the first with 64-bit values).
  const auto root = array({Value::make_int64(-2), array({Value::make_double(0.5)})});
  const Bytes before = {0x59, 0x42, 0x03, 0x00, 0,    0,    0,    0,    0,    0,    0,    0,
                        0x20, 0x00, 0x00, 0x00,                          // root at 0x20
                        0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x10: -2
                        0,    0,    0,    0,    0,    0,    0xE0, 0x3F,  // 0x18: 0.5
                        0xC0, 0x02, 0x00, 0x00, 0xD4, 0xC0, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
                        0x30, 0x00, 0x00, 0x00,  // 0x20: the root array
                        0xC0, 0x01, 0x00, 0x00, 0xD6, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00};
  CHECK(byml::write(root, {.version = 3}) == before);
  const Bytes after = {0x59, 0x42, 0x03, 0x00, 0,    0,    0,    0,    0,    0,    0,
                       0,    0x10, 0x00, 0x00, 0x00,  // root at 0x10
                       0xC0, 0x02, 0x00, 0x00, 0xD4, 0xC0, 0x00, 0x00, 0x20, 0x00, 0x00,
                       0x00, 0x28, 0x00, 0x00, 0x00,                    // 0x10: the root array
                       0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // 0x20: -2
                       0xC0, 0x01, 0x00, 0x00, 0xD6, 0x00, 0x00, 0x00, 0x34, 0x00, 0x00,
                       0x00,                                             // 0x28: the inner array
                       0,    0,    0,    0,    0,    0,    0xE0, 0x3F};  // 0x34: 0.5
  CHECK(byml::write(root, {.version = 3, .placement = byml::ValuePlacement::AfterContainer}) ==
        after);
  check_reads_back(before, root);
  check_reads_back(after, root);
}

TEST_CASE("BYML writer: file data aligned, binary data packed, shared containers, hash32 maps") {
  byml::Binary file{{'x', 'y', 'z'}, 0x20};
  byml::Binary binary{{'a', 'b'}, 0};
  const auto root =
      array({Value::make_binary(std::move(file), true), Value::make_binary(binary, false)});
  const Bytes data = {
      0x59, 0x42, 0x04, 0x00, 0,    0,    0,    0,    0,   0,   0,
      0,    0x2C, 0,    0,    0,                                      // header: the root at 0x2C
      0,    0,    0,    0,    0,    0,    0,    0,                    // 0x10: padding
      0x03, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 'x', 'y', 'z',  // 0x18: data at 0x20
      0x02, 0x00, 0x00, 0x00, 'a',  'b',                              // 0x23: binary data
      0x00, 0x00, 0x00,                                               // to a 4-byte boundary
      0xC0, 0x02, 0x00, 0x00, 0xA2, 0xA1, 0x00, 0x00,                 // 0x2C: the root
      0x18, 0x00, 0x00, 0x00, 0x23, 0x00, 0x00, 0x00};
  CHECK(byml::write(root, {.version = 4}) == data);
  check_reads_back(data, root);

  // One container referenced twice is written once, and read back shared.
  const auto shared = array({Value::make_bool(true)});
  const auto twice = hash({{"x", shared}, {"y", shared}});
  const Bytes one_copy = {0x59, 0x42, 0x07, 0x00, 0x10, 0,    0,    0,    0,    0,
                          0,    0,    0x24, 0,    0,    0,  // no string table
                          0xC2, 0x02, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x12, 0x00,
                          0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 'x',  0x00, 'y',  0x00,  // key table
                          0xC1, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x38, 0x00,
                          0x00, 0x00, 0x01, 0x00, 0x00, 0xC0, 0x38, 0x00, 0x00, 0x00,  // root
                          0xC0, 0x01, 0x00, 0x00, 0xD0, 0x00, 0x00, 0x00, 0x01, 0x00,
                          0x00, 0x00};  // [true]
  CHECK(byml::write(twice) == one_copy);
  const auto back = byml::read(one_copy, "shared.byml").root;
  CHECK(back.find("x")->container_identity() == back.find("y")->container_identity());

  // Hash32 maps: entries sorted by hash, then their type bytes.
  const auto map = Value::make_hash32(std::make_shared<const byml::Hash32Map>(
      byml::Hash32Map{{0x20, Value::make_float(1.5f)}, {0x10, Value::make_uint(7)}}));
  const Bytes hashed = {0x59, 0x42, 0x07, 0x00, 0,    0,    0,    0,    0,    0,
                        0,    0,    0x10, 0,    0,    0,    0x20, 0x02, 0x00, 0x00,
                        0x10, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x20, 0x00,
                        0x00, 0x00, 0x00, 0x00, 0xC0, 0x3F, 0xD3, 0xD2, 0x00, 0x00};
  CHECK(byml::write(map) == hashed);
  // Null, and a NaN, which equals itself by bit pattern.
  const auto odd = array({Value(), Value::make_float(ainb::bit_cast<float>(0x7FC00001u))});
  check_reads_back(byml::write(odd), odd);
  CHECK_FALSE(Value::make_double(0.0) == Value::make_double(-0.0));
}

TEST_CASE("BYML writer: what it cannot write is a WriteError") {
  CHECK_THROWS_WITH_AS(byml::write(Value::make_int(1)),
                       "the root is of type int; it must be an array, a hash or a hash32 map "
                       "(null: an empty document)",
                       byml::WriteError);
  CHECK_THROWS_WITH(byml::write(array({}), {.version = 1}),
                    "BYML version 1 is not written (2 to 7 are)");
  CHECK_THROWS_WITH(byml::write(array({}), {.version = 8}),
                    "BYML version 8 is not written (2 to 7 are)");
  CHECK_THROWS_WITH(byml::write(array({Value::make_uint64(1)}), {.version = 2}),
                    "a value of type uint64 needs BYML version 3 or later (writing version 2)");
  CHECK_THROWS_WITH(byml::write(array({Value::make_binary({{1}, 4}, true)}), {.version = 3}),
                    "a value of type file needs BYML version 4 or later (writing version 3)");
  CHECK_THROWS_WITH(byml::write(array({Value::make_binary({{1}, 0x20000}, true)})),
                    "file data alignment 0x20000 is over the writer's limit of 0x10000");
  CHECK_THROWS_WITH(byml::write(array({Value::make_string(std::string("a\0b", 3))})),
                    "a string holds a NUL character, which the string tables cannot store");
  CHECK_THROWS_WITH(byml::write(hash({{std::string("k\0", 2), Value()}})),
                    "a hash key holds a NUL character, which the string tables cannot store");
  CHECK_THROWS_WITH(byml::write(hash({{"k", Value()}, {"k", Value::make_int(2)}})),
                    "a hash has the key \"k\" twice");
  CHECK_THROWS_WITH(byml::write(Value::make_hash32(std::make_shared<const byml::Hash32Map>(
                        byml::Hash32Map{{5, Value()}, {5, Value()}}))),
                    "a hash32 map has the key 0x00000005 twice");
  // Values are immutable once made, but a host can still build a cycle through a shared array.
  auto items = std::make_shared<byml::Array>();
  const auto loop = Value::make_array(items);
  items->push_back(array({loop}));
  CHECK_THROWS_WITH(byml::write(loop),
                    "a container contains itself (a cycle of shared containers)");
  items->clear();  // frees the cycle
}

TEST_CASE("BYML writer: every corpus file comes back value for value") {
  auto files = ainb::test::corpus_byml_files();
  const auto bulk = ainb::test::corpus_files("bulk/byml", "");
  files.insert(files.end(), bulk.begin(), bulk.end());
  if (files.empty()) return;
  std::size_t same_values = 0, same_bytes = 0, same_bytes_after_container = 0;
  for (const auto& path : files) {
    INFO(path.filename().string());
    const auto original = ainb::test::read_file(path);
    const auto document = byml::read(original, path.filename().string());
    const auto written = byml::write(document);
    const auto back = byml::read(written, "written");
    CHECK(back.version == document.version);
    CHECK(back.byte_order == document.byte_order);
    same_values += back.root == document.root;
    if (written == original) {
      ++same_bytes;
    } else if (byml::write(document, byml::ValuePlacement::AfterContainer) == original) {
      ++same_bytes_after_container;
    }
    // The other byte order, as version 7: the same values.
    const auto swapped = byml::write(document.root, {.byte_order = std::endian::big});
    CHECK(byml::read(swapped, "big").root == document.root);
  }
  MESSAGE("BYML writer: " << files.size() << " files, " << same_values << " value-identical, "
                          << same_bytes << " byte-identical, " << same_bytes_after_container
                          << " more with ValuePlacement::AfterContainer");
  CHECK(files.size() == 483);
  CHECK(same_values == 483);
  // The other 17 laid their containers out in an order the sorted hashes no longer tell
  // (docs/formats.md, "Writing").
  CHECK(same_bytes == 465);
  CHECK(same_bytes_after_container == 1);  // Vss_Kaisou04.bcett.byml (Splatoon 3)
}
