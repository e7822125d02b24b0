#pragma once

#include "ainb/exb/user_functions.hpp"

namespace ainb::test {

// Simple stand-ins for the 19 user functions the real files' expressions call (corpus/ainb and
// corpus/bulk/ainb), for tests and benchmarks: GetBBCodeBool(c) = c is odd, GetBBCodeInt(c) =
// 10c, GetBBCodeFloat(c) = c / 2, GetBBCodeVector3F(c) = (c, 2c, 3c), normalisations return
// their argument, Actor.Forward = (0,0,1), Actor.Pos = (1,2,3), Actor.Up = (0,1,0), IsEnter =
// true; the rest compute what their names say (Min, Max, Cos, CastIntToFloat, and the methods
// on a Vector3F receiver: Length, LengthXZ, Dot, Cross, CalcAngle in radians, 0 for a zero
// vector).
exb::UserFunctions corpus_user_functions();

}  // namespace ainb::test
