#pragma once

// Runs the `ainb` command line in-process, as the tests of its subcommands do.

#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"

namespace ainb::test {

struct CliRun {
  int code;
  std::string out, err;
};

inline CliRun ainb_cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = ainb::cli::run(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace ainb::test
