// `ainb explore` on the real files: scenario runs per second on one core, and, with --table, the
// branches it reaches at 1,000 and 10,000 runs against one plain run of each command.
//
//   explore_bench [--corpus DIR] [--runs N] [FILE...]   runs per second (default: the corpus's
//                                                       Toby.utility.root.ainb, 2,000 runs)
//   explore_bench [--corpus DIR] --table                 the table of docs/explore.md
//
// Runs per second leaves out what explore does once (the plain runs, building the graph,
// replaying what it found): it times N runs and 200 runs and divides the difference. Every run
// is 120 frames, with modules not found run as stubs and no shrinking. Each time is the best of
// three: other load on the machine only ever slows a run down.

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ainb/simulation/explore.hpp"
#include "bench_common.hpp"

namespace {

using ainb::simulation::ExploreOptions;

ExploreOptions options(std::uint64_t runs) {
  ExploreOptions o;
  o.run.stub_missing_modules = true;
  o.runs = runs;
  o.shrink = false;
  return o;
}

double seconds_for(const std::filesystem::path& file, std::uint64_t runs) {
  double best = 0;
  for (int k = 0; k < 3; ++k) {
    const auto start = std::chrono::steady_clock::now();
    (void)ainb::simulation::explore(file, options(runs));
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (k == 0 || seconds < best) best = seconds;
  }
  return best;
}

std::vector<std::filesystem::path> all_files(const std::filesystem::path& corpus) {
  auto files = ainb::bench::corpus_files(corpus);
  std::vector<std::filesystem::path> bulk;
  if (std::filesystem::is_directory(corpus / "bulk" / "ainb")) {
    for (const auto& entry : std::filesystem::directory_iterator(corpus / "bulk" / "ainb")) {
      if (entry.path().extension() == ".ainb") bulk.push_back(entry.path());
    }
  }
  std::sort(bulk.begin(), bulk.end());
  files.insert(files.end(), bulk.begin(), bulk.end());
  return files;
}

std::string share(std::size_t reached, std::size_t reachable) {
  if (reachable == 0) return "–";
  return std::to_string(reached) + " (" +
         std::to_string(static_cast<int>(100.0 * static_cast<double>(reached) /
                                         static_cast<double>(reachable))) +
         "%)";
}

int table(const std::filesystem::path& corpus) {
  const auto files = all_files(corpus);
  if (files.empty()) {
    std::fprintf(stderr, "explore_bench: no AI files under %s\n", corpus.string().c_str());
    return 1;
  }
  std::printf("| file | branches reachable | plain runs | 1,000 runs | 10,000 runs |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  std::size_t total[4] = {0, 0, 0, 0};
  for (const auto& file : files) {
    auto o = options(1000);
    o.jobs = 2;
    const auto thousand = ainb::simulation::explore(file, o);
    o.runs = 10000;
    const auto ten_thousand = ainb::simulation::explore(file, o);
    const auto plain = thousand.plain->totals().branches;
    const auto a = thousand.coverage->totals().branches;
    const auto b = ten_thousand.coverage->totals().branches;
    std::printf("| %s | %zu | %s | %s | %s |\n", file.filename().string().c_str(), b.reachable,
                share(plain.reached, b.reachable).c_str(), share(a.reached, b.reachable).c_str(),
                share(b.reached, b.reachable).c_str());
    total[0] += b.reachable;
    total[1] += plain.reached;
    total[2] += a.reached;
    total[3] += b.reached;
    std::fflush(stdout);
  }
  std::printf("| all %zu files | %zu | %s | %s | %s |\n", files.size(), total[0],
              share(total[1], total[0]).c_str(), share(total[2], total[0]).c_str(),
              share(total[3], total[0]).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  const auto corpus = ainb::bench::take_corpus_argument(argc, argv, rest);
  std::uint64_t runs = 2000;
  std::vector<std::filesystem::path> files;
  for (std::size_t i = 1; i < rest.size(); ++i) {
    if (std::strcmp(rest[i], "--table") == 0) return table(corpus);
    if (std::strcmp(rest[i], "--runs") == 0 && i + 1 < rest.size()) {
      runs = std::stoull(rest[++i]);
      continue;
    }
    files.emplace_back(rest[i]);
  }
  if (files.empty()) files.push_back(corpus / "ainb" / "Toby.utility.root.ainb");
  std::printf("%s\n", ainb::bench::machine_description().c_str());
  for (const auto& file : files) {
    const double few = seconds_for(file, 200), many = seconds_for(file, runs);
    const double per_second = static_cast<double>(runs - 200) / (many - few);
    std::printf(
        "%s: %.0f runs of 120 frames per second on one core (%llu runs in %.2f s, 200 in "
        "%.2f s)\n",
        file.filename().string().c_str(), per_second, static_cast<unsigned long long>(runs), many,
        few);
  }
  return 0;
}
