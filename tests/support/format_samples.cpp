#include "format_samples.hpp"

#include <string>

#include "ainb/formats/aamp.hpp"

namespace ainb::test {

void OffsetWriter::put(std::size_t at, std::uint64_t value, int size) {
  const auto count = static_cast<std::size_t>(size);
  if (bytes.size() < at + count) bytes.resize(at + count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t shift = order == std::endian::little ? 8 * i : 8 * (count - 1 - i);
    bytes[at + i] = static_cast<std::uint8_t>(value >> shift);
  }
}

void OffsetWriter::text(std::size_t at, std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    u8(at + i, static_cast<std::uint8_t>(s[i]));
  u8(at + s.size(), 0);
}

// A document: root hash {"a": [int64, uint64, double, null, "s", <shared array>],
// "b": <the same shared array>}, with the shared array = [true, 1.5f].
OffsetWriter byml_sample(std::endian order) {
  OffsetWriter w{order, std::vector<std::uint8_t>(0x100, 0)};
  w.text(0, order == std::endian::little ? "YB" : "BY");
  w.u16(2, 3);
  w.u32(4, 0x10);   // hash key table
  w.u32(8, 0x20);   // string table
  w.u32(12, 0x30);  // root
  // Hash key table: "a", "b".
  w.u8(0x10, 0xC2);
  w.u24(0x11, 2);
  // Offsets relative to the table: the keys sit at 0x70 and 0x72.
  w.u32(0x14, 0x60);
  w.u32(0x18, 0x62);
  w.u32(0x1C, 0x64);
  w.text(0x70, "a");
  w.text(0x72, "b");
  // String table: "s".
  w.u8(0x20, 0xC2);
  w.u24(0x21, 1);
  w.u32(0x24, 0x58);  // "s" at 0x20 + 0x58 = 0x78
  w.u32(0x28, 0x5A);
  w.text(0x78, "s");
  // Root hash with 2 entries.
  w.u8(0x30, 0xC1);
  w.u24(0x31, 2);
  w.u24(0x34, 0);
  w.u8(0x37, 0xC0);
  w.u32(0x38, 0x80);
  w.u24(0x3C, 1);
  w.u8(0x3F, 0xC0);
  w.u32(0x40, 0xC0);
  // Array "a" with 6 entries at 0x80: types at 0x84 (8 bytes padded), values at 0x8C.
  w.u8(0x80, 0xC0);
  w.u24(0x81, 6);
  const std::uint8_t types[] = {0xD4, 0xD5, 0xD6, 0xFF, 0xA0, 0xC0};
  for (std::size_t i = 0; i < 6; ++i)
    w.u8(0x84 + i, types[i]);
  w.u32(0x8C, 0xA8);
  w.u32(0x90, 0xB0);
  w.u32(0x94, 0xB8);
  w.u32(0x98, 0);
  w.u32(0x9C, 0);  // string index 0
  w.u32(0xA0, 0xC0);
  w.u64(0xA8, static_cast<std::uint64_t>(-5));
  w.u64(0xB0, 0xFFFFFFFF00000001ull);
  w.u64(0xB8, ainb::bit_cast<std::uint64_t>(2.25));
  // Shared array at 0xC0: [true, 1.5f].
  w.u8(0xC0, 0xC0);
  w.u24(0xC1, 2);
  w.u8(0xC4, 0xD0);
  w.u8(0xC5, 0xD2);
  w.u32(0xC8, 1);
  w.u32(0xCC, ainb::bit_cast<std::uint32_t>(1.5f));
  return w;
}

// One object holding one parameter of each type 0..20, named "p0".."p20".
OffsetWriter aamp_sample(std::endian order) {
  OffsetWriter w{order, std::vector<std::uint8_t>(kAampParameters + kAampTypeCount * 8, 0)};
  w.text(0, "AAMP");
  w.u32(4, 2);
  w.u32(8, order == std::endian::little ? 3 : 2);
  w.u32(0x10, 0);
  w.u32(0x14, 4);  // root list at 0x30 + 4
  w.u32(0x18, 1);
  w.u32(0x1C, 1);
  w.u32(0x20, kAampTypeCount);
  w.text(0x30, "xml");
  w.u32(kAampRoot, formats::aamp::name_hash("param_root"));
  w.u16(kAampRoot + 4, 0);
  w.u16(kAampRoot + 6, 0);
  w.u16(kAampRoot + 8, (kAampObject - kAampRoot) / 4);
  w.u16(kAampRoot + 10, 1);
  w.u32(kAampObject, formats::aamp::name_hash("obj"));
  w.u16(kAampObject + 4, (kAampParameters - kAampObject) / 4);
  w.u16(kAampObject + 6, kAampTypeCount);
  std::size_t data = kAampParameters + kAampTypeCount * 8;
  for (std::uint32_t type = 0; type < kAampTypeCount; ++type) {
    const std::size_t at = kAampParameters + type * 8;
    const bool buffer = type == 13 || type == 14 || type == 18 || type == 19;
    if (buffer) data += 4;  // the element count goes before the data
    w.u32(at, formats::aamp::name_hash("p" + std::to_string(type)));
    w.u24(at + 4, static_cast<std::uint32_t>((data - at) / 4));
    w.u8(at + 7, static_cast<std::uint8_t>(type));
    switch (static_cast<formats::aamp::ParameterType>(type)) {
      case formats::aamp::ParameterType::Bool:
        w.u32(data, 1);
        data += 4;
        break;
      case formats::aamp::ParameterType::F32:
        w.f32(data, 1.5f);
        data += 4;
        break;
      case formats::aamp::ParameterType::Int:
        w.u32(data, static_cast<std::uint32_t>(-7));
        data += 4;
        break;
      case formats::aamp::ParameterType::U32:
        w.u32(data, 0xDEADBEEF);
        data += 4;
        break;
      case formats::aamp::ParameterType::Vec2:
      case formats::aamp::ParameterType::Vec3:
      case formats::aamp::ParameterType::Vec4:
      case formats::aamp::ParameterType::Color:
      case formats::aamp::ParameterType::Quat: {
        const int count = type == 3 ? 2 : type == 4 ? 3 : 4;
        for (int i = 0; i < count; ++i)
          w.f32(data + 4 * static_cast<std::size_t>(i), static_cast<float>(i + 1));
        data += 4 * static_cast<std::size_t>(count);
        break;
      }
      case formats::aamp::ParameterType::String32:
      case formats::aamp::ParameterType::String64:
      case formats::aamp::ParameterType::String256:
      case formats::aamp::ParameterType::StringRef:
        w.text(data, "s" + std::to_string(type));
        data += 8;
        break;
      case formats::aamp::ParameterType::Curve1:
      case formats::aamp::ParameterType::Curve2:
      case formats::aamp::ParameterType::Curve3:
      case formats::aamp::ParameterType::Curve4:
        for (std::uint32_t c = 0; c < type - 8; ++c) {
          w.u32(data, c);
          w.u32(data + 4, 100 + c);
          for (std::size_t f = 0; f < 30; ++f)
            w.f32(data + 8 + 4 * f, static_cast<float>(f) / 2);
          data += 128;
        }
        break;
      case formats::aamp::ParameterType::BufferInt:
      case formats::aamp::ParameterType::BufferF32:
      case formats::aamp::ParameterType::BufferU32:
        w.u32(data - 4, 3);
        for (std::uint32_t i = 0; i < 3; ++i)
          w.u32(data + 4 * i, i + 10);
        data += 12;
        break;
      case formats::aamp::ParameterType::BufferBinary:
        w.u32(data - 4, 5);
        for (std::uint8_t i = 0; i < 5; ++i)
          w.u8(data + i, static_cast<std::uint8_t>(i + 1));
        data += 8;
        break;
    }
  }
  w.u32(0x0C, static_cast<std::uint32_t>(w.size()));
  return w;
}

}  // namespace ainb::test
