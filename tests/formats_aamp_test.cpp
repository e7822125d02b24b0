// AAMP details the corpus lacks: every parameter type (curves, buffers, vectors, colours,
// quaternions, u32, all strings), big-endian files, and lists that are their own children.

#include <bit>

#include <doctest/doctest.h>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/text.hpp"
#include "format_samples.hpp"

namespace aamp = ainb::formats::aamp;
using aamp::ParameterType;

namespace {

const aamp::Parameter& parameter(const aamp::ParameterIO& io, std::uint32_t type) {
  return io.root.objects.at(0).second.parameters.at(type).second;
}

}  // namespace

TEST_CASE("AAMP: every parameter type, in both byte orders") {
  for (const auto order : {std::endian::little, std::endian::big}) {
    CAPTURE(order == std::endian::little);
    const auto io = aamp::read(ainb::test::aamp_sample(order).bytes, "all.aamp");
    CHECK(io.byte_order == order);
    CHECK(io.type == "xml");
    REQUIRE(io.root.objects.size() == 1);
    CHECK(io.root.objects[0].first == aamp::name_hash("obj"));
    REQUIRE(io.root.objects[0].second.parameters.size() == ainb::test::kAampTypeCount);
    for (std::uint32_t type = 0; type < ainb::test::kAampTypeCount; ++type) {
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
  const auto text = ainb::formats::to_text(
      aamp::read(ainb::test::aamp_sample(std::endian::little).bytes, "all.aamp"), names);
  CHECK(text.find("    obj: !obj\n") != std::string::npos);
  CHECK(text.find("      p17: !u 0xdeadbeef\n") != std::string::npos);
  CHECK(text.find(": !vec3 [1.0, 2.0, 3.0]\n") != std::string::npos);
  CHECK(text.find(": !buffer_binary !!binary AQIDBAU=\n") != std::string::npos);
  CHECK(text.find(": !curve1 [0, 100, 0.0, 0.5, ") != std::string::npos);
}

TEST_CASE("AAMP: bad counts, types, offsets and self-containing lists are load errors") {
  auto self = ainb::test::aamp_sample(std::endian::little);
  self.u16(ainb::test::kAampRoot + 6, 1);  // one child list at offset 0: the root itself
  CHECK_THROWS_WITH(aamp::read(self.bytes, "self.aamp"),
                    "self.aamp: parameter lists at offset 0x34: more lists are reachable than the "
                    "header counts");
  auto type = ainb::test::aamp_sample(std::endian::big);
  type.u8(ainb::test::kAampParameters + 7, 21);
  CHECK_THROWS_WITH(aamp::read(type.bytes, "type.aamp"),
                    "type.aamp: parameter lists at offset 0x4f: unknown parameter type 21");
  auto version = ainb::test::aamp_sample(std::endian::little);
  version.u32(4, 1);
  CHECK_THROWS_WITH(aamp::read(version.bytes, "v.aamp"),
                    "v.aamp: AAMP header at offset 0x4: version 1 is not supported (only 2 is)");
  auto size = ainb::test::aamp_sample(std::endian::little);
  size.u32(0x0C, static_cast<std::uint32_t>(size.size() + 1));
  CHECK_THROWS_AS(aamp::read(size.bytes, "s.aamp"), ainb::LoadError);
  auto buffer = ainb::test::aamp_sample(std::endian::little);
  buffer.u32(0x0C, static_cast<std::uint32_t>(buffer.size()));
  // The binary buffer's count (5) raised past the end of the file.
  const std::size_t binary_parameter = ainb::test::kAampParameters + 19 * 8;
  const auto& b = buffer.bytes;
  const std::size_t units = b[binary_parameter + 4] | (b[binary_parameter + 5] << 8) |
                            (std::size_t{b[binary_parameter + 6]} << 16);
  const auto data = binary_parameter + 4 * units;
  buffer.u32(data - 4, 0x10000);
  CHECK_THROWS_WITH(aamp::read(buffer.bytes, "b.aamp"),
                    doctest::Contains("buffer data (0x10000 bytes) runs past the end"));
}
