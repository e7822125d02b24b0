#pragma once

// What the benchmark programs share: the corpus location and its AINB files.

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

namespace ainb::bench {

// Removes `--corpus DIR` from the arguments (the rest go to Google Benchmark) and returns DIR,
// or the build's default (../shared/corpus beside the checkout).
inline std::filesystem::path take_corpus_argument(int argc, char** argv, std::vector<char*>& rest) {
  std::filesystem::path corpus = AINB_CORPUS_DIR;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--corpus") == 0 && i + 1 < argc) {
      corpus = argv[++i];
      continue;
    }
    rest.push_back(argv[i]);
  }
  return corpus;
}

// The corpus's `*.ainb` files, sorted by name (empty when the corpus is missing).
inline std::vector<std::filesystem::path> corpus_files(const std::filesystem::path& corpus) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(corpus / "ainb")) return files;
  for (const auto& entry : std::filesystem::directory_iterator(corpus / "ainb")) {
    if (entry.path().extension() == ".ainb") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The corpus's `*.ainb` files, largest first (so a filter like `/Accessory` picks the big one);
// when there are none, says so on standard error under `program`'s name and returns empty.
inline std::vector<std::filesystem::path> corpus_files_largest_first(
    const std::filesystem::path& corpus, const char* program) {
  auto files = corpus_files(corpus);
  if (files.empty()) {
    std::cerr << program << ": no .ainb files under " << (corpus / "ainb").string() << '\n';
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return std::filesystem::file_size(a) > std::filesystem::file_size(b);
  });
  return files;
}

// The machine, for programs that print their own figures (Google Benchmark prints its own):
// CPU model, hardware threads and the load average when the run started.
inline std::string machine_description() {
  std::string model = "unknown CPU", line;
  std::ifstream cpuinfo("/proc/cpuinfo");
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  std::string load = "?";
  std::ifstream loadavg("/proc/loadavg");
  std::getline(loadavg, load);
  return model + ", " + std::to_string(std::thread::hardware_concurrency()) +
         " hardware threads, load average " + load.substr(0, load.find(' '));
}

}  // namespace ainb::bench
