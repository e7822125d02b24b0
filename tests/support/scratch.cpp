#include "scratch.hpp"

#include <fstream>
#include <iterator>
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

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void write_file(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  write_file(path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::filesystem::path write_scratch(const std::string& name, std::string_view bytes) {
  auto path = scratch_dir() / name;
  write_file(path, bytes);
  return path;
}

std::filesystem::path write_scratch(const std::string& name,
                                    const std::vector<std::uint8_t>& bytes) {
  auto path = scratch_dir() / name;
  write_file(path, bytes);
  return path;
}

std::filesystem::path fresh_dir(const std::string& name) {
  const auto dir = scratch_dir() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace ainb::test
