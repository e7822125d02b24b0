#include "corpus.hpp"
#include "build_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include <doctest/doctest.h>

namespace ainb::test {

std::filesystem::path corpus_dir() {
  std::filesystem::path dir = ainb::test::default_corpus_dir();
  if (const char* env = std::getenv("AINB_CORPUS")) dir = env;
  if (std::filesystem::is_directory(dir / "ainb")) return dir;
  if (std::getenv("CI") != nullptr) {
    FAIL("the real-data corpus is missing at " << dir.string()
                                               << " (CI is set: corpus tests must run)");
  }
  MESSAGE("corpus missing at " << dir.string() << "; corpus tests skipped outside CI");
  return {};
}

std::vector<std::filesystem::path> corpus_ainb_files() {
  std::vector<std::filesystem::path> files;
  auto dir = corpus_dir();
  if (dir.empty()) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "ainb")) {
    if (entry.path().extension() == ".ainb") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (std::getenv("CI") != nullptr) REQUIRE_FALSE(files.empty());
  return files;
}

std::vector<std::filesystem::path> corpus_files(const std::string& folder,
                                                const std::string& suffix) {
  std::vector<std::filesystem::path> files;
  auto dir = corpus_dir();
  if (dir.empty()) return files;
  if (std::getenv("CI") != nullptr) REQUIRE(std::filesystem::is_directory(dir / folder));
  if (!std::filesystem::is_directory(dir / folder)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir / folder)) {
    const auto name = entry.path().filename().string();
    if (name.size() >= suffix.size() && name.ends_with(suffix) && !name.ends_with(".yml")) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  if (std::getenv("CI") != nullptr) REQUIRE_FALSE(files.empty());
  return files;
}

std::vector<std::filesystem::path> corpus_bulk_ainb_files() {
  return corpus_files("bulk/ainb", ".ainb");
}
std::vector<std::filesystem::path> corpus_wide_ainb_files() {
  return corpus_files("wide/ainb", ".ainb");
}
std::map<std::string, std::string> corpus_refusals() {
  std::map<std::string, std::string> refusals;
  std::ifstream in(source_dir() / "tests" / "corpus-refusals.txt");
  REQUIRE_MESSAGE(in.good(), "cannot open tests/corpus-refusals.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with('#')) continue;
    const auto space = line.find(' ');
    REQUIRE_MESSAGE(space != std::string::npos, "corpus-refusals.txt: no reason on: " << line);
    refusals.emplace(line.substr(0, space), line.substr(space + 1));
  }
  return refusals;
}
std::vector<std::filesystem::path> all_real_ainb_files() {
  std::vector<std::filesystem::path> files;
  const auto refused = corpus_refusals();
  for (const auto& folder :
       {corpus_ainb_files(), corpus_bulk_ainb_files(), corpus_wide_ainb_files()}) {
    for (const auto& path : folder) {
      if (!refused.contains(path.filename().string())) files.push_back(path);
    }
  }
  return files;
}
std::vector<std::filesystem::path> real_ainb_folders() {
  const auto dir = corpus_dir();
  if (dir.empty()) return {};
  return {dir / "ainb", dir / "bulk" / "ainb", dir / "wide" / "ainb"};
}
std::vector<std::filesystem::path> corpus_rewritten_files(const std::string& tool) {
  return corpus_files("rewritten/" + tool, ".ainb");
}

std::vector<std::filesystem::path> corpus_byml_files() {
  return corpus_files("byml", "");
}
std::vector<std::filesystem::path> corpus_aamp_files() {
  return corpus_files("aamp", "");
}
std::vector<std::filesystem::path> corpus_pack_files() {
  return corpus_files("packs", ".pack.zs");
}

std::filesystem::path corpus_zsdic_dir() {
  auto dir = corpus_dir();
  if (dir.empty()) return {};
  if (std::getenv("CI") != nullptr) REQUIRE(std::filesystem::is_directory(dir / "zsdic"));
  if (!std::filesystem::is_directory(dir / "zsdic")) return {};
  return dir / "zsdic";
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace ainb::test
