#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "ainb/load_error.hpp"

namespace ainb::formats::aamp {

// Parameter types, as numbered in the file (official names in the comments).
enum class ParameterType : std::uint8_t {
  Bool = 0,           // Parameter<bool>
  F32 = 1,            // Parameter<float>
  Int = 2,            // Parameter<int>
  Vec2 = 3,           // Parameter<sead::Vector2f>
  Vec3 = 4,           // Parameter<sead::Vector3f>
  Vec4 = 5,           // Parameter<sead::Vector4f>
  Color = 6,          // Parameter<sead::Color4f>
  String32 = 7,       // Parameter<sead::FixedSafeString<32>>
  String64 = 8,       // Parameter<sead::FixedSafeString<64>>
  Curve1 = 9,         // ParameterCurve<1>
  Curve2 = 10,        // ParameterCurve<2>
  Curve3 = 11,        // ParameterCurve<3>
  Curve4 = 12,        // ParameterCurve<4>
  BufferInt = 13,     // ParameterBuffer<int>
  BufferF32 = 14,     // ParameterBuffer<float>
  String256 = 15,     // Parameter<sead::FixedSafeString<256>>
  Quat = 16,          // Parameter<sead::Quat<float>>
  U32 = 17,           // Parameter<uint>
  BufferU32 = 18,     // ParameterBuffer<uint>
  BufferBinary = 19,  // ParameterBuffer<unsigned char>
  StringRef = 20,     // Parameter<sead::SafeString>
};
const char* type_name(ParameterType type) noexcept;

// One curve of a ParameterCurve: two integers and 30 floats (128 bytes).
struct Curve {
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  std::array<float, 30> floats{};
};

struct Parameter {
  ParameterType type = ParameterType::Bool;
  // Bool: bool; F32: float; Int: int32; U32: uint32; Vec2/3/4, Color, Quat, BufferF32: floats;
  // strings: std::string; curves: curves; BufferInt: int32s; BufferU32: uint32s;
  // BufferBinary: bytes.
  std::variant<bool, float, std::int32_t, std::uint32_t, std::vector<float>, std::string,
               std::vector<Curve>, std::vector<std::int32_t>, std::vector<std::uint32_t>,
               std::vector<std::uint8_t>>
      value;
};

// Children keep file order; keys are the CRC32 hashes of the names.
struct ParameterObject {
  std::vector<std::pair<std::uint32_t, Parameter>> parameters;
};
struct ParameterList {
  // Defined after the class: clang 14 with libstdc++ 12 rejects an implicit one that checks
  // std::pair<..., ParameterList> while ParameterList is still incomplete (the fuzz build).
  ParameterList() noexcept;
  std::vector<std::pair<std::uint32_t, ParameterObject>> objects;
  std::vector<std::pair<std::uint32_t, ParameterList>> lists;
};
inline ParameterList::ParameterList() noexcept = default;
// The root ("param_root") and the header's version and type string.
struct ParameterIO {
  std::uint32_t version = 0;
  std::string type;  // usually "xml"
  std::endian byte_order = std::endian::little;
  std::uint32_t root_name_hash = 0;
  ParameterList root;
};

// CRC-32 (zlib's, as Boost.CRC's crc_32_type computes it) of a name: the key the file stores.
std::uint32_t name_hash(std::string_view name) noexcept;

// Names for hashes, from any list of known names (e.g. the keys of a text rendering, or a game's
// name dump). Unknown hashes print as numbers.
class NameTable {
 public:
  NameTable();  // knows "param_root"
  void add(std::string name);
  const std::string* find(std::uint32_t hash) const noexcept;
  std::size_t size() const noexcept { return names_.size(); }

 private:
  std::unordered_map<std::uint32_t, std::string> names_;
};

// True when the bytes start with "AAMP".
bool is_aamp(std::span<const std::uint8_t> bytes) noexcept;

// Reads an AAMP version 2 file, either byte order. Every offset, count and type is checked; the
// lists, objects and parameters reached may not exceed the header's counts (which bounds the work
// for files whose offsets make a list its own child). Throws LoadError.
ParameterIO read(std::span<const std::uint8_t> bytes, std::string_view file_name);

}  // namespace ainb::formats::aamp
