// Reads the versions `ainb review` compares: folders, packs and git revisions (review_sources.hpp).

#include "review_sources.hpp"

#include <unistd.h>

#include <fstream>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "ainb/formats/sarc.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/process.hpp"

namespace ainb::cli {

namespace fs = std::filesystem;

namespace {

// A pack's member or a revision's blob, at its path under the copies' folder.
void write_copy(const fs::path& path, const char* data, std::size_t size) {
  fs::create_directories(path.parent_path());
  std::ofstream file(path, std::ios::binary);
  file.write(data, static_cast<std::streamsize>(size));
  if (!file.flush()) throw std::runtime_error("cannot write " + path.string());
}

// git with `args` in the current folder (a revision is never read as shell syntax: no shell);
// its standard output, or nullopt when it cannot run (in a browser: never) or exits otherwise
// than 0.
std::optional<std::string> run_git(std::vector<std::string> args) {
  args.insert(args.begin(), "git");
  auto git = run_process(args);
  if (!git.succeeded()) return std::nullopt;
  return std::move(git.out);
}

Version folder_version(const std::string& spec) {
  Version v{.name = spec, .kind = "folder", .files = {}, .copies = {}};
  for (const auto& entry :
       fs::recursive_directory_iterator(spec, fs::directory_options::skip_permission_denied)) {
    if (entry.is_regular_file() && entry.path().extension() == ".ainb")
      v.files.emplace(entry.path().lexically_relative(spec).generic_string(), entry.path());
  }
  return v;
}

Version pack_version(const std::string& spec, const FileLookup& lookup, const fs::path& copies) {
  Version v{.name = spec, .kind = "pack", .files = {}, .copies = copies};
  const auto dictionaries = gamedata::load_dictionaries(lookup.romfs, lookup.zsdic);
  for (const auto& member : formats::pack_ai_files(spec, &dictionaries)) {
    const auto path = copies / member.name;
    write_copy(path, reinterpret_cast<const char*>(member.bytes.data()), member.bytes.size());
    v.files.emplace(member.name, path);
  }
  return v;
}

Version revision_version(const std::string& spec, const fs::path& copies) {
  const auto commit = run_git({"rev-parse", "--verify", "--quiet", spec + "^{commit}"});
  if (!commit) {
    throw std::runtime_error(fmt::format(
        "{}: no such folder, pack or git revision (of the repository of the current folder)",
        spec));
  }
  const auto id = commit->substr(0, commit->find('\n'));
  const auto listing = run_git({"ls-tree", "-r", "-z", "--name-only", id});
  if (!listing) throw std::runtime_error(fmt::format("{}: git ls-tree failed", spec));
  Version v{.name = spec, .kind = "revision", .files = {}, .copies = copies};
  for (std::size_t at = 0; at < listing->size();) {
    auto end = listing->find('\0', at);
    if (end == std::string::npos) end = listing->size();
    const auto name = listing->substr(at, end - at);
    at = end + 1;
    if (!name.ends_with(".ainb")) continue;
    const auto blob = run_git({"cat-file", "blob", id + ":" + name});
    if (!blob) throw std::runtime_error(fmt::format("{}: cannot read {}", spec, name));
    const auto path = copies / name;
    write_copy(path, blob->data(), blob->size());
    v.files.emplace(name, path);
  }
  return v;
}

}  // namespace

TemporaryFolder::TemporaryFolder() {
  for (unsigned n = 0;; ++n) {
    path_ = fs::temp_directory_path() / fmt::format("ainb-review-{}-{}", ::getpid(), n);
    if (fs::create_directory(path_)) break;
  }
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

Version open_version(const std::string& spec, const FileLookup& lookup, const fs::path& copies) {
  std::error_code ec;
  // A folder wins over a revision of the same name.
  if (fs::is_directory(spec, ec)) return folder_version(spec);
  if (fs::exists(spec, ec)) {
    if (is_pack(spec)) return pack_version(spec, lookup, copies);
    throw std::runtime_error(
        fmt::format("{}: not a folder or a pack (.pack.zs, .pack, .sarc)", spec));
  }
  return revision_version(spec, copies);
}

}  // namespace ainb::cli
