#pragma once

// The signature string of a CFN (call function) instruction, as the game binds user functions
// by it. The one parser every reader shares: the verifier and compiler, the assembler (a CFN's
// type byte is the signature's result), user-function registration, the C API, `ainb eval` and
// simulation scenarios.
//
//   signature := [receiver "."] name "(" result { "," argument } ")"
//   receiver  := "(" value-type ")" | object { "." object }
//   result    := value-type | "Void"
//
// Names and types are words of [A-Za-z0-9_]; spaces may stand only inside the list, around its
// types (the game writes "Name( Float, Int )"). The first type in the list is always the result,
// also after a receiver: "(Vector3F).Length( Float )" returns Float and takes the Vector3F it is
// called on.
// See docs/exb.md ("Signatures").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/exb/section.hpp"

namespace ainb::exb {

struct Signature {
  std::string text;           // as stored in the file
  std::string name;           // "GetBBCodeFloat", "Forward", "Normalized"
  std::string object;         // "", "Actor", or "Vector3F" for a value object
  bool value_object = false;  // "(Type).Name": the object is a value read from the block
  DataType result = DataType::None;
  std::vector<DataType> arguments;  // including a value object, first

  std::uint32_t arguments_size() const;
  // Bytes of the block the call reads and writes.
  std::uint32_t block_size() const;
};

// Parses a signature string; nullopt (with `error` set) when it is malformed.
std::optional<Signature> parse_signature(std::string_view text, std::string* error = nullptr);

}  // namespace ainb::exb
