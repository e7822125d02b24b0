#pragma once

// Hand-made BYML and AAMP files for what the corpus lacks (big endian, every node and parameter
// type), shared by the format tests and the bad-input tests.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ainb/bit_cast.hpp"

namespace ainb::test {

// Writes integers in either byte order at chosen offsets, growing the buffer as needed (unlike
// ainb::ByteWriter, which appends little-endian values).
struct OffsetWriter {
  std::endian order;
  std::vector<std::uint8_t> bytes;

  std::size_t size() const { return bytes.size(); }
  void put(std::size_t at, std::uint64_t value, int size);
  void u8(std::size_t at, std::uint8_t v) { put(at, v, 1); }
  void u16(std::size_t at, std::uint16_t v) { put(at, v, 2); }
  void u24(std::size_t at, std::uint32_t v) { put(at, v, 3); }
  void u32(std::size_t at, std::uint32_t v) { put(at, v, 4); }
  void u64(std::size_t at, std::uint64_t v) { put(at, v, 8); }
  void f32(std::size_t at, float v) { u32(at, ainb::bit_cast<std::uint32_t>(v)); }
  // The characters and a NUL.
  void text(std::size_t at, std::string_view s);
};

// A BYML v3 document: root hash {"a": [int64 -5, uint64, double 2.25, null, "s", <shared>],
// "b": <shared>}, the shared array being [true, 1.5f] at 0xC0 (layout in format_samples.cpp).
OffsetWriter byml_sample(std::endian order);

// An AAMP v2 file whose root list holds one object "obj" with one parameter of each type 0..20,
// named "p0".."p20".
inline constexpr std::size_t kAampRoot = 0x34;
inline constexpr std::size_t kAampObject = 0x40;
inline constexpr std::size_t kAampParameters = 0x48;
inline constexpr std::uint32_t kAampTypeCount = 21;
OffsetWriter aamp_sample(std::endian order);

}  // namespace ainb::test
