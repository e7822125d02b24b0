// The tables after the parameters: transitions, queries, attachments, EXB, modules, XLink
// actions, blackboard IDs, child replacements, enum resolves, the 0x58 section.

#include "loader_state.hpp"

namespace ainb::detail {

// The active node update array: a table of absolute entry offsets (no count; the first entry's
// offset tells where the table ends), then the entries, up to the query array.
void Loader::read_transitions() {
  auto scope = section(header_slot::kTransitions);
  const auto begin = offset(header_slot::kTransitions);
  const auto end = offset(header_slot::kQueries);
  if (begin > end) {
    r_.fail(header_slot_offset(header_slot::kTransitions),
            "transition array starts after the query array");
  }
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
      r_.fail(begin + 4ull * i, "transition {} offset {:#x} lies outside [{:#x}, {:#x})", i, entry,
              first, end);
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

void Loader::read_queries() {
  auto scope = section(header_slot::kQueries);
  const auto begin = offset(header_slot::kQueries);
  const auto end = offset(header_slot::kExpressions) != 0 ? offset(header_slot::kExpressions)
                                                          : offset(header_slot::kModules);
  const auto size = entry_size(header_slot::kQueries, m_.version());
  const auto count = array_count(begin, end, size, "query array");
  m_.query_indices.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    m_.query_indices.push_back(r_.u16(begin + std::uint64_t{size} * i, "query index"));
  }
}

void Loader::read_attachments() {
  auto scope = section(header_slot::kAttachments);
  const auto index_begin = offset(header_slot::kAttachmentIndices);
  const auto begin = offset(header_slot::kAttachments);
  const auto index_count = slot_array_count(header_slot::kAttachmentIndices, index_begin, begin);
  const auto index_size = entry_size(header_slot::kAttachmentIndices, m_.version());
  const auto count = r_.u32(0x18, "attachment count");
  const std::uint64_t size = entry_size(header_slot::kAttachments, m_.version());
  r_.require(begin, std::uint64_t{count} * size, kHeaderSlots[header_slot::kAttachments].name);
  m_.attachment_indices.reserve(index_count);
  for (std::uint32_t i = 0; i < index_count; ++i) {
    const auto at = index_begin + std::uint64_t{index_size} * i;
    const auto index = r_.u32(at, "attachment index");
    if (index >= count) {
      r_.fail(at, "attachment index {} is past the {} attachments there are", index, count);
    }
    m_.attachment_indices.push_back(index);
  }
  m_.attachments.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto at = begin + i * size;
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

void Loader::read_expressions() {
  const auto begin = offset(header_slot::kExpressions);
  if (begin == 0) return;
  auto scope = section(header_slot::kExpressions);
  const auto end = offset(header_slot::kModules);
  if (begin > end) {
    r_.fail(header_slot_offset(header_slot::kExpressions),
            "EXB section starts after the module array at {:#x}", end);
  }
  m_.expressions =
      exb::decode(r_.sub(begin, end - begin, kHeaderSlots[header_slot::kExpressions].name));
}

void Loader::read_modules() {
  auto scope = section(header_slot::kModules);
  const auto at = offset(header_slot::kModules);
  const auto size = entry_size(header_slot::kModules, m_.version());
  const auto count = counted_slot_array(header_slot::kModules);
  m_.modules.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    Cursor c(r_, at + 4 + std::uint64_t{size} * i);
    Module mod;
    mod.path = string_ref(c, "module path");
    mod.category = string_ref(c, "module category");
    mod.instance_count = c.u32("instance count");
    m_.modules.push_back(mod);
  }
}

void Loader::read_xlink_actions() {
  auto scope = section(header_slot::kXLinkActions);
  const auto at = offset(header_slot::kXLinkActions);
  const auto size = entry_size(header_slot::kXLinkActions, m_.version());
  const auto count = counted_slot_array(header_slot::kXLinkActions);
  m_.xlink_actions.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto entry = at + 4 + std::uint64_t{size} * i;
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

void Loader::read_blackboard_ids() {
  auto scope = section(header_slot::kBlackboardIds);
  const auto at = offset(header_slot::kBlackboardIds);
  m_.blackboard_id = r_.u32(at, "blackboard ID");
  m_.parent_blackboard_id = r_.u32(at + 4, "parent blackboard ID");
}

void Loader::read_replacements() {
  const auto at = offset(header_slot::kReplacements);
  if (!has_header_slot(header_slot::kReplacements, m_.version()) || at == 0) return;
  auto scope = section(header_slot::kReplacements);
  const auto size = entry_size(header_slot::kReplacements, m_.version());
  ReplacementTable table;
  table.applied = r_.u8(at, "applied flag") != 0;
  const auto count = r_.u16(at + 2, "entry count");
  table.node_count_after = r_.s16(at + 4, "node count after");
  table.attachment_count_after = r_.s16(at + 6, "attachment count after");
  r_.require(at + 8, std::uint64_t{size} * count, "replacement entries");
  table.entries.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto entry = at + 8 + std::uint64_t{size} * i;
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

void Loader::read_enum_resolves() {
  auto scope = section(header_slot::kEnumResolve);
  const auto at = offset(header_slot::kEnumResolve);
  if (at == 0) return;
  const auto size = entry_size(header_slot::kEnumResolve, m_.version());
  const auto count = counted_slot_array(header_slot::kEnumResolve);
  m_.enum_resolves.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto entry = at + 4 + std::uint64_t{size} * i;
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

void Loader::read_section_0x58() {
  const auto at = offset(header_slot::kSection58);
  if (at == 0) return;
  auto scope = section(header_slot::kSection58);
  Cursor c(r_, at);
  Section0x58 s;
  s.description = string_ref(c, "description");
  for (auto& word : s.unknown)
    word = c.u32("unknown");
  m_.section_0x58 = s;
}

}  // namespace ainb::detail
