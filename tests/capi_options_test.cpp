// The run options the C API takes (kTakenByCApi rows of simulation/run_options.hpp) against its
// header: each such row has its C function, so a row given the bit fails here until ainb.h has it.

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "ainb/simulation/run_options.hpp"
#include "build_paths.hpp"

namespace {

// The C function (or ainb_instance_options field) that sets each row, by row name.
const std::map<std::string, std::string> kCFunctions = {
    {"seed", "ainb_instance_create_with"},
    {"generic_nodes", "ainb_runtime_add_generic_nodes"},
    {"stub_missing_modules", "ainb_runtime_set_stub_missing_modules"},
    {"modules", "ainb_runtime_add_module_dir"},
};

std::string c_header() {
  std::ifstream in(ainb::test::source_dir() / "hosts/capi/include/ainb/ainb.h");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("run option table: the rows the C API takes are the ones ainb.h declares") {
  using namespace ainb::simulation;
  std::set<std::string> rows;
  for (const auto& info : run_option_table()) {
    if ((info.takers & kTakenByCApi) != 0) rows.emplace(info.name);
  }
  std::set<std::string> mapped;
  for (const auto& [row, function] : kCFunctions)
    mapped.insert(row);
  CHECK(rows == mapped);  // a new kTakenByCApi row needs its C function, here and in ainb.h
  CHECK(rows == std::set<std::string>{"generic_nodes", "modules", "seed", "stub_missing_modules"});

  const auto header = c_header();
  REQUIRE(!header.empty());
  for (const auto& entry : kCFunctions) {
    INFO(entry.first);
    // Declared: on a line that starts with AINB_API.
    const auto at = header.find(" " + entry.second + "(");
    REQUIRE(at != std::string::npos);
    const auto line = header.rfind('\n', at) + 1;
    CHECK(header.compare(line, 9, "AINB_API ") == 0);
  }
  // The seed is a field of the instance's options.
  CHECK(header.find("  uint64_t seed;") != std::string::npos);
}
