#include "scratch.hpp"

#include <string>
#include <system_error>

#include <unistd.h>

namespace ainb::test {

namespace {

struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("ainb_tests_" + std::to_string(::getpid()));
  ScratchDir() {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;  // a destructor at exit must not throw
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

const std::filesystem::path& scratch_dir() {
  static const ScratchDir dir;
  return dir.path;
}

}  // namespace ainb::test
