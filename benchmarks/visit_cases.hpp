#pragma once

// The scheduler benchmarks' cases, shared by runtime_bench (Google Benchmark, native) and
// visit_timer (plain timing, native and WebAssembly): trees built here from user nodes, the
// corpus trees with stub nodes, and the frame loop that drives them.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ainb/runtime/instance.hpp"

namespace ainb::bench {

// Counts the visits (updates) of a run.
struct Counter : runtime::Observer {
  std::uint64_t updates = 0;
  void on_update(const runtime::Instance&, std::uint32_t, runtime::Result) override { ++updates; }
};

// A composite of 100 user nodes of class `leaf` (Succeed: succeeds at once; Run: keeps running).
// With `general_frame` the file also holds a transition that is never taken.
std::shared_ptr<const runtime::Graph> hundred(NodeType type, const char* leaf,
                                              bool general_frame = false);
std::shared_ptr<const runtime::Graph> parameters100(const char* reader);
std::shared_ptr<const runtime::Graph> ring100();
std::shared_ptr<const runtime::Graph> fork_join4x25();

using GraphFactory = std::function<std::shared_ptr<const runtime::Graph>()>;
const std::vector<std::pair<std::string, GraphFactory>>& built_cases();

// Runs `frames` frames of `instance`, restarting commands as they end (round robin).
void drive(runtime::Instance& instance, std::uint64_t frames, std::size_t& next_command);

// corpus_steady and --steady: stubs run this many updates before they succeed, as a game's actions
// last for frames, so most frames update running nodes instead of restarting the tree.
constexpr std::uint32_t kSteadyUpdates = 60;

// The corpus trees as the benchmarks run them: user nodes are stubs, module files found beside
// the roots run for real, the others are stubs.
std::shared_ptr<const runtime::Graph> corpus_graph(const std::filesystem::path& path,
                                                   std::uint32_t stub_running_updates = 0);

}  // namespace ainb::bench
