// The embedding example under load: 10,000 actors sharing one graph, ticked at 60 frames per
// second on one core, for the bundled patrol example and each corpus file with a command.
// Prints each case's frame time (median, 99th percentile, max) against the 8 ms target.
//
//   embedding_bench [--corpus DIR] [--actors N] [--frames N] [--stub-running N] [--spread N]
//
// Modules missing from the corpus run as stubs. User classes of corpus files are stubs that stay
// Running for --stub-running updates (default 30: half a second per action, like a game's
// animations) then succeed; with 0 every stub succeeds at once and trees are re-entered every frame
// (the worst case: Enter/Leave churn).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "ainb/loader.hpp"
#include "bench_common.hpp"
#include "game.hpp"

namespace {

struct Case {
  std::string label;
  ainb::game::GameOptions options;
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> rest;
  const auto corpus = ainb::bench::take_corpus_argument(argc, argv, rest);
  std::size_t actors = 10'000;
  std::uint64_t frames = 600;
  std::uint32_t stub_running = 30;
  std::uint32_t spread = 30;
  for (std::size_t i = 1; i + 1 < rest.size(); i += 2) {
    const auto value = std::strtoull(rest[i + 1], nullptr, 10);
    if (std::strcmp(rest[i], "--actors") == 0) actors = value;
    if (std::strcmp(rest[i], "--frames") == 0) frames = value;
    if (std::strcmp(rest[i], "--stub-running") == 0)
      stub_running = static_cast<std::uint32_t>(value);
    if (std::strcmp(rest[i], "--spread") == 0) spread = static_cast<std::uint32_t>(value);
  }

  std::vector<Case> cases;
  cases.push_back({"patrol (example classes)",
                   {.file = (ainb::test::examples_dir() / "patrol.root.ainb").string()}});
  for (const auto& file : ainb::bench::corpus_files(corpus)) {
    if (ainb::load_file(file)->commands.empty()) continue;  // Logic and query-only modules
    cases.push_back({file.stem().string(), {.file = file, .stub_missing_modules = true}});
  }

  std::printf(
      "embedding_bench: %zu actors, %llu frames, one thread, stubs Running for %u updates, "
      "actors spread over %u frames\n",
      actors, static_cast<unsigned long long>(frames), stub_running, spread);
  std::printf("machine: %s\n\n", ainb::bench::machine_description().c_str());
  std::printf(
      "| tree | nodes | bytes per actor | median ms | p99 ms | max ms | under 8 ms (p99) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  for (auto& c : cases) {
    c.options.actors = actors;
    c.options.stub_running_updates = stub_running;
    c.options.spread = spread;
    ainb::game::Game game(c.options);
    const auto stats = game.run(frames);
    std::printf("| %s | %zu | %zu | %.2f | %.2f | %.2f | %s |\n", c.label.c_str(),
                game.graph().node_count(), game.bytes_per_actor(), stats.median(),
                stats.percentile(99), stats.max(), stats.percentile(99) < 8.0 ? "yes" : "no");
    std::fflush(stdout);
  }
  return 0;
}
