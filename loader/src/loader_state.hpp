#pragma once

// What the loader's steps share: the Loader, one pass over a file's sections through one
// bounds-checked reader, each group of sections read in a file of its own, and the string pool
// and array helpers every step uses. Internal to the loader.
//
// How the bytes are laid out is described in docs/loader.md; the comments in the loader say why a
// check exists. Offsets in the header are absolute; most array lengths follow from the difference
// of two header offsets, so the reader first checks that those offsets are in order.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "ainb/byte_reader.hpp"
#include "ainb/loader.hpp"

namespace ainb::detail {

class Loader {
 public:
  Loader(Model& model, const LoadOptions& options)
      : m_(model), options_(options), r_(model.bytes, model.name) {}

  void run();

 private:
  std::uint32_t offset(std::size_t slot) const { return m_.header.offsets[slot]; }

  // A string of the AINB string pool; `at` is where the reference was read (for the message).
  std::string_view string(std::uint64_t at, std::uint32_t pool_offset, std::string_view what) {
    if (pool_offset >= pool_.size()) {
      r_.fail(at, "{} string offset {:#x} lies outside the string pool (size {:#x})", what,
              pool_offset, pool_.size());
    }
    const auto rest = pool_.substr(pool_offset);
    const auto nul = rest.find('\0');
    if (nul == std::string_view::npos) {
      r_.fail(at, "{} string at pool offset {:#x} has no NUL terminator", what, pool_offset);
    }
    return rest.substr(0, nul);
  }
  std::string_view string_ref(Cursor& c, std::string_view what) {
    const auto at = c.offset();
    return string(at, c.u32(what), what);
  }
  // A parameter's string value, which may also lie at the pool's very end: the empty string, as
  // a modders' tool writes it for a pool without one (docs/loader.md, "Files modders' tools
  // write"). Names may not: a file cut at a string's start would then load as if whole.
  std::string_view value_string_ref(Cursor& c, std::string_view what) {
    const auto at = c.offset();
    const auto pool_offset = c.u32(what);
    if (pool_offset == pool_.size()) return pool_.substr(pool_offset);
    return string(at, pool_offset, what);
  }

  // An array of `entry_size`-byte entries filling [begin, end) exactly. `type` optionally
  // qualifies `what` in messages ("float" "inputs").
  std::uint32_t array_count(std::uint64_t begin, std::uint64_t end, std::uint64_t entry_size,
                            std::string_view what, std::string_view type = {}) {
    const auto space = type.empty() ? "" : " ";
    if (begin > end) {
      r_.fail(begin, "{}{}{} start at {:#x}, after their end {:#x}", type, space, what, begin, end);
    }
    r_.require(begin, end - begin, what);
    if ((end - begin) % entry_size != 0) {
      r_.fail(begin, "{}{}{} take {:#x} bytes, not a multiple of their {:#x}-byte entries", type,
              space, what, end - begin, entry_size);
    }
    return static_cast<std::uint32_t>((end - begin) / entry_size);
  }
  // A u32 count followed by `entry_size`-byte entries; checks the entries fit in the file.
  std::uint32_t counted_array(std::uint64_t at, std::uint64_t entry_size, std::string_view what) {
    const auto count = r_.u32(at, what);
    r_.require(at + 4, std::uint64_t{count} * entry_size, what);
    return count;
  }

  // A section's scope and arrays, named and sized by its row of AINB_HEADER_SLOTS.
  [[nodiscard]] ByteReader::SectionScope section(header_slot::Slot slot) const {
    return r_.section(kHeaderSlots[slot].section);
  }
  std::uint32_t slot_array_count(header_slot::Slot slot, std::uint64_t begin, std::uint64_t end) {
    return array_count(begin, end, entry_size(slot, m_.version()), kHeaderSlots[slot].name);
  }
  std::uint32_t counted_slot_array(header_slot::Slot slot) {
    return counted_array(offset(slot), entry_size(slot, m_.version()), kHeaderSlots[slot].name);
  }

  // `describe()` names the range for the message; it is only called when the check fails, so
  // the happy path formats nothing.
  template <typename Describe>
  void check_range(std::uint64_t at, const Range& range, std::size_t size, Describe&& describe) {
    if (std::uint64_t{range.base} + range.count > size) {
      r_.fail(at, "{} [{}, +{}) run past the {} entries there are", describe(), range.base,
              range.count, size);
    }
  }

  // The header, its section table, the command and node arrays (loader.cpp).
  std::string not_ainb_hint() const;
  void read_header();
  void read_commands();
  void check_sections_follow(std::uint64_t arrays_end);
  void read_node_entries();

  // The blackboard and the parameter tables (parameters.cpp).
  Value read_value(Cursor& c, ParamType type, std::string_view what);
  void read_blackboard();
  void read_properties();
  void read_inputs_outputs();
  void read_multi_sources();

  // Node bodies and their plugs (node_bodies.cpp).
  void read_node_body(Node& n);
  std::array<Range, kParamTypeCount> read_property_ranges(Cursor& c, std::string_view owner,
                                                          std::size_t index);
  PlugBlackboard plug_blackboard(Cursor& c);
  Plug read_plug(const Node& n, std::size_t node, PlugKind kind, std::uint32_t at, bool last);
  void read_child_condition(const Node& n, Cursor& c, Plug& p, bool last);

  // The tables after the parameters (tables.cpp).
  void read_transitions();
  void read_queries();
  void read_attachments();
  void read_expressions();
  void read_modules();
  void read_xlink_actions();
  void read_blackboard_ids();
  void read_replacements();
  void read_enum_resolves();
  void read_section_0x58();

  // The checks once every section is read (validation.cpp).
  template <typename Describe>
  void check_blackboard_index(std::uint64_t at, BlackboardType type, std::uint16_t index,
                              Describe&& describe);
  void check_flags(std::uint64_t at, ParamType type, const ParamFlags& flags, std::string_view what,
                   std::string_view name = {});
  void check_output_ref(std::uint64_t at, ParamType type, const ParamFlags& flags,
                        std::int16_t node, std::int16_t output, std::string_view what);
  void resolve_references();
  void check_plug(const Node& n, const Plug& p);
  void check_replacements();

  Model& m_;
  const LoadOptions& options_;
  ByteReader r_;
  std::string_view pool_;
  std::uint64_t nodes_end_ = 0;
};

}  // namespace ainb::detail
