#pragma once

// Coverage-guided exploration (docs/simulation.md, "Explore"): generates scenarios for a file,
// runs them, keeps those that reach a node, plug, transition or command no earlier run reached,
// and shrinks each to a minimal scenario that still reaches it.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/regress.hpp"
#include "ainb/simulation/simulation.hpp"

namespace ainb::simulation {

struct ExploreOptions {
  // Modules, romfs, node definitions, generic classes, stub children; `frames` each scenario
  // runs (its file states them). The scenarios choose commands, seeds and restart.
  RunOptions run = [] {
    RunOptions o;
    o.frames = 120;
    return o;
  }();
  std::uint64_t runs = 1000;
  std::uint64_t seed = 0;
  unsigned jobs = 1;   // threads; the results do not depend on it
  bool shrink = true;  // shrink each scenario found
  // Differential exploration (`ainb regress ORIGINAL EDITED --explore N`): the scenarios run on
  // this edited version of the file too, and exploration stops at the first that makes the two
  // differ as `ainb regress` compares them.
  std::filesystem::path against;
  // Told after each batch of runs (runs done of `runs`), then once with `runs` of `runs` when the
  // runs end, early or not; shrinking and replaying follow.
  Progress progress;
};

struct ExploreResult {
  // A scenario that reached `item` first, shrunk (`ainb run --scenario` on the file reaches it).
  struct Found {
    Coverage::Item item;
    std::string reaches;    // Coverage::describe
    std::string name;       // a file name for it: Coverage::slug + ".json"
    std::uint64_t run = 0;  // the run (from 0) that first reached it
    nlohmann::ordered_json scenario;
  };
  // Against an edited file: the first scenario that made the two differ, shrunk while they still
  // do (`ainb regress ORIGINAL EDITED --scenario` on it shows `regress`'s difference).
  struct Difference {
    std::uint64_t run = 0;  // the run that found it
    nlohmann::ordered_json scenario;
    RegressResult regress;
    std::uint64_t shrink_runs = 0;
  };
  std::shared_ptr<const runtime::Graph> graph;  // the file's, as `ainb run` builds it
  // What every run together reached (plain runs included); what one plain run of each command
  // reaches (no scenario, stubs as `ainb run` documents them, commands restarted), to compare.
  std::shared_ptr<Coverage> coverage, plain;
  std::vector<Found> found;  // branches, transitions and commands, in the order first reached
  std::uint64_t runs = 0;
  std::uint64_t shrink_runs = 0;  // runs spent shrinking
  // Found scenarios that did not reach their item when replayed with `simulate` (a bug).
  std::vector<std::string> replay_failures;
  // Against an edited file: the difference, if a run found one; the edited file's graph and
  // coverage (plain runs, and every run); scenarios not run on it because they name what it lacks
  // (a class, an entry, a command: the edit removed it); runs whose fingerprints differed where
  // `regress` found the traces equal (a hash collision, or an event compared otherwise).
  std::optional<Difference> difference;
  std::shared_ptr<const runtime::Graph> edited_graph;
  std::shared_ptr<Coverage> edited_coverage, edited_plain;
  std::uint64_t not_fitting = 0;
  std::uint64_t unconfirmed = 0;
};

// Throws as `simulate` does (LoadError, NoSuchCommand) and std::invalid_argument for options it
// cannot use.
ExploreResult explore(const std::filesystem::path& file, const ExploreOptions& options);

}  // namespace ainb::simulation
