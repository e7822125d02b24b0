#pragma once

// The game's maths functions: the CFN signatures of real files that need no game state (Min,
// Cos, (Vector3F).Length, ...). Every program binds them unless the host registers a function
// for the same signature, which wins (docs/exb.md, "Standard functions").

#include <span>
#include <string_view>

#include "ainb/exb/user_functions.hpp"

namespace ainb::exb {

struct StandardFunction {
  std::string_view signature;
  std::string_view meaning;  // one line, as docs/exb.md lists it
};

// The functions, registered; shared by every program (built once, thread-safe).
const UserFunctions& standard_functions();

// Their signatures and meanings, in the order of the table.
std::span<const StandardFunction> standard_function_list();

}  // namespace ainb::exb
