#pragma once

// Explore's scenarios: new ones made by changing a kept one (or an empty one) a little, and a
// scenario shrunk to what it needs to reach one item (docs/simulation.md, "Explore").

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/scenario.hpp"
#include "targets.hpp"

namespace ainb::simulation::explorer {

// A plug to reach of a decision that was reached: Targets::decisions[decision], and the kept
// scenario that first reached the decision (-1: a plain run did, of `command`, "" for the first).
struct Goal {
  std::uint32_t decision = 0;
  std::uint32_t plug = 0;
  std::int64_t kept = -1;
  std::string command;
};

class Generator {
 public:
  // `per_node`: steer single nodes ("at" in the scenario) rather than whole classes where it can.
  Generator(const Targets& targets, std::uint64_t frames, bool per_node)
      : targets_(targets), frames_(frames), per_node_(per_node) {}
  // Scenario `run` of an exploration seeded with `seed`: a function of the two, of `kept` and of
  // `goals`. Half the time, a kept scenario steered towards a goal; otherwise one changed a
  // little at random.
  Scenario next(std::uint64_t seed, std::uint64_t run, const std::vector<Scenario>& kept,
                const std::vector<Goal>& goals) const;

 private:
  class Rng;
  Scenario fresh() const;
  void steer(Scenario& s, const Targets::Decision& decision, std::uint32_t plug, Rng& rng) const;
  void change(Scenario& s, Rng& rng) const;
  nlohmann::json value(const Pool& pool, ParamType type, bool unsigned_int, Rng& rng) const;

  const Targets& targets_;
  std::uint64_t frames_;
  bool per_node_;
};

// Takes out of `scenario` whatever it does not need for `holds` (it reaches an item, say), moves
// what it does later than it needs earlier and runs as few frames as it needs; returns the runs it
// took (at most 400).
std::uint64_t shrink(Scenario& scenario, const Targets& targets, std::uint64_t frames,
                     const std::function<bool(const Scenario&)>& holds);

}  // namespace ainb::simulation::explorer
