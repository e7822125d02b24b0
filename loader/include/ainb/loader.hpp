#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ainb/load_error.hpp"
#include "ainb/model.hpp"

namespace ainb {

struct LoadOptions {
  // Files larger than this are refused before any parsing (no real AINB comes near it).
  std::uint64_t max_file_size = 64ull << 20;
  // Files with more nodes than this are refused when the node count is read (before anything is
  // reserved for them). The runtime's per-instance work and memory grow with the node count; node
  // indices are 16-bit in the format, and the largest real file has a few hundred.
  std::uint32_t max_nodes = 65535;
};

// Reads, validates and resolves one AINB file. `name` is used in error messages. The returned
// model is immutable and may be shared across threads. Throws LoadError on any bad input.
std::shared_ptr<const Model> load(std::vector<std::uint8_t> bytes, std::string name,
                                  const LoadOptions& options = {});

// The same for a file on disk; I/O failures are LoadErrors too (section "file", offset 0).
std::shared_ptr<const Model> load_file(const std::filesystem::path& path,
                                       const LoadOptions& options = {});

}  // namespace ainb
