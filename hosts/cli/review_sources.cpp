// Reads the versions `ainb review` compares: folders, packs and git revisions (review_sources.hpp).

#include "review_sources.hpp"

#ifndef __EMSCRIPTEN__
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "ainb/formats/sarc.hpp"
#include "ainb/gamedata/romfs.hpp"

extern char** environ;

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

#ifndef __EMSCRIPTEN__
std::string read_output(std::FILE* file) {
  std::string text;
  std::rewind(file);
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
    text.append(buffer, n);
  return text;
}

// git with `args` in the current folder, without a shell (a revision is never read as shell
// syntax); its standard output, or nullopt when it cannot run or exits otherwise than 0.
std::optional<std::string> run_git(std::vector<std::string> args) {
  using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
  File out(std::tmpfile(), &std::fclose), messages(std::tmpfile(), &std::fclose);
  if (!out || !messages) return std::nullopt;
  args.insert(args.begin(), "git");
  std::vector<char*> argv;
  for (auto& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fileno(out.get()), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fileno(messages.get()), STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return std::nullopt;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
  return read_output(out.get());
}
#else
std::optional<std::string> run_git(std::vector<std::string>) {
  return std::nullopt;  // a browser runs no programs: folders and packs only
}
#endif

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
