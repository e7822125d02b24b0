#pragma once

#include <nlohmann/json.hpp>

#include "ainb/model.hpp"

namespace ainb {

// The complete model as JSON, in the project's documented schema (docs/dump-json.md): every
// record, resolved references next to the raw values they came from, nothing left out.
nlohmann::ordered_json dump_json(const Model& model);

// The same file in the layout of the reference Python tool (dt-12345/ainb, the `*.peer.json` of
// the corpus), for its users to compare and move over. Where that tool prints a wrong value (see
// docs/dump-json.md, "Peer layout"), the correct value is printed instead.
nlohmann::ordered_json dump_peer_json(const Model& model);

}  // namespace ainb
