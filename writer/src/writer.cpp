#include "ainb/writer/writer.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>

#include "ainb/byte_writer.hpp"
#include "ainb/exb/assembler.hpp"

// The order of the sections is the one every known file uses (docs/text-form.md, "The
// writer"); each record is written field by field as the loader reads it (docs/loader.md).

namespace ainb::writer {

namespace {

// The pool bytes a model's string views may point into (the loaded file's pool), or empty.
std::span<const std::uint8_t> model_pool(const Model& model) {
  const auto at = model.header.offsets[header_slot::kStringPool];
  if (model.bytes.empty() || at == 0 || at > model.bytes.size()) return {};
  return std::span(model.bytes).subspan(at);
}

std::vector<std::string> split_pool(std::span<const std::uint8_t> pool) {
  std::vector<std::string> out;
  const std::string_view text(reinterpret_cast<const char*>(pool.data()), pool.size());
  std::size_t at = 0;
  while (at < text.size()) {
    auto nul = text.find('\0', at);
    if (nul == std::string_view::npos) nul = text.size();
    out.emplace_back(text.substr(at, nul - at));
    at = nul + 1;
  }
  return out;
}

class Writer : ByteWriter {  // writes through the inherited ByteWriter
 public:
  Writer(const Model& model, const Layout* layout) : m_(model), layout_(layout) {
    if (layout_) {
      for (const auto& s : layout_->strings)
        add_string(s);
      const auto src = model_pool(model);
      if (!src.empty() && src.size() == pool_.size() &&
          std::equal(src.begin(), src.end(), pool_.begin())) {
        source_pool_ = src;
      }
      for (const auto& gap : layout_->gaps)
        gaps_.emplace(gap.before, &gap.bytes);
    } else {
      // Capture: the model's own pool, and every gap read from its bytes.
      source_pool_ = model_pool(model);
      captured_.strings = split_pool(source_pool_);
      for (const auto& s : captured_.strings)
        add_string(s);
    }
  }

  std::vector<std::uint8_t> run() {
    const auto version = m_.version();
    if (version != kVersion404 && version != kVersion407 && version != kVersion408) {
      throw WriteError(fmt::format("cannot write AINB version {:#x}", version));
    }
    zeros(kHeaderSize);
    write_commands();
    write_node_entries();
    write_blackboard();
    for (std::size_t i = 0; i < m_.nodes.size(); ++i)
      write_node_body(i);
    write_attachments();
    write_properties();
    write_inputs_outputs();
    start(header_slot::kMultiParams);
    for (const auto& s : m_.multi_sources) {
      u16(static_cast<std::uint16_t>(s.node_index));
      u16(static_cast<std::uint16_t>(s.output_index));
      u32(s.flags.raw);
    }
    write_transitions();
    start(header_slot::kQueries);
    for (const auto q : m_.query_indices) {
      u16(q);
      u16(0);
    }
    if (m_.expressions) {
      start(header_slot::kExpressions);
      const auto bytes = exb::encode(*m_.expressions);
      append(bytes);
    }
    start(header_slot::kModules);
    u32(static_cast<std::uint32_t>(m_.modules.size()));
    for (const auto& mod : m_.modules) {
      u32(str(mod.path));
      u32(str(mod.category));
      u32(mod.instance_count);
    }
    start(header_slot::kXLinkActions);
    u32(static_cast<std::uint32_t>(m_.xlink_actions.size()));
    for (const auto& x : m_.xlink_actions) {
      u32(x.node_index);
      u32(str(x.slot));
      u32(str(x.action));
    }
    start(header_slot::kBlackboardIds);
    u32(m_.blackboard_id);
    u32(m_.parent_blackboard_id);
    if (m_.replacements) {
      start(header_slot::kReplacements);
      const auto& t = *m_.replacements;
      u8(t.applied ? 1 : 0);
      u8(0);
      u16(narrow16(t.entries.size(), "the child replacement table's entry count"));
      u16(static_cast<std::uint16_t>(t.node_count_after));
      u16(static_cast<std::uint16_t>(t.attachment_count_after));
      for (const auto& r : t.entries) {
        u8(static_cast<std::uint8_t>(r.type));
        u8(0);
        u16(r.node_index);
        u16(r.target);
        u16(r.replacement_node);
      }
    }
    start(header_slot::kUnknown6C);
    if (layout_) {
      u32(layout_->unknown_0x6c_word);
    } else {
      const auto at = offset(header_slot::kUnknown6C);
      captured_.unknown_0x6c_word = at + 4 <= m_.bytes.size() ? read32(at) : 0;
      u32(captured_.unknown_0x6c_word);
    }
    start(header_slot::kEnumResolve);
    u32(static_cast<std::uint32_t>(m_.enum_resolves.size()));
    for (const auto& e : m_.enum_resolves) {
      u32(e.patch_offset);
      u32(str(e.class_name));
      u32(str(e.value_name));
    }
    if (m_.section_0x58) {
      start(header_slot::kSection58);
      u32(str(m_.section_0x58->description));
      for (const auto w : m_.section_0x58->unknown)
        u32(w);
    }
    write_header();  // interns the file and category names before the pool is written
    start(header_slot::kStringPool);
    for (std::size_t i = 0; i < offsets_.size(); ++i)
      patch32(kHeaderSlots[i].at, offsets_[i]);
    append(pool_);
    return std::move(ByteWriter::written);
  }

  Layout take_layout() { return std::move(captured_); }

 private:
  std::uint32_t offset(std::size_t s) const { return m_.header.offsets[s]; }
  // Where a section starts: its gap (keyed by its row's layout name), its header slot's value.
  void start(header_slot::Slot s) {
    anchor(kHeaderSlots[s].layout, offset(s));
    offsets_[s] = size();
  }
  std::uint32_t read32(std::uint64_t at) const {
    std::uint32_t v = 0;
    std::memcpy(&v, m_.bytes.data() + at, 4);
    return v;
  }

  // Where a record starts. Capturing, the bytes between the previous record and this one's
  // original offset are a gap; writing, the layout's gap for `name` is emitted.
  // `name` is a string or a callable giving it, called only when a gap may be involved (formatting
  // a name for every record made writing three times slower).
  template <typename Name>
  void anchor(Name&& name_of, std::uint64_t original) {
    if (layout_ ? gaps_.empty() : original == size()) return;
    const std::string name = [&] {
      if constexpr (std::is_invocable_v<Name>) {
        return std::string(name_of());
      } else {
        return std::string(name_of);
      }
    }();
    if (layout_) {
      if (const auto it = gaps_.find(name); it != gaps_.end()) {
        append(*it->second);
      }
      return;
    }
    if (original < size()) {
      throw WriteError(fmt::format(
          "{}: {} at {:#x} lies before the end of the previous record ({:#x}); the writer keeps "
          "only the usual section order",
          m_.name, name, original, size()));
    }
    if (original > size()) {
      if (original > m_.bytes.size()) {
        throw WriteError(
            fmt::format("{}: {} at {:#x} lies past the end of the file", m_.name, name, original));
      }
      Gap gap{name, {m_.bytes.begin() + size(), m_.bytes.begin() + static_cast<long>(original)}};
      append(gap.bytes);
      captured_.gaps.push_back(std::move(gap));
    }
  }

  void add_string(std::string_view s) {
    if (indexed_) by_value_.try_emplace(std::string(s), static_cast<std::uint32_t>(pool_.size()));
    pool_.insert(pool_.end(), s.begin(), s.end());
    pool_.push_back(0);
  }

  // The pool's strings by value, built at the first string not found by its address.
  void index_pool() {
    indexed_ = true;
    const std::string_view text(reinterpret_cast<const char*>(pool_.data()), pool_.size());
    std::size_t at = 0;
    while (at < text.size()) {
      auto nul = text.find('\0', at);
      if (nul == std::string_view::npos) nul = text.size();
      by_value_.try_emplace(std::string(text.substr(at, nul - at)), static_cast<std::uint32_t>(at));
      at = nul + 1;
    }
  }

  std::uint32_t str(std::string_view s) {
    // Compared as integers: the view may point anywhere (a relational comparison of unrelated
    // pointers is unspecified).
    const auto p = reinterpret_cast<std::uintptr_t>(s.data());
    const auto begin = reinterpret_cast<std::uintptr_t>(source_pool_.data());
    // (An empty string may lie at the pool's very end, with no NUL there: docs/loader.md.)
    if (!source_pool_.empty() && p >= begin && p - begin + s.size() <= source_pool_.size()) {
      if (s.empty() && p - begin == source_pool_.size()) captured_.empty_string_at_pool_end = true;
      return static_cast<std::uint32_t>(p - begin);
    }
    if (!indexed_) index_pool();
    if (const auto it = by_value_.find(std::string(s)); it != by_value_.end()) return it->second;
    if (s.empty() && layout_ && layout_->empty_string_at_pool_end) {
      if (!empty_at_end_) empty_at_end_ = static_cast<std::uint32_t>(pool_.size());
      return *empty_at_end_;
    }
    if (empty_at_end_ && *empty_at_end_ == pool_.size()) pool_.push_back(0);  // now it has one
    const auto at = static_cast<std::uint32_t>(pool_.size());
    add_string(s);
    return at;
  }

  void write_header() {
    const auto& h = m_.header;
    std::memcpy(ByteWriter::written.data(), "AIB ", 4);
    patch32(0x04, h.version);
    patch32(0x08, str(h.file_name));
    patch32(0x0C, static_cast<std::uint32_t>(m_.commands.size()));
    patch32(0x10, static_cast<std::uint32_t>(m_.nodes.size()));
    patch32(0x14, h.query_count);
    patch32(0x18, static_cast<std::uint32_t>(m_.attachments.size()));
    patch32(0x1C, h.output_node_count);
    const bool queries =
        layout_ ? layout_->unknown_0x50_is_queries
                : h.offsets[header_slot::kUnknown50] == h.offsets[header_slot::kQueries];
    if (!layout_) captured_.unknown_0x50_is_queries = queries;
    offsets_[header_slot::kUnknown50] =
        queries ? offsets_[header_slot::kQueries] : h.offsets[header_slot::kUnknown50];
    offsets_[header_slot::kUnknown54] = h.offsets[header_slot::kUnknown54];
    offsets_[header_slot::kCategoryName] = str(h.category_name);
    offsets_[header_slot::kCategory] = h.category;
  }

  void guid(const Guid& g) { append(g.bytes); }

  void write_commands() {
    for (const auto& c : m_.commands) {
      u32(str(c.name));
      guid(c.guid);
      u16(c.root);
      u16(c.secondary_root ? static_cast<std::uint16_t>(*c.secondary_root + 1) : 0);
    }
  }

  // "NAME: " before a message, when the model has a name (a text form's model may not yet).
  std::string prefix() const {
    return m_.name.empty() ? std::string() : std::string(m_.name) + ": ";
  }
  // A count or offset the format stores in 16 bits: larger ones are refused, not wrapped.
  std::uint16_t narrow16(std::size_t value, const std::string& what) const {
    if (value > 0xFFFF) {
      throw WriteError(fmt::format("{}{} is {}, past the 16 bits the format stores (65,535)",
                                   prefix(), what, value));
    }
    return static_cast<std::uint16_t>(value);
  }

  void write_node_entries() {
    const bool v404 = m_.version() == kVersion404;
    nodes_at_ = size();
    for (const auto& n : m_.nodes) {
      u16(static_cast<std::uint16_t>(n.type));
      u16(n.index);
      u16(narrow16(n.attachments.count, fmt::format("node {}'s attachment count", n.index)));
      u8(n.flags);
      u8(0);
      u32(str(n.name));
      if (!v404) u32(n.name_hash);
      u32(0);
      u32(0);  // body offset, patched
      u16(n.exb_function_count);
      u16(n.exb_io_size);
      u16(n.multi_param_count);
      u16(0);
      u32(n.attachments.base);
      u16(narrow16(n.queries.base, fmt::format("node {}'s first query entry", n.index)));
      u16(narrow16(n.queries.count, fmt::format("node {}'s query count", n.index)));
      u32(n.state_info ? 0 : n.state_info_offset);  // patched when written
      guid(n.guid);
    }
  }

  std::uint32_t node_entry(std::size_t i) const {
    return nodes_at_ + static_cast<std::uint32_t>(i) * node_entry_size(m_.version());
  }

  void write_blackboard() {
    start(header_slot::kBlackboard);
    const auto& bb = m_.blackboard;
    const auto types = blackboard_types(m_.version());
    std::uint32_t value_offset = 0;
    for (const auto type : types) {
      const auto t = static_cast<std::size_t>(type);
      u16(bb.count[t]);
      u16(bb.first[t]);
      u16(narrow16(value_offset, fmt::format("the blackboard's first {} value offset",
                                             blackboard_type_name(type))));
      u16(0);
      value_offset += blackboard_value_size(type) * bb.count[t];
    }
    for (const auto type : types) {
      for (const auto& e : bb.of_type(type)) {
        const auto name = str(e.name);
        if (name > 0x3FFFFFu) {
          throw WriteError(fmt::format(
              "{}blackboard entry \"{}\": its name lands at byte {:#x} of the string pool, past "
              "the 22 bits the format stores for it (4 MiB)",
              prefix(), e.name, name));
        }
        std::uint32_t word = (e.raw_word & ~0x3FFFFFu) | name;
        u32(word);
        u32(str(e.notes));
      }
    }
    for (const auto type : types) {
      for (const auto& e : bb.of_type(type)) {
        switch (type) {
          case BlackboardType::String:
            u32(str(std::get<std::string_view>(e.default_value)));
            break;
          case BlackboardType::S32:
            u32(static_cast<std::uint32_t>(std::get<std::int32_t>(e.default_value)));
            break;
          case BlackboardType::U32:
            u32(std::get<std::uint32_t>(e.default_value));
            break;
          case BlackboardType::F32:
            f32(std::get<float>(e.default_value));
            break;
          case BlackboardType::Bool:
            u32(std::get<bool>(e.default_value) ? 1 : 0);
            break;
          case BlackboardType::Vec3f: {
            const auto& v = std::get<Vec3f>(e.default_value);
            f32(v.x);
            f32(v.y);
            f32(v.z);
            break;
          }
          case BlackboardType::Pointer:
            break;
        }
      }
    }
    for (const auto& ref : bb.file_references) {
      u32(str(ref.path));
      u32(ref.path_hash);
      u32(ref.name_hash);
      u32(ref.extension_hash);
    }
  }

  void ranges(const std::array<Range, kParamTypeCount>& r) {
    for (const auto& range : r) {
      u32(range.base);
      u32(range.count);
    }
  }

  void plug_bb(const PlugBlackboard& bb) {
    u16(bb.used ? bb.index : 0);
    u16(bb.used ? 0x8000 : 0);
  }

  void write_node_body(std::size_t i) {
    const auto& n = m_.nodes[i];
    anchor([&] { return fmt::format("node {} body", i); }, n.body_offset);
    patch32(node_entry(i) + (m_.version() == kVersion404 ? 0x10 : 0x14), size());
    ranges(n.properties);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      u32(n.inputs[t].base);
      u32(n.inputs[t].count);
      u32(n.outputs[t].base);
      u32(n.outputs[t].count);
    }
    plug_header(i);
    std::uint32_t base = 0;
    for (const auto& r : n.plugs)
      base += r.count;
    const auto table = size();
    zeros(4ull * base);
    std::uint32_t slot_index = 0;
    for (std::size_t k = 0; k < kPlugKindCount; ++k) {
      for (const auto& p : m_.plugs_of(n, static_cast<PlugKind>(k))) {
        anchor([&] { return fmt::format("node {} plug {}", i, slot_index); }, p.offset);
        patch32(table + 4 * slot_index, size());
        write_plug(i, slot_index, p);
        ++slot_index;
      }
    }
    if (n.state_info) {
      anchor([&] { return fmt::format("node {} state info", i); }, n.state_info_offset);
      patch32(node_entry(i) + 0x24, size());
      u32(str(n.state_info->desired_state));
      for (const auto w : n.state_info->unknown)
        u32(w);
    }
  }

  // Ten (count, base) byte pairs. The game's files give an empty kind the running base; other
  // writers store 0 there, which the layout keeps ("node N plug header").
  void plug_header(std::size_t i) {
    const auto& n = m_.nodes[i];
    std::vector<std::uint8_t> canonical;
    std::uint32_t base = 0;
    for (const auto& r : n.plugs) {
      canonical.push_back(static_cast<std::uint8_t>(r.count));
      canonical.push_back(static_cast<std::uint8_t>(base));
      base += r.count;
    }
    if (layout_ && layout_->padding.empty()) {
      append(canonical);
      return;
    }
    const auto key = fmt::format("node {} plug header", i);
    if (layout_) {
      const auto it = layout_->padding.find(key);
      bool usable = it != layout_->padding.end() && it->second.size() == canonical.size();
      for (std::size_t k = 0; usable && k < canonical.size(); k += 2) {
        // Only the bases of empty kinds may differ; counts and used bases are computed.
        usable = it->second[k] == canonical[k] &&
                 (canonical[k] == 0 || it->second[k + 1] == canonical[k + 1]);
      }
      const auto& bytes = usable ? it->second : canonical;
      append(bytes);
      return;
    }
    const auto at = n.body_offset + 0x90;
    std::vector<std::uint8_t> bytes(m_.bytes.begin() + at, m_.bytes.begin() + at + 0x14);
    if (bytes != canonical) captured_.padding.emplace(key, bytes);
    append(bytes);
  }

  void padding(std::size_t node, std::uint32_t slot_index, std::uint32_t at, std::size_t size) {
    const auto key = fmt::format("node {} plug {}", node, slot_index);
    if (layout_) {
      if (const auto it = layout_->padding.find(key);
          it != layout_->padding.end() && it->second.size() == size) {
        append(it->second);
        return;
      }
      zeros(size);
      return;
    }
    std::vector<std::uint8_t> bytes(m_.bytes.begin() + at, m_.bytes.begin() + at + size);
    if (std::any_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b != 0; })) {
      captured_.padding.emplace(key, bytes);
    }
    append(bytes);
  }

  void write_plug(std::size_t node, std::uint32_t slot_index, const Plug& p) {
    if (p.multi_source_mark != 0)
      u32(static_cast<std::uint32_t>(p.multi_source_mark));
    else
      u32(p.target.value_or(kEmptyPlugIndex));
    if (p.kind == PlugKind::Transition) {
      u32(p.transition_index);
      return;
    }
    u32(str(p.name));
    std::visit(
        [&](const auto& d) {
          using T = std::decay_t<decltype(d)>;
          if constexpr (std::is_same_v<T, S32Condition>) {
            plug_bb(d.blackboard);
            u32(static_cast<std::uint32_t>(d.value));
          } else if constexpr (std::is_same_v<T, StringCondition>) {
            plug_bb(d.blackboard);
            u32(str(d.value));
          } else if constexpr (std::is_same_v<T, F32Condition>) {
            if (d.is_default) {
              u32(0);
              u32(str(d.default_name));
              padding(node, slot_index, p.offset + 0x10, 0x18);
            } else {
              plug_bb(d.min.blackboard);
              f32(d.min.value);
              plug_bb(d.max.blackboard);
              f32(d.max.value);
              padding(node, slot_index, p.offset + 0x18, 0x10);
            }
          } else if constexpr (std::is_same_v<T, RandomWeight>) {
            plug_bb(d.blackboard);
            f32(d.weight);
          } else if constexpr (std::is_same_v<T, EnumCondition>) {
            u32(d.blackboard.used ? 0x80000000u | d.blackboard.index : 0);
            u32(d.value);
          } else if constexpr (std::is_same_v<T, InputPlugExtra>) {
            u32(d.unknown);
            u32(p.kind == PlugKind::String ? str(d.default_string) : d.default_raw);
          }
        },
        p.data);
  }

  void write_attachments() {
    start(header_slot::kAttachmentIndices);
    for (const auto a : m_.attachment_indices)
      u32(a);
    start(header_slot::kAttachments);
    const bool v404 = m_.version() == kVersion404;
    const auto entries = size();
    const auto entry = entry_size(header_slot::kAttachments, m_.version());
    for (const auto& a : m_.attachments) {
      u32(str(a.name));
      u32(0);  // parameter block, patched
      u16(a.exb_function_count);
      u16(a.exb_io_size);
      if (!v404) u32(a.name_hash);
    }
    for (std::size_t i = 0; i < m_.attachments.size(); ++i) {
      const auto& a = m_.attachments[i];
      std::uint32_t original = 0;
      if (!layout_) original = read32(a.offset + 4);
      anchor([&] { return fmt::format("attachment {} parameters", i); }, original);
      patch32(entries + static_cast<std::uint32_t>(i) * entry + 4, size());
      const auto block = size();
      u32(a.debug);
      ranges(a.properties);
      attachment_tail(i, block);
    }
  }

  // The last 0x30 bytes of an attachment's parameter block: six (0, end of block) pairs in every
  // known file; other bytes are kept in the layout.
  void attachment_tail(std::size_t i, std::uint32_t block) {
    std::vector<std::uint8_t> canonical;
    for (int k = 0; k < 6; ++k) {
      for (const auto w : {0u, block + kAttachmentParamsSize})
        for (int b = 0; b < 4; ++b)
          canonical.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
    }
    if (layout_ && layout_->padding.empty()) {
      append(canonical);
      return;
    }
    const auto key = fmt::format("attachment {} parameters", i);
    if (layout_) {
      const auto it = layout_->padding.find(key);
      const auto& bytes =
          it != layout_->padding.end() && it->second.size() == 0x30 ? it->second : canonical;
      append(bytes);
      return;
    }
    const auto at = m_.attachments[i].offset;
    const auto original = read32(at + 4) + (kAttachmentParamsSize - 0x30);
    std::vector<std::uint8_t> bytes(m_.bytes.begin() + original,
                                    m_.bytes.begin() + original + 0x30);
    if (bytes != canonical) captured_.padding.emplace(key, bytes);
    append(bytes);
  }

  void value(const Value& v, ParamType type) {
    switch (type) {
      case ParamType::Int:
        u32(static_cast<std::uint32_t>(std::get<std::int32_t>(v)));
        break;
      case ParamType::Bool:
        u32(std::get<bool>(v) ? 1 : 0);
        break;
      case ParamType::Float:
        f32(std::get<float>(v));
        break;
      case ParamType::String:
        u32(str(std::get<std::string_view>(v)));
        break;
      case ParamType::Vec3f: {
        const auto& vec = std::get<Vec3f>(v);
        f32(vec.x);
        f32(vec.y);
        f32(vec.z);
        break;
      }
      case ParamType::Pointer:
        u32(std::get<PointerValue>(v).raw);
        break;
    }
  }

  void write_properties() {
    start(header_slot::kProperties);
    const auto table = size();
    zeros(4 * kParamTypeCount);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      if (!m_.properties[t].empty()) {
        anchor([&] { return fmt::format("{} properties", param_type_name(type)); },
               m_.properties[t][0].offset);
      }
      const auto bit = static_cast<std::uint8_t>(1u << t);
      const auto stored_at = std::uint64_t{offset(header_slot::kProperties)} + 4 * t;
      if (layout_ == nullptr && m_.properties[t].empty() && stored_at + 4 <= m_.bytes.size() &&
          read32(stored_at) == 0) {
        captured_.zero_property_offsets |= bit;
      }
      const auto zero =
          (layout_ ? layout_->zero_property_offsets : captured_.zero_property_offsets) & bit;
      patch32(table + 4 * static_cast<std::uint32_t>(t),
              zero != 0 && m_.properties[t].empty() ? 0 : size());
      for (const auto& p : m_.properties[t]) {
        u32(str(p.name));
        if (type == ParamType::Pointer) {
          u32(str(p.class_name));
          u32(p.flags.raw);
        } else {
          u32(p.flags.raw);
          value(p.value, type);
        }
      }
    }
  }

  void write_inputs_outputs() {
    start(header_slot::kInputsOutputs);
    const auto table = size();
    zeros(8 * kParamTypeCount);
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      if (!m_.inputs[t].empty()) {
        anchor([&] { return fmt::format("{} inputs", param_type_name(type)); },
               m_.inputs[t][0].offset);
      }
      patch32(table + 8 * static_cast<std::uint32_t>(t), size());
      for (const auto& in : m_.inputs[t]) {
        u32(str(in.name));
        if (type == ParamType::Pointer) u32(str(in.class_name));
        u16(static_cast<std::uint16_t>(in.raw_node_index));
        u16(static_cast<std::uint16_t>(in.raw_output_index));
        u32(in.flags.raw);
        value(in.default_value, type);
      }
      if (!m_.outputs[t].empty()) {
        anchor([&] { return fmt::format("{} outputs", param_type_name(type)); },
               m_.outputs[t][0].offset);
      }
      patch32(table + 8 * static_cast<std::uint32_t>(t) + 4, size());
      for (const auto& o : m_.outputs[t]) {
        u32((str(o.name) & 0x3FFFFFFFu) | (o.is_output ? 0x80000000u : 0));
        if (type == ParamType::Pointer) u32(str(o.class_name));
      }
    }
  }

  void write_transitions() {
    start(header_slot::kTransitions);
    const auto table = size();
    zeros(4 * m_.transitions.size());
    for (std::size_t i = 0; i < m_.transitions.size(); ++i) {
      const auto& tr = m_.transitions[i];
      anchor([&] { return fmt::format("transition {}", i); }, tr.offset);
      patch32(table + 4 * static_cast<std::uint32_t>(i), size());
      u32(tr.word);
      if (tr.type() == 0) u32(str(tr.command));
    }
  }

  const Model& m_;
  const Layout* layout_;
  Layout captured_;
  std::unordered_map<std::string, const std::vector<std::uint8_t>*> gaps_;
  std::span<const std::uint8_t> source_pool_;
  std::vector<std::uint8_t> pool_;
  std::unordered_map<std::string, std::uint32_t> by_value_;
  bool indexed_ = false;
  // Where empty strings point when the layout puts them at the pool's end.
  std::optional<std::uint32_t> empty_at_end_;
  std::array<std::uint32_t, kHeaderSlotCount> offsets_{};
  std::uint32_t nodes_at_ = 0;
};

}  // namespace

FileReference file_reference(std::string_view path) {
  const auto slash = path.rfind('/');
  const auto file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const auto dot = file.rfind('.');
  const auto stem = dot == std::string_view::npos ? file : file.substr(0, dot);
  const auto extension = dot == std::string_view::npos ? std::string_view{} : file.substr(dot + 1);
  return {path, murmur3_32(path), murmur3_32(stem), murmur3_32(extension)};
}

std::uint32_t murmur3_32(std::string_view data, std::uint32_t seed) noexcept {
  constexpr std::uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  std::uint32_t h = seed;
  const auto* p = reinterpret_cast<const std::uint8_t*>(data.data());
  const std::size_t blocks = data.size() / 4;
  for (std::size_t i = 0; i < blocks; ++i) {
    const auto* b = p + 4 * i;
    std::uint32_t k = std::uint32_t{b[0]} | (std::uint32_t{b[1]} << 8) |
                      (std::uint32_t{b[2]} << 16) | (std::uint32_t{b[3]} << 24);
    k *= c1;
    k = std::rotl(k, 15);
    k *= c2;
    h ^= k;
    h = std::rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  const auto* tail = p + 4 * blocks;
  std::uint32_t k = 0;
  switch (data.size() & 3) {
    case 3:
      k ^= std::uint32_t{tail[2]} << 16;
      [[fallthrough]];
    case 2:
      k ^= std::uint32_t{tail[1]} << 8;
      [[fallthrough]];
    case 1:
      k ^= tail[0];
      k *= c1;
      k = std::rotl(k, 15);
      k *= c2;
      h ^= k;
      break;
    default:
      break;
  }
  h ^= static_cast<std::uint32_t>(data.size());
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

Layout capture_layout(const Model& model) {
  Writer w(model, nullptr);
  w.run();
  return w.take_layout();
}

std::vector<std::uint8_t> write(const Model& model, const Layout& layout) {
  return Writer(model, &layout).run();
}

std::vector<std::uint8_t> write(const Model& model) {
  return write(model, capture_layout(model));
}

std::string section_at(const Model& model, std::uint64_t offset) {
  std::vector<std::pair<std::uint64_t, std::string>> starts = {{0, "header"},
                                                               {kHeaderSize, "commands"}};
  starts.emplace_back(kHeaderSize + kCommandEntrySize * model.commands.size(), "nodes");
  // In the file's order, so that of two sections at one offset (the first one empty) the one
  // that is really there wins below.
  for (const auto s : kSectionsInFileOrder) {
    if (model.header.offsets[s] != 0)
      starts.emplace_back(model.header.offsets[s], kHeaderSlots[s].section);
  }
  for (const auto& n : model.nodes) {
    starts.emplace_back(n.body_offset, fmt::format("node bodies (node {})", n.index));
  }
  // Sections that start at the same offset keep their listed order (the later one wins below).
  // std::sort on (offset, position) rather than std::stable_sort: the latter takes a temporary
  // buffer through the nothrow operator new, which the tests' allocation counter does not pair.
  std::vector<std::size_t> order(starts.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return starts[a].first != starts[b].first ? starts[a].first < starts[b].first : a < b;
  });
  std::string name = "header";
  for (const auto i : order) {
    if (starts[i].first <= offset) name = starts[i].second;
  }
  return name;
}

std::optional<Difference> first_difference(const Model& reference,
                                           std::span<const std::uint8_t> other) {
  const auto& a = reference.bytes;
  const auto n = std::min<std::size_t>(a.size(), other.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != other[i]) return Difference{i, section_at(reference, i)};
  }
  if (a.size() != other.size())
    return Difference{n, n < a.size() ? section_at(reference, n) : "end of file"};
  return std::nullopt;
}

}  // namespace ainb::writer
