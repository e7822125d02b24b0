// BYML harness: byml::read, then the text rendering of what it read (`ainb cat`), then the
// writer: what it writes must read back and write again byte for byte (the first write sorts
// the hashes, so it is the fixed point).

#include <stdexcept>

#include "ainb/formats/byml.hpp"
#include "ainb/formats/text.hpp"
#include "ainb/load_error.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_byml(Bytes data) {
  formats::byml::Document document;
  try {
    document = formats::byml::read(data, "fuzz.byml");
    (void)formats::to_text(document);
  } catch (const LoadError&) {
    return;
  }
  std::vector<std::uint8_t> written;
  try {
    written = formats::byml::write(document);
  } catch (const formats::byml::WriteError&) {  // version 1, a duplicate key, a NUL in a string
    return;
  }
  try {
    if (formats::byml::write(formats::byml::read(written, "written.byml")) != written)
      throw std::logic_error("BYML writer: writing what it wrote gives other bytes");
  } catch (const LoadError& e) {
    throw std::logic_error(std::string("BYML writer: what it wrote does not read: ") + e.what());
  }
}

}  // namespace ainb::fuzz
