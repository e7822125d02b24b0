#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ainb/load_error.hpp"

namespace ainb::formats::byml {

// The node types of the format (the byte stored before or beside each node).
enum class NodeType : std::uint8_t {
  Hash32Map = 0x20,  // hash-keyed map: u32 key hashes instead of hash key table indices
  String = 0xA0,
  Binary = 0xA1,
  File = 0xA2,  // binary data with an alignment (v4+)
  Array = 0xC0,
  Hash = 0xC1,
  StringTable = 0xC2,
  Bool = 0xD0,
  Int = 0xD1,
  Float = 0xD2,
  UInt = 0xD3,
  Int64 = 0xD4,
  UInt64 = 0xD5,
  Double = 0xD6,
  Null = 0xFF,
};

// The types of decoded values (Binary and File are both binary data; File keeps an alignment).
enum class ValueType {
  Null,
  Bool,
  Int,
  UInt,
  Float,
  Int64,
  UInt64,
  Double,
  String,
  Binary,
  File,
  Array,
  Hash,
  Hash32Map
};

class Value;
using Array = std::vector<Value>;
// A hash node: keys in file order (the format stores them sorted, but that is not checked).
using Hash = std::vector<std::pair<std::string, Value>>;
using Hash32Map = std::vector<std::pair<std::uint32_t, Value>>;

struct Binary {
  std::vector<std::uint8_t> data;
  std::uint32_t alignment = 0;  // File nodes only
};

// A read-only BYML value. Containers are shared: a node that the file stores once and references
// from several places (de-duplicated nodes) is decoded once and shared by every reference.
class Value {
 public:
  using Type = ValueType;

  Value() = default;  // Null
  static Value make_bool(bool value) { return Value(Type::Bool, value); }
  static Value make_int(std::int32_t value) { return Value(Type::Int, value); }
  static Value make_uint(std::uint32_t value) { return Value(Type::UInt, value); }
  static Value make_float(float value) { return Value(Type::Float, value); }
  static Value make_int64(std::int64_t value) { return Value(Type::Int64, value); }
  static Value make_uint64(std::uint64_t value) { return Value(Type::UInt64, value); }
  static Value make_double(double value) { return Value(Type::Double, value); }
  static Value make_string(std::string value) { return Value(Type::String, std::move(value)); }
  static Value make_binary(Binary value, bool file) {
    return Value(file ? Type::File : Type::Binary,
                 std::make_shared<const Binary>(std::move(value)));
  }
  static Value make_array(std::shared_ptr<const Array> value) {
    return Value(Type::Array, std::move(value));
  }
  static Value make_hash(std::shared_ptr<const Hash> value) {
    return Value(Type::Hash, std::move(value));
  }
  static Value make_hash32(std::shared_ptr<const Hash32Map> value) {
    return Value(Type::Hash32Map, std::move(value));
  }

  Type type() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == Type::Null; }
  bool is_container() const noexcept {
    return type_ == Type::Array || type_ == Type::Hash || type_ == Type::Hash32Map;
  }

  // Each accessor requires the matching type (checked: std::bad_variant_access otherwise).
  bool as_bool() const { return std::get<bool>(data_); }
  std::int32_t as_int() const { return std::get<std::int32_t>(data_); }
  std::uint32_t as_uint() const { return std::get<std::uint32_t>(data_); }
  float as_float() const { return std::get<float>(data_); }
  std::int64_t as_int64() const { return std::get<std::int64_t>(data_); }
  std::uint64_t as_uint64() const { return std::get<std::uint64_t>(data_); }
  double as_double() const { return std::get<double>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const Binary& as_binary() const { return *std::get<std::shared_ptr<const Binary>>(data_); }
  const Array& as_array() const { return *std::get<std::shared_ptr<const Array>>(data_); }
  const Hash& as_hash() const { return *std::get<std::shared_ptr<const Hash>>(data_); }
  const Hash32Map& as_hash32() const { return *std::get<std::shared_ptr<const Hash32Map>>(data_); }
  // The value of `key` in a Hash, or nullptr (also when this is not a Hash).
  const Value* find(std::string_view key) const noexcept;
  // The shared container itself, to see that two references are one node.
  const void* container_identity() const noexcept;

  // Deep equality: same types, same scalars (floats and doubles by bit pattern, so a NaN equals
  // itself and -0.0 differs from 0.0), same entries in the same order. Sharing is not compared.
  friend bool operator==(const Value& a, const Value& b) noexcept;

 private:
  using Storage = std::variant<std::monostate, bool, std::int32_t, std::uint32_t, float,
                               std::int64_t, std::uint64_t, double, std::string,
                               std::shared_ptr<const Binary>, std::shared_ptr<const Array>,
                               std::shared_ptr<const Hash>, std::shared_ptr<const Hash32Map>>;
  template <typename T>
  Value(Type type, T value) : type_(type), data_(std::move(value)) {}

  Type type_ = Type::Null;
  Storage data_;
};

const char* type_name(Value::Type type) noexcept;

struct Document {
  std::uint16_t version = 0;
  std::endian byte_order = std::endian::little;
  Value root;  // Null when the root offset is 0 (an empty document)
};

struct ReadOptions {
  // Containers nested deeper than this are refused (recursion bound; real files nest < 20).
  std::uint32_t max_depth = 256;
  // Bytes of strings and binary data the decoded document may hold. Containers are shared, but
  // strings are copied per reference, so a small hostile file could otherwise expand without
  // bound (one long string referenced from every entry of a large array).
  std::uint64_t max_decoded_bytes = 256ull << 20;
};

// True when the bytes start with "BY" or "YB" followed by a version from 1 to 7.
bool is_byml(std::span<const std::uint8_t> bytes) noexcept;

// Reads a document, versions 1 to 7, either byte order. Every offset, index and count is checked;
// a container that contains itself (a cycle through offsets) is an error. Throws LoadError naming
// `file_name`, the section, the offset and the problem.
Document read(std::span<const std::uint8_t> bytes, std::string_view file_name,
              const ReadOptions& options = {});

// Where the writer puts 64-bit values (0xD4-0xD6) and binary data (0xA1, 0xA2), which sit
// behind offsets. Both layouts occur in real files.
enum class ValuePlacement {
  BeforeRoot,      // one block between the string table and the root (TotK, roead, BotW)
  AfterContainer,  // each container's right after it (Splatoon 3's Banc files)
};

struct WriteOptions {
  std::uint16_t version = 7;  // 2 to 7
  std::endian byte_order = std::endian::little;
  ValuePlacement placement = ValuePlacement::BeforeRoot;
};

// A document the writer cannot represent (a type the version lacks, a string holding a NUL, a
// duplicate key, a container that contains itself, more than 2^24 - 1 entries, 4 GiB).
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes a document: the header, the hash key table and the string table (each sorted, unique),
// the 64-bit values and binary data (see ValuePlacement), then the containers depth first in
// entry order, each at a 4-byte boundary. Hash entries are written sorted by key (hash32 maps by
// hash), as the format requires; a container shared by several parents is written once, so a
// document read from a file keeps its shared nodes. A Null root writes an empty document.
// 64-bit values need version 3, File nodes version 4. Throws WriteError.
std::vector<std::uint8_t> write(const Value& root, const WriteOptions& options = {});
// The document's own version and byte order.
std::vector<std::uint8_t> write(const Document& document,
                                ValuePlacement placement = ValuePlacement::BeforeRoot);

}  // namespace ainb::formats::byml
