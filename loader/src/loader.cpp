#include "ainb/loader.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

#include "ainb/byte_reader.hpp"

// How the bytes are laid out is described in docs/loader.md; the comments here say why a check
// exists. Offsets in the header are absolute; most array lengths follow from the difference of
// two header offsets, so the reader first checks that those offsets are in order.

namespace ainb {

namespace {

constexpr std::uint64_t kHeaderSize = 0x74;

// The header's fields from 0x20 to 0x70 (0x20 + 4 * slot; header_slot), named for messages.
// Values are not offsets (the category, its name in the string pool, 0x54). Offsets no reader
// follows (0x50, "the same as the resident update array offset"; 0x6C, unused) are only checked
// against the file's end. An optional section is absent when its offset is 0.
enum class SlotKind : std::uint8_t { Value, Unread, Section, Optional };
struct OffsetSlot {
  const char* name;
  SlotKind kind;
};
constexpr std::array<OffsetSlot, 21> kOffsetSlots{{
    {"blackboard", SlotKind::Section},
    {"string pool", SlotKind::Section},
    {"enum resolve array", SlotKind::Optional},
    {"property table", SlotKind::Section},
    {"transition array", SlotKind::Section},
    {"input/output table", SlotKind::Section},
    {"multi-param array", SlotKind::Section},
    {"attachment array", SlotKind::Section},
    {"attachment index array", SlotKind::Section},
    {"EXB section", SlotKind::Optional},
    {"child replacement table", SlotKind::Optional},
    {"resident update (query) array", SlotKind::Section},
    {"0x50 field", SlotKind::Unread},
    {"0x54 field", SlotKind::Value},
    {"0x58 section", SlotKind::Optional},
    {"module array", SlotKind::Section},
    {"category name", SlotKind::Value},
    {"category", SlotKind::Value},
    {"XLink action array", SlotKind::Section},
    {"0x6C field", SlotKind::Unread},
    {"blackboard ID (file identification hash)", SlotKind::Section},
}};
constexpr std::uint64_t kCommandSize = 0x18;
constexpr std::uint64_t kParamHeaderSize = 0x90;  // node body: parameter ranges
constexpr std::uint64_t kPlugHeaderSize = 0x14;   // node body: 10 x (count, base)
constexpr std::uint64_t kAttachmentParamsSize = 0x64;
constexpr std::uint64_t kStateInfoSize = 0x14;

constexpr std::uint32_t node_entry_size(std::uint32_t version) {
  return version == kVersion404 ? 0x38 : 0x3C;
}

class Loader {
 public:
  Loader(Model& model, const LoadOptions& options)
      : m_(model), options_(options), r_(model.bytes, model.name) {}

  void run() {
    read_header();
    read_commands();
    read_node_entries();
    read_blackboard();
    read_properties();
    read_inputs_outputs();
    read_multi_sources();
    read_transitions();
    read_queries();
    read_attachments();
    read_expressions();
    read_modules();
    read_xlink_actions();
    read_blackboard_ids();
    read_replacements();
    read_enum_resolves();
    read_section_0x58();
    m_.plugs.reserve(m_.nodes.size() * 2);
    for (auto& node : m_.nodes)
      read_node_body(node);
    resolve_references();
  }

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

  // What a file that is not AINB looks like, for the error: the files people mistake for one.
  std::string not_ainb_hint() const {
    const auto head = r_.bytes(0, std::min<std::uint64_t>(r_.size(), 4));
    const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') {
      return "; it looks like JSON: `ainb convert FILE.json FILE.ainb` makes AINB of the text form";
    }
    if (text == "\x28\xb5\x2f\xfd") {
      return "; it is zstd-compressed: an AI file in a pack is named PACK:MEMBER (`ainb cat` "
             "lists a pack)";
    }
    if (text == "SARC") return "; it is a SARC pack: name one of its files as PACK:MEMBER";
    return "";
  }

  void read_header() {
    auto scope = r_.section("header");
    if (r_.size() < kHeaderSize) {
      r_.fail(0, "file is {} bytes, too small for the {:#x}-byte header{}", r_.size(), kHeaderSize,
              not_ainb_hint());
    }
    const auto magic = r_.bytes(0, 4);
    if (std::string_view(reinterpret_cast<const char*>(magic.data()), 4) != "AIB ") {
      r_.fail(0, "bad magic (expected \"AIB \"){}", not_ainb_hint());
    }
    auto& h = m_.header;
    h.version = r_.u32(0x04);
    if (h.version != kVersion404 && h.version != kVersion407 && h.version != kVersion408) {
      r_.fail(0x04, "unsupported AINB version {:#x}", h.version);
    }
    for (std::size_t i = 0; i < h.offsets.size(); ++i)
      h.offsets[i] = r_.u32(0x20 + 4 * i);
    h.query_count = r_.u32(0x14);
    h.output_node_count = r_.u32(0x1C);
    h.category = offset(header_slot::kCategory);
    for (std::size_t i = 0; i < h.offsets.size(); ++i) {
      if (kOffsetSlots[i].kind == SlotKind::Value) continue;
      if (h.offsets[i] > r_.size()) {
        r_.fail(0x20 + 4 * i, "section offset {:#x} lies past the end of the file ({:#x})",
                h.offsets[i], r_.size());
      }
    }
    // A section cannot start inside the header: its reads would take header fields for its
    // own. Offset 0 marks an absent section where the format has optional ones.
    for (std::size_t i = 0; i < h.offsets.size(); ++i) {
      const auto& slot = kOffsetSlots[i];
      if (slot.kind == SlotKind::Value || slot.kind == SlotKind::Unread) continue;
      if (h.offsets[i] >= kHeaderSize || (h.offsets[i] == 0 && slot.kind == SlotKind::Optional))
        continue;
      r_.fail(0x20 + 4 * i, "{} offset {:#x} lies inside the header (which ends at {:#x})",
              slot.name, h.offsets[i], kHeaderSize);
    }
    const auto pool_offset = offset(header_slot::kStringPool);
    pool_ = std::string_view(reinterpret_cast<const char*>(m_.bytes.data()) + pool_offset,
                             m_.bytes.size() - pool_offset);
    h.file_name = string(0x08, r_.u32(0x08), "file name");
    h.category_name = string(0x60, offset(header_slot::kCategoryName), "category name");
  }

  void read_commands() {
    auto scope = r_.section("commands");
    const auto count = r_.u32(0x0C, "command count");
    r_.require(kHeaderSize, std::uint64_t{count} * kCommandSize, "command array");
    m_.commands.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      Cursor c(r_, kHeaderSize + i * kCommandSize);
      Command cmd;
      cmd.name = string_ref(c, "command name");
      std::memcpy(cmd.guid.bytes.data(), c.bytes(16, "GUID").data(), 16);
      cmd.root = c.u16("root node index");
      if (const auto secondary = c.u16("secondary root node index"); secondary != 0) {
        cmd.secondary_root = static_cast<std::uint16_t>(secondary - 1);
      }
      m_.commands.push_back(cmd);
    }
  }

  // The header, command and node arrays come first; no other section may start inside them.
  void check_sections_follow(std::uint64_t arrays_end) {
    auto scope = r_.section("header");
    nodes_end_ = arrays_end;
    for (std::size_t i = 0; i < m_.header.offsets.size(); ++i) {
      const auto value = m_.header.offsets[i];
      if (kOffsetSlots[i].kind == SlotKind::Value || value == 0) continue;
      if (value < arrays_end) {
        r_.fail(0x20 + 4 * i,
                "section offset {:#x} overlaps the command and node arrays (which end at {:#x})",
                value, arrays_end);
      }
    }
  }

  void read_node_entries() {
    auto scope = r_.section("nodes");
    const auto count = r_.u32(0x10, "node count");
    if (count > options_.max_nodes) {
      r_.fail(0x10, "{} nodes, over the limit of {} (LoadOptions::max_nodes)", count,
              options_.max_nodes);
    }
    const auto entry_size = node_entry_size(m_.version());
    const std::uint64_t begin = kHeaderSize + m_.commands.size() * kCommandSize;
    r_.require(begin, std::uint64_t{count} * entry_size, "node array");
    const bool has_hash = m_.version() != kVersion404;
    m_.nodes.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto at = begin + std::uint64_t{i} * entry_size;
      Cursor c(r_, at);
      Node n;
      n.entry_offset = static_cast<std::uint32_t>(at);
      const auto type = c.u16("node type");
      if (!is_known_node_type(type)) r_.fail(at, "node {}: unknown node type {}", i, type);
      n.type = static_cast<NodeType>(type);
      n.index = c.u16("node index");
      if (n.index != i) r_.fail(at + 2, "node {} says its index is {}", i, n.index);
      n.attachments.count = c.u16("attachment count");
      n.flags = c.u8("flags");
      c.skip(1);
      n.name = string_ref(c, "node name");
      if (has_hash) n.name_hash = c.u32("name hash");
      c.skip(4);  // unknown, always 0
      n.body_offset = c.u32("body offset");
      n.exb_function_count = c.u16("EXB function count");
      n.exb_io_size = c.u16("EXB input/output size");
      n.multi_param_count = c.u16("multi-param count");
      c.skip(2);
      n.attachments.base = c.u32("attachment base");
      n.queries.base = c.u16("query base");
      n.queries.count = c.u16("query count");
      n.state_info_offset = c.u32("state info offset");
      std::memcpy(n.guid.bytes.data(), c.bytes(16, "GUID").data(), 16);
      m_.nodes.push_back(n);
    }
    check_sections_follow(begin + std::uint64_t{count} * entry_size);
    for (const auto& cmd : m_.commands) {
      auto cmd_scope = r_.section("commands");
      const auto at =
          kHeaderSize + static_cast<std::uint64_t>(&cmd - m_.commands.data()) * kCommandSize;
      if (cmd.root >= count) {
        r_.fail(at + 0x14, "command \"{}\" has root node {}, but the file has {} nodes", cmd.name,
                cmd.root, count);
      }
      if (cmd.secondary_root && *cmd.secondary_root >= count) {
        r_.fail(at + 0x16, "command \"{}\" has secondary root node {}, but the file has {} nodes",
                cmd.name, *cmd.secondary_root, count);
      }
    }
  }

  Value read_value(Cursor& c, ParamType type, std::string_view what) {
    switch (type) {
      case ParamType::Int:
        return c.s32(what);
      case ParamType::Bool:
        return c.u32(what) != 0;
      case ParamType::Float:
        return c.f32(what);
      case ParamType::String:
        return string_ref(c, what);
      case ParamType::Vec3f: {
        Vec3f v;
        v.x = c.f32(what);
        v.y = c.f32(what);
        v.z = c.f32(what);
        return v;
      }
      case ParamType::Pointer:
        return PointerValue{c.u32(what)};
    }
    return {};
  }

  void read_blackboard() {
    auto scope = r_.section("blackboard");
    const auto begin = offset(header_slot::kBlackboard);
    const auto types = blackboard_types(m_.version());
    const std::uint64_t header_size = types.size() * 8;
    auto& bb = m_.blackboard;
    std::array<std::uint16_t, kBlackboardTypeCount> value_offset{};
    std::uint32_t total = 0;
    for (std::size_t i = 0; i < types.size(); ++i) {
      const auto t = static_cast<std::size_t>(types[i]);
      bb.count[t] = r_.u16(begin + i * 8, "entry count");
      value_offset[t] = r_.u16(begin + i * 8 + 4, "value offset");
      bb.first[t] = static_cast<std::uint16_t>(total);
      total += bb.count[t];
    }
    const std::uint64_t info_begin = begin + header_size;
    r_.require(info_begin, std::uint64_t{total} * 8, "blackboard entries");
    const std::uint64_t value_base = info_begin + std::uint64_t{total} * 8;
    bb.entries.reserve(total);
    int max_file_reference = -1;
    for (const auto type : types) {
      const auto t = static_cast<std::size_t>(type);
      const auto size = blackboard_value_size(type);
      for (std::uint32_t j = 0; j < bb.count[t]; ++j) {
        Cursor c(r_, info_begin + 8 * bb.entries.size());
        BlackboardEntry e;
        e.type = type;
        const auto word_at = c.offset();
        e.raw_word = c.u32("name word");
        e.name = string(word_at, e.raw_word & 0x3FFFFF, "blackboard name");
        e.inherit = static_cast<InheritMode>((e.raw_word >> 22) & 3);
        if ((e.raw_word & 0x80000000u) != 0) {
          e.file_reference = static_cast<std::uint8_t>((e.raw_word >> 24) & 0x7F);
          max_file_reference = std::max<int>(max_file_reference, *e.file_reference);
        }
        e.notes = string_ref(c, "blackboard notes");
        Cursor v(r_, value_base + value_offset[t] + std::uint64_t{j} * size);
        switch (type) {
          case BlackboardType::String:
            e.default_value = string_ref(v, "default value");
            break;
          case BlackboardType::S32:
            e.default_value = v.s32("default value");
            break;
          case BlackboardType::U32:
            e.default_value = v.u32("default value");
            break;
          case BlackboardType::F32:
            e.default_value = v.f32("default value");
            break;
          case BlackboardType::Bool:
            e.default_value = v.u32("default value") != 0;
            break;
          case BlackboardType::Vec3f:
            e.default_value = read_value(v, ParamType::Vec3f, "default value");
            break;
          case BlackboardType::Pointer:
            e.default_value = PointerValue{};
            break;
        }
        bb.entries.push_back(e);
      }
    }
    // File references follow the last default values (vec3f; pointers store none).
    const auto vec3f = static_cast<std::size_t>(BlackboardType::Vec3f);
    const std::uint64_t refs_begin = value_base + value_offset[vec3f] + 12ull * bb.count[vec3f];
    for (int k = 0; k <= max_file_reference; ++k) {
      Cursor c(r_, refs_begin + 16ull * k);
      FileReference ref;
      ref.path = string_ref(c, "file reference path");
      ref.path_hash = c.u32("path hash");
      ref.name_hash = c.u32("name hash");
      ref.extension_hash = c.u32("extension hash");
      bb.file_references.push_back(ref);
    }
  }

  void read_properties() {
    auto scope = r_.section("properties");
    const auto table = offset(header_slot::kProperties);
    std::array<std::uint32_t, kParamTypeCount + 1> bounds{};
    for (std::size_t t = 0; t < kParamTypeCount; ++t)
      bounds[t] = r_.u32(table + 4 * t, "offset");
    bounds[kParamTypeCount] = offset(header_slot::kInputsOutputs);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      const auto count =
          array_count(bounds[t], bounds[t + 1], property_entry_size(static_cast<ParamType>(t)),
                      "properties", param_type_name(type));
      auto& out = m_.properties[t];
      out.reserve(count);
      for (std::uint32_t i = 0; i < count; ++i) {
        const auto at =
            bounds[t] + std::uint64_t{i} * property_entry_size(static_cast<ParamType>(t));
        Cursor c(r_, at);
        Property p;
        p.type = type;
        p.offset = static_cast<std::uint32_t>(at);
        p.name = string_ref(c, "property name");
        if (type == ParamType::Pointer) {
          p.class_name = string_ref(c, "class name");
          p.flags.raw = c.u32("flags");
          p.value = PointerValue{};
        } else {
          p.flags.raw = c.u32("flags");
          p.value = read_value(c, type, "value");
        }
        out.push_back(p);
      }
    }
  }

  void read_inputs_outputs() {
    auto scope = r_.section("inputs/outputs");
    const auto table = offset(header_slot::kInputsOutputs);
    std::array<std::uint32_t, 2 * kParamTypeCount + 1> bounds{};
    for (std::size_t i = 0; i < 2 * kParamTypeCount; ++i) {
      bounds[i] = r_.u32(table + 4 * i, "offset");
    }
    bounds[2 * kParamTypeCount] = offset(header_slot::kMultiParams);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      const auto in_count =
          array_count(bounds[2 * t], bounds[2 * t + 1], input_entry_size(static_cast<ParamType>(t)),
                      "inputs", param_type_name(type));
      m_.inputs[t].reserve(in_count);
      for (std::uint32_t i = 0; i < in_count; ++i) {
        const auto at =
            bounds[2 * t] + std::uint64_t{i} * input_entry_size(static_cast<ParamType>(t));
        Cursor c(r_, at);
        Input in;
        in.type = type;
        in.offset = static_cast<std::uint32_t>(at);
        in.name = string_ref(c, "input name");
        if (type == ParamType::Pointer) in.class_name = string_ref(c, "class name");
        in.raw_node_index = c.s16("source node index");
        in.raw_output_index = c.s16("source output index");
        in.flags.raw = c.u32("flags");
        in.default_value = read_value(c, type, "default value");
        m_.inputs[t].push_back(in);
      }
      const std::uint32_t out_size = type == ParamType::Pointer ? 8 : 4;
      const auto out_count = array_count(bounds[2 * t + 1], bounds[2 * t + 2], out_size, "outputs",
                                         param_type_name(type));
      m_.outputs[t].reserve(out_count);
      for (std::uint32_t i = 0; i < out_count; ++i) {
        const auto at = bounds[2 * t + 1] + std::uint64_t{i} * out_size;
        Cursor c(r_, at);
        Output o;
        o.type = type;
        o.offset = static_cast<std::uint32_t>(at);
        const auto word = c.u32("output name");
        o.name = string(at, word & 0x3FFFFFFF, "output name");
        o.is_output = (word & 0x80000000u) != 0;
        if (type == ParamType::Pointer) o.class_name = string_ref(c, "class name");
        m_.outputs[t].push_back(o);
      }
    }
  }

  void read_multi_sources() {
    auto scope = r_.section("multi-params");
    const auto begin = offset(header_slot::kMultiParams);
    const auto count =
        array_count(begin, offset(header_slot::kTransitions), 8, "multi-param array");
    m_.multi_sources.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      Cursor c(r_, begin + 8ull * i);
      MultiSource s;
      s.node_index = c.s16("node index");
      s.output_index = c.s16("output index");
      s.flags.raw = c.u32("flags");
      m_.multi_sources.push_back(s);
    }
  }

  // The active node update array: a table of absolute entry offsets (no count; the first entry's
  // offset tells where the table ends), then the entries, up to the query array.
  void read_transitions() {
    auto scope = r_.section("transitions");
    const auto begin = offset(header_slot::kTransitions);
    const auto end = offset(header_slot::kQueries);
    if (begin > end) r_.fail(0x30, "transition array starts after the query array");
    if (begin == end) return;
    const auto first = r_.u32(begin, "first entry offset");
    if (first < begin + 4 || first > end || (first - begin) % 4 != 0) {
      r_.fail(begin, "first transition entry offset {:#x} does not follow its offset table", first);
    }
    const auto count = (first - begin) / 4;
    m_.transitions.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto entry = r_.u32(begin + 4ull * i, "entry offset");
      if (entry < first || entry + 4ull > end) {
        r_.fail(begin + 4ull * i, "transition {} offset {:#x} lies outside [{:#x}, {:#x})", i,
                entry, first, end);
      }
      Cursor c(r_, entry);
      Transition tr;
      tr.offset = entry;
      tr.word = c.u32("transition word");
      if (tr.type() == 0) {
        if (entry + 8ull > end) r_.fail(entry, "state-end transition {} runs into the queries", i);
        tr.command = string_ref(c, "transition command");
      }
      m_.transitions.push_back(tr);
    }
  }

  void read_queries() {
    auto scope = r_.section("queries");
    const auto begin = offset(header_slot::kQueries);
    const auto end = offset(header_slot::kExpressions) != 0 ? offset(header_slot::kExpressions)
                                                            : offset(header_slot::kModules);
    const auto count = array_count(begin, end, 4, "query array");
    m_.query_indices.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      m_.query_indices.push_back(r_.u16(begin + 4ull * i, "query index"));
    }
  }

  std::array<Range, kParamTypeCount> read_property_ranges(Cursor& c, std::string_view owner,
                                                          std::size_t index) {
    std::array<Range, kParamTypeCount> ranges{};
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto at = c.offset();
      ranges[t].base = c.u32("property base");
      ranges[t].count = c.u32("property count");
      check_range(at, ranges[t], m_.properties[t].size(), [&] {
        return fmt::format("{} {} {} properties", owner, index,
                           param_type_name(static_cast<ParamType>(t)));
      });
    }
    return ranges;
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

  void read_attachments() {
    auto scope = r_.section("attachments");
    const auto index_begin = offset(header_slot::kAttachmentIndices);
    const auto begin = offset(header_slot::kAttachments);
    const auto index_count = array_count(index_begin, begin, 4, "attachment index array");
    const auto count = r_.u32(0x18, "attachment count");
    const std::uint64_t entry_size = m_.version() == kVersion404 ? 0x0C : 0x10;
    r_.require(begin, std::uint64_t{count} * entry_size, "attachment array");
    m_.attachment_indices.reserve(index_count);
    for (std::uint32_t i = 0; i < index_count; ++i) {
      const auto at = index_begin + 4ull * i;
      const auto index = r_.u32(at, "attachment index");
      if (index >= count) {
        r_.fail(at, "attachment index {} is past the {} attachments there are", index, count);
      }
      m_.attachment_indices.push_back(index);
    }
    m_.attachments.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto at = begin + i * entry_size;
      Cursor c(r_, at);
      Attachment a;
      a.offset = static_cast<std::uint32_t>(at);
      a.name = string_ref(c, "attachment name");
      const auto params = c.u32("parameter block offset");
      a.exb_function_count = c.u16("EXB function count");
      a.exb_io_size = c.u16("EXB input/output size");
      if (m_.version() != kVersion404) a.name_hash = c.u32("name hash");
      r_.require(params, kAttachmentParamsSize, "attachment parameter block");
      Cursor p(r_, params);
      a.debug = p.u32("debug word");
      a.properties = read_property_ranges(p, "attachment", i);
      m_.attachments.push_back(a);
    }
  }

  void read_expressions() {
    const auto begin = offset(header_slot::kExpressions);
    if (begin == 0) return;
    auto scope = r_.section("EXB");
    const auto end = offset(header_slot::kModules);
    if (begin > end) r_.fail(0x44, "EXB section starts after the module array at {:#x}", end);
    m_.expressions = exb::decode(r_.sub(begin, end - begin, "EXB section"));
  }

  void read_modules() {
    auto scope = r_.section("modules");
    const auto at = offset(header_slot::kModules);
    const auto count = counted_array(at, 12, "module array");
    m_.modules.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      Cursor c(r_, at + 4 + 12ull * i);
      Module mod;
      mod.path = string_ref(c, "module path");
      mod.category = string_ref(c, "module category");
      mod.instance_count = c.u32("instance count");
      m_.modules.push_back(mod);
    }
  }

  void read_xlink_actions() {
    auto scope = r_.section("XLink actions");
    const auto at = offset(header_slot::kXLinkActions);
    const auto count = counted_array(at, 12, "XLink action array");
    m_.xlink_actions.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto entry = at + 4 + 12ull * i;
      Cursor c(r_, entry);
      XLinkAction action;
      action.node_index = c.u32("node index");
      if (action.node_index >= m_.nodes.size()) {
        r_.fail(entry, "XLink action {} names node {}, but the file has {} nodes", i,
                action.node_index, m_.nodes.size());
      }
      action.slot = string_ref(c, "action slot");
      action.action = string_ref(c, "action");
      m_.xlink_actions.push_back(action);
    }
  }

  void read_blackboard_ids() {
    auto scope = r_.section("blackboard IDs");
    const auto at = offset(header_slot::kBlackboardIds);
    m_.blackboard_id = r_.u32(at, "blackboard ID");
    m_.parent_blackboard_id = r_.u32(at + 4, "parent blackboard ID");
  }

  void read_replacements() {
    const auto at = offset(header_slot::kReplacements);
    if (m_.version() == kVersion404 || at == 0) return;  // 0x404 has no replacement table
    auto scope = r_.section("child replacement table");
    ReplacementTable table;
    table.applied = r_.u8(at, "applied flag") != 0;
    const auto count = r_.u16(at + 2, "entry count");
    table.node_count_after = r_.s16(at + 4, "node count after");
    table.attachment_count_after = r_.s16(at + 6, "attachment count after");
    r_.require(at + 8, 8ull * count, "replacement entries");
    table.entries.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto entry = at + 8 + 8ull * i;
      Cursor c(r_, entry);
      Replacement rep;
      const auto type = c.u8("replacement type");
      if (type > 2) r_.fail(entry, "replacement {} has unknown type {}", i, type);
      rep.type = static_cast<ReplacementType>(type);
      c.skip(1);
      rep.node_index = c.u16("node index");
      rep.target = c.u16("target index");
      rep.replacement_node = c.u16("replacement node index");
      table.entries.push_back(rep);
    }
    m_.replacements = std::move(table);
  }

  void read_enum_resolves() {
    auto scope = r_.section("enum resolve array");
    const auto at = offset(header_slot::kEnumResolve);
    if (at == 0) return;
    const auto count = counted_array(at, 12, "enum resolve array");
    m_.enum_resolves.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto entry = at + 4 + 12ull * i;
      Cursor c(r_, entry);
      EnumResolve e;
      e.patch_offset = c.u32("patch offset");
      if (!r_.contains(e.patch_offset, 4)) {
        r_.fail(entry, "enum resolve {} patches offset {:#x}, past the end of the file", i,
                e.patch_offset);
      }
      e.class_name = string_ref(c, "enum class name");
      e.value_name = string_ref(c, "enum value name");
      m_.enum_resolves.push_back(e);
    }
  }

  void read_section_0x58() {
    const auto at = offset(header_slot::kSection58);
    if (at == 0) return;
    auto scope = r_.section("0x58 section");
    Cursor c(r_, at);
    Section0x58 s;
    s.description = string_ref(c, "description");
    for (auto& word : s.unknown)
      word = c.u32("unknown");
    m_.section_0x58 = s;
  }

  void read_node_body(Node& n) {
    auto scope = r_.section("node bodies");
    const auto at = n.body_offset;
    const auto node = static_cast<std::size_t>(&n - m_.nodes.data());
    r_.require(at, kParamHeaderSize + kPlugHeaderSize, "node body header");
    if (at < nodes_end_ ||
        at + kParamHeaderSize + kPlugHeaderSize > offset(header_slot::kStringPool)) {
      r_.fail(n.entry_offset + (m_.version() == kVersion404 ? 0x10 : 0x14),
              "node {} body at {:#x} lies outside the space between the node array ({:#x}) and the "
              "string pool ({:#x})",
              node, at, nodes_end_, offset(header_slot::kStringPool));
    }
    Cursor c(r_, at);
    n.properties = read_property_ranges(c, "node", node);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type_name = param_type_name(static_cast<ParamType>(t));
      auto range_at = c.offset();
      n.inputs[t] = {c.u32("input base"), c.u32("input count")};
      check_range(range_at, n.inputs[t], m_.inputs[t].size(),
                  [&] { return fmt::format("node {} {} inputs", node, type_name); });
      range_at = c.offset();
      n.outputs[t] = {c.u32("output base"), c.u32("output count")};
      check_range(range_at, n.outputs[t], m_.outputs[t].size(),
                  [&] { return fmt::format("node {} {} outputs", node, type_name); });
    }
    std::array<std::uint8_t, kPlugKindCount> counts{}, bases{};
    std::uint32_t slots = 0;
    for (std::size_t k = 0; k < kPlugKindCount; ++k) {
      counts[k] = c.u8("plug count");
      bases[k] = c.u8("plug base");
      slots += counts[k];
    }
    const auto table = c.offset();
    r_.require(table, 4ull * slots, "plug offset table");
    for (std::size_t k = 0; k < kPlugKindCount; ++k) {
      const auto kind = static_cast<PlugKind>(k);
      n.plugs[k] = {static_cast<std::uint32_t>(m_.plugs.size()), counts[k]};
      if (counts[k] == 0) continue;
      if (bases[k] + counts[k] > slots) {
        r_.fail(at + kParamHeaderSize + 2 * k,
                "node {}: {} plugs [{}, +{}) run past the {} plug slots", node,
                plug_kind_name(kind), bases[k], counts[k], slots);
      }
      for (std::uint32_t i = 0; i < counts[k]; ++i) {
        const auto slot_at = table + 4ull * (bases[k] + i);
        const auto entry = r_.u32(slot_at, "plug offset");
        m_.plugs.push_back(read_plug(n, node, kind, entry, i + 1 == counts[k]));
      }
    }
    if (m_.version() == kVersion404 && n.state_info_offset != 0) {
      auto info_scope = r_.section("node state info");
      r_.require(n.state_info_offset, kStateInfoSize, "node state info");
      Cursor s(r_, n.state_info_offset);
      NodeStateInfo info;
      info.desired_state = string_ref(s, "desired state");
      for (auto& word : info.unknown)
        word = s.u32("unknown");
      n.state_info = info;
    }
  }

  PlugBlackboard plug_blackboard(Cursor& c) {
    PlugBlackboard bb;
    bb.index = c.u16("blackboard index");
    bb.used = (c.u16("blackboard flag") & 0x8000) != 0;
    return bb;
  }

  Plug read_plug(const Node& n, std::size_t node, PlugKind kind, std::uint32_t at, bool last) {
    Cursor c(r_, at);
    Plug p;
    p.kind = kind;
    p.offset = at;
    const auto target = c.s32("plug node index");
    if (target != static_cast<std::int32_t>(kEmptyPlugIndex)) {
      if (target < 0 || static_cast<std::uint32_t>(target) >= m_.nodes.size()) {
        r_.fail(at, "node {}: {} plug leads to node {}, but the file has {} nodes", node,
                plug_kind_name(kind), target, m_.nodes.size());
      }
      p.target = static_cast<std::uint32_t>(target);
    }
    const bool v407 = m_.version() != kVersion404;
    switch (kind) {
      case PlugKind::Transition:
        p.transition_index = c.u32("transition index");
        if (p.transition_index >= m_.transitions.size()) {
          r_.fail(at + 4, "node {}: transition plug names transition {}, but the file has {}", node,
                  p.transition_index, m_.transitions.size());
        }
        return p;
      case PlugKind::Generic:
        p.name = string_ref(c, "plug name");
        if (n.type == NodeType::BoolSelector || n.type == NodeType::F32Selector ||
            (n.type == NodeType::Expression && v407)) {
          p.data = InputPlugExtra{c.u32("unknown"), c.u32("default"), {}};
        }
        return p;
      case PlugKind::Child:
        p.name = string_ref(c, "plug name");
        read_child_condition(n, c, p, last);
        return p;
      case PlugKind::String:
      case PlugKind::Int: {
        p.name = string_ref(c, "plug name");
        const auto selector =
            kind == PlugKind::String ? NodeType::StringSelector : NodeType::S32Selector;
        if (v407 && (n.type == selector || n.type == NodeType::Expression)) {
          InputPlugExtra extra{c.u32("unknown"), c.u32("default"), {}};
          if (kind == PlugKind::String)
            extra.default_string = string(at + 0xC, extra.default_raw, "default");
          p.data = extra;
        }
        return p;
      }
      default:
        r_.fail(at, "node {}: unsupported plug kind {} (its layout is unknown)", node,
                static_cast<int>(kind));
    }
  }

  void read_child_condition(const Node& n, Cursor& c, Plug& p, bool last) {
    switch (n.type) {
      case NodeType::S32Selector: {
        S32Condition cond;
        cond.blackboard = plug_blackboard(c);
        cond.value = c.s32("condition");
        cond.is_default = last;
        p.data = cond;
        break;
      }
      case NodeType::StringSelector: {
        StringCondition cond;
        cond.blackboard = plug_blackboard(c);
        cond.value = string_ref(c, "condition");
        cond.is_default = last;
        p.data = cond;
        break;
      }
      case NodeType::F32Selector: {
        F32Condition cond;
        cond.is_default = last;
        if (last) {
          c.skip(4);
          cond.default_name = string_ref(c, "default plug name");
        } else {
          cond.min.blackboard = plug_blackboard(c);
          cond.min.value = c.f32("minimum");
          cond.max.blackboard = plug_blackboard(c);
          cond.max.value = c.f32("maximum");
        }
        c.bytes(last ? 0x18 : 0x10, "unused condition words");
        p.data = cond;
        break;
      }
      case NodeType::RandomSelector: {
        RandomWeight weight;
        weight.blackboard = plug_blackboard(c);
        weight.weight = c.f32("weight");
        p.data = weight;
        break;
      }
      case NodeType::UserDefined:
        if (is_child_enum_plug(n.type, p.name)) {
          EnumCondition cond;
          const auto word = c.u32("enum source");
          cond.value = c.u32("enum value");
          if ((word & 0x80000000u) != 0) cond.blackboard = {true, static_cast<std::uint16_t>(word)};
          p.data = cond;
        }
        break;
      default:
        break;
    }
  }

  template <typename Describe>
  void check_blackboard_index(std::uint64_t at, BlackboardType type, std::uint16_t index,
                              Describe&& describe) {
    const auto count = m_.blackboard.count[static_cast<std::size_t>(type)];
    if (index >= count) {
      r_.fail(at, "{} reads {} blackboard entry {}, but there are {}", describe(),
              blackboard_type_name(type), index, count);
    }
  }

  // `name` is the parameter's name: a function bound to a parameter returns its type, except an
  // Element_Expression's own function (its ExpressionBase property), whose values go through user
  // slots.
  void check_flags(std::uint64_t at, ParamType type, const ParamFlags& flags, std::string_view what,
                   std::string_view name = {}) {
    switch (flags.source()) {
      case ParamFlags::Source::Constant:
        break;
      case ParamFlags::Source::Blackboard:
        check_blackboard_index(at, blackboard_type_for(type, flags), flags.index(),
                               [&] { return what; });
        break;
      case ParamFlags::Source::Expression: {
        const auto count = m_.expressions ? m_.expressions->functions.size() : 0;
        if (flags.index() >= count) {
          r_.fail(at, "{} uses expression {}, but the file has {} expressions", what, flags.index(),
                  count);
        }
        const auto returns = m_.expressions->functions[flags.index()].output_type;
        if (name != "ExpressionBase" && param_type_of(returns) != type) {
          r_.fail(at, "{} \"{}\" ({}) uses expression {}, which returns {}", what, name,
                  param_type_name(type), flags.index(), exb::data_type_name(returns));
        }
        break;
      }
    }
  }

  // A node-output reference: node `node` output `output` of the type the reader expects.
  void check_output_ref(std::uint64_t at, ParamType type, const ParamFlags& flags,
                        std::int16_t node, std::int16_t output, std::string_view what) {
    if (node < 0) return;
    if (static_cast<std::size_t>(node) >= m_.nodes.size()) {
      r_.fail(at, "{} reads node {}, but the file has {} nodes", what, node, m_.nodes.size());
    }
    // An expression may convert the source's type; its input type says which outputs to index.
    auto source_type = std::optional<ParamType>(type);
    if (flags.source() == ParamFlags::Source::Expression) {
      source_type = param_type_of(m_.expressions->functions[flags.index()].input_type);
    }
    if (!source_type) return;
    const auto& source = m_.nodes[static_cast<std::size_t>(node)];
    const auto available = source.outputs[static_cast<std::size_t>(*source_type)].count;
    if (output < 0 || static_cast<std::uint32_t>(output) >= available) {
      r_.fail(at, "{} reads {} output {} of node {}, which has {}", what,
              param_type_name(*source_type), output, node, available);
    }
  }

  void resolve_references() {
    {
      auto scope = r_.section("properties");
      for (const auto& list : m_.properties) {
        for (const auto& p : list)
          check_flags(p.offset, p.type, p.flags, "property", p.name);
      }
    }
    {
      auto scope = r_.section("inputs/outputs");
      for (const auto& list : m_.inputs) {
        for (const auto& in : list) {
          if (in.is_multi_source()) {
            check_range(in.offset + 4, in.multi_sources(), m_.multi_sources.size(),
                        [] { return "multi-source input's sources"; });
            for (const auto& s : m_.sources_of(in)) {
              check_flags(in.offset, in.type, s.flags, "a source of multi-source input", in.name);
              check_output_ref(in.offset, in.type, s.flags, s.node_index, s.output_index,
                               "multi-source input");
            }
          } else {
            check_flags(in.offset, in.type, in.flags, "input", in.name);
            check_output_ref(in.offset, in.type, in.flags, in.raw_node_index, in.source_output(),
                             "input");
          }
        }
      }
    }
    auto scope = r_.section("nodes");
    std::vector<std::uint16_t> query_nodes;
    for (const auto& n : m_.nodes) {
      if (n.is_query()) query_nodes.push_back(n.index);
    }
    m_.query_nodes.reserve(m_.query_indices.size());
    for (std::size_t i = 0; i < m_.query_indices.size(); ++i) {
      const auto q = m_.query_indices[i];
      if (q >= query_nodes.size()) {
        auto q_scope = r_.section("queries");
        r_.fail(offset(header_slot::kQueries) + 4 * i,
                "query {} names query node {}, but the file has {} query nodes", i, q,
                query_nodes.size());
      }
      m_.query_nodes.push_back(query_nodes[q]);
    }
    for (const auto& n : m_.nodes) {
      check_range(n.entry_offset + (m_.version() == kVersion404 ? 0x20 : 0x24), n.queries,
                  m_.query_nodes.size(), [&] { return fmt::format("node {} queries", n.index); });
      check_range(n.entry_offset + (m_.version() == kVersion404 ? 0x1C : 0x20), n.attachments,
                  m_.attachment_indices.size(),
                  [&] { return fmt::format("node {} attachments", n.index); });
      for (std::size_t k = 0; k < kPlugKindCount; ++k) {
        for (const auto& p : m_.plugs_of(n, static_cast<PlugKind>(k)))
          check_plug(n, p);
      }
      if (n.is_module()) {
        const auto listed =
            std::any_of(m_.modules.begin(), m_.modules.end(), [&](const Module& mod) {
              return mod.path.size() == n.name.size() + 5 && mod.path.starts_with(n.name) &&
                     mod.path.ends_with(".ainb");
            });
        if (!listed) {
          r_.fail(n.entry_offset,
                  "module node {} calls \"{}\", which the module array does not list", n.index,
                  n.name);
        }
      }
    }
    if (m_.replacements) check_replacements();
  }

  void check_plug(const Node& n, const Plug& p) {
    const auto what = [&] {
      return fmt::format("node {} {} plug", n.index, plug_kind_name(p.kind));
    };
    if (const auto* s = std::get_if<S32Condition>(&p.data); s && s->blackboard.used) {
      check_blackboard_index(p.offset, BlackboardType::S32, s->blackboard.index, what);
    } else if (const auto* str = std::get_if<StringCondition>(&p.data);
               str && str->blackboard.used) {
      check_blackboard_index(p.offset, BlackboardType::String, str->blackboard.index, what);
    } else if (const auto* f = std::get_if<F32Condition>(&p.data)) {
      if (f->min.blackboard.used) {
        check_blackboard_index(p.offset, BlackboardType::F32, f->min.blackboard.index, what);
      }
      if (f->max.blackboard.used) {
        check_blackboard_index(p.offset, BlackboardType::F32, f->max.blackboard.index, what);
      }
    } else if (const auto* w = std::get_if<RandomWeight>(&p.data); w && w->blackboard.used) {
      check_blackboard_index(p.offset, BlackboardType::F32, w->blackboard.index, what);
    }
  }

  void check_replacements() {
    auto scope = r_.section("child replacement table");
    const auto base = offset(header_slot::kReplacements) + 8ull;
    for (std::size_t i = 0; i < m_.replacements->entries.size(); ++i) {
      const auto& rep = m_.replacements->entries[i];
      const auto at = base + 8 * i;
      if (rep.node_index >= m_.nodes.size()) {
        r_.fail(at, "replacement {} names node {}, but the file has {} nodes", i, rep.node_index,
                m_.nodes.size());
      }
      const auto& n = m_.nodes[rep.node_index];
      const auto limit = rep.type == ReplacementType::RemoveAttachment
                             ? n.attachments.count
                             : n.plugs[static_cast<std::size_t>(PlugKind::Child)].count;
      if (rep.target >= limit) {
        r_.fail(at, "replacement {} targets {} {} of node {}, which has {}", i,
                rep.type == ReplacementType::RemoveAttachment ? "attachment" : "child plug",
                rep.target, rep.node_index, limit);
      }
      if (rep.type == ReplacementType::ReplaceChild && rep.replacement_node >= m_.nodes.size()) {
        r_.fail(at, "replacement {} substitutes node {}, but the file has {} nodes", i,
                rep.replacement_node, m_.nodes.size());
      }
    }
  }

  Model& m_;
  const LoadOptions& options_;
  ByteReader r_;
  std::string_view pool_;
  std::uint64_t nodes_end_ = 0;
};

}  // namespace

std::shared_ptr<const Model> load(std::vector<std::uint8_t> bytes, std::string name,
                                  const LoadOptions& options) {
  if (bytes.size() > options.max_file_size) {
    throw LoadError(
        name, "file", 0,
        fmt::format("file is {} bytes, over the {}-byte limit (LoadOptions::max_file_size)",
                    bytes.size(), options.max_file_size));
  }
  auto model = std::make_shared<Model>();
  model->name = std::move(name);
  model->bytes = std::move(bytes);
  Loader(*model, options).run();
  return model;
}

std::shared_ptr<const Model> load_file(const std::filesystem::path& path,
                                       const LoadOptions& options) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw LoadError(path.string(), "file", 0, "cannot read file: " + ec.message());
  if (size > options.max_file_size) {
    throw LoadError(
        path.string(), "file", 0,
        fmt::format("file is {} bytes, over the {}-byte limit (LoadOptions::max_file_size)", size,
                    options.max_file_size));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(path.string(), "file", 0, "cannot open file");
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in) throw LoadError(path.string(), "file", 0, "cannot read file");
  return load(std::move(bytes), path.string(), options);
}

}  // namespace ainb
