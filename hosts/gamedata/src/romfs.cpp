#include "ainb/gamedata/romfs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "ainb/loader.hpp"

namespace ainb::gamedata {

namespace {

bool is_pack_name(std::string_view name) {
  return name.ends_with(".pack.zs") || name.ends_with(".pack") || name.ends_with(".sarc") ||
         name.ends_with(".sarc.zs");
}

bool is_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

}  // namespace

FileSpec parse_file_spec(std::string_view spec) {
  for (auto colon = spec.rfind(':'); colon != std::string_view::npos && colon > 0;
       colon = spec.rfind(':', colon - 1)) {
    if (is_pack_name(spec.substr(0, colon))) {
      return {std::filesystem::path(spec.substr(0, colon)), std::string(spec.substr(colon + 1))};
    }
  }
  return {std::filesystem::path(spec), {}};
}

formats::ZstdDictionaries load_dictionaries(const std::filesystem::path& romfs,
                                            const std::filesystem::path& zsdic) {
  if (!zsdic.empty()) return formats::ZstdDictionaries::load(zsdic);
  if (!romfs.empty()) {
    const auto pack = romfs / "Pack" / "ZsDic.pack.zs";
    if (is_file(pack)) return formats::ZstdDictionaries::from_pack_file(pack);
  }
  return {};
}

FileSource::FileSource(std::filesystem::path root, const formats::ZstdDictionaries* dictionaries)
    : root_(std::move(root)), dictionaries_(dictionaries) {}

const FileSource::Pack* FileSource::pack_at(const std::filesystem::path& path) const {
  for (const auto& p : packs_) {
    if (p->path == path) return p.get();
  }
  if (shared_) {
    for (const auto& p : *shared_) {
      if (p.path == path) return &p;
    }
  }
  packs_.push_back(
      std::make_unique<Pack>(Pack{path, formats::open_pack_file(path, dictionaries_)}));
  return packs_.back().get();
}

const formats::Sarc& FileSource::open_pack(const std::filesystem::path& pack) {
  auto path = pack;
  // Relative to the working directory when it is there, else to the root (and a missing pack is
  // named by its romfs path).
  if (!is_file(path) && !root_.empty() && pack.is_relative()) path = root_ / pack;
  std::lock_guard lock(mutex_);
  const auto* opened = pack_at(path);  // a missing file: LoadError "cannot open the file"
  if (std::find(primary_.begin(), primary_.end(), opened) == primary_.end()) {
    primary_.push_back(opened);
  }
  return opened->sarc;
}

void FileSource::index_packs() const {
  if (indexed_ || root_.empty()) return;
  indexed_ = true;
  std::error_code error;
  const auto dir = root_ / "Pack";
  if (!std::filesystem::is_directory(dir, error)) return;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    const auto name = it->path().filename().string();
    if (!it->is_regular_file(error) || !is_pack_name(name) || name == "ZsDic.pack.zs") continue;
    pack_paths_.push_back(it->path());
  }
  std::sort(pack_paths_.begin(), pack_paths_.end());
  for (const auto& path : pack_paths_) {
    const auto* pack = pack_at(path);
    for (const auto& file : pack->sarc.files()) {
      if (!file.name.empty()) members_.emplace(file.name, path);  // the first pack wins
    }
  }
}

std::optional<FileSource::Found> FileSource::find(std::string_view path) const {
  std::lock_guard lock(mutex_);
  auto copy = [](const Pack& pack, const formats::Sarc::File& file) {
    const auto data = pack.sarc.data(file);
    return Found{{data.begin(), data.end()}, fmt::format("{}:{}", pack.path.string(), file.name)};
  };
  for (const auto* pack : primary_) {
    if (const auto* file = pack->sarc.find(path)) return copy(*pack, *file);
  }
  if (shared_) {
    for (const auto& pack : *shared_) {
      if (const auto* file = pack.sarc.find(path)) {
        const auto data = pack.sarc.data(*file);
        return Found{{data.begin(), data.end()},
                     fmt::format("{}:{}", pack.path.string(), file->name)};
      }
    }
  }
  if (root_.empty()) return std::nullopt;
  if (const auto loose = root_ / path; is_file(loose)) {
    return Found{formats::read_binary_file(loose), loose.string()};
  }
  if (const auto packed = root_ / (std::string(path) + ".zs"); is_file(packed)) {
    const auto name = packed.string();
    return Found{formats::zstd_decompress(formats::read_binary_file(packed), name, dictionaries_),
                 name};
  }
  index_packs();
  if (const auto it = members_.find(path); it != members_.end()) {
    const auto* pack = pack_at(it->second);
    return copy(*pack, *pack->sarc.find(path));
  }
  return std::nullopt;
}

void FileSource::add_shared_packs(std::shared_ptr<const OpenedPacks> packs) {
  std::lock_guard lock(mutex_);
  shared_ = std::move(packs);
}

std::string FileSource::where() const {
  std::lock_guard lock(mutex_);
  std::string text = "searched ";
  for (const auto* pack : primary_)
    text += fmt::format("{}, ", pack->path.string());
  if (shared_) {
    const auto others = std::count_if(shared_->begin(), shared_->end(), [&](const OpenedPack& p) {
      return std::none_of(primary_.begin(), primary_.end(),
                          [&](const Pack* own) { return own->path == p.path; });
    });
    if (others != 0) text += fmt::format("{} other pack{}, ", others, others == 1 ? "" : "s");
  }
  if (root_.empty()) {
    text += "(no romfs folder)";
  } else {
    text += fmt::format("{} and the packs under {}", root_.string(), (root_ / "Pack").string());
  }
  return text;
}

std::shared_ptr<const Model> open_ai_file(std::string_view spec, FileSource& source) {
  const auto parsed = parse_file_spec(spec);
  if (parsed.member.empty() && is_pack_name(parsed.file.filename().string())) {
    throw LoadError(std::string(spec), "SARC", 0,
                    "a pack, not an AI file: name one of its files, as PACK:AI/NAME.ainb (`ainb "
                    "cat PACK` lists them)");
  }
  if (parsed.member.empty()) {
    if (is_file(parsed.file) || source.root().empty() || !parsed.file.is_relative()) {
      return load_file(parsed.file);
    }
    if (auto found = source.find(parsed.file.generic_string())) {
      return load(std::move(found->bytes), found->where);
    }
    return load_file(parsed.file);  // "cannot open the file", naming the path as given
  }
  const auto& pack = source.open_pack(parsed.file);
  const auto data = pack.member(parsed.member);
  return load(std::vector<std::uint8_t>(data.begin(), data.end()),
              fmt::format("{}:{}", pack.file_name(), parsed.member));
}

std::shared_ptr<const Model> RomfsResolver::find(std::string_view path) const {
  std::lock_guard lock(mutex_);
  if (const auto it = loaded_.find(path); it != loaded_.end()) return it->second;
  for (const auto& candidate : {"AI/" + std::string(path), std::string(path)}) {
    if (auto found = source_.find(candidate)) {
      auto model = load(std::move(found->bytes), found->where);
      loaded_.emplace(std::string(path), model);
      return model;
    }
  }
  return nullptr;
}

}  // namespace ainb::gamedata
