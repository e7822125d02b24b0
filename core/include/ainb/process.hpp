#pragma once

// Another program run to its end (Graphviz's dot, git): without a shell, so no argument is ever
// read as shell syntax, its input and outputs through unlinked temporary files (no name in the
// temporary folder to guess or replace). A WebAssembly build runs no programs.

#include <string>
#include <string_view>
#include <vector>

namespace ainb {

struct ProcessResult {
  bool ran = false;   // it started and ended by exiting (not by a signal)
  int exit_code = 0;  // when it ran
  std::string out;    // its standard output
  std::string err;    // its standard error
  std::string error;  // why it did not run; empty when it ran
  bool succeeded() const { return ran && exit_code == 0; }
};

// Runs `args` (args[0] is the program: a path, or a name looked up on PATH) with `input` on its
// standard input, and waits for it.
ProcessResult run_process(const std::vector<std::string>& args, std::string_view input = {});

}  // namespace ainb
