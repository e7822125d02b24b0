#pragma once

#include <string>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/byml.hpp"
#include "ainb/formats/sarc.hpp"

namespace ainb::formats {

// Readable, YAML-like renderings (what `ainb cat` prints). They follow roead's text forms where
// that is cheap: `!u 0x...` for u32, `!l`/`!ul`/`!f64` for 64-bit values, `!!binary`/`!!file`
// with base64, `!h` for hash32 maps (decimal keys), `!io`/`!list`/`!obj` and `!str32`... for
// AAMP; floats print in the shortest form that reads back as the same value.
std::string to_text(const byml::Document& document);
// Names come from `names` where it knows the hash; otherwise the hash prints as a number.
std::string to_text(const aamp::ParameterIO& io, const aamp::NameTable& names);
// One line per file: name (or the hash of an unnamed file) and size in bytes.
std::string to_text(const Sarc& archive);

}  // namespace ainb::formats
