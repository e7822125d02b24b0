#pragma once

#include "ainb/exb/user_functions.hpp"

namespace ainb::test {

// Simple stand-ins for the game-state user functions the real files' expressions call (corpus/ainb
// and corpus/bulk/ainb), for tests and benchmarks: GetBBCodeBool(c) = c is odd, GetBBCodeInt(c) =
// 10c, GetBBCodeFloat(c) = c / 2, GetBBCodeVector3F(c) = (c, 2c, 3c), Actor.Forward = (0,0,1),
// Actor.Pos = (1,2,3), Actor.Up = (0,1,0), IsEnter = true. Their maths functions are the
// standard ones (ainb/exb/standard_functions.hpp).
exb::UserFunctions corpus_user_functions();

}  // namespace ainb::test
