#pragma once

// The EXB data types as one table, and the one conversion between an EXB value and its bytes in
// EXB memory (docs/exb.md, "Data types and values").

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>

namespace ainb::exb {

struct Vec3 {
  float x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

// The data types, one row each: enumerator; value (the byte of EXB v3, which the enum keeps);
// the byte of EXB v1 and v2 (-1: none, they have no UInt); the bytes a value occupies in EXB
// memory (a bool is a 32-bit word, a string an 8-byte pointer); its C++ type (std::monostate:
// no value); and its spellings: the name (`ainb disasm`'s function lines, `ainb eval`, both JSON
// dumps, the text form, messages), the assembly operand's word, the signature's (signature.hpp),
// the reference tool's (`ainb dump --format peer`) and the noun of prose (messages about user
// slots). "" where a type has no such spelling. The rows build the enum, value_size, the names
// both ways, the version bytes both ways, kValueTypes and the C++ types. Adding a data type:
// docs/exb.md.
#define AINB_EXB_DATA_TYPES(X)                                                   \
  X(None, 0, 0, 0, std::monostate, "NONE", "", "Void", "none", "")               \
  X(Immediate, 1, 1, 0, std::monostate, "IMM", "", "", "immediate_or_user", "")  \
  X(Bool, 2, 2, 4, bool, "BOOL", "bool", "Bool", "bool", "bool")                 \
  X(Int, 3, 3, 4, std::int32_t, "INT", "int", "Int", "s32", "int")               \
  X(UInt, 4, -1, 4, std::uint32_t, "UINT", "uint", "UInt", "u32", "uint")        \
  X(Float, 5, 4, 4, float, "FLOAT", "float", "Float", "f32", "float")            \
  X(String, 6, 5, 8, const char*, "STRING", "str", "String", "string", "string") \
  X(Vec3f, 7, 6, 12, Vec3, "VECTOR3F", "vec3f", "Vector3F", "vec3f", "vec3f")

enum class DataType : std::uint8_t {
#define AINB_EXB_DATA_TYPE_ENUM(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  name = value,
  AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_ENUM)
#undef AINB_EXB_DATA_TYPE_ENUM
};
inline constexpr std::size_t kDataTypeCount = [] {
  std::size_t count = 0;
#define AINB_EXB_DATA_TYPE_COUNT(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  ++count;
  AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_COUNT)
#undef AINB_EXB_DATA_TYPE_COUNT
  return count;
}();

// Bytes a value of `type` occupies in EXB memory (strings are 8-byte pointers); 0: no value.
constexpr std::uint32_t value_size(DataType type) {
  switch (type) {
#define AINB_EXB_DATA_TYPE_SIZE(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  case DataType::name:                                                                         \
    return size;
    AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_SIZE)
#undef AINB_EXB_DATA_TYPE_SIZE
  }
  return 0;
}
constexpr bool is_value_type(DataType type) {
  return value_size(type) != 0;
}

// The types that have values, in the order of their rows: the order of the user slot spaces
// (program.hpp: UserInBool ... UserInVec3f) and of Value's alternatives after the first.
inline constexpr std::size_t kValueTypeCount = [] {
  std::size_t count = 0;
#define AINB_EXB_DATA_TYPE_VALUES(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  count += size != 0 ? 1 : 0;
  AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_VALUES)
#undef AINB_EXB_DATA_TYPE_VALUES
  return count;
}();
inline constexpr std::array<DataType, kValueTypeCount> kValueTypes = [] {
  std::array<DataType, kValueTypeCount> types{};
  std::size_t next = 0;
#define AINB_EXB_DATA_TYPE_VALUE(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  if (size != 0) types[next++] = DataType::name;
  AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_VALUE)
#undef AINB_EXB_DATA_TYPE_VALUE
  return types;
}();
// The index of a value type in kValueTypes; kValueTypeCount for a type without values.
constexpr std::size_t value_type_index(DataType type) {
  for (std::size_t k = 0; k < kValueTypeCount; ++k) {
    if (kValueTypes[k] == type) return k;
  }
  return kValueTypeCount;
}

std::string_view data_type_name(DataType type);  // "NONE", "IMM", "BOOL", "INT", ...
std::optional<DataType> data_type_named(std::string_view name);
std::string_view assembly_word(DataType type);  // "bool", "int", "uint", "float", "str", "vec3f"
std::optional<DataType> data_type_of_word(std::string_view word);
// A type as signatures spell it: "Bool", "Int", "UInt", "Float", "String", "Vector3F", "Void" (also
// for IMM, which no signature names).
std::string_view signature_type_name(DataType type);
std::optional<DataType> data_type_of_signature_word(std::string_view word);
std::string_view peer_name(DataType type);       // the reference tool's: "none", "s32", "f32", ...
std::string_view data_type_noun(DataType type);  // "bool", "int", "uint", "float", "string", ...
// The type of the data-type byte `raw` in a section of EXB `version` (v3 inserts UInt at 4),
// and back; nullopt where the version has no such type.
std::optional<DataType> data_type_of_byte(std::uint32_t version, std::uint8_t raw);
std::optional<std::uint8_t> data_type_byte(std::uint32_t version, DataType type);

// A value crossing the boundary: none, bool, int, uint, float, string (NUL-terminated), vec3f;
// the alternatives are the C++ types of the rows, in their order.
using Value =
    std::variant<std::monostate, bool, std::int32_t, std::uint32_t, float, const char*, Vec3>;

namespace detail {
// The data type of C++ type T (void: None).
template <typename T>
constexpr DataType data_type_of() {
  if constexpr (std::is_void_v<T>) {
    return DataType::None;
  } else {
    constexpr DataType type = [] {
      DataType found = DataType::None;
#define AINB_EXB_DATA_TYPE_OF(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  if (std::is_same_v<T, cpp> && size != 0) found = DataType::name;
      AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_OF)
#undef AINB_EXB_DATA_TYPE_OF
      return found;
    }();
    static_assert(type != DataType::None,
                  "EXB values are bool, int32, uint32, float, const char*, Vec3");
    return type;
  }
}

// A value of C++ type T at `at`, as EXB memory holds it: a bool is a 32-bit word (any non-zero
// reads as true, true is written as 1), every other type its own bytes.
template <typename T>
T load(const std::uint8_t* at) {
  if constexpr (std::is_same_v<T, bool>) {
    std::uint32_t raw;
    std::memcpy(&raw, at, 4);
    return raw != 0;
  } else {
    T value;
    std::memcpy(&value, at, sizeof(T));
    return value;
  }
}

template <typename T>
void store(std::uint8_t* at, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    const std::uint32_t raw = value ? 1 : 0;
    std::memcpy(at, &raw, 4);
  } else {
    std::memcpy(at, &value, sizeof(T));
  }
}
}  // namespace detail

// The one conversion between a value and its bytes in EXB memory (an input, an output, a user
// slot, a user function's argument block), each way. read_value reads value_size(type) bytes at
// `bytes` (none for a type without values: monostate); store_value writes
// value_size(type_of(value)) bytes at `at`; write_value fills a 12-byte value block (an input or
// output) with the value and zeros after it.
DataType type_of(const Value& value);
Value read_value(DataType type, const std::uint8_t* bytes);
void store_value(const Value& value, std::uint8_t* at);
void write_value(const Value& value, std::array<std::uint8_t, 12>& bytes);

}  // namespace ainb::exb
