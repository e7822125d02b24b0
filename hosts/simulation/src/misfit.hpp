#pragma once

// A run whose file lacks what the run names (a scenario's blackboard entry, class or function,
// or the command): for regress and golden checks, where the other side had it, a difference
// rather than an error.

#include <optional>
#include <string>

#include "ainb/simulation/simulation.hpp"

namespace ainb::simulation {

// Calls `run`; the message of the ScenarioError or NoSuchCommand it throws, or nullopt.
template <typename Run>
std::optional<std::string> misfit(Run&& run) {
  try {
    run();
  } catch (const ScenarioError& e) {
    return e.what();
  } catch (const NoSuchCommand& e) {
    return e.what();
  }
  return std::nullopt;
}

}  // namespace ainb::simulation
