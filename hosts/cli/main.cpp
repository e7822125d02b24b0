#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return ainb::cli::run(args, std::cout, std::cerr);
}
