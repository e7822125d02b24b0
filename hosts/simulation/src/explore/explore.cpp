#include "ainb/simulation/explore.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "../scripted.hpp"
#include "reasons.hpp"
#include "runner.hpp"
#include "scenarios.hpp"
#include "targets.hpp"

namespace ainb::simulation {

namespace {

using explorer::Runner;

// Runs f(i, runner) for i in [0, n) on `jobs` threads, item i on thread i % jobs, so that each
// item's result depends on the item only.
template <typename F>
void in_parallel(std::vector<std::unique_ptr<Runner>>& runners, std::size_t n, F f) {
  const auto jobs = runners.size();
  if (jobs == 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i)
      f(i, *runners[0]);
    return;
  }
  std::vector<std::exception_ptr> errors(jobs);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < jobs; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (std::size_t i = t; i < n; i += jobs)
          f(i, *runners[t]);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (const auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

// What one run of a batch reached beyond the coverage before the batch.
struct BatchRun {
  Scenario scenario;
  std::vector<Coverage::Item> beyond;
};

bool worth_a_file(const Coverage::Item& item) {
  return item.kind != Coverage::Item::Kind::Node;
}

}  // namespace

ExploreResult explore(const std::filesystem::path& file, const ExploreOptions& options) {
  if (options.jobs == 0) throw std::invalid_argument("explore: --jobs must be at least 1");
  const auto frames = options.run.frames;
  ExploreResult result;
  // The plain runs: each command once, no scenario, stubs as `ainb run` documents them.
  {
    auto plain = options.run;
    plain.coverage = true;
    plain.restart = true;
    auto summary = simulate(file, Scenario{}, plain, nullptr);
    result.graph = summary.graph;
    result.plain = summary.coverage;
    const auto& commands = result.graph->model().commands;
    for (std::size_t c = 1; c < commands.size(); ++c) {
      plain.command = commands[c].name;
      result.plain->merge(*simulate(file, Scenario{}, plain, nullptr).coverage);
    }
  }
  const auto targets = explorer::find_targets(*result.graph);
  const explorer::Shared shared(file, options, targets);
  std::vector<std::unique_ptr<Runner>> runners;
  for (unsigned j = 0; j < options.jobs; ++j)
    runners.push_back(std::make_unique<Runner>(shared));
  result.coverage = std::make_shared<Coverage>(*result.graph);

  const explorer::Generator generator(targets, frames);
  std::vector<Scenario> kept;
  // By node item: the kept scenario that reached it first.
  std::map<std::tuple<std::uint32_t, std::uint32_t>, std::int64_t> first_kept;
  // The decisions' plugs as coverage items, once.
  struct Steerable {
    std::uint32_t decision;
    std::uint32_t plug;
    Coverage::Item node, branch;
  };
  std::vector<Steerable> steerable;
  for (std::uint32_t d = 0; d < targets.decisions.size(); ++d) {
    const auto& decision = targets.decisions[d];
    const auto f = result.coverage->file_index(*decision.graph);
    if (!f) continue;
    for (std::uint32_t p = 0; p < decision.plugs.size(); ++p) {
      if (const auto branch = result.coverage->branch_item(*f, decision.node, p))
        steerable.push_back({d, p, {Coverage::Item::Kind::Node, *f, decision.node}, *branch});
    }
  }
  // Reached by the plain runs: what a fresh scenario starts from.
  result.coverage->merge(*result.plain);
  std::vector<explorer::Goal> goals;
  std::vector<std::size_t> found_in;    // by found: its scenario in `kept`
  constexpr std::uint64_t kBatch = 32;  // fixed, so that --jobs does not change the results
  std::vector<BatchRun> batch;
  for (std::uint64_t base = 0; base < options.runs; base += kBatch) {
    const auto n = static_cast<std::size_t>(std::min(kBatch, options.runs - base));
    batch.assign(n, {});
    goals.clear();
    for (const auto& x : steerable) {
      if (!result.coverage->reached(x.node) || result.coverage->reached(x.branch)) continue;
      const auto it = first_kept.find({x.node.file, x.node.index});
      goals.push_back({x.decision, x.plug, it == first_kept.end() ? -1 : it->second});
    }
    for (std::size_t i = 0; i < n; ++i)
      batch[i].scenario = generator.next(options.seed, base + i, kept, goals);
    in_parallel(runners, n, [&](std::size_t i, Runner& runner) {
      batch[i].beyond = runner.run(batch[i].scenario, frames).reached_beyond(*result.coverage);
    });
    for (std::size_t i = 0; i < n; ++i) {
      bool kept_it = false;
      for (const auto& item : batch[i].beyond) {
        if (result.coverage->reached(item)) continue;  // an earlier run of the batch
        result.coverage->mark_reached(item);
        if (!kept_it) kept.push_back(batch[i].scenario);
        kept_it = true;
        if (item.kind == Coverage::Item::Kind::Node)
          first_kept[{item.file, item.index}] = static_cast<std::int64_t>(kept.size() - 1);
        if (!worth_a_file(item)) continue;
        result.found.push_back({item,
                                result.coverage->describe(item),
                                result.coverage->slug(item) + ".json",
                                base + i,
                                {}});
        found_in.push_back(kept.size() - 1);
      }
    }
    result.runs = base + n;
    if (options.progress) options.progress(result.runs, result.coverage->totals().branches.reached);
  }
  explorer::explain_unreached(*result.coverage, targets);

  // Each found scenario shrunk for its item, then replayed as `ainb run` would run it.
  std::vector<Scenario> shrunk(result.found.size());
  std::vector<std::uint64_t> spent(result.found.size(), 0);
  in_parallel(runners, result.found.size(), [&](std::size_t f, Runner& runner) {
    shrunk[f] = kept[found_in[f]];
    if (options.shrink)
      spent[f] = explorer::shrink(shrunk[f], result.found[f].item, runner, frames);
  });
  for (std::size_t f = 0; f < result.found.size(); ++f) {
    result.shrink_runs += spent[f];
    auto& found = result.found[f];
    found.scenario = scenario_json(shrunk[f]);
    auto replay_options = options.run;
    replay_options.coverage = true;
    const auto replayed =
        simulate(file, parse_scenario(nlohmann::json::parse(found.scenario.dump()), found.name),
                 replay_options, nullptr);
    if (!replayed.coverage->reached(found.item)) {
      result.replay_failures.push_back(
          found.name + ": replayed with `ainb run`, it does not reach " + found.reaches);
    }
  }
  return result;
}

}  // namespace ainb::simulation
