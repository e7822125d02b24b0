// Loader throughput: parse + validate each corpus AINB file from bytes in memory (the copy of
// the bytes into the model is included, reading from disk is not). Prints MB/s per file and the
// time per load; Google Benchmark prints the machine (CPUs, frequency, caches) first.
//
//   build/release/benchmarks/loader_bench [--corpus DIR] [benchmark flags]

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <benchmark/benchmark.h>

#include "ainb/loader.hpp"
#include "bench_common.hpp"

namespace {

std::vector<std::uint8_t> read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void load_file(benchmark::State& state, const std::vector<std::uint8_t>& bytes) {
  for (auto _ : state) {
    auto model = ainb::load(bytes, "bench.ainb");
    benchmark::DoNotOptimize(model);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
  state.counters["bytes"] = static_cast<double>(bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  const auto corpus = ainb::bench::take_corpus_argument(argc, argv, args);
  const auto files = ainb::bench::corpus_files_largest_first(corpus, "loader_bench");
  if (files.empty()) return 1;
  static std::vector<std::vector<std::uint8_t>> contents;
  contents.reserve(files.size());
  for (const auto& path : files) {
    contents.push_back(read(path));
    benchmark::RegisterBenchmark(("load/" + path.filename().string()).c_str(), load_file,
                                 contents.back())
        ->Unit(benchmark::kMicrosecond);
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
