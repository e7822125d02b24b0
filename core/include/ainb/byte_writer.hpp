#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ainb/bit_cast.hpp"

namespace ainb {

// The writing side of ByteReader: little-endian values appended to a growing byte vector, and
// 32-bit words patched in place once an offset is known (a table is written before the records
// it points at). Used by the AINB writer and by the tests' file builder.
class ByteWriter {
 public:
  std::vector<std::uint8_t> written;

  std::uint32_t size() const { return static_cast<std::uint32_t>(written.size()); }
  void u8(std::uint8_t v) { written.push_back(v); }
  void u16(std::uint16_t v) {
    u8(static_cast<std::uint8_t>(v));
    u8(static_cast<std::uint8_t>(v >> 8));
  }
  void u32(std::uint32_t v) {
    u16(static_cast<std::uint16_t>(v));
    u16(static_cast<std::uint16_t>(v >> 16));
  }
  void f32(float v) { u32(ainb::bit_cast<std::uint32_t>(v)); }
  void zeros(std::size_t n) { written.insert(written.end(), n, 0); }
  void append(std::span<const std::uint8_t> data) {
    written.insert(written.end(), data.begin(), data.end());
  }
  // `at` must lie inside what was written (callers patch their own earlier words).
  void patch32(std::uint32_t at, std::uint32_t v) {
    for (std::uint32_t i = 0; i < 4; ++i)
      written.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
  }
};

}  // namespace ainb
