// Loading: the entry points, the order of the reads, and the start of the file: the header and
// its section table, the command and node arrays.

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>

#include "loader_state.hpp"

namespace ainb {

namespace detail {

void Loader::run() {
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

// What a file that is not AINB looks like, for the error: the files people mistake for one.
std::string Loader::not_ainb_hint() const {
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

void Loader::read_header() {
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
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i)
    h.offsets[i] = r_.u32(kHeaderSlots[i].at);
  h.query_count = r_.u32(0x14);
  h.output_node_count = r_.u32(0x1C);
  h.category = offset(header_slot::kCategory);
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
    const auto& slot = kHeaderSlots[i];
    if (slot.kind == HeaderSlotKind::Field) continue;
    if (h.offsets[i] > r_.size()) {
      r_.fail(slot.at, "section offset {:#x} lies past the end of the file ({:#x})", h.offsets[i],
              r_.size());
    }
  }
  // A section cannot start inside the header: its reads would take header fields for its
  // own. Offset 0 marks an absent section where the format has optional ones.
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
    const auto& slot = kHeaderSlots[i];
    if (slot.kind == HeaderSlotKind::Field || slot.kind == HeaderSlotKind::Unread) continue;
    if (h.offsets[i] >= kHeaderSize || (h.offsets[i] == 0 && slot.kind == HeaderSlotKind::Optional))
      continue;
    r_.fail(slot.at, "{} offset {:#x} lies inside the header (which ends at {:#x})", slot.name,
            h.offsets[i], kHeaderSize);
  }
  const auto pool_offset = offset(header_slot::kStringPool);
  pool_ = std::string_view(reinterpret_cast<const char*>(m_.bytes.data()) + pool_offset,
                           m_.bytes.size() - pool_offset);
  h.file_name = string(0x08, r_.u32(0x08), "file name");
  h.category_name = string(header_slot_offset(header_slot::kCategoryName),
                           offset(header_slot::kCategoryName), "category name");
}

void Loader::read_commands() {
  auto scope = r_.section("commands");
  const auto count = r_.u32(0x0C, "command count");
  r_.require(kHeaderSize, std::uint64_t{count} * kCommandEntrySize, "command array");
  m_.commands.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    Cursor c(r_, kHeaderSize + std::uint64_t{i} * kCommandEntrySize);
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
void Loader::check_sections_follow(std::uint64_t arrays_end) {
  auto scope = r_.section("header");
  nodes_end_ = arrays_end;
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
    const auto value = m_.header.offsets[i];
    if (kHeaderSlots[i].kind == HeaderSlotKind::Field || value == 0) continue;
    if (value < arrays_end) {
      r_.fail(kHeaderSlots[i].at,
              "section offset {:#x} overlaps the command and node arrays (which end at {:#x})",
              value, arrays_end);
    }
  }
}

void Loader::read_node_entries() {
  auto scope = r_.section("nodes");
  const auto count = r_.u32(0x10, "node count");
  if (count > options_.max_nodes) {
    r_.fail(0x10, "{} nodes, over the limit of {} (LoadOptions::max_nodes)", count,
            options_.max_nodes);
  }
  const auto entry_size = node_entry_size(m_.version());
  const std::uint64_t begin = kHeaderSize + m_.commands.size() * kCommandEntrySize;
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
        kHeaderSize + static_cast<std::uint64_t>(&cmd - m_.commands.data()) * kCommandEntrySize;
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

}  // namespace detail

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
  detail::Loader(*model, options).run();
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
