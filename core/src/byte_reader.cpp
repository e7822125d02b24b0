#include "ainb/byte_reader.hpp"

#include <algorithm>

namespace ainb {

std::string_view ByteReader::c_string(std::uint64_t offset, std::string_view what) const {
  if (offset >= data_.size()) {
    fail(offset, "{} starts past the end of the data (size {:#x})", what, data_.size());
  }
  const auto* begin = data_.data() + offset;
  const auto* end = data_.data() + data_.size();
  const auto* nul = std::find(begin, end, std::uint8_t{0});
  if (nul == end) fail(offset, "{} has no NUL terminator before the end of the data", what);
  return {reinterpret_cast<const char*>(begin), static_cast<std::size_t>(nul - begin)};
}

void ByteReader::fail(std::uint64_t offset, std::string reason) const {
  throw LoadError(std::string(file_), std::string(section_), base_ + offset, std::move(reason));
}

void ByteReader::fail_out_of_range(std::uint64_t offset, std::uint64_t length,
                                   std::string_view what) const {
  fail(offset, "{} ({:#x} bytes) runs past the end of the data (size {:#x})", what, length,
       data_.size());
}

}  // namespace ainb
