#pragma once

// The JSON text form as the tests handle it: the bundled examples' JSON, and a text printed and
// parsed again as a person stores it.

#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "build_paths.hpp"

namespace ainb::test {

// The text as a person stores it: printed, then parsed again.
inline nlohmann::ordered_json reparse(const nlohmann::ordered_json& text) {
  return nlohmann::ordered_json::parse(text.dump(2));
}

// The JSON of a bundled example (examples/NAME).
inline nlohmann::ordered_json example_text(const std::string& name = "patrol.root.json") {
  std::ifstream in(ainb::test::source_dir() / "examples" / name);
  REQUIRE(in);
  return nlohmann::ordered_json::parse(in);
}

}  // namespace ainb::test
