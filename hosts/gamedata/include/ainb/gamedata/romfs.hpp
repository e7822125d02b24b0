#pragma once

// Files of a romfs-like tree (a game's unpacked file system) and of the SARC packs in it: AI
// files, their modules and the parameter files blackboards reference. See docs/formats.md,
// "Game layouts".

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/formats/sarc.hpp"
#include "ainb/runtime/modules.hpp"

namespace ainb::gamedata {

// "Pack/Actor/X.pack.zs:AI/X.root.ainb" -> the pack and the member; a plain path has no member.
struct FileSpec {
  std::filesystem::path file;  // the pack, or the plain file
  std::string member;          // empty for a plain file
};
// Splits at the last ':' that follows a pack name (".pack.zs", ".pack", ".sarc", ".sarc.zs").
FileSpec parse_file_spec(std::string_view spec);

// The dictionaries for a romfs: `zsdic` when given (a folder of *.zsdic or a ZsDic.pack.zs),
// else ROMFS/Pack/ZsDic.pack.zs when it exists, else none. Throws LoadError.
formats::ZstdDictionaries load_dictionaries(const std::filesystem::path& romfs,
                                            const std::filesystem::path& zsdic);

// A pack opened once and shared (`ainb scan` opens the packs it scans before its workers start).
struct OpenedPack {
  std::filesystem::path path;
  formats::Sarc sarc;
};
using OpenedPacks = std::vector<OpenedPack>;

// Looks files up by their romfs path: first the packs opened explicitly (the actor's own pack),
// then the shared packs added (in their order), then loose files under the root (PATH, then
// PATH.zs decompressed), then every other pack under ROOT/Pack (indexed on first use, once).
// Thread-safe; packs stay open.
class FileSource {
 public:
  // `root` may be empty (no tree: only the explicitly opened packs). The dictionaries must
  // outlive the source.
  FileSource(std::filesystem::path root, const formats::ZstdDictionaries* dictionaries);

  // Opens a pack (a path as given, else relative to the root; a shared pack of that path is used
  // as it is) and searches it before anything else. Throws LoadError (missing pack, missing
  // dictionary, bad data).
  const formats::Sarc& open_pack(const std::filesystem::path& pack);

  struct Found {
    std::vector<std::uint8_t> bytes;
    std::string where;  // "ROOT/AI/x.ainb" or "PACK:AI/x.ainb"
  };
  // The file at this romfs path, or nullopt. Throws LoadError when a candidate exists but does
  // not read (e.g. a corrupt frame).
  std::optional<Found> find(std::string_view path) const;
  // Packs opened elsewhere, searched after the explicitly opened ones (see the class).
  void add_shared_packs(std::shared_ptr<const OpenedPacks> packs);
  // Where find() looks, for messages.
  std::string where() const;
  const std::filesystem::path& root() const noexcept { return root_; }
  const formats::ZstdDictionaries* dictionaries() const noexcept { return dictionaries_; }

 private:
  using Pack = OpenedPack;
  const Pack* pack_at(const std::filesystem::path& path) const;  // opens and keeps it
  void index_packs() const;

  std::filesystem::path root_;
  const formats::ZstdDictionaries* dictionaries_;
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<Pack>> packs_;  // every pack opened so far
  std::vector<const Pack*> primary_;                  // opened explicitly, in order
  std::shared_ptr<const OpenedPacks> shared_;
  mutable bool indexed_ = false;
  mutable std::vector<std::filesystem::path> pack_paths_;  // every pack under ROOT/Pack
  mutable std::map<std::string, std::filesystem::path, std::less<>> members_;  // member -> pack
};

// Opens an AI file: a plain path (as given, else relative to the root), or PACK:MEMBER (the pack
// is opened in `source`, so its other files come first for modules and parameter files).
// Throws LoadError with these reasons: "cannot open the file" (a missing pack or file), "the
// pack has no file MEMBER (it holds N files)", zstd's "the frame needs zstd dictionary ID 3,
// which is not loaded (loaded IDs: none)".
std::shared_ptr<const Model> open_ai_file(std::string_view spec, FileSource& source);

// Module files from a FileSource: "AI/PATH", then "PATH". Each is loaded once.
class RomfsResolver : public runtime::ModuleResolver {
 public:
  explicit RomfsResolver(const FileSource& source) : source_(source) {}
  std::shared_ptr<const Model> find(std::string_view path) const override;
  std::string where() const override { return source_.where(); }

 private:
  const FileSource& source_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const Model>, std::less<>> loaded_;
};

}  // namespace ainb::gamedata
