// AAMP details the corpus lacks: every parameter type (curves, buffers, vectors, colours,
// quaternions, u32, all strings), big-endian files, and lists that are their own children.

#include <bit>

#include <doctest/doctest.h>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/text.hpp"

namespace aamp = ainb::formats::aamp;
using aamp::ParameterType;

namespace {

struct Writer {
  std::endian order;
  std::vector<std::uint8_t> bytes;

  std::size_t size() const { return bytes.size(); }
  void put(std::size_t at, std::uint64_t v, int size) {
    if (bytes.size() < at + static_cast<std::size_t>(size))
      bytes.resize(at + static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) {
      const int shift = order == std::endian::little ? 8 * i : 8 * (size - 1 - i);
      bytes[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> shift);
    }
  }
  void u8(std::size_t at, std::uint8_t v) { put(at, v, 1); }
  void u16(std::size_t at, std::uint16_t v) { put(at, v, 2); }
  void u24(std::size_t at, std::uint32_t v) { put(at, v, 3); }
  void u32(std::size_t at, std::uint32_t v) { put(at, v, 4); }
  void f32(std::size_t at, float v) { u32(at, std::bit_cast<std::uint32_t>(v)); }
  void text(std::size_t at, std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i)
      u8(at + i, static_cast<std::uint8_t>(s[i]));
    u8(at + s.size(), 0);
  }
};

constexpr std::size_t kRoot = 0x34;
constexpr std::size_t kObject = 0x40;
constexpr std::size_t kParameters = 0x48;
constexpr std::uint32_t kTypeCount = 21;

// One object holding one parameter of each type 0..20, named "p0".."p20".
Writer sample(std::endian order) {
  Writer w{order, std::vector<std::uint8_t>(kParameters + kTypeCount * 8, 0)};
  w.text(0, "AAMP");
  w.u32(4, 2);
  w.u32(8, order == std::endian::little ? 3 : 2);
  w.u32(0x10, 0);
  w.u32(0x14, 4);  // root list at 0x30 + 4
  w.u32(0x18, 1);
  w.u32(0x1C, 1);
  w.u32(0x20, kTypeCount);
  w.text(0x30, "xml");
  w.u32(kRoot, aamp::name_hash("param_root"));
  w.u16(kRoot + 4, 0);
  w.u16(kRoot + 6, 0);
  w.u16(kRoot + 8, (kObject - kRoot) / 4);
  w.u16(kRoot + 10, 1);
  w.u32(kObject, aamp::name_hash("obj"));
  w.u16(kObject + 4, (kParameters - kObject) / 4);
  w.u16(kObject + 6, kTypeCount);
  std::size_t data = kParameters + kTypeCount * 8;
  for (std::uint32_t type = 0; type < kTypeCount; ++type) {
    const std::size_t at = kParameters + type * 8;
    const bool buffer = type == 13 || type == 14 || type == 18 || type == 19;
    if (buffer) data += 4;  // the element count goes before the data
    w.u32(at, aamp::name_hash("p" + std::to_string(type)));
    w.u24(at + 4, static_cast<std::uint32_t>((data - at) / 4));
    w.u8(at + 7, static_cast<std::uint8_t>(type));
    switch (static_cast<ParameterType>(type)) {
      case ParameterType::Bool:
        w.u32(data, 1);
        data += 4;
        break;
      case ParameterType::F32:
        w.f32(data, 1.5f);
        data += 4;
        break;
      case ParameterType::Int:
        w.u32(data, static_cast<std::uint32_t>(-7));
        data += 4;
        break;
      case ParameterType::U32:
        w.u32(data, 0xDEADBEEF);
        data += 4;
        break;
      case ParameterType::Vec2:
      case ParameterType::Vec3:
      case ParameterType::Vec4:
      case ParameterType::Color:
      case ParameterType::Quat: {
        const int count = type == 3 ? 2 : type == 4 ? 3 : 4;
        for (int i = 0; i < count; ++i)
          w.f32(data + 4 * static_cast<std::size_t>(i), static_cast<float>(i + 1));
        data += 4 * static_cast<std::size_t>(count);
        break;
      }
      case ParameterType::String32:
      case ParameterType::String64:
      case ParameterType::String256:
      case ParameterType::StringRef:
        w.text(data, "s" + std::to_string(type));
        data += 8;
        break;
      case ParameterType::Curve1:
      case ParameterType::Curve2:
      case ParameterType::Curve3:
      case ParameterType::Curve4:
        for (std::uint32_t c = 0; c < type - 8; ++c) {
          w.u32(data, c);
          w.u32(data + 4, 100 + c);
          for (std::size_t f = 0; f < 30; ++f)
            w.f32(data + 8 + 4 * f, static_cast<float>(f) / 2);
          data += 128;
        }
        break;
      case ParameterType::BufferInt:
      case ParameterType::BufferF32:
      case ParameterType::BufferU32:
        w.u32(data - 4, 3);
        for (std::uint32_t i = 0; i < 3; ++i)
          w.u32(data + 4 * i, i + 10);
        data += 12;
        break;
      case ParameterType::BufferBinary:
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

const aamp::Parameter& parameter(const aamp::ParameterIO& io, std::uint32_t type) {
  return io.root.objects.at(0).second.parameters.at(type).second;
}

}  // namespace

TEST_CASE("AAMP: every parameter type, in both byte orders") {
  for (const auto order : {std::endian::little, std::endian::big}) {
    CAPTURE(order == std::endian::little);
    const auto io = aamp::read(sample(order).bytes, "all.aamp");
    CHECK(io.byte_order == order);
    CHECK(io.type == "xml");
    REQUIRE(io.root.objects.size() == 1);
    CHECK(io.root.objects[0].first == aamp::name_hash("obj"));
    REQUIRE(io.root.objects[0].second.parameters.size() == kTypeCount);
    for (std::uint32_t type = 0; type < kTypeCount; ++type) {
      CHECK(static_cast<std::uint32_t>(parameter(io, type).type) == type);
      CHECK(io.root.objects[0].second.parameters[type].first ==
            aamp::name_hash("p" + std::to_string(type)));
    }
    CHECK(std::get<bool>(parameter(io, 0).value));
    CHECK(std::get<float>(parameter(io, 1).value) == 1.5f);
    CHECK(std::get<std::int32_t>(parameter(io, 2).value) == -7);
    CHECK(std::get<std::vector<float>>(parameter(io, 3).value) == std::vector<float>{1, 2});
    CHECK(std::get<std::vector<float>>(parameter(io, 4).value) == std::vector<float>{1, 2, 3});
    CHECK(std::get<std::vector<float>>(parameter(io, 5).value).size() == 4);
    CHECK(std::get<std::vector<float>>(parameter(io, 6).value).size() == 4);
    CHECK(std::get<std::string>(parameter(io, 7).value) == "s7");
    CHECK(std::get<std::string>(parameter(io, 8).value) == "s8");
    for (std::uint32_t curve = 9; curve <= 12; ++curve) {
      const auto& curves = std::get<std::vector<aamp::Curve>>(parameter(io, curve).value);
      REQUIRE(curves.size() == curve - 8);
      CHECK(curves.back().a == curve - 9);
      CHECK(curves.back().b == 100 + curve - 9);
      CHECK(curves.back().floats[29] == 14.5f);
    }
    CHECK(std::get<std::vector<std::int32_t>>(parameter(io, 13).value) ==
          std::vector<std::int32_t>{10, 11, 12});
    CHECK(std::get<std::vector<float>>(parameter(io, 14).value).size() == 3);
    CHECK(std::get<std::string>(parameter(io, 15).value) == "s15");
    CHECK(std::get<std::vector<float>>(parameter(io, 16).value).size() == 4);
    CHECK(std::get<std::uint32_t>(parameter(io, 17).value) == 0xDEADBEEF);
    CHECK(std::get<std::vector<std::uint32_t>>(parameter(io, 18).value) ==
          std::vector<std::uint32_t>{10, 11, 12});
    CHECK(std::get<std::vector<std::uint8_t>>(parameter(io, 19).value) ==
          std::vector<std::uint8_t>{1, 2, 3, 4, 5});
    CHECK(std::get<std::string>(parameter(io, 20).value) == "s20");
  }
  // The text rendering names what the table knows and prints every type.
  aamp::NameTable names;
  names.add("obj");
  names.add("p17");
  const auto text =
      ainb::formats::to_text(aamp::read(sample(std::endian::little).bytes, "all.aamp"), names);
  CHECK(text.find("    obj: !obj\n") != std::string::npos);
  CHECK(text.find("      p17: !u 0xdeadbeef\n") != std::string::npos);
  CHECK(text.find(": !vec3 [1.0, 2.0, 3.0]\n") != std::string::npos);
  CHECK(text.find(": !buffer_binary !!binary AQIDBAU=\n") != std::string::npos);
  CHECK(text.find(": !curve1 [0, 100, 0.0, 0.5, ") != std::string::npos);
}

TEST_CASE("AAMP: bad counts, types, offsets and self-containing lists are load errors") {
  auto self = sample(std::endian::little);
  self.u16(kRoot + 6, 1);  // one child list at offset 0: the root itself
  CHECK_THROWS_WITH(aamp::read(self.bytes, "self.aamp"),
                    "self.aamp: parameter lists at offset 0x34: more lists are reachable than the "
                    "header counts");
  auto type = sample(std::endian::big);
  type.u8(kParameters + 7, 21);
  CHECK_THROWS_WITH(aamp::read(type.bytes, "type.aamp"),
                    "type.aamp: parameter lists at offset 0x4f: unknown parameter type 21");
  auto version = sample(std::endian::little);
  version.u32(4, 1);
  CHECK_THROWS_WITH(aamp::read(version.bytes, "v.aamp"),
                    "v.aamp: AAMP header at offset 0x4: version 1 is not supported (only 2 is)");
  auto size = sample(std::endian::little);
  size.u32(0x0C, static_cast<std::uint32_t>(size.size() + 1));
  CHECK_THROWS_AS(aamp::read(size.bytes, "s.aamp"), ainb::LoadError);
  auto buffer = sample(std::endian::little);
  buffer.u32(0x0C, static_cast<std::uint32_t>(buffer.size()));
  // The binary buffer's count (5) raised past the end of the file.
  const std::size_t binary_parameter = kParameters + 19 * 8;
  const auto& b = buffer.bytes;
  const std::size_t units = b[binary_parameter + 4] | (b[binary_parameter + 5] << 8) |
                            (std::size_t{b[binary_parameter + 6]} << 16);
  const auto data = binary_parameter + 4 * units;
  buffer.u32(data - 4, 0x10000);
  CHECK_THROWS_WITH(aamp::read(buffer.bytes, "b.aamp"),
                    doctest::Contains("buffer data (0x10000 bytes) runs past the end"));
}
