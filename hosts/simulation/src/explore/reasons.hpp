#pragma once

// Why explore's runs never reached a decision's plug, where the file says: a condition an earlier
// plug already takes, an empty range, a zero weight, an input no scenario sets (a constant, a
// class that computes it, a module's caller, a user function explore does not script).

#include "ainb/simulation/coverage.hpp"
#include "targets.hpp"

namespace ainb::simulation::explorer {

// Explains each unreached plug of a decision that was reached (Coverage::explain).
void explain_unreached(Coverage& coverage, const Targets& targets);

}  // namespace ainb::simulation::explorer
