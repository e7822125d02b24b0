#include "ainb/formats/zstd.hpp"

#include <algorithm>

#include <fmt/format.h>
// AINB_ZSTD 0: a build without libzstd (the WebAssembly one: Debian ships no zstd sources to
// compile for it). Dictionaries still load; decompressing says that this build cannot.
#if AINB_ZSTD
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader: content size, dictionary ID
#include <zstd.h>
#endif

#include "ainb/byte_reader.hpp"
#include "ainb/formats/sarc.hpp"

namespace ainb::formats {

#if AINB_ZSTD
// Outside the anonymous namespace: ZstdDictionaries::Entry, a class with linkage, holds one.
struct DCtxDeleter {
  void operator()(ZSTD_DCtx* context) const noexcept { ZSTD_freeDCtx(context); }
};
struct DDictDeleter {
  void operator()(ZSTD_DDict* dictionary) const noexcept { ZSTD_freeDDict(dictionary); }
};
#endif

namespace {

constexpr std::uint32_t kFrameMagic = 0xFD2FB528;
constexpr std::uint32_t kDictionaryMagic = 0xEC30A437;
constexpr std::string_view kZstdSection = "zstd";

[[noreturn]] void fail(std::string_view file, std::uint64_t offset, std::string reason) {
  throw LoadError(std::string(file), std::string(kZstdSection), offset, std::move(reason));
}

[[maybe_unused]] std::string_view base_name(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

[[maybe_unused]] std::string id_list(const std::vector<std::uint32_t>& ids) {
  if (ids.empty()) return "none";
  return fmt::format("{}", fmt::join(ids, ", "));
}

}  // namespace

struct ZstdDictionaries::Entry {
  std::string name;
  std::uint32_t id = 0;
  std::vector<std::uint8_t> bytes;
#if AINB_ZSTD
  std::unique_ptr<ZSTD_DDict, DDictDeleter> prepared;
#endif
};

ZstdDictionaries::ZstdDictionaries() = default;
ZstdDictionaries::~ZstdDictionaries() = default;
ZstdDictionaries::ZstdDictionaries(ZstdDictionaries&&) noexcept = default;
ZstdDictionaries& ZstdDictionaries::operator=(ZstdDictionaries&&) noexcept = default;

bool is_zstd(std::span<const std::uint8_t> bytes) noexcept {
  if (bytes.size() < 4) return false;
  return ByteReader(bytes, "").u32(0) == kFrameMagic;
}

std::uint32_t zstd_frame_dictionary_id(std::span<const std::uint8_t> frame) noexcept {
#if AINB_ZSTD
  return ZSTD_getDictID_fromFrame(frame.data(), frame.size());
#else
  (void)frame;
  return 0;
#endif
}

void ZstdDictionaries::add(std::string name, std::vector<std::uint8_t> bytes) {
  const ByteReader reader(bytes, name);
  auto section = reader.section("zstd dictionary");
  if (reader.u32(0, "dictionary magic") != kDictionaryMagic) {
    reader.fail(0, "not a zstd dictionary (magic {:#010x}, expected {:#010x})", reader.u32(0),
                kDictionaryMagic);
  }
  const std::uint32_t id = reader.u32(4, "dictionary ID");
  if (id == 0) reader.fail(4, "dictionary ID 0 is reserved for frames without a dictionary");
  if (has_id(id)) {
    reader.fail(4, "dictionary ID {} is already loaded (from {})", id, find_id(id)->name);
  }
  auto entry = std::make_unique<Entry>();
#if AINB_ZSTD
  entry->prepared.reset(ZSTD_createDDict(bytes.data(), bytes.size()));
  if (!entry->prepared || ZSTD_getDictID_fromDDict(entry->prepared.get()) != id) {
    reader.fail(0, "zstd could not load the dictionary (corrupt entropy tables)");
  }
#endif
  entry->name = std::move(name);
  entry->id = id;
  entry->bytes = std::move(bytes);
  entries_.push_back(std::move(entry));
  std::sort(entries_.begin(), entries_.end(),
            [](const auto& a, const auto& b) { return a->id < b->id; });
}

ZstdDictionaries ZstdDictionaries::from_directory(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() == ".zsdic") files.push_back(it->path());
  }
  if (error) fail(folder.string(), 0, fmt::format("cannot read the folder: {}", error.message()));
  if (files.empty()) fail(folder.string(), 0, "the folder holds no *.zsdic dictionary");
  std::sort(files.begin(), files.end());
  ZstdDictionaries set;
  for (const auto& path : files)
    set.add(path.filename().string(), read_binary_file(path));
  return set;
}

ZstdDictionaries ZstdDictionaries::from_pack(std::span<const std::uint8_t> pack_bytes,
                                             std::string_view file_name) {
  auto archive = Sarc::parse(zstd_decompress(pack_bytes, file_name), std::string(file_name));
  ZstdDictionaries set;
  for (const auto& file : archive.files()) {
    if (!std::string_view(file.name).ends_with(".zsdic")) continue;
    const auto data = archive.data(file);
    set.add(file.name, {data.begin(), data.end()});
  }
  if (set.empty()) fail(file_name, 0, "the pack holds no *.zsdic dictionary");
  return set;
}

ZstdDictionaries ZstdDictionaries::from_pack_file(const std::filesystem::path& path) {
  return from_pack(read_binary_file(path), path.string());
}

ZstdDictionaries ZstdDictionaries::load(const std::filesystem::path& path) {
  if (std::filesystem::is_directory(path)) return from_directory(path);
  return from_pack_file(path);
}

bool ZstdDictionaries::empty() const noexcept {
  return entries_.empty();
}
std::size_t ZstdDictionaries::size() const noexcept {
  return entries_.size();
}

std::vector<std::uint32_t> ZstdDictionaries::ids() const {
  std::vector<std::uint32_t> ids;
  for (const auto& entry : entries_)
    ids.push_back(entry->id);
  return ids;
}

bool ZstdDictionaries::has_id(std::uint32_t id) const noexcept {
  return find_id(id) != nullptr;
}
bool ZstdDictionaries::has_name(std::string_view name) const noexcept {
  return find_name(name) != nullptr;
}

std::string_view ZstdDictionaries::name_of_id(std::uint32_t id) const noexcept {
  const auto* entry = find_id(id);
  return entry ? std::string_view(entry->name) : std::string_view();
}

const ZstdDictionaries::Entry* ZstdDictionaries::find_id(std::uint32_t id) const noexcept {
  for (const auto& entry : entries_) {
    if (entry->id == id) return entry.get();
  }
  return nullptr;
}

const ZstdDictionaries::Entry* ZstdDictionaries::find_name(std::string_view name) const noexcept {
  for (const auto& entry : entries_) {
    if (entry->name == name) return entry.get();
  }
  return nullptr;
}

std::string_view ZstdDictionaries::dictionary_name_for(std::string_view file_name) noexcept {
  if (file_name.ends_with(".pack.zs")) return "pack.zsdic";
  if (file_name.ends_with(".bcett.byml.zs")) return "bcett.byml.zsdic";
  return "zs.zsdic";
}

std::vector<std::uint8_t> zstd_decompress(std::span<const std::uint8_t> compressed,
                                          std::string_view file_name,
                                          const ZstdDictionaries* dictionaries,
                                          const ZstdOptions& options) {
  if (!is_zstd(compressed)) {
    fail(file_name, 0, "not a zstd frame (the file does not start with 28 B5 2F FD)");
  }
#if !AINB_ZSTD
  (void)dictionaries;
  (void)options;
  fail(file_name, 0,
       "zstd-compressed, and this build has no zstd decompressor (the WebAssembly build: "
       "docs/web.md); give the decompressed file instead (`zstd -d`, with TotK's dictionary "
       "`-D`)");
#else
  std::unique_ptr<ZSTD_DCtx, DCtxDeleter> context(ZSTD_createDCtx());
  if (!context) fail(file_name, 0, "zstd could not allocate a decompression context");

  std::vector<std::uint8_t> output;
  std::size_t position = 0;  // of the current frame in `compressed`
  while (position < compressed.size()) {
    const auto frame = compressed.subspan(position);
    ZSTD_frameHeader header{};
    const std::size_t header_result = ZSTD_getFrameHeader(&header, frame.data(), frame.size());
    if (ZSTD_isError(header_result)) {
      fail(file_name, position,
           fmt::format("corrupt zstd frame header: {}", ZSTD_getErrorName(header_result)));
    }
    if (header_result != 0) {
      fail(file_name, position, "the zstd frame header is cut short");
    }
    if (header.frameType == ZSTD_skippableFrame) {
      const std::size_t skip = ZSTD_findFrameCompressedSize(frame.data(), frame.size());
      if (ZSTD_isError(skip)) {
        fail(file_name, position,
             fmt::format("corrupt zstd skippable frame: {}", ZSTD_getErrorName(skip)));
      }
      position += skip;
      continue;
    }
    // Which dictionary: the one the frame names, else the one the game picks by file name.
    const ZstdDictionaries::Entry* dictionary = nullptr;
    if (header.dictID != 0) {
      dictionary = dictionaries ? dictionaries->find_id(header.dictID) : nullptr;
      if (!dictionary) {
        fail(file_name, position,
             fmt::format("the frame needs zstd dictionary ID {}, which is not loaded (loaded "
                         "IDs: {}; TotK's are in the romfs's Pack/ZsDic.pack.zs: `--romfs` or "
                         "`--zsdic` in the ainb tools)",
                         header.dictID, dictionaries ? id_list(dictionaries->ids()) : "none"));
      }
    } else if (dictionaries && base_name(file_name) != "ZsDic.pack.zs") {
      dictionary = dictionaries->find_name(ZstdDictionaries::dictionary_name_for(file_name));
    }
    // What a corrupt frame's error adds when the frame did not name its dictionary: the likely
    // cause is the dictionary, not the bytes.
    std::string dictionary_hint;
    if (header.dictID == 0) {
      if (dictionary) {
        dictionary_hint = fmt::format(
            " (the frame names no dictionary, so it was read with {}, the one the game uses for "
            "this file name: a renamed file, or one compressed with another dictionary, reads "
            "so)",
            dictionary->name);
      } else if (!dictionaries) {
        dictionary_hint =
            " (the frame names no dictionary and none is loaded: a TotK file compressed with "
            "one reads so; `--romfs` or `--zsdic` in the ainb tools)";
      } else {
        dictionary_hint =
            " (the frame names no dictionary, and none is used for this file name, so it was "
            "read without one)";
      }
    }
    const std::uint64_t limit = options.max_decompressed_size;
    if (header.frameContentSize != ZSTD_CONTENTSIZE_UNKNOWN) {
      if (header.frameContentSize > limit - std::min<std::uint64_t>(limit, output.size())) {
        fail(file_name, position,
             fmt::format("the frame declares {} decompressed bytes, more than the limit of {} "
                         "bytes",
                         header.frameContentSize, limit));
      }
      output.reserve(output.size() + static_cast<std::size_t>(header.frameContentSize));
    }

    ZSTD_DCtx_reset(context.get(), ZSTD_reset_session_only);
    const std::size_t ref =
        ZSTD_DCtx_refDDict(context.get(), dictionary ? dictionary->prepared.get() : nullptr);
    if (ZSTD_isError(ref)) {
      fail(file_name, position, fmt::format("zstd: {}", ZSTD_getErrorName(ref)));
    }
    // Streaming bounded by the limit: frames without a declared size cannot make us allocate
    // more than the limit, and declared sizes are checked by zstd against what it produces.
    ZSTD_inBuffer in{frame.data(), frame.size(), 0};
    std::size_t remaining_hint = 1;
    std::vector<std::uint8_t> chunk(ZSTD_DStreamOutSize());
    while (remaining_hint != 0) {
      ZSTD_outBuffer out{chunk.data(), chunk.size(), 0};
      remaining_hint = ZSTD_decompressStream(context.get(), &out, &in);
      if (ZSTD_isError(remaining_hint)) {
        fail(file_name, position + in.pos,
             fmt::format("corrupt zstd frame: {}{}", ZSTD_getErrorName(remaining_hint),
                         dictionary_hint));
      }
      if (out.pos > limit - std::min<std::uint64_t>(limit, output.size())) {
        fail(file_name, position + in.pos,
             fmt::format("decompressed data exceed the limit of {} bytes", limit));
      }
      output.insert(output.end(), chunk.begin(),
                    chunk.begin() + static_cast<std::ptrdiff_t>(out.pos));
      if (remaining_hint != 0 && in.pos == in.size && out.pos < out.size) {
        fail(file_name, position + in.pos, "the zstd frame is cut short");
      }
    }
    position += in.pos;
  }
  return output;
#endif
}

}  // namespace ainb::formats
