#pragma once

// The bundled patrol example and Guard.root, a small hand-made file with its edits, shared by the
// tests of `ainb run`, its traces, `ainb regress` and golden sets.

#include <cstddef>
#include <filesystem>
#include <string>

#include "ainb_builder.hpp"
#include "build_paths.hpp"

namespace ainb::test {

// The bundled example, as the build compiles it, and its scenario.
inline const std::filesystem::path kPatrol = ainb::test::examples_dir() / "patrol.root.ainb";
inline const std::filesystem::path kScenario =
    ainb::test::source_dir() / "examples" / "patrol.scenario.json";

// Guard.root: Sequential [BoolSelector on Alarm (True -> Attack, False -> Patrol), Wait].
ainb::test::AinbSpec guard();

// guard() without one of the selector's children, Attack (#2) or Patrol (#3): both of the
// selector's plugs lead to the other, and the nodes after it keep their GUIDs, as an editor
// deleting a node leaves them.
ainb::test::AinbSpec guard_without(std::size_t deleted);

// guard() whose Patrol (#3) calls Walk.module.ainb, a file beside it (walk_module()).
ainb::test::AinbSpec guard_calling_walk();

// Walk.module: one command running one node of class Walk.
ainb::test::AinbSpec walk_module();

// Builds `spec` into a file `name` in the scratch folder; returns its path.
std::string write_spec(const std::string& name, const ainb::test::AinbSpec& spec);

}  // namespace ainb::test
