#include "ainb/load_error.hpp"

#include <fmt/format.h>

namespace ainb {

LoadError::LoadError(std::string file, std::string section, std::uint64_t offset,
                     std::string reason)
    : std::runtime_error(fmt::format("{}: {} at offset {:#x}: {}", file, section, offset, reason)),
      file_(std::move(file)),
      section_(std::move(section)),
      offset_(offset),
      reason_(std::move(reason)) {}

}  // namespace ainb
