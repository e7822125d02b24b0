#include <cerrno>
#include <cstring>
#include <iostream>

#include <unistd.h>

#include "commands.hpp"
#include "terminal.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  // A file's names reach the terminal as text, never as control sequences (terminal.hpp).
  const bool ascii_only = !ainb::cli::locale_is_utf8();
  const ainb::cli::TerminalText out_text(std::cout, isatty(STDOUT_FILENO) != 0, ascii_only);
  const ainb::cli::TerminalText err_text(std::cerr, isatty(STDERR_FILENO) != 0, ascii_only);
  const int rc = ainb::cli::run(args, std::cout, std::cerr);
  // A full disk or a closed pipe: say so, rather than exit 0 with the output lost.
  errno = 0;
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "error: cannot write the output"
              << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()) << '\n';
    return rc == ainb::cli::kExitOk ? ainb::cli::kExitLoadError : rc;
  }
  return rc;
}
