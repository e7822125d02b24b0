#pragma once

// What the benchmark programs share: the corpus location and its AINB files.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "build_paths.hpp"

namespace ainb::bench {

// Removes `--corpus DIR` from the arguments (the rest go to Google Benchmark) and returns DIR,
// or the build's default (../shared/corpus beside the checkout).
inline std::filesystem::path take_corpus_argument(int argc, char** argv, std::vector<char*>& rest) {
  std::filesystem::path corpus = ainb::test::default_corpus_dir();
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

// The core's clock as it runs now, in GHz: a timed chain of dependent integer additions, each
// one cycle on any current x86-64 or AArch64 core. Google Benchmark prints the nominal clock
// from /proc/cpuinfo; a VM's core may run well above it (this one: 2.6 nominal, 3.66 measured),
// and ns per visit times this clock is cycles per visit, which compares across machines.
inline double measured_clock_ghz() {
  constexpr std::uint64_t kRounds = 20'000'000, kChain = 10;
  std::uint64_t x = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < kRounds; ++i) {
#pragma GCC unroll 10  // (a loop branch per addition would be the bound instead)
    for (std::uint64_t k = 0; k < kChain; ++k) {
      x += 1;
      asm volatile("" : "+r"(x));  // keeps each addition, in order, in a register
    }
  }
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  return static_cast<double>(kRounds * kChain) / took.count();
}

}  // namespace ainb::bench
