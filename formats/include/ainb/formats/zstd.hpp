#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/load_error.hpp"

namespace ainb::formats {

// The decompressed size a frame may reach unless the caller says otherwise. Real TotK files stay
// far below it (the largest actor packs are a few MiB); it exists so that a hostile frame that
// declares, or streams, gigabytes is refused instead of exhausting memory.
inline constexpr std::uint64_t kDefaultMaxDecompressedSize = 256ull << 20;

struct ZstdOptions {
  std::uint64_t max_decompressed_size = kDefaultMaxDecompressedSize;
};

// True when the bytes start with the zstd frame magic (28 B5 2F FD).
bool is_zstd(std::span<const std::uint8_t> bytes) noexcept;

// The dictionary ID a frame header names, 0 when it names none (or the bytes are no frame).
std::uint32_t zstd_frame_dictionary_id(std::span<const std::uint8_t> frame) noexcept;

// A set of zstd dictionaries (TotK's zs.zsdic, pack.zsdic, bcett.byml.zsdic), each known by its
// file name and by the dictionary ID stored in it. Dictionaries are prepared for decompression
// once, when added; a set is immutable afterwards and may be shared across threads.
class ZstdDictionaries {
 public:
  ZstdDictionaries();
  ~ZstdDictionaries();
  ZstdDictionaries(ZstdDictionaries&&) noexcept;
  ZstdDictionaries& operator=(ZstdDictionaries&&) noexcept;

  // Every `*.zsdic` file of a folder. Throws LoadError when the folder cannot be read or holds
  // no dictionary, or when a file is not a zstd dictionary.
  static ZstdDictionaries from_directory(const std::filesystem::path& folder);
  // TotK's `Pack/ZsDic.pack.zs`: a zstd frame (without dictionary) holding a SARC of `*.zsdic`.
  static ZstdDictionaries from_pack(std::span<const std::uint8_t> pack_bytes,
                                    std::string_view file_name);
  static ZstdDictionaries from_pack_file(const std::filesystem::path& path);
  // A folder or a ZsDic pack, whichever `path` is (the `--dict` option of `ainb cat`).
  static ZstdDictionaries load(const std::filesystem::path& path);

  // Adds one dictionary. `name` is its file name (e.g. "pack.zsdic"); throws LoadError when the
  // bytes are not a zstd dictionary (magic 37 A4 30 EC) or its ID is already in the set.
  void add(std::string name, std::vector<std::uint8_t> bytes);

  bool empty() const noexcept;
  std::size_t size() const noexcept;
  // The IDs held, ascending.
  std::vector<std::uint32_t> ids() const;
  bool has_id(std::uint32_t id) const noexcept;
  bool has_name(std::string_view name) const noexcept;
  // The file name of the dictionary with this ID, empty when the set lacks it.
  std::string_view name_of_id(std::uint32_t id) const noexcept;

  // The dictionary the game uses for a file of this name: `*.pack.zs` -> pack.zsdic,
  // `*.bcett.byml.zs` -> bcett.byml.zsdic, any other `*.zs` -> zs.zsdic.
  static std::string_view dictionary_name_for(std::string_view file_name) noexcept;

  struct Entry;  // defined in zstd.cpp
  const Entry* find_id(std::uint32_t id) const noexcept;
  const Entry* find_name(std::string_view name) const noexcept;

 private:
  std::vector<std::unique_ptr<Entry>> entries_;
};

// Decompresses every frame of `compressed`. The dictionary is chosen as follows: a frame that
// names a dictionary ID gets that dictionary (LoadError naming the ID when the set lacks it); a
// frame that names none gets the dictionary the game would choose by file name, when the set has
// it, except for `ZsDic.pack.zs`, which the game reads before it has any dictionary. Output
// beyond `options.max_decompressed_size` is refused (frames that declare their size are checked
// before anything is allocated). Every failure is a LoadError in section "zstd".
std::vector<std::uint8_t> zstd_decompress(std::span<const std::uint8_t> compressed,
                                          std::string_view file_name,
                                          const ZstdDictionaries* dictionaries = nullptr,
                                          const ZstdOptions& options = {});

}  // namespace ainb::formats
