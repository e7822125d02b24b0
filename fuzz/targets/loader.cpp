// AINB loader harness: any bytes through ainb::load; a LoadError is the only acceptable failure.

#include <vector>

#include "ainb/load_error.hpp"
#include "ainb/loader.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_loader(Bytes data) {
  try {
    const auto model = load(std::vector<std::uint8_t>(data.begin(), data.end()), "fuzz.ainb");
    // Read what the loader resolved: every node's name (views into the file's bytes).
    volatile std::uint8_t sink = 0;
    for (const auto& node : model->nodes) {
      for (const char c : node.name)
        sink = static_cast<std::uint8_t>(sink + static_cast<std::uint8_t>(c));
    }
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
