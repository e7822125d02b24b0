#pragma once

#include <cstdint>

namespace ainb::formats::byml {

// BYML aligns containers, string tables and 64-bit values to four bytes: the reader checks it,
// the writer pads to it.
constexpr std::uint64_t align4(std::uint64_t value) {
  return (value + 3) & ~std::uint64_t{3};
}

}  // namespace ainb::formats::byml
