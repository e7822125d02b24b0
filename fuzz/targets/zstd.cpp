// zstd harness: every frame decompressed without dictionaries (a frame naming one is a LoadError),
// with a 16 MiB output limit so a hostile frame is refused rather than exhausting memory.

#include "ainb/formats/zstd.hpp"
#include "ainb/load_error.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_zstd(Bytes data) {
  try {
    (void)formats::is_zstd(data);
    (void)formats::zstd_frame_dictionary_id(data);
    const auto out = formats::zstd_decompress(
        data, "fuzz.zs", nullptr, formats::ZstdOptions{.max_decompressed_size = 16u << 20});
    if (out.size() > (16u << 20)) __builtin_trap();
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
