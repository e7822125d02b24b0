#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>
#include <boost/container/flat_set.hpp>

#include "ainb/bit_cast.hpp"
#include "ainb/formats/byml.hpp"
#include "byml_layout.hpp"

// The layout the writer produces is the one of TotK's files (and roead's): header, hash key
// table, string table, the 64-bit values and binary data in the order a depth-first walk meets
// them, then the containers in depth-first preorder, children in entry order. 465 of the 483
// corpus files come back byte for byte that way (docs/formats.md); the others were laid out in an
// order the sorted hashes no longer tell.

namespace ainb::formats::byml {

namespace {

constexpr std::uint32_t kMaxCount = 0xFFFFFF;  // counts and key indices are 24-bit
constexpr std::uint32_t kMaxFileAlignment = 0x10000;

// A hash key or string table: sorted and without duplicates, a string's index its rank. Collected
// in a vector as the walk meets them, then sorted once; looked up by binary search for each key or
// string slot written.
class StringTable {
 public:
  void add(std::string_view text) { collected_.push_back(text); }
  void sort() {
    table_.adopt_sequence(std::move(collected_));  // sorts, drops duplicates
    if (table_.size() > kMaxCount) {
      throw WriteError(
          fmt::format("{} distinct strings, more than a table's {}", table_.size(), kMaxCount));
    }
  }
  std::uint32_t index_of(std::string_view text) const {
    return static_cast<std::uint32_t>(table_.index_of(table_.find(text)));
  }
  bool empty() const { return table_.empty(); }
  std::size_t size() const { return table_.size(); }
  auto begin() const { return table_.begin(); }
  auto end() const { return table_.end(); }

 private:
  boost::container::flat_set<std::string_view>::sequence_type collected_;
  boost::container::flat_set<std::string_view> table_;
};

bool is_container(Value::Type type) {
  return type == Value::Type::Array || type == Value::Type::Hash || type == Value::Type::Hash32Map;
}

// Values stored behind an offset rather than in their parent's slot.
bool is_behind_offset(Value::Type type) {
  return type == Value::Type::Int64 || type == Value::Type::UInt64 || type == Value::Type::Double ||
         type == Value::Type::Binary || type == Value::Type::File;
}

NodeType node_type(Value::Type type) {
  switch (type) {
    case Value::Type::Null:
      return NodeType::Null;
    case Value::Type::Bool:
      return NodeType::Bool;
    case Value::Type::Int:
      return NodeType::Int;
    case Value::Type::UInt:
      return NodeType::UInt;
    case Value::Type::Float:
      return NodeType::Float;
    case Value::Type::Int64:
      return NodeType::Int64;
    case Value::Type::UInt64:
      return NodeType::UInt64;
    case Value::Type::Double:
      return NodeType::Double;
    case Value::Type::String:
      return NodeType::String;
    case Value::Type::Binary:
      return NodeType::Binary;
    case Value::Type::File:
      return NodeType::File;
    case Value::Type::Array:
      return NodeType::Array;
    case Value::Type::Hash:
      return NodeType::Hash;
    case Value::Type::Hash32Map:
      return NodeType::Hash32Map;
  }
  return NodeType::Null;
}

std::size_t entry_count(const Value& container) {
  switch (container.type()) {
    case Value::Type::Array:
      return container.as_array().size();
    case Value::Type::Hash:
      return container.as_hash().size();
    default:
      return container.as_hash32().size();
  }
}

const Value& entry_value(const Value& container, std::size_t index) {
  switch (container.type()) {
    case Value::Type::Array:
      return container.as_array()[index];
    case Value::Type::Hash:
      return container.as_hash()[index].second;
    default:
      return container.as_hash32()[index].second;
  }
}

std::uint64_t container_size(const Value& container) {
  const std::uint64_t count = entry_count(container);
  switch (container.type()) {
    case Value::Type::Array:
      return 4 + align4(count) + 4 * count;
    case Value::Type::Hash:
      return 4 + 8 * count;
    default:
      return 4 + 8 * count + align4(count);
  }
}

// Where a value behind an offset starts when the previous data end at `position`: 64-bit values
// at a 4-byte boundary, binary data anywhere (USen.byml packs them), file data so that the bytes
// after its size and alignment words meet the alignment (ElectricGenerator's 0x1000).
std::uint64_t value_start(std::uint64_t position, const Value& value) {
  if (value.type() == Value::Type::Binary) return position;
  if (value.type() != Value::Type::File) return align4(position);
  const std::uint32_t alignment = value.as_binary().alignment;
  if (alignment <= 1) return position;
  const std::uint64_t data = position + 8;
  return position + (alignment - data % alignment) % alignment;
}

std::uint64_t value_size(const Value& value) {
  switch (value.type()) {
    case Value::Type::Binary:
      return 4 + value.as_binary().data.size();
    case Value::Type::File:
      return 8 + value.as_binary().data.size();
    default:
      return 8;
  }
}

class Emitter {
 public:
  explicit Emitter(std::endian order) : order_(order) {}
  std::vector<std::uint8_t> bytes;

  void u8(std::uint8_t v) { bytes.push_back(v); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u24(std::uint32_t v) { put(v, 3); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void pad_to(std::uint64_t offset) {
    if (offset > bytes.size()) bytes.resize(static_cast<std::size_t>(offset), 0);
  }
  void patch32(std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i) {
      const std::size_t shift = order_ == std::endian::little ? 8 * i : 8 * (3 - i);
      bytes[at + i] = static_cast<std::uint8_t>(v >> shift);
    }
  }

 private:
  void put(std::uint64_t value, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      const std::size_t shift = order_ == std::endian::little ? 8 * i : 8 * (size - 1 - i);
      bytes.push_back(static_cast<std::uint8_t>(value >> shift));
    }
  }
  std::endian order_;
};

class Writer {
 public:
  explicit Writer(const WriteOptions& options) : options_(options), out_(options.byte_order) {}

  std::vector<std::uint8_t> run(const Value& root) {
    if (options_.version < 2 || options_.version > 7) {
      throw WriteError(
          fmt::format("BYML version {} is not written (2 to 7 are)", options_.version));
    }
    if (!root.is_null() && !is_container(root.type())) {
      throw WriteError(fmt::format(
          "the root is of type {}; it must be an array, a hash or a hash32 map (null: an empty "
          "document)",
          type_name(root.type())));
    }
    if (!root.is_null()) collect(root);
    keys_.sort();
    strings_.sort();
    layout();
    emit();
    return std::move(out_.bytes);
  }

 private:
  struct Node {
    const Value* value;
    std::vector<std::uint32_t> order;  // entry indices in the order written (hashes: by key)
    std::uint32_t offset = 0;
  };

  // Depth first, without recursion (a hand-built document may nest deeper than the stack
  // allows): nodes in preorder, the values behind offsets in the order the walk meets them.
  void collect(const Value& root) {
    struct Frame {
      std::uint32_t node;
      std::size_t next = 0;
    };
    std::vector<Frame> stack{{add_node(root)}};
    while (!stack.empty()) {
      auto& frame = stack.back();
      // The Value, not the Node: add_node() may grow nodes_.
      const Value& container = *nodes_[frame.node].value;
      if (frame.next == nodes_[frame.node].order.size()) {
        active_[frame.node] = false;
        stack.pop_back();
        continue;
      }
      const Value& child = entry_value(container, nodes_[frame.node].order[frame.next++]);
      check_version(child);
      if (is_container(child.type())) {
        const auto found = node_index_.find(child.container_identity());
        if (found == node_index_.end()) {
          stack.push_back({add_node(child)});
        } else if (active_[found->second]) {
          throw WriteError("a container contains itself (a cycle of shared containers)");
        }
      } else if (is_behind_offset(child.type())) {
        block_.push_back(&child);
      } else if (child.type() == Value::Type::String) {
        strings_.add(checked_text(child.as_string(), "string"));
      }
    }
  }

  std::uint32_t add_node(const Value& container) {
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    const std::size_t count = entry_count(container);
    if (count > kMaxCount) {
      throw WriteError(
          fmt::format("a container of type {} has {} entries, more than the "
                      "format's {}",
                      type_name(container.type()), count, kMaxCount));
    }
    Node node{&container, std::vector<std::uint32_t>(count)};
    for (std::uint32_t i = 0; i < count; ++i)
      node.order[i] = i;
    if (container.type() == Value::Type::Hash) {
      const auto& hash = container.as_hash();
      std::stable_sort(node.order.begin(), node.order.end(),
                       [&](auto a, auto b) { return hash[a].first < hash[b].first; });
      for (std::size_t i = 0; i < count; ++i) {
        const auto& key = hash[node.order[i]].first;
        if (i > 0 && key == hash[node.order[i - 1]].first) {
          throw WriteError(fmt::format("a hash has the key \"{}\" twice", key));
        }
        keys_.add(checked_text(key, "hash key"));
      }
    } else if (container.type() == Value::Type::Hash32Map) {
      const auto& hash = container.as_hash32();
      std::stable_sort(node.order.begin(), node.order.end(),
                       [&](auto a, auto b) { return hash[a].first < hash[b].first; });
      for (std::size_t i = 1; i < count; ++i) {
        if (hash[node.order[i]].first == hash[node.order[i - 1]].first) {
          throw WriteError(
              fmt::format("a hash32 map has the key {:#010x} twice", hash[node.order[i]].first));
        }
      }
    }
    nodes_.push_back(std::move(node));
    active_.push_back(true);
    node_index_.emplace(container.container_identity(), index);
    return index;
  }

  void check_version(const Value& value) const {
    const auto type = value.type();
    const bool wide =
        type == Value::Type::Int64 || type == Value::Type::UInt64 || type == Value::Type::Double;
    const std::uint16_t needed = wide ? 3 : type == Value::Type::File ? 4 : 0;
    if (options_.version < needed) {
      throw WriteError(
          fmt::format("a value of type {} needs BYML version {} or later (writing "
                      "version {})",
                      type_name(type), needed, options_.version));
    }
    if (type == Value::Type::File && value.as_binary().alignment > kMaxFileAlignment) {
      throw WriteError(fmt::format("file data alignment {:#x} is over the writer's limit of {:#x}",
                                   value.as_binary().alignment, kMaxFileAlignment));
    }
  }

  static std::string_view checked_text(const std::string& text, const char* what) {
    if (text.find('\0') != std::string::npos) {
      throw WriteError(
          fmt::format("a {} holds a NUL character, which the string tables cannot "
                      "store",
                      what));
    }
    return text;
  }

  static std::uint64_t table_size(const StringTable& list) {
    if (list.empty()) return 0;
    std::uint64_t size = 4 + 4 * (list.size() + 1);
    for (const auto text : list)
      size += text.size() + 1;
    return align4(size);
  }

  // Offsets for everything: containers and the values behind offsets.
  void layout() {
    std::uint64_t position = 16 + table_size(keys_) + table_size(strings_);
    const auto place = [&](const Value& value) {
      if (value.type() == Value::Type::Binary || value.type() == Value::Type::File) {
        if (binary_offsets_.contains(&value.as_binary())) return;
      }
      position = value_start(position, value);
      placed_.push_back({&value, checked_offset(position)});
      if (value.type() == Value::Type::Binary || value.type() == Value::Type::File) {
        binary_offsets_.emplace(&value.as_binary(), placed_.back().second);
      } else {
        value_offsets_.emplace(&value, placed_.back().second);
      }
      position += value_size(value);
    };
    if (options_.placement == ValuePlacement::BeforeRoot) {
      for (const auto* value : block_)
        place(*value);
    }
    for (auto& node : nodes_) {
      position = align4(position);
      node.offset = checked_offset(position);
      placed_.push_back({node.value, node.offset});
      position += container_size(*node.value);
      if (options_.placement != ValuePlacement::AfterContainer) continue;
      for (const auto index : node.order) {
        const auto& value = entry_value(*node.value, index);
        if (is_behind_offset(value.type())) place(value);
      }
    }
    checked_offset(position);
  }

  static std::uint32_t checked_offset(std::uint64_t position) {
    if (position > 0xFFFFFFFF) throw WriteError("the document does not fit in 4 GiB");
    return static_cast<std::uint32_t>(position);
  }

  void emit() {
    out_.u8(options_.byte_order == std::endian::little ? 'Y' : 'B');
    out_.u8(options_.byte_order == std::endian::little ? 'B' : 'Y');
    out_.u16(options_.version);
    out_.u32(0);
    out_.u32(0);
    out_.u32(nodes_.empty() ? 0 : nodes_.front().offset);
    if (!keys_.empty()) {
      out_.patch32(4, static_cast<std::uint32_t>(out_.bytes.size()));
      emit_table(keys_);
    }
    if (!strings_.empty()) {
      out_.patch32(8, static_cast<std::uint32_t>(out_.bytes.size()));
      emit_table(strings_);
    }
    std::unordered_map<const Value*, const Node*> node_of;
    for (const auto& node : nodes_)
      node_of.emplace(node.value, &node);
    for (const auto& [value, offset] : placed_) {
      out_.pad_to(offset);
      if (is_container(value->type())) {
        emit_container(*node_of.at(value));
      } else {
        emit_value(*value);
      }
    }
  }

  void emit_table(const StringTable& list) {
    const std::size_t start = out_.bytes.size();
    out_.u8(static_cast<std::uint8_t>(NodeType::StringTable));
    out_.u24(static_cast<std::uint32_t>(list.size()));
    std::uint32_t relative = static_cast<std::uint32_t>(4 + 4 * (list.size() + 1));
    for (const auto text : list) {
      out_.u32(relative);
      relative += static_cast<std::uint32_t>(text.size() + 1);
    }
    out_.u32(relative);
    for (const auto text : list) {
      out_.bytes.insert(out_.bytes.end(), text.begin(), text.end());
      out_.u8(0);
    }
    out_.pad_to(start + table_size(list));
  }

  void emit_value(const Value& value) {
    switch (value.type()) {
      case Value::Type::Int64:
        out_.u64(static_cast<std::uint64_t>(value.as_int64()));
        break;
      case Value::Type::UInt64:
        out_.u64(value.as_uint64());
        break;
      case Value::Type::Double:
        out_.u64(ainb::bit_cast<std::uint64_t>(value.as_double()));
        break;
      default: {
        const auto& binary = value.as_binary();
        out_.u32(static_cast<std::uint32_t>(binary.data.size()));
        if (value.type() == Value::Type::File) out_.u32(binary.alignment);
        out_.bytes.insert(out_.bytes.end(), binary.data.begin(), binary.data.end());
      }
    }
  }

  void emit_container(const Node& node) {
    const Value& container = *node.value;
    const auto count = static_cast<std::uint32_t>(node.order.size());
    const auto type_byte = [&](std::uint32_t index) {
      return static_cast<std::uint8_t>(node_type(entry_value(container, index).type()));
    };
    out_.u8(static_cast<std::uint8_t>(node_type(container.type())));
    out_.u24(count);
    switch (container.type()) {
      case Value::Type::Array:
        for (const auto index : node.order)
          out_.u8(type_byte(index));
        out_.pad_to(align4(out_.bytes.size()));
        for (const auto index : node.order)
          out_.u32(slot(entry_value(container, index)));
        break;
      case Value::Type::Hash:
        for (const auto index : node.order) {
          const auto& [key, value] = container.as_hash()[index];
          out_.u24(keys_.index_of(key));
          out_.u8(type_byte(index));
          out_.u32(slot(value));
        }
        break;
      default:
        for (const auto index : node.order) {
          const auto& [hash, value] = container.as_hash32()[index];
          out_.u32(hash);
          out_.u32(slot(value));
        }
        for (const auto index : node.order)
          out_.u8(type_byte(index));
        out_.pad_to(align4(out_.bytes.size()));
    }
  }

  // What a value's 4-byte slot in its parent holds.
  std::uint32_t slot(const Value& value) const {
    switch (value.type()) {
      case Value::Type::Null:
        return 0;
      case Value::Type::Bool:
        return value.as_bool() ? 1 : 0;
      case Value::Type::Int:
        return static_cast<std::uint32_t>(value.as_int());
      case Value::Type::UInt:
        return value.as_uint();
      case Value::Type::Float:
        return ainb::bit_cast<std::uint32_t>(value.as_float());
      case Value::Type::String:
        return strings_.index_of(value.as_string());
      case Value::Type::Binary:
      case Value::Type::File:
        return binary_offsets_.at(&value.as_binary());
      case Value::Type::Int64:
      case Value::Type::UInt64:
      case Value::Type::Double:
        return value_offsets_.at(&value);
      default:
        return nodes_[node_index_.at(value.container_identity())].offset;
    }
  }

  const WriteOptions& options_;
  Emitter out_;
  std::vector<Node> nodes_;  // preorder; nodes_[0] is the root
  std::vector<bool> active_;
  std::unordered_map<const void*, std::uint32_t> node_index_;  // container identity -> node
  std::vector<const Value*> block_;  // values behind offsets, in the walk's order
  StringTable keys_, strings_;
  // Everything after the tables in file order: containers and values behind offsets.
  std::vector<std::pair<const Value*, std::uint32_t>> placed_;
  std::unordered_map<const Value*, std::uint32_t> value_offsets_;    // 64-bit values
  std::unordered_map<const Binary*, std::uint32_t> binary_offsets_;  // shared binary data
};

}  // namespace

std::vector<std::uint8_t> write(const Value& root, const WriteOptions& options) {
  return Writer(options).run(root);
}

std::vector<std::uint8_t> write(const Document& document, ValuePlacement placement) {
  return write(document.root, {document.version, document.byte_order, placement});
}

}  // namespace ainb::formats::byml
