#pragma once

#include <bit>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/formats/zstd.hpp"

namespace ainb::formats {

// True when the bytes start with "SARC".
bool is_sarc(std::span<const std::uint8_t> bytes) noexcept;

// A SARC archive (SFAT file table, SFNT names), either byte order, read completely and checked
// when parsed: every name, hash and data range is validated then, so lookups cannot fail later.
// The archive owns its bytes; file data are spans into them.
class Sarc {
 public:
  struct File {
    std::string name;  // empty when the entry has no name (only its hash is stored)
    std::uint32_t name_hash = 0;
    std::uint64_t offset = 0;  // of the data, from the start of the archive
    std::uint64_t size = 0;
  };

  // Throws LoadError naming `file_name`, the section (header, SFAT, SFNT) and the offset.
  static Sarc parse(std::vector<std::uint8_t> bytes, std::string file_name);

  const std::string& file_name() const noexcept { return file_name_; }
  std::endian byte_order() const noexcept { return byte_order_; }
  std::uint16_t version() const noexcept { return version_; }
  std::uint32_t hash_key() const noexcept { return hash_key_; }
  // In file-table order (the order of the name hashes).
  const std::vector<File>& files() const noexcept { return files_; }
  // The file of this name, or nullptr.
  const File* find(std::string_view name) const noexcept;
  std::span<const std::uint8_t> data(const File& file) const noexcept;
  // The data of the file of this name. Throws LoadError ("the pack has no file NAME (it holds N
  // files)") when there is none.
  std::span<const std::uint8_t> member(std::string_view name) const;
  std::span<const std::uint8_t> bytes() const noexcept { return bytes_; }

  // The SFAT name hash: hash = hash * key + (signed) character, over the name's bytes.
  static std::uint32_t name_hash(std::string_view name, std::uint32_t key) noexcept;

 private:
  std::vector<std::uint8_t> bytes_;
  std::string file_name_;
  std::endian byte_order_ = std::endian::little;
  std::uint16_t version_ = 0;
  std::uint32_t hash_key_ = 0;
  std::vector<File> files_;
};

// A pack on disk (`*.pack.zs`, or an uncompressed `*.pack`/`*.sarc`): decompressed with the
// dictionary set when it is zstd, then parsed as SARC. I/O failures are LoadErrors too.
Sarc open_pack_file(const std::filesystem::path& path, const ZstdDictionaries* dictionaries,
                    const ZstdOptions& options = {});

// The AI files of a pack: every `AI/*.ainb` member, in file-table order, with its bytes copied.
struct PackedFile {
  std::string name;
  std::vector<std::uint8_t> bytes;
};
std::vector<PackedFile> pack_ai_files(const std::filesystem::path& pack_path,
                                      const ZstdDictionaries* dictionaries,
                                      const ZstdOptions& options = {});

// Reads a whole file; a failure is a LoadError (section "file", offset 0).
std::vector<std::uint8_t> read_binary_file(const std::filesystem::path& path);

}  // namespace ainb::formats
