// The scheduler's time per node visit without Google Benchmark, so that the same source runs
// natively and as WebAssembly in Node (benchmarks/web_bench.mjs puts the two side by side):
// runtime_bench's built cases, then each corpus file given, stubs succeeding at once (the
// corpus/<file> cases) or, with --steady, after 60 updates (corpus_steady/<file>).
//   visit_timer [--rounds N] [--steady] [FILE.ainb...]
// Prints one line per case: name, visits per 1,000 frames, nanoseconds per visit (the best of N
// rounds of 1,000 frames; a round is timed whole, with the steady clock).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "visit_cases.hpp"

using namespace ainb;
using namespace ainb::runtime;

namespace {

void time_case(const std::string& name, const std::shared_ptr<const Graph>& graph, int rounds) {
  std::uint64_t visits = 0;
  {
    bench::Counter counter;
    Instance probe(graph, InstanceOptions{1, nullptr, &counter});
    std::size_t next = 0;
    bench::drive(probe, 1000, next);
    visits = counter.updates;
  }
  double best = std::numeric_limits<double>::infinity();
  std::optional<Instance> instance;
  for (int r = 0; r < rounds; ++r) {
    // Afresh each round, as runtime_bench's per_visit does (outside the timed part).
    instance.emplace(graph, InstanceOptions{1, nullptr, nullptr});
    std::size_t next = 0;
    const auto start = std::chrono::steady_clock::now();
    bench::drive(*instance, 1000, next);
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  std::cout << fmt::format("{} {} {:.2f}\n", name, visits,
                           visits == 0 ? 0.0 : best / static_cast<double>(visits));
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 200;
  bool steady = false;
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--steady") == 0) {
      steady = true;
    } else {
      files.emplace_back(argv[i]);
    }
  }
  try {
    for (const auto& [name, make] : bench::built_cases())
      time_case(name, make(), rounds);
    for (const auto& file : files) {
      time_case((steady ? "corpus_steady/" : "corpus/") + file.stem().string(),
                bench::corpus_graph(file, steady ? bench::kSteadyUpdates : 0), rounds);
    }
  } catch (const std::exception& e) {
    std::cerr << "visit_timer: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
