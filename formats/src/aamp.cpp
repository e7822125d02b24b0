#include "ainb/formats/aamp.hpp"

#include <boost/crc.hpp>

#include "ainb/byte_reader.hpp"

// Layout (docs/formats.md): a 0x30-byte header ("AAMP", version 2, flags with bit 0 = little
// endian, sizes and counts) followed by the parameter IO type string; the root list sits at
// 0x30 + the header's IO offset. Lists (12 bytes), objects (8) and parameters (8) point at their
// children and data with offsets in units of 4 bytes relative to themselves.

namespace ainb::formats::aamp {

namespace {

constexpr std::uint64_t kHeaderSize = 0x30;
constexpr std::uint64_t kListSize = 12;
constexpr std::uint64_t kObjectSize = 8;
constexpr std::uint64_t kParameterSize = 8;
constexpr std::uint32_t kMaxDepth = 128;
constexpr std::uint64_t kCurveSize = 8 + 30 * 4;

class Parser {
 public:
  Parser(const ByteReader& reader, std::uint32_t lists, std::uint32_t objects,
         std::uint32_t parameters)
      : reader_(reader), lists_left_(lists), objects_left_(objects), parameters_left_(parameters) {}

  ParameterList list(std::uint64_t offset, std::uint32_t depth) {
    if (depth > kMaxDepth)
      reader_.fail(offset, "lists are nested deeper than {} levels", kMaxDepth);
    take(lists_left_, offset, "lists");
    reader_.require(offset, kListSize, "parameter list");
    const std::uint64_t lists_at = offset + std::uint64_t{reader_.u16(offset + 4)} * 4;
    const std::uint16_t list_count = reader_.u16(offset + 6, "child list count");
    const std::uint64_t objects_at = offset + std::uint64_t{reader_.u16(offset + 8)} * 4;
    const std::uint16_t object_count = reader_.u16(offset + 10, "child object count");
    reader_.require(lists_at, list_count * kListSize, "child lists");
    reader_.require(objects_at, object_count * kObjectSize, "child objects");
    ParameterList result;
    result.objects.reserve(object_count);
    for (std::uint32_t i = 0; i < object_count; ++i) {
      const std::uint64_t at = objects_at + i * kObjectSize;
      result.objects.emplace_back(reader_.u32(at, "object name hash"), object(at));
    }
    result.lists.reserve(list_count);
    for (std::uint32_t i = 0; i < list_count; ++i) {
      const std::uint64_t at = lists_at + i * kListSize;
      result.lists.emplace_back(reader_.u32(at, "list name hash"), list(at, depth + 1));
    }
    return result;
  }

 private:
  // Each record reached uses up one of the header's count, so a list that is its own child
  // (offset 0) or overlapping child arrays end with an error instead of running on.
  void take(std::uint64_t& left, std::uint64_t offset, const char* what) {
    if (left == 0) reader_.fail(offset, "more {} are reachable than the header counts", what);
    --left;
  }

  ParameterObject object(std::uint64_t offset) {
    take(objects_left_, offset, "objects");
    const std::uint64_t parameters_at = offset + std::uint64_t{reader_.u16(offset + 4)} * 4;
    const std::uint16_t count = reader_.u16(offset + 6, "parameter count");
    reader_.require(parameters_at, count * kParameterSize, "parameters");
    ParameterObject result;
    result.parameters.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t at = parameters_at + i * kParameterSize;
      result.parameters.emplace_back(reader_.u32(at, "parameter name hash"), parameter(at));
    }
    return result;
  }

  std::vector<float> floats(std::uint64_t at, std::uint64_t count) {
    reader_.require(at, count * 4, "float values");
    std::vector<float> values(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = reader_.f32(at + 4 * i);
    return values;
  }

  // Buffers store their element count in the 4 bytes before the data.
  std::uint32_t buffer_count(std::uint64_t data, std::uint64_t element_size) {
    if (data < 4) reader_.fail(data, "buffer data has no room for its element count before it");
    const std::uint32_t count = reader_.u32(data - 4, "buffer element count");
    reader_.require(data, count * element_size, "buffer data");
    return count;
  }

  Parameter parameter(std::uint64_t offset) {
    take(parameters_left_, offset, "parameters");
    const std::uint64_t data = offset + std::uint64_t{reader_.u24(offset + 4)} * 4;
    const std::uint8_t raw_type = reader_.u8(offset + 7, "parameter type");
    Parameter result;
    result.type = static_cast<ParameterType>(raw_type);
    switch (result.type) {
      case ParameterType::Bool:
        result.value = reader_.u32(data, "bool value") != 0;
        break;
      case ParameterType::F32:
        result.value = reader_.f32(data, "f32 value");
        break;
      case ParameterType::Int:
        result.value = reader_.s32(data, "int value");
        break;
      case ParameterType::U32:
        result.value = reader_.u32(data, "u32 value");
        break;
      case ParameterType::Vec2:
        result.value = floats(data, 2);
        break;
      case ParameterType::Vec3:
        result.value = floats(data, 3);
        break;
      case ParameterType::Vec4:
      case ParameterType::Color:
      case ParameterType::Quat:
        result.value = floats(data, 4);
        break;
      case ParameterType::String32:
      case ParameterType::String64:
      case ParameterType::String256:
      case ParameterType::StringRef:
        result.value = std::string(reader_.c_string(data, "string value"));
        break;
      case ParameterType::Curve1:
      case ParameterType::Curve2:
      case ParameterType::Curve3:
      case ParameterType::Curve4: {
        const std::size_t count = raw_type - static_cast<std::uint8_t>(ParameterType::Curve1) + 1;
        reader_.require(data, count * kCurveSize, "curve values");
        std::vector<Curve> curves(count);
        for (std::size_t c = 0; c < count; ++c) {
          const std::uint64_t at = data + c * kCurveSize;
          curves[c].a = reader_.u32(at);
          curves[c].b = reader_.u32(at + 4);
          for (std::size_t f = 0; f < 30; ++f)
            curves[c].floats[f] = reader_.f32(at + 8 + 4 * f);
        }
        result.value = std::move(curves);
        break;
      }
      case ParameterType::BufferInt: {
        std::vector<std::int32_t> values(buffer_count(data, 4));
        for (std::size_t i = 0; i < values.size(); ++i)
          values[i] = reader_.s32(data + 4 * i);
        result.value = std::move(values);
        break;
      }
      case ParameterType::BufferF32:
        result.value = floats(data, buffer_count(data, 4));
        break;
      case ParameterType::BufferU32: {
        std::vector<std::uint32_t> values(buffer_count(data, 4));
        for (std::size_t i = 0; i < values.size(); ++i)
          values[i] = reader_.u32(data + 4 * i);
        result.value = std::move(values);
        break;
      }
      case ParameterType::BufferBinary: {
        const auto bytes = reader_.bytes(data, buffer_count(data, 1), "buffer data");
        result.value = std::vector<std::uint8_t>(bytes.begin(), bytes.end());
        break;
      }
      default:
        reader_.fail(offset + 7, "unknown parameter type {}", raw_type);
    }
    return result;
  }

  const ByteReader& reader_;
  std::uint64_t lists_left_, objects_left_, parameters_left_;
};

}  // namespace

const char* type_name(ParameterType type) noexcept {
  switch (type) {
    case ParameterType::Bool:
      return "bool";
    case ParameterType::F32:
      return "f32";
    case ParameterType::Int:
      return "int";
    case ParameterType::Vec2:
      return "vec2";
    case ParameterType::Vec3:
      return "vec3";
    case ParameterType::Vec4:
      return "vec4";
    case ParameterType::Color:
      return "color";
    case ParameterType::String32:
      return "str32";
    case ParameterType::String64:
      return "str64";
    case ParameterType::Curve1:
      return "curve1";
    case ParameterType::Curve2:
      return "curve2";
    case ParameterType::Curve3:
      return "curve3";
    case ParameterType::Curve4:
      return "curve4";
    case ParameterType::BufferInt:
      return "buffer_int";
    case ParameterType::BufferF32:
      return "buffer_f32";
    case ParameterType::String256:
      return "str256";
    case ParameterType::Quat:
      return "quat";
    case ParameterType::U32:
      return "u32";
    case ParameterType::BufferU32:
      return "buffer_u32";
    case ParameterType::BufferBinary:
      return "buffer_binary";
    case ParameterType::StringRef:
      return "str";
  }
  return "?";
}

std::uint32_t name_hash(std::string_view name) noexcept {
  boost::crc_32_type crc;  // zlib's CRC-32 (the one the game hashes names with)
  crc.process_bytes(name.data(), name.size());
  return crc.checksum();
}

NameTable::NameTable() {
  add("param_root");
}

void NameTable::add(std::string name) {
  const auto hash = name_hash(name);
  names_.try_emplace(hash, std::move(name));
}

const std::string* NameTable::find(std::uint32_t hash) const noexcept {
  const auto found = names_.find(hash);
  return found == names_.end() ? nullptr : &found->second;
}

bool is_aamp(std::span<const std::uint8_t> bytes) noexcept {
  return bytes.size() >= 4 && bytes[0] == 'A' && bytes[1] == 'A' && bytes[2] == 'M' &&
         bytes[3] == 'P';
}

ParameterIO read(std::span<const std::uint8_t> bytes, std::string_view file_name) {
  const ByteReader raw(bytes, file_name);
  auto section = raw.section("AAMP header");
  raw.require(0, kHeaderSize, "header");
  if (!is_aamp(bytes)) raw.fail(0, "not an AAMP file (magic is not \"AAMP\")");
  ParameterIO io;
  // Bit 0 of the flags says little endian; read in little-endian order, a big-endian file's
  // flags (bit 1, UTF-8, at most) leave that bit clear.
  io.byte_order = (raw.u32(8, "flags") & 1) ? std::endian::little : std::endian::big;
  const auto reader = raw.with_byte_order(io.byte_order);
  if (const auto version = reader.u32(4, "version"); version != 2) {
    reader.fail(4, "version {} is not supported (only 2 is)", version);
  }
  const std::uint32_t file_size = reader.u32(0x0C, "file size");
  if (file_size > reader.size()) {
    reader.fail(0x0C, "the header's file size {:#x} is larger than the data ({:#x} bytes)",
                file_size, reader.size());
  }
  io.version = reader.u32(0x10, "parameter IO version");
  const std::uint64_t root = kHeaderSize + reader.u32(0x14, "parameter IO offset");
  const std::uint32_t lists = reader.u32(0x18, "list count");
  const std::uint32_t objects = reader.u32(0x1C, "object count");
  const std::uint32_t parameters = reader.u32(0x20, "parameter count");
  io.type = std::string(reader.c_string(kHeaderSize, "parameter IO type"));
  const auto body = reader.sub(0, file_size, "file");
  auto lists_section = body.section("parameter lists");
  io.root_name_hash = body.u32(root, "root name hash");
  Parser parser(body, lists, objects, parameters);
  io.root = parser.list(root, 0);
  return io;
}

}  // namespace ainb::formats::aamp
