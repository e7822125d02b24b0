// ainb::run_process (core/include/ainb/process.hpp): the program's input, outputs and exit code,
// no shell between, and a program that cannot start said as such.

#include <doctest/doctest.h>

#include "ainb/process.hpp"

TEST_CASE("run_process: input in, both outputs and the exit code back") {
  const auto cat = ainb::run_process({"cat"}, "line one\nline two\n");
  CHECK(cat.ran);
  CHECK(cat.succeeded());
  CHECK(cat.out == "line one\nline two\n");
  CHECK(cat.err.empty());
  // An argument is never shell syntax: the quote and the semicolon reach the program as they are.
  const auto echo = ainb::run_process({"echo", "a'b; c"});
  CHECK(echo.out == "a'b; c\n");
  const auto listing = ainb::run_process({"ls", "/no/such/folder"});
  CHECK(listing.ran);
  CHECK(listing.exit_code == 2);
  CHECK_FALSE(listing.succeeded());
  CHECK(listing.out.empty());
  CHECK(listing.err.find("/no/such/folder") != std::string::npos);
}

TEST_CASE("run_process: a program that does not start") {
  const auto missing = ainb::run_process({"/no/such/program", "-x"});
  CHECK_FALSE(missing.ran);
  CHECK_FALSE(missing.succeeded());
  CHECK(missing.error == "/no/such/program: No such file or directory");
  CHECK(ainb::run_process({}).error == "no program");
}
