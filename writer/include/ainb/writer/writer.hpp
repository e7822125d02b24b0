#pragma once

// The AINB writer: a model back to AINB bytes (0x404, 0x407, 0x408), computing offsets, counts,
// name hashes, the string pool and the EXB section (docs/text-form.md, "The writer").
//
// Sections are written in the order the game's files use. What the model alone does not say
// (the string pool's order and unused strings, bytes between sections, unknown words) is the
// `Layout`: captured from a loaded file by capture_layout(), carried in the JSON text form, and
// applied again by write(). An unedited file comes back byte for byte.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::writer {

// MurmurHash3 x86 32-bit (seed 0): the name hashes of node and attachment entries (0x407+).
std::uint32_t murmur3_32(std::string_view data, std::uint32_t seed = 0) noexcept;
// A blackboard file reference with the hashes every corpus file stores for its path: murmur3 of
// the path, of the file name up to its last dot, and of the extension after it.
FileReference file_reference(std::string_view path);

// Bytes between two records that no record covers, keyed by the record they precede
// ("blackboard", "node 3 body", "string pool", ...).
struct Gap {
  std::string before;
  std::vector<std::uint8_t> bytes;
};

struct Layout {
  // The string pool as stored: strings in order, unused ones included. Strings the model uses
  // and the pool lacks are appended. Empty: a fresh pool in order of first use.
  std::vector<std::string> strings;
  std::vector<Gap> gaps;
  // Header word 0x50: the query array offset in every known file (written so when true).
  bool unknown_0x50_is_queries = true;
  // The u32 at header offset 0x6C's target (a 4-byte section of unknown meaning).
  std::uint32_t unknown_0x6c_word = 0;
  // Bit t: the property table's offset of parameter type t is stored as 0 (a type without
  // properties, as a modders' tool writes it) instead of where its empty table lies.
  std::uint8_t zero_property_offsets = 0;
  // Empty strings point at the pool's very end, where no NUL is stored (a modders' tool's way,
  // for a pool without an empty string).
  bool empty_string_at_pool_end = false;
  // Unused bytes inside records when they are not the usual ones (zeros; for attachment parameter
  // blocks six (0, end of block) pairs): "node N plug I" (F32 selector conditions), "attachment I
  // parameters".
  std::map<std::string, std::vector<std::uint8_t>> padding;
};

class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a loaded file's layout is (reads model.bytes, which holds the loaded file). Throws
// WriteError when the file's sections are not in the order the writer uses.
Layout capture_layout(const Model& model);

// The model as AINB bytes under `layout`. String views that point into `model.bytes` at the
// string pool keep their exact offset; any other string is found in the pool by value (at the
// start of a string) or appended.
std::vector<std::uint8_t> write(const Model& model, const Layout& layout);

// write(model, capture_layout(model)).
std::vector<std::uint8_t> write(const Model& model);

// The first offset where two byte strings differ (std::nullopt when equal), and the section of
// `reference` (an AINB file) it lies in.
struct Difference {
  std::uint64_t offset = 0;
  std::string section;
};
std::optional<Difference> first_difference(const Model& reference,
                                           std::span<const std::uint8_t> other);

// The section of the loaded file at `offset` ("header", "node bodies", "string pool", ...).
std::string section_at(const Model& model, std::uint64_t offset);

}  // namespace ainb::writer
