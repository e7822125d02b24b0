#include "ainb/simulation/explore.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "../actor.hpp"
#include "../scripted.hpp"
#include "reasons.hpp"
#include "runner.hpp"
#include "scenarios.hpp"
#include "targets.hpp"

namespace ainb::simulation {

namespace {

using explorer::Fingerprint;
using explorer::Runner;

// One thread's tools: a runner of the file and, against an edited file, one of that file and
// both runs' fingerprints.
struct Job {
  std::unique_ptr<Runner> original, edited;
  Fingerprint a, b;
  std::unique_ptr<Coverage> edited_reached;  // what this thread's runs of the edited file reached
};

// Runs f(i, job) for i in [0, n) on the jobs' threads, item i on thread i % jobs, so that each
// item's result depends on the item only.
template <typename F>
void in_parallel(std::vector<Job>& jobs, std::size_t n, F f) {
  if (jobs.size() == 1 || n <= 1) {
    for (std::size_t i = 0; i < n; ++i)
      f(i, jobs[0]);
    return;
  }
  std::vector<std::exception_ptr> errors(jobs.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < jobs.size(); ++t) {
    threads.emplace_back([&, t] {
      try {
        for (std::size_t i = t; i < n; i += jobs.size())
          f(i, jobs[t]);
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

// One run of a batch: what it reached beyond the coverage before the batch and, against an
// edited file, whether it fits that file and whether the two runs' fingerprints differ.
struct BatchRun {
  Scenario scenario;
  std::vector<Coverage::Item> beyond;
  bool fits = true;
  bool differs = false;
};

bool worth_a_file(const Coverage::Item& item) {
  return item.kind != Coverage::Item::Kind::Node;
}

// The plain runs of a file: each command once, no scenario, stubs as `ainb run` documents them.
// `by_command`, if given, gets the nodes each run reached first, by the command it started.
Summary plain_runs(
    const std::filesystem::path& file, RunOptions options,
    std::map<std::tuple<std::uint32_t, std::uint32_t>, std::string>* by_command = nullptr) {
  options.coverage = true;
  options.restart = true;
  auto summary = simulate(file, Scenario{}, options, nullptr);
  const auto& commands = summary.graph->model().commands;
  for (std::size_t c = 1; c < commands.size(); ++c) {
    options.command = commands[c].name;
    const auto run = simulate(file, Scenario{}, options, nullptr);
    if (by_command != nullptr) {
      for (const auto& item : run.coverage->reached_beyond(*summary.coverage)) {
        if (item.kind == Coverage::Item::Kind::Node)
          by_command->emplace(std::tuple{item.file, item.index}, commands[c].name);
      }
    }
    summary.coverage->merge(*run.coverage);
  }
  return summary;
}

// Whether `s` fits the edited file: it names nothing the edited file lacks.
bool fits(const Scenario& s, const std::string& command, const runtime::Graph& edited) {
  if (!command.empty() && !edited.find_command(command)) return false;
  try {
    validate_scenario(s, edited);
    return true;
  } catch (const ScenarioError&) {
    return false;
  }
}

// Runs `s` on both files of a job; true when their fingerprints differ.
bool differs(const Scenario& s, Job& job, const runtime::Graph& original, std::uint64_t frames) {
  const auto command = explorer::started(s, original);
  job.original->run(s, frames, command, &job.a);
  job.edited->run(s, frames, command, &job.b);
  return job.a.events() != job.b.events();
}

}  // namespace

ExploreResult explore(const std::filesystem::path& file, const ExploreOptions& explore_options) {
  if (explore_options.jobs == 0) throw std::invalid_argument("explore: --jobs must be at least 1");
  // The node definitions read once for every run `simulate` does here (plain runs, replays,
  // regress's confirmations).
  auto options = explore_options;
  if (!options.run.catalogue) options.run.catalogue = load_catalogue(options.run);
  const auto frames = options.run.frames;
  const bool against = !options.against.empty();
  ExploreResult result;
  // The command a plain run reached each node by, when not the first.
  std::map<std::tuple<std::uint32_t, std::uint32_t>, std::string> plain_command;
  {
    const auto plain = plain_runs(file, options.run, &plain_command);
    result.graph = plain.graph;
    result.plain = plain.coverage;
  }
  const auto targets = explorer::find_targets(*result.graph);
  const explorer::Shared shared(file, options.run, targets);
  // Against an edited file: its own classes and functions, its nodes paired with the original's.
  std::optional<explorer::Targets> edited_targets;
  std::optional<explorer::Shared> edited_shared;
  NodePairings pairings;
  if (against) {
    const auto plain = plain_runs(options.against, options.run);
    result.edited_graph = plain.graph;
    result.edited_plain = plain.coverage;
    result.edited_coverage = std::make_shared<Coverage>(*plain.graph);
    result.edited_coverage->merge(*plain.coverage);
    edited_targets = explorer::find_targets(*result.edited_graph);
    edited_shared.emplace(options.against, options.run, *edited_targets);
    pairings = pair_files(shared.graph(), edited_shared->graph());
  }
  std::vector<Job> jobs(options.jobs);
  for (auto& job : jobs) {
    job.original = std::make_unique<Runner>(shared);
    if (!against) continue;
    job.edited = std::make_unique<Runner>(*edited_shared);
    job.edited_reached = std::make_unique<Coverage>(*result.edited_graph);
    job.b = Fingerprint(&pairings, shared.graph().file_name(), edited_shared->graph().file_name());
  }
  result.coverage = std::make_shared<Coverage>(*result.graph);

  // Against an edited file, whole classes only: a node's number may differ in the edited file,
  // where regress pairs nodes by GUID.
  const explorer::Generator generator(targets, frames, !against);
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
  for (std::uint64_t base = 0; base < options.runs && !result.difference; base += kBatch) {
    const auto n = static_cast<std::size_t>(std::min(kBatch, options.runs - base));
    batch.assign(n, {});
    goals.clear();
    for (const auto& x : steerable) {
      if (!result.coverage->reached(x.node) || result.coverage->reached(x.branch)) continue;
      const auto it = first_kept.find({x.node.file, x.node.index});
      if (it != first_kept.end()) {
        goals.push_back({x.decision, x.plug, it->second, {}});
        continue;
      }
      const auto command = plain_command.find({x.node.file, x.node.index});
      goals.push_back(
          {x.decision, x.plug, -1, command == plain_command.end() ? "" : command->second});
    }
    for (std::size_t i = 0; i < n; ++i)
      batch[i].scenario = generator.next(options.seed, base + i, kept, goals);
    in_parallel(jobs, n, [&](std::size_t i, Job& job) {
      auto& run = batch[i];
      if (!against) {
        run.beyond = job.original->run(run.scenario, frames).reached_beyond(*result.coverage);
        return;
      }
      run.fits = fits(run.scenario, explorer::started(run.scenario, shared.graph()),
                      edited_shared->graph());
      if (run.fits) {
        run.differs = differs(run.scenario, job, shared.graph(), frames);
      } else {
        job.original->run(run.scenario, frames);
      }
      run.beyond = job.original->coverage().reached_beyond(*result.coverage);
      if (run.fits) job.edited_reached->merge(job.edited->coverage());
    });
    for (std::size_t i = 0; i < n; ++i) {
      auto& run = batch[i];
      result.not_fitting += run.fits ? 0 : 1;
      bool kept_it = false;
      for (const auto& item : run.beyond) {
        if (result.coverage->reached(item)) continue;  // an earlier run of the batch
        result.coverage->mark_reached(item);
        if (!kept_it) kept.push_back(run.scenario);
        kept_it = true;
        if (item.kind == Coverage::Item::Kind::Node)
          first_kept[{item.file, item.index}] = static_cast<std::int64_t>(kept.size() - 1);
        if (!worth_a_file(item) || against) continue;
        result.found.push_back({item,
                                result.coverage->describe(item),
                                result.coverage->slug(item) + ".json",
                                base + i,
                                {}});
        found_in.push_back(kept.size() - 1);
      }
      if (!run.differs || result.difference) continue;
      // A difference the fingerprints see: `ainb regress` confirms it, or explore goes on.
      auto scenario = run.scenario;
      scenario.name = fmt::format("explore run {}", base + i);
      auto confirmed = regress(file, options.against, {scenario}, options.run);
      if (!confirmed.difference) {
        ++result.unconfirmed;
        continue;
      }
      ExploreResult::Difference d;
      d.run = base + i;
      d.regress = std::move(confirmed);
      auto shrunk = scenario;
      if (options.shrink) {
        d.shrink_runs = explorer::shrink(shrunk, targets, frames, [&](const Scenario& s) {
          return fits(s, explorer::started(s, shared.graph()), edited_shared->graph()) &&
                 differs(s, jobs[0], shared.graph(), frames);
        });
        auto again = regress(file, options.against, {shrunk}, options.run);
        if (again.difference) {
          d.regress = std::move(again);
        } else {
          shrunk = scenario;  // the shrunk one differs only in the fingerprints: keep the run's
        }
      }
      d.scenario = scenario_json(shrunk);
      result.shrink_runs += d.shrink_runs;
      result.difference = std::move(d);
    }
    result.runs = base + n;
    if (options.progress && result.runs < options.runs)
      options.progress(static_cast<std::size_t>(result.runs),
                       static_cast<std::size_t>(options.runs), "runs");
  }
  if (options.progress) {
    const auto runs = static_cast<std::size_t>(options.runs);
    options.progress(runs, runs, "runs");
  }
  explorer::explain_unreached(*result.coverage, targets);
  if (against) {
    for (const auto& job : jobs)
      result.edited_coverage->merge(*job.edited_reached);
    explorer::explain_unreached(*result.edited_coverage, *edited_targets);
    return result;
  }

  // Each found scenario shrunk for its item, then replayed as `ainb run` would run it.
  std::vector<Scenario> shrunk(result.found.size());
  std::vector<std::uint64_t> spent(result.found.size(), 0);
  in_parallel(jobs, result.found.size(), [&](std::size_t f, Job& job) {
    shrunk[f] = kept[found_in[f]];
    const auto& item = result.found[f].item;
    if (options.shrink) {
      spent[f] = explorer::shrink(shrunk[f], targets, frames, [&](const Scenario& s) {
        return job.original->run(s, frames).reached(item);
      });
    }
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
