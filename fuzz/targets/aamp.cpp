// AAMP harness: aamp::read, then the text rendering of what it read (`ainb cat`).

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/text.hpp"
#include "ainb/load_error.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_aamp(Bytes data) {
  try {
    const auto io = formats::aamp::read(data, "fuzz.aamp");
    (void)formats::to_text(io, formats::aamp::NameTable{});
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
