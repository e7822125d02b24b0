#pragma once

#include "ainb/exb/user_functions.hpp"

namespace ainb::test {

// Simple stand-ins for the 9 user functions the corpus's expressions call (GetBBCode*,
// Normalize, Actor.*), for tests and benchmarks: GetBBCodeBool(c) = c is odd, GetBBCodeInt(c) =
// 10c, GetBBCodeFloat(c) = c / 2, GetBBCodeVector3F(c) = (c, 2c, 3c), normalisations return
// their argument, Actor.Forward = (0,0,1), Actor.Pos = (1,2,3), Actor.Up = (0,1,0).
exb::UserFunctions corpus_user_functions();

}  // namespace ainb::test
