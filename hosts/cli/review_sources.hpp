#pragma once

// The two versions `ainb review` compares, each a folder, a pack or a git revision of the
// current repository, read as AI files on disk: a pack's members and a revision's blobs are
// copied into a temporary folder, so that every file runs as `ainb regress` runs a file (its
// modules beside it).

#include <filesystem>
#include <map>
#include <string>

#include "commands.hpp"

namespace ainb::cli {

// One version's AI files by their path in it (a pack's by member name), each a file on disk.
struct Version {
  std::string name;  // as the command line gave it
  std::string kind;  // "folder", "pack" or "revision"
  std::map<std::string, std::filesystem::path> files;
  std::filesystem::path copies;  // where a pack's or a revision's files were copied; empty: none
};

// A folder of its own under the system's temporary folder, removed with what it holds.
class TemporaryFolder {
 public:
  TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder();
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The version `spec` names: a folder (its *.ainb, recursively), a pack (its AI/*.ainb) or, when
// no file of that name exists, a git revision of the repository of the current folder (its
// *.ainb). Copies go under `copies`. Throws std::runtime_error naming `spec` when it is none of
// them, or when a pack or the revision cannot be read.
Version open_version(const std::string& spec, const FileLookup& lookup,
                     const std::filesystem::path& copies);

}  // namespace ainb::cli
