// Text form harness: the bytes as JSON, then writer::from_text (validation, EXB assembly, the
// writer, and the loader reading the result back). Text that is not JSON, a TextFormError naming
// the JSON path and a LoadError are the expected outcomes of bad input.

#include <nlohmann/json.hpp>

#include "ainb/load_error.hpp"
#include "ainb/writer/text_form.hpp"
#include "targets.hpp"

namespace ainb::fuzz {

void run_text(Bytes data) {
  const auto json = nlohmann::ordered_json::parse(data.begin(), data.end(), nullptr, false);
  if (json.is_discarded()) return;
  try {
    (void)writer::from_text(json, "fuzz.json");
  } catch (const writer::TextFormError&) {
  } catch (const LoadError&) {
  }
}

}  // namespace ainb::fuzz
