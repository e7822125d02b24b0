#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ainb {

// The one error a bad input file produces. It names the file, the section being read, the byte
// offset (from the start of the file) where reading went wrong, and what was wrong, so that a
// person editing a file by hand can find the spot with a hex editor.
class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, std::string section, std::uint64_t offset, std::string reason);

  const std::string& file() const noexcept { return file_; }
  const std::string& section() const noexcept { return section_; }
  std::uint64_t offset() const noexcept { return offset_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string file_;
  std::string section_;
  std::uint64_t offset_;
  std::string reason_;
};

}  // namespace ainb
