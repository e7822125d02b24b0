// zstd (with TotK's dictionaries) and SARC: the real packs of the corpus, the dictionary choice,
// and the exact errors for missing dictionaries, corrupt frames and the size limit.

#include <zstd.h>

#include <doctest/doctest.h>

#include "ainb/formats/sarc.hpp"
#include "ainb/formats/zstd.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"

using ainb::formats::Sarc;
using ainb::formats::ZstdDictionaries;

namespace {

std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& data, bool declare_size) {
  if (declare_size) {
    std::vector<std::uint8_t> out(ZSTD_compressBound(data.size()));
    const auto size = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
    REQUIRE_FALSE(ZSTD_isError(size));
    out.resize(size);
    return out;
  }
  // A streamed frame whose header does not state the content size.
  ZSTD_CCtx* context = ZSTD_createCCtx();
  REQUIRE(ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 0) == 0);
  std::vector<std::uint8_t> out(ZSTD_compressBound(data.size()) + 64);
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  ZSTD_outBuffer output{out.data(), out.size(), 0};
  REQUIRE(ZSTD_compressStream2(context, &output, &in, ZSTD_e_end) == 0);
  ZSTD_freeCCtx(context);
  out.resize(output.pos);
  return out;
}

std::vector<std::uint8_t> sample(std::size_t size) {
  std::vector<std::uint8_t> data(size);
  for (std::size_t i = 0; i < size; ++i)
    data[i] = static_cast<std::uint8_t>((i * 7) % 251);
  return data;
}

}  // namespace

TEST_CASE("zstd frames with and without a declared size decompress, bounded by the limit") {
  const auto data = sample(100'000);
  for (const bool declared : {true, false}) {
    const auto frame = compress(data, declared);
    CHECK(ainb::formats::is_zstd(frame));
    CHECK(ainb::formats::zstd_decompress(frame, "a.zs") == data);
    ainb::formats::ZstdOptions options;
    options.max_decompressed_size = 1000;
    const std::string expected =
        declared ? "a.zs: zstd at offset 0x0: the frame declares 100000 decompressed bytes, more "
                   "than the limit of 1000 bytes"
                 : "a.zs: zstd at offset 0x0: decompressed data exceed the limit of 1000 bytes";
    // Streamed frames fail at the input position reached when the output passed the limit.
    try {
      ainb::formats::zstd_decompress(frame, "a.zs", nullptr, options);
      FAIL("the limit was not enforced");
    } catch (const ainb::LoadError& e) {
      if (declared) {
        CHECK(std::string(e.what()) == expected);
      } else {
        CHECK(e.reason() == "decompressed data exceed the limit of 1000 bytes");
        CHECK(e.section() == "zstd");
      }
    }
  }
  // Two frames one after the other decompress to the concatenation.
  auto two = compress(data, true);
  const auto second = compress(sample(10), false);
  two.insert(two.end(), second.begin(), second.end());
  auto expected = data;
  const auto tail = sample(10);
  expected.insert(expected.end(), tail.begin(), tail.end());
  CHECK(ainb::formats::zstd_decompress(two, "two.zs") == expected);
}

TEST_CASE("corrupt and truncated zstd frames are clear errors") {
  const auto frame = compress(sample(5000), true);
  CHECK_THROWS_WITH(ainb::formats::zstd_decompress(std::vector<std::uint8_t>{1, 2, 3, 4}, "x.zs"),
                    "x.zs: zstd at offset 0x0: not a zstd frame (the file does not start with 28 "
                    "B5 2F FD)");
  auto cut = frame;
  cut.resize(frame.size() / 2);
  CHECK_THROWS_WITH(ainb::formats::zstd_decompress(cut, "cut.zs"),
                    doctest::Contains("the zstd frame is cut short"));
  cut.resize(5);
  CHECK_THROWS_WITH(ainb::formats::zstd_decompress(cut, "cut.zs"),
                    "cut.zs: zstd at offset 0x0: the zstd frame header is cut short");
  auto corrupt = frame;
  for (std::size_t i = 12; i < corrupt.size(); i += 3)
    corrupt[i] ^= 0x5A;
  CHECK_THROWS_WITH(ainb::formats::zstd_decompress(corrupt, "bad.zs"),
                    doctest::Contains("corrupt zstd frame: "));
}

TEST_CASE("dictionaries load from the folder and from ZsDic.pack.zs, and are chosen by ID") {
  const auto dir = ainb::test::corpus_zsdic_dir();
  if (dir.empty()) return;
  const auto from_folder = ZstdDictionaries::from_directory(dir);
  CHECK(from_folder.ids() == std::vector<std::uint32_t>{1, 2, 3});
  CHECK(from_folder.name_of_id(1) == "zs.zsdic");
  CHECK(from_folder.name_of_id(2) == "bcett.byml.zsdic");
  CHECK(from_folder.name_of_id(3) == "pack.zsdic");
  // ZsDic.pack.zs is itself compressed without a dictionary; its members are the same three.
  const auto from_pack = ZstdDictionaries::from_pack_file(dir / "ZsDic.pack.zs");
  CHECK(from_pack.ids() == std::vector<std::uint32_t>{1, 2, 3});
  for (const std::uint32_t id : {1u, 2u, 3u}) {
    CHECK(from_pack.name_of_id(id) == from_folder.name_of_id(id));
  }
  // ZsDic.pack.zs decompresses even when a set is given: the game has no dictionary yet then.
  const auto zsdic_bytes = ainb::test::read_file(dir / "ZsDic.pack.zs");
  CHECK(ainb::formats::zstd_frame_dictionary_id(zsdic_bytes) == 0);
  CHECK(ainb::formats::zstd_decompress(zsdic_bytes, "ZsDic.pack.zs", &from_folder).size() ==
        393352);

  CHECK(ZstdDictionaries::dictionary_name_for("Actor/X.pack.zs") == "pack.zsdic");
  CHECK(ZstdDictionaries::dictionary_name_for("A-4_Static.bcett.byml.zs") == "bcett.byml.zsdic");
  CHECK(ZstdDictionaries::dictionary_name_for("Foo.bgyml.zs") == "zs.zsdic");

  const auto pack =
      ainb::test::read_file(ainb::test::corpus_dir() / "packs/Accessory_Battery.pack.zs");
  CHECK(ainb::formats::zstd_frame_dictionary_id(pack) == 3);
  // The frame's ID wins over the file name: the same bytes under another name still use ID 3.
  CHECK(ainb::formats::zstd_decompress(pack, "renamed.bgyml.zs", &from_folder).size() == 110256);
  CHECK_THROWS_WITH(ainb::formats::zstd_decompress(pack, "Accessory_Battery.pack.zs"),
                    "Accessory_Battery.pack.zs: zstd at offset 0x0: the frame needs zstd "
                    "dictionary ID 3, which is not loaded (loaded IDs: none; TotK's are in the "
                    "romfs's Pack/ZsDic.pack.zs: `--romfs` or `--zsdic` in the ainb tools)");
  ZstdDictionaries only_zs;
  only_zs.add("zs.zsdic", ainb::test::read_file(dir / "zs.zsdic"));
  CHECK_THROWS_WITH(ainb::formats::zstd_decompress(pack, "Accessory_Battery.pack.zs", &only_zs),
                    "Accessory_Battery.pack.zs: zstd at offset 0x0: the frame needs zstd "
                    "dictionary ID 3, which is not loaded (loaded IDs: 1; TotK's are in the "
                    "romfs's Pack/ZsDic.pack.zs: `--romfs` or `--zsdic` in the ainb tools)");
  CHECK_THROWS_WITH(only_zs.add("again.zsdic", ainb::test::read_file(dir / "zs.zsdic")),
                    "again.zsdic: zstd dictionary at offset 0x4: dictionary ID 1 is already "
                    "loaded (from zs.zsdic)");
  CHECK_THROWS_WITH(only_zs.add("pack.zs", ainb::test::read_file(dir / "ZsDic.pack.zs")),
                    "pack.zs: zstd dictionary at offset 0x0: not a zstd dictionary (magic "
                    "0xfd2fb528, expected 0xec30a437)");
  ainb::formats::ZstdOptions small;
  small.max_decompressed_size = 100'000;
  CHECK_THROWS_WITH(
      ainb::formats::zstd_decompress(pack, "Accessory_Battery.pack.zs", &from_folder, small),
      "Accessory_Battery.pack.zs: zstd at offset 0x0: the frame declares 110256 decompressed "
      "bytes, more than the limit of 100000 bytes");

  // A frame without dictionary ID gets the dictionary of its file kind (here: by name).
  const auto data = sample(3000);
  ZSTD_CCtx* context = ZSTD_createCCtx();
  const auto dict_bytes = ainb::test::read_file(dir / "pack.zsdic");
  REQUIRE(ZSTD_CCtx_loadDictionary(context, dict_bytes.data(), dict_bytes.size()) == 0);
  REQUIRE(ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0) == 0);
  std::vector<std::uint8_t> frame(ZSTD_compressBound(data.size()));
  const auto size = ZSTD_compress2(context, frame.data(), frame.size(), data.data(), data.size());
  ZSTD_freeCCtx(context);
  REQUIRE_FALSE(ZSTD_isError(size));
  frame.resize(size);
  CHECK(ainb::formats::zstd_frame_dictionary_id(frame) == 0);
  CHECK(ainb::formats::zstd_decompress(frame, "NoId.pack.zs", &from_folder) == data);

  // The same for a real TotK map unit: A-4_Static.bcett.byml compressed with bcett.byml.zsdic
  // and no ID in the frame comes back only through the name `*.bcett.byml.zs`.
  const auto byml = ainb::test::read_file(ainb::test::corpus_dir() / "byml/A-4_Static.bcett.byml");
  const auto bcett = ainb::test::read_file(dir / "bcett.byml.zsdic");
  ZSTD_CCtx* byml_context = ZSTD_createCCtx();
  REQUIRE(ZSTD_CCtx_loadDictionary(byml_context, bcett.data(), bcett.size()) == 0);
  REQUIRE(ZSTD_CCtx_setParameter(byml_context, ZSTD_c_dictIDFlag, 0) == 0);
  REQUIRE_FALSE(ZSTD_isError(ZSTD_CCtx_setParameter(byml_context, ZSTD_c_checksumFlag, 1)));
  std::vector<std::uint8_t> byml_frame(ZSTD_compressBound(byml.size()));
  const auto byml_size =
      ZSTD_compress2(byml_context, byml_frame.data(), byml_frame.size(), byml.data(), byml.size());
  ZSTD_freeCCtx(byml_context);
  REQUIRE_FALSE(ZSTD_isError(byml_size));
  byml_frame.resize(byml_size);
  CHECK(ainb::formats::zstd_decompress(byml_frame, "Banc/A-4_Static.bcett.byml.zs", &from_folder) ==
        byml);
  // Under another name the game's choice is zs.zsdic: the frame does not decode to the file,
  // and the error says which dictionary was used and why.
  std::string message;
  try {
    ainb::formats::zstd_decompress(byml_frame, "A-4_Static.byml.zs", &from_folder);
  } catch (const ainb::LoadError& e) {
    message = e.what();
  }
  CHECK(message.starts_with("A-4_Static.byml.zs: zstd at offset 0x"));
  CHECK(message.ends_with(
      " (the frame names no dictionary, so it was read with zs.zsdic, the one the game uses for "
      "this file name: a renamed file, or one compressed with another dictionary, reads so)"));
  // Without dictionaries, the error says where they are.
  CHECK_THROWS_WITH(
      ainb::formats::zstd_decompress(byml_frame, "A-4_Static.bcett.byml.zs"),
      doctest::Contains(" (the frame names no dictionary and none is loaded: a TotK file "
                        "compressed with one reads so; `--romfs` or `--zsdic` in the ainb tools)"));
  CHECK_THROWS_WITH(
      ainb::formats::zstd_decompress(byml_frame, "ZsDic.pack.zs", &from_folder),
      doctest::Contains(" (the frame names no dictionary, and none is used for this file name, so "
                        "it was read without one)"));
}

TEST_CASE("the corpus packs list their files, and their AI files load and match the corpus") {
  const auto packs = ainb::test::corpus_pack_files();
  if (packs.empty()) return;
  const auto dictionaries = ZstdDictionaries::from_directory(ainb::test::corpus_zsdic_dir());
  std::size_t ai_files = 0, identical = 0;
  for (const auto& path : packs) {
    CAPTURE(path.string());
    const auto archive = ainb::formats::open_pack_file(path, &dictionaries);
    CHECK(archive.byte_order() == std::endian::little);
    CHECK(archive.version() == 0x100);
    CHECK(archive.hash_key() == 0x65);
    for (const auto& file : archive.files()) {
      CHECK_FALSE(file.name.empty());
      CHECK(archive.find(file.name) == &file);
    }
    if (path.filename() == "Accessory_Battery.pack.zs") CHECK(archive.files().size() == 18);
    if (path.filename() == "Npc_TripMaster_02.pack.zs") CHECK(archive.files().size() == 68);
    for (const auto& file : ainb::formats::pack_ai_files(path, &dictionaries)) {
      CAPTURE(file.name);
      ++ai_files;
      const auto model = ainb::load(file.bytes, file.name);
      CHECK(model != nullptr);
      const auto corpus_copy =
          ainb::test::corpus_dir() / "ainb" / std::filesystem::path(file.name).filename();
      if (std::filesystem::exists(corpus_copy)) {
        CHECK(ainb::test::read_file(corpus_copy) == file.bytes);
        ++identical;
      }
    }
  }
  MESSAGE(ai_files << " AI files loaded from packs, " << identical
                   << " byte-identical to the corpus copies");
  CHECK(ai_files == 3);
  CHECK(identical == 3);
}

TEST_CASE("SARC: big-endian archives, unnamed files and bad tables") {
  // A hand-made big-endian archive with one named and one unnamed file.
  std::vector<std::uint8_t> bytes;
  auto put16 = [&](std::uint16_t v) {
    bytes.push_back(static_cast<std::uint8_t>(v >> 8));
    bytes.push_back(static_cast<std::uint8_t>(v));
  };
  auto put32 = [&](std::uint32_t v) {
    put16(static_cast<std::uint16_t>(v >> 16));
    put16(static_cast<std::uint16_t>(v));
  };
  auto text = [&](std::string_view s) { bytes.insert(bytes.end(), s.begin(), s.end()); };
  const std::uint32_t data_offset = 0x14 + 0x0C + 2 * 0x10 + 0x08 + 0x08;
  text("SARC");
  put16(0x14);
  put16(0xFEFF);
  put32(data_offset + 8);
  put32(data_offset);
  put16(0x100);
  put16(0);
  text("SFAT");
  put16(0x0C);
  put16(2);
  put32(0x65);
  put32(Sarc::name_hash("a.txt", 0x65));
  put32(0x01000000);
  put32(0);
  put32(4);
  put32(0x12345678);
  put32(0);
  put32(4);
  put32(8);
  text("SFNT");
  put16(8);
  put16(0);
  text("a.txt");
  bytes.resize(data_offset, 0);
  text("abcdWXYZ");
  const auto archive = Sarc::parse(bytes, "be.sarc");
  CHECK(archive.byte_order() == std::endian::big);
  REQUIRE(archive.files().size() == 2);
  CHECK(archive.files()[0].name == "a.txt");
  CHECK(archive.files()[1].name.empty());
  CHECK(archive.files()[1].name_hash == 0x12345678);
  const auto data = archive.find("a.txt");
  REQUIRE(data != nullptr);
  CHECK(std::string(archive.data(*data).begin(), archive.data(*data).end()) == "abcd");

  auto bad_hash = bytes;
  bad_hash[0x20 + 3] ^= 1;
  CHECK_THROWS_WITH(Sarc::parse(bad_hash, "be.sarc"),
                    doctest::Contains("SFAT at offset 0x20: file 0 \"a.txt\": name hash"));
  auto bad_end = bytes;
  bad_end[0x3F] = 0x40;  // second file's data end
  CHECK_THROWS_WITH(Sarc::parse(bad_end, "be.sarc"),
                    "be.sarc: SFAT at offset 0x3c: file 1 \"\": data end 0x40 lies past the end "
                    "of the archive");
  auto bad_bom = bytes;
  bad_bom[6] = 0;
  CHECK_THROWS_WITH(Sarc::parse(bad_bom, "be.sarc"),
                    "be.sarc: SARC header at offset 0x6: byte order mark is 00 FF, expected FE FF "
                    "or FF FE");
}
