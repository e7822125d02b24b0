// SARC harness: Sarc::parse, a lookup and the bytes of every member, then the listing.

#include <vector>

#include "ainb/formats/sarc.hpp"
#include "ainb/formats/text.hpp"
#include "ainb/load_error.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_sarc(Bytes data) {
  try {
    const auto archive =
        formats::Sarc::parse(std::vector<std::uint8_t>(data.begin(), data.end()), "fuzz.sarc");
    volatile std::uint8_t sink = 0;
    for (const auto& file : archive.files()) {
      const auto bytes = archive.data(file);
      if (!bytes.empty()) sink = static_cast<std::uint8_t>(sink + bytes.front() + bytes.back());
      if (!file.name.empty() && archive.find(file.name) == nullptr) __builtin_trap();
    }
    (void)formats::to_text(archive);
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
