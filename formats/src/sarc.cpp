#include "ainb/formats/sarc.hpp"

#include <fstream>
#include <iterator>

#include "ainb/byte_reader.hpp"

// Layout (all fields in the byte order of the BOM at 0x06):
//   header  "SARC", u16 header size (0x14), u16 BOM, u32 file size, u32 data offset,
//           u16 version (0x100), u16 reserved
//   SFAT    "SFAT", u16 header size (0xC), u16 file count, u32 hash key (0x65), then per file
//           u32 name hash, u32 attributes (bit 24: has a name; low 16 bits: name offset / 4 into
//           the SFNT names), u32 data begin, u32 data end (both relative to the data offset)
//   SFNT    "SFNT", u16 header size (8), u16 reserved, then the NUL-terminated names

namespace ainb::formats {

namespace {

constexpr std::uint64_t kHeaderSize = 0x14;
constexpr std::uint64_t kSfatHeaderSize = 0x0C;
constexpr std::uint64_t kSfatEntrySize = 0x10;
constexpr std::uint64_t kSfntHeaderSize = 0x08;
constexpr std::uint32_t kHasNameFlag = 0x01000000;

bool has_magic(const ByteReader& reader, std::uint64_t offset, std::string_view magic) {
  const auto bytes = reader.bytes(offset, magic.size(), "magic");
  return std::equal(magic.begin(), magic.end(), bytes.begin(),
                    [](char c, std::uint8_t b) { return static_cast<std::uint8_t>(c) == b; });
}

}  // namespace

bool is_sarc(std::span<const std::uint8_t> bytes) noexcept {
  return bytes.size() >= 4 && bytes[0] == 'S' && bytes[1] == 'A' && bytes[2] == 'R' &&
         bytes[3] == 'C';
}

std::uint32_t Sarc::name_hash(std::string_view name, std::uint32_t key) noexcept {
  std::uint32_t hash = 0;
  for (const char c : name) {
    // The game adds the character as a signed char, so bytes >= 0x80 subtract.
    hash = hash * key +
           static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<signed char>(c)));
  }
  return hash;
}

Sarc Sarc::parse(std::vector<std::uint8_t> bytes, std::string file_name) {
  Sarc archive;
  archive.bytes_ = std::move(bytes);
  archive.file_name_ = std::move(file_name);
  const ByteReader raw(archive.bytes_, archive.file_name_);
  auto header_section = raw.section("SARC header");
  if (!has_magic(raw, 0, "SARC")) raw.fail(0, "not a SARC archive (magic is not \"SARC\")");
  // The byte order mark is FE FF in the file's order: bytes FE FF mean big endian.
  const auto bom = raw.bytes(6, 2, "byte order mark");
  if (bom[0] == 0xFE && bom[1] == 0xFF) {
    archive.byte_order_ = std::endian::big;
  } else if (bom[0] == 0xFF && bom[1] == 0xFE) {
    archive.byte_order_ = std::endian::little;
  } else {
    raw.fail(6, "byte order mark is {:02X} {:02X}, expected FE FF or FF FE", bom[0], bom[1]);
  }
  const auto reader = raw.with_byte_order(archive.byte_order_);
  auto section = reader.section("SARC header");
  if (const auto size = reader.u16(4, "header size"); size != kHeaderSize) {
    reader.fail(4, "header size is {:#x}, expected {:#x}", size, kHeaderSize);
  }
  const std::uint32_t file_size = reader.u32(8, "file size");
  if (file_size > reader.size()) {
    reader.fail(8, "the header's file size {:#x} is larger than the data ({:#x} bytes)", file_size,
                reader.size());
  }
  const std::uint32_t data_offset = reader.u32(0x0C, "data offset");
  if (data_offset > file_size) {
    reader.fail(0x0C, "data offset {:#x} lies past the end of the archive ({:#x})", data_offset,
                file_size);
  }
  archive.version_ = reader.u16(0x10, "version");

  auto sfat_section = reader.section("SFAT");
  const std::uint64_t sfat = kHeaderSize;
  if (!has_magic(reader, sfat, "SFAT")) reader.fail(sfat, "magic is not \"SFAT\"");
  if (const auto size = reader.u16(sfat + 4, "SFAT header size"); size != kSfatHeaderSize) {
    reader.fail(sfat + 4, "SFAT header size is {:#x}, expected {:#x}", size, kSfatHeaderSize);
  }
  const std::uint16_t count = reader.u16(sfat + 6, "file count");
  archive.hash_key_ = reader.u32(sfat + 8, "hash key");
  const std::uint64_t entries = sfat + kSfatHeaderSize;
  reader.require(entries, count * kSfatEntrySize, "file table");

  auto sfnt_section = reader.section("SFNT");
  const std::uint64_t sfnt = entries + count * kSfatEntrySize;
  if (!has_magic(reader, sfnt, "SFNT")) reader.fail(sfnt, "magic is not \"SFNT\"");
  if (const auto size = reader.u16(sfnt + 4, "SFNT header size"); size != kSfntHeaderSize) {
    reader.fail(sfnt + 4, "SFNT header size is {:#x}, expected {:#x}", size, kSfntHeaderSize);
  }
  const std::uint64_t names = sfnt + kSfntHeaderSize;
  if (names > data_offset) {
    reader.fail(0x0C, "data offset {:#x} lies inside the file table or names (which end at {:#x})",
                data_offset, names);
  }
  // Names live between the SFNT header and the data.
  const auto name_reader = reader.sub(names, data_offset - names, "SFNT names");

  auto files_section = reader.section("SFAT");
  archive.files_.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t at = entries + i * kSfatEntrySize;
    File file;
    file.name_hash = reader.u32(at, "name hash");
    const std::uint32_t attributes = reader.u32(at + 4, "attributes");
    const std::uint32_t begin = reader.u32(at + 8, "data begin");
    const std::uint32_t end = reader.u32(at + 12, "data end");
    if (attributes & kHasNameFlag) {
      const std::uint64_t name_offset = std::uint64_t{attributes & 0xFFFF} * 4;
      auto name_scope = name_reader.section("SFNT");
      file.name = std::string(name_reader.c_string(name_offset, "file name"));
      const auto expected = name_hash(file.name, archive.hash_key_);
      if (expected != file.name_hash) {
        reader.fail(at, "file {} \"{}\": name hash {:#010x} does not match the name ({:#010x})", i,
                    file.name, file.name_hash, expected);
      }
    }
    if (begin > end) {
      reader.fail(at + 8, "file {} \"{}\": data begin {:#x} is after data end {:#x}", i, file.name,
                  begin, end);
    }
    if (end > file_size - data_offset) {
      reader.fail(at + 12, "file {} \"{}\": data end {:#x} lies past the end of the archive", i,
                  file.name, end);
    }
    file.offset = std::uint64_t{data_offset} + begin;
    file.size = end - begin;
    archive.files_.push_back(std::move(file));
  }
  return archive;
}

const Sarc::File* Sarc::find(std::string_view name) const noexcept {
  for (const auto& file : files_) {
    if (file.name == name) return &file;
  }
  return nullptr;
}

std::span<const std::uint8_t> Sarc::data(const File& file) const noexcept {
  // Checked against the pack's size when it was read.
  return std::span<const std::uint8_t>(bytes_).subspan(static_cast<std::size_t>(file.offset),
                                                       static_cast<std::size_t>(file.size));
}

std::span<const std::uint8_t> Sarc::member(std::string_view name) const {
  const auto* file = find(name);
  if (file == nullptr) {
    throw LoadError(
        file_name_, "SARC", 0,
        fmt::format("the pack has no file {} (it holds {} files)", name, files_.size()));
  }
  return data(*file);
}

std::vector<std::uint8_t> read_binary_file(const std::filesystem::path& path) {
  // file_size says why a path cannot be read (missing, a folder) in the system's words.
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw LoadError(path.string(), "file", 0, "cannot read the file: " + ec.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path.string(), "file", 0, "cannot open the file");
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in) throw LoadError(path.string(), "file", 0, "cannot read the file");
  return bytes;
}

Sarc open_pack_file(const std::filesystem::path& path, const ZstdDictionaries* dictionaries,
                    const ZstdOptions& options) {
  auto bytes = read_binary_file(path);
  const auto name = path.string();
  if (is_zstd(bytes)) bytes = zstd_decompress(bytes, name, dictionaries, options);
  return Sarc::parse(std::move(bytes), name);
}

std::vector<PackedFile> pack_ai_files(const std::filesystem::path& pack_path,
                                      const ZstdDictionaries* dictionaries,
                                      const ZstdOptions& options) {
  const auto archive = open_pack_file(pack_path, dictionaries, options);
  std::vector<PackedFile> files;
  for (const auto& file : archive.files()) {
    const std::string_view name = file.name;
    if (name.starts_with("AI/") && name.ends_with(".ainb")) {
      const auto data = archive.data(file);
      files.push_back({file.name, {data.begin(), data.end()}});
    }
  }
  return files;
}

}  // namespace ainb::formats
