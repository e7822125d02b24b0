// The libFuzzer entry point of one harness: AINB_FUZZ_FUNCTION names its body (fuzz/targets/).

#include <cstddef>
#include <cstdint>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ainb::fuzz::AINB_FUZZ_FUNCTION(ainb::fuzz::Bytes(data, size));
  return 0;
}
