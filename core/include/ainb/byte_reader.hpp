#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include <fmt/format.h>

#include "ainb/bit_cast.hpp"
#include "ainb/load_error.hpp"

namespace ainb {

// The one way the project reads binary data: a bounds-checked reader over a byte span. Every read
// names an absolute offset, is checked against the span, and copies the value out (the buffer is
// never cast to a struct). A failed check throws LoadError naming the file, the current section
// and the offset, so callers never see a partial or undefined read.
//
// Values are little-endian unless the reader is made for big-endian data (BYML "BY", SARC and
// AAMP files of the Wii U): `with_byte_order` gives a reader over the same bytes whose integer
// and float reads use the other order, so those formats go through the same checks.
class ByteReader {
 public:
  // `base` is the file offset of data[0]; it makes error offsets absolute when a reader covers a
  // part of a file (the EXB section, say).
  ByteReader(std::span<const std::uint8_t> data, std::string_view file_name, std::uint64_t base = 0,
             std::endian byte_order = std::endian::little)
      : data_(data), file_(file_name), base_(base), byte_order_(byte_order) {}

  // The same bytes, file, base and section, read in `order`.
  ByteReader with_byte_order(std::endian order) const {
    ByteReader reader(data_, file_, base_, order);
    reader.section_ = section_;
    return reader;
  }
  std::endian byte_order() const noexcept { return byte_order_; }

  std::uint64_t size() const noexcept { return data_.size(); }
  std::span<const std::uint8_t> data() const noexcept { return data_; }
  std::string_view file_name() const noexcept { return file_; }
  std::uint64_t base() const noexcept { return base_; }

  // Names the section being read for the messages of errors raised while the scope lives.
  class SectionScope {
   public:
    SectionScope(const SectionScope&) = delete;
    SectionScope& operator=(const SectionScope&) = delete;
    ~SectionScope() { reader_.section_ = previous_; }

   private:
    friend class ByteReader;
    SectionScope(const ByteReader& reader, std::string_view name)
        : reader_(reader), previous_(reader.section_) {
      reader_.section_ = name;
    }
    const ByteReader& reader_;
    std::string_view previous_;
  };
  [[nodiscard]] SectionScope section(std::string_view name) const { return {*this, name}; }
  std::string_view current_section() const noexcept { return section_; }

  bool contains(std::uint64_t offset, std::uint64_t length) const noexcept {
    return offset <= data_.size() && length <= data_.size() - offset;
  }
  // Throws unless [offset, offset + length) lies inside the data. `what` names the thing read.
  void require(std::uint64_t offset, std::uint64_t length, std::string_view what) const {
    if (!contains(offset, length)) fail_out_of_range(offset, length, what);
  }

  template <typename T>
  T read(std::uint64_t offset, std::string_view what = "value") const {
    static_assert(std::is_trivially_copyable_v<T>);
    require(offset, sizeof(T), what);
    T value;
    std::memcpy(&value, data_.data() + offset, sizeof(T));
    if constexpr (std::is_integral_v<T> && sizeof(T) > 1) {
      // AINB (the hot path) is little endian; big-endian data are the exception.
      if (byte_order_ != std::endian::native) [[unlikely]] {
        value = byte_swap(value);
      }
    }
    return value;
  }
  std::uint8_t u8(std::uint64_t offset, std::string_view what = "u8") const {
    return read<std::uint8_t>(offset, what);
  }
  std::uint16_t u16(std::uint64_t offset, std::string_view what = "u16") const {
    return read<std::uint16_t>(offset, what);
  }
  std::int16_t s16(std::uint64_t offset, std::string_view what = "s16") const {
    return read<std::int16_t>(offset, what);
  }
  std::uint32_t u32(std::uint64_t offset, std::string_view what = "u32") const {
    return read<std::uint32_t>(offset, what);
  }
  std::int32_t s32(std::uint64_t offset, std::string_view what = "s32") const {
    return read<std::int32_t>(offset, what);
  }
  float f32(std::uint64_t offset, std::string_view what = "f32") const {
    return ainb::bit_cast<float>(u32(offset, what));
  }
  std::uint64_t u64(std::uint64_t offset, std::string_view what = "u64") const {
    return read<std::uint64_t>(offset, what);
  }
  std::int64_t s64(std::uint64_t offset, std::string_view what = "s64") const {
    return read<std::int64_t>(offset, what);
  }
  double f64(std::uint64_t offset, std::string_view what = "f64") const {
    return ainb::bit_cast<double>(u64(offset, what));
  }
  // A 24-bit unsigned integer (BYML node counts and hash key indices).
  std::uint32_t u24(std::uint64_t offset, std::string_view what = "u24") const {
    const auto b = bytes(offset, 3, what);
    const std::uint32_t first = b[0], middle = b[1], last = b[2];
    if (byte_order_ == std::endian::little) return first | (middle << 8) | (last << 16);
    return (first << 16) | (middle << 8) | last;
  }
  std::span<const std::uint8_t> bytes(std::uint64_t offset, std::uint64_t length,
                                      std::string_view what = "bytes") const {
    require(offset, length, what);  // so both fit size_t, also where it has 32 bits (wasm32)
    return data_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
  }
  // A NUL-terminated string starting at `offset`; the terminator must lie inside the data.
  std::string_view c_string(std::uint64_t offset, std::string_view what = "string") const;

  // A reader over [offset, offset + length) whose error offsets stay absolute.
  ByteReader sub(std::uint64_t offset, std::uint64_t length, std::string_view what) const {
    auto span = bytes(offset, length, what);
    ByteReader reader(span, file_, base_ + offset, byte_order_);
    reader.section_ = section_;
    return reader;
  }

  // Throws LoadError at `offset` (relative to this reader) in the current section.
  [[noreturn]] void fail(std::uint64_t offset, std::string reason) const;
  template <typename... Args>
  [[noreturn]] void fail(std::uint64_t offset, fmt::format_string<Args...> format,
                         Args&&... args) const {
    fail(offset, fmt::format(format, std::forward<Args>(args)...));
  }

 private:
  template <typename T>
  static T byte_swap(T value) {
    auto bytes = ainb::bit_cast<std::array<std::uint8_t, sizeof(T)>>(value);
    std::reverse(bytes.begin(), bytes.end());
    return ainb::bit_cast<T>(bytes);
  }
  [[noreturn]] void fail_out_of_range(std::uint64_t offset, std::uint64_t length,
                                      std::string_view what) const;

  std::span<const std::uint8_t> data_;
  std::string_view file_;
  std::uint64_t base_;
  std::endian byte_order_;
  mutable std::string_view section_ = "file";
};

// Sequential reads from a ByteReader: for records whose fields follow each other.
class Cursor {
 public:
  Cursor(const ByteReader& reader, std::uint64_t offset) : reader_(&reader), offset_(offset) {}

  std::uint64_t offset() const noexcept { return offset_; }
  void skip(std::uint64_t count) noexcept { offset_ += count; }

  template <typename T>
  T read(std::string_view what) {
    T value = reader_->read<T>(offset_, what);
    offset_ += sizeof(T);
    return value;
  }
  std::uint8_t u8(std::string_view what = "u8") { return read<std::uint8_t>(what); }
  std::uint16_t u16(std::string_view what = "u16") { return read<std::uint16_t>(what); }
  std::int16_t s16(std::string_view what = "s16") { return read<std::int16_t>(what); }
  std::uint32_t u32(std::string_view what = "u32") { return read<std::uint32_t>(what); }
  std::int32_t s32(std::string_view what = "s32") { return read<std::int32_t>(what); }
  float f32(std::string_view what = "f32") { return ainb::bit_cast<float>(u32(what)); }
  std::span<const std::uint8_t> bytes(std::uint64_t length, std::string_view what = "bytes") {
    auto span = reader_->bytes(offset_, length, what);
    offset_ += length;
    return span;
  }

 private:
  const ByteReader* reader_;
  std::uint64_t offset_;
};

}  // namespace ainb
