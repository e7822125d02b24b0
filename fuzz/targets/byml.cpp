// BYML harness: byml::read, then the text rendering of what it read (`ainb cat`).

#include "ainb/formats/byml.hpp"
#include "ainb/formats/text.hpp"
#include "ainb/load_error.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_byml(Bytes data) {
  try {
    const auto document = formats::byml::read(data, "fuzz.byml");
    (void)formats::to_text(document);
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
