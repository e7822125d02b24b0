#pragma once

// Folders for the tests of hosts/gamedata: a fresh scratch folder per test, and a romfs tree made
// of the corpus's packs.

#include <filesystem>
#include <string>

#include "corpus.hpp"
#include "scratch.hpp"

namespace ainb::test {

// A fresh, empty folder in the test process's scratch folder.
inline std::filesystem::path temp_dir(const std::string& name) {
  return ainb::test::fresh_dir("gamedata_" + name);
}

// DIR/Pack/ZsDic.pack.zs and DIR/Pack/Actor/<the corpus's two actor packs>.
inline std::filesystem::path corpus_romfs(const std::string& name, bool with_dictionaries = true) {
  const auto corpus = test::corpus_dir();
  const auto dir = temp_dir(name);
  std::filesystem::create_directories(dir / "Pack/Actor");
  if (with_dictionaries)
    std::filesystem::copy_file(corpus / "zsdic/ZsDic.pack.zs", dir / "Pack/ZsDic.pack.zs");
  for (const auto& pack : test::corpus_pack_files())
    std::filesystem::copy_file(pack, dir / "Pack/Actor" / pack.filename());
  return dir;
}

}  // namespace ainb::test
