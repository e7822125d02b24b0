#include "ainb/formats/byml.hpp"
#include "byml_layout.hpp"

#include <unordered_map>

#include "ainb/bit_cast.hpp"
#include "ainb/byte_reader.hpp"

// Layout (docs/formats.md has the details): a 16-byte header ("BY" big endian or "YB" little
// endian, u16 version, u32 offsets of the hash key table, the string table and the root), then
// nodes anywhere in the file. Containers (array, hash, hash32 map) and string tables are stored
// at offsets; values of other types sit in their parent's 4-byte slot, the 64-bit ones and binary
// data behind an offset. Any offset may be shared by several parents, so containers are decoded
// once per offset and shared; a container reached again while it is being decoded is a cycle.

namespace ainb::formats::byml {

namespace {

constexpr std::uint64_t kHeaderSize = 0x10;

bool is_container(std::uint8_t type) {
  return type == static_cast<std::uint8_t>(NodeType::Array) ||
         type == static_cast<std::uint8_t>(NodeType::Hash) ||
         type == static_cast<std::uint8_t>(NodeType::Hash32Map);
}

class Parser {
 public:
  Parser(const ByteReader& reader, const ReadOptions& options)
      : reader_(reader),
        options_(options),
        slots_(static_cast<std::size_t>(reader.size() / 4 + 1), 0) {}

  void read_tables(std::uint32_t key_table, std::uint32_t string_table) {
    {
      auto section = reader_.section("hash key table");
      keys_ = read_string_table(key_table);
    }
    auto section = reader_.section("string table");
    strings_ = read_string_table(string_table);
  }

  Value container(std::uint32_t offset, std::uint32_t depth) {
    // The format requires containers to be 4-byte aligned; relying on it lets one flat array,
    // indexed by offset / 4, remember what was decoded (a hash map cost half the parse time).
    if (offset % 4 != 0)
      reader_.fail(offset, "the container at {:#x} is not 4-byte aligned", offset);
    reader_.require(offset, 4, "container header");
    std::uint32_t& slot = slots_[offset / 4];
    if (slot == kActive) {
      reader_.fail(offset, "the container at {:#x} contains itself (a cycle of offsets)", offset);
    }
    if (slot != 0) return decoded_[slot - 1];
    if (depth > options_.max_depth) {
      reader_.fail(offset, "containers are nested deeper than {} levels", options_.max_depth);
    }
    slot = kActive;
    const std::uint8_t type = reader_.u8(offset, "node type");
    const std::uint32_t count = reader_.u24(offset + 1, "entry count");
    Value value;
    switch (static_cast<NodeType>(type)) {
      case NodeType::Array:
        value = array(offset, count, depth);
        break;
      case NodeType::Hash:
        value = hash(offset, count, depth);
        break;
      case NodeType::Hash32Map:
        value = hash32(offset, count, depth);
        break;
      default:
        reader_.fail(offset,
                     "node type {:#04x} at {:#x} is not a container (array, hash or hash32 "
                     "map)",
                     type, offset);
    }
    decoded_.push_back(value);
    slots_[offset / 4] = static_cast<std::uint32_t>(decoded_.size());
    return value;
  }

 private:
  std::vector<std::string> read_string_table(std::uint32_t offset) {
    std::vector<std::string> table;
    if (offset == 0) return table;
    const std::uint8_t type = reader_.u8(offset, "node type");
    if (type != static_cast<std::uint8_t>(NodeType::StringTable)) {
      reader_.fail(offset, "node type is {:#04x}, expected a string table (0xc2)", type);
    }
    const std::uint32_t count = reader_.u24(offset + 1, "string count");
    reader_.require(offset + 4, (std::uint64_t{count} + 1) * 4, "string offsets");
    table.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t at = offset + 4 + std::uint64_t{i} * 4;
      const std::uint32_t relative = reader_.u32(at, "string offset");
      auto text = reader_.c_string(std::uint64_t{offset} + relative, "string");
      charge(text.size());
      table.emplace_back(text);
    }
    return table;
  }

  void charge(std::uint64_t bytes) {
    decoded_bytes_ += bytes;
    if (decoded_bytes_ > options_.max_decoded_bytes) {
      reader_.fail(0, "the decoded document would hold more than {} bytes of strings and data",
                   options_.max_decoded_bytes);
    }
  }

  // A child stored in a 4-byte slot at `slot` with type byte `type`.
  Value child(std::uint64_t slot, std::uint8_t type, std::uint32_t depth) {
    const std::uint32_t raw = reader_.u32(slot, "node value");
    if (is_container(type)) return container(raw, depth + 1);
    switch (static_cast<NodeType>(type)) {
      case NodeType::String: {
        if (raw >= strings_.size()) {
          reader_.fail(slot, "string index {} is out of range (the string table has {})", raw,
                       strings_.size());
        }
        charge(strings_[raw].size());
        return Value::make_string(strings_[raw]);
      }
      case NodeType::Binary:
      case NodeType::File:
        return binary(raw, static_cast<NodeType>(type) == NodeType::File);
      case NodeType::Bool:
        return Value::make_bool(raw != 0);
      case NodeType::Int:
        return Value::make_int(static_cast<std::int32_t>(raw));
      case NodeType::UInt:
        return Value::make_uint(raw);
      case NodeType::Float:
        return Value::make_float(ainb::bit_cast<float>(raw));
      case NodeType::Int64:
        return Value::make_int64(reader_.s64(raw, "int64 value"));
      case NodeType::UInt64:
        return Value::make_uint64(reader_.u64(raw, "uint64 value"));
      case NodeType::Double:
        return Value::make_double(reader_.f64(raw, "double value"));
      case NodeType::Null:
        return {};
      default:
        reader_.fail(slot, "unknown node type {:#04x}", type);
    }
  }

  Value binary(std::uint32_t offset, bool file) {
    if (const auto found = binaries_.find(offset); found != binaries_.end()) {
      return found->second;
    }
    Binary data;
    const std::uint32_t size = reader_.u32(offset, "binary size");
    std::uint64_t start = std::uint64_t{offset} + 4;
    if (file) {
      data.alignment = reader_.u32(start, "binary alignment");
      start += 4;
    }
    const auto bytes = reader_.bytes(start, size, "binary data");
    charge(size);
    data.data.assign(bytes.begin(), bytes.end());
    auto value = Value::make_binary(std::move(data), file);
    binaries_.emplace(offset, value);
    return value;
  }

  Value array(std::uint32_t offset, std::uint32_t count, std::uint32_t depth) {
    const std::uint64_t types = std::uint64_t{offset} + 4;
    const std::uint64_t values = types + align4(count);
    reader_.require(types, count, "array element types");
    reader_.require(values, std::uint64_t{count} * 4, "array element values");
    auto items = std::make_shared<Array>();
    items->reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      items->push_back(child(values + 4 * std::uint64_t{i}, reader_.u8(types + i), depth));
    }
    return Value::make_array(std::move(items));
  }

  Value hash(std::uint32_t offset, std::uint32_t count, std::uint32_t depth) {
    const std::uint64_t entries = std::uint64_t{offset} + 4;
    reader_.require(entries, std::uint64_t{count} * 8, "hash entries");
    auto items = std::make_shared<Hash>();
    items->reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t entry = entries + 8 * std::uint64_t{i};
      const std::uint32_t key = reader_.u24(entry, "hash key index");
      if (key >= keys_.size()) {
        reader_.fail(entry, "hash key index {} is out of range (the hash key table has {})", key,
                     keys_.size());
      }
      charge(keys_[key].size());
      items->emplace_back(keys_[key], child(entry + 4, reader_.u8(entry + 3), depth));
    }
    return Value::make_hash(std::move(items));
  }

  Value hash32(std::uint32_t offset, std::uint32_t count, std::uint32_t depth) {
    const std::uint64_t entries = std::uint64_t{offset} + 4;
    const std::uint64_t types = entries + std::uint64_t{count} * 8;
    reader_.require(entries, std::uint64_t{count} * 9, "hash32 map entries and types");
    auto items = std::make_shared<Hash32Map>();
    items->reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t entry = entries + 8 * std::uint64_t{i};
      items->emplace_back(reader_.u32(entry, "key hash"),
                          child(entry + 4, reader_.u8(types + i), depth));
    }
    return Value::make_hash32(std::move(items));
  }

  const ByteReader& reader_;
  const ReadOptions& options_;
  std::vector<std::string> keys_, strings_;
  // Per 4-byte offset of the file: 0 not decoded yet, kActive being decoded (a cycle when reached
  // again), otherwise 1 + the index of the decoded container in decoded_.
  static constexpr std::uint32_t kActive = ~std::uint32_t{0};
  std::vector<std::uint32_t> slots_;
  std::vector<Value> decoded_;
  std::unordered_map<std::uint32_t, Value> binaries_;
  std::uint64_t decoded_bytes_ = 0;
};

}  // namespace

const Value* Value::find(std::string_view key) const noexcept {
  if (type_ != Type::Hash) return nullptr;
  for (const auto& [name, value] : as_hash()) {
    if (name == key) return &value;
  }
  return nullptr;
}

const void* Value::container_identity() const noexcept {
  switch (type_) {
    case Type::Array:
      return std::get<std::shared_ptr<const Array>>(data_).get();
    case Type::Hash:
      return std::get<std::shared_ptr<const Hash>>(data_).get();
    case Type::Hash32Map:
      return std::get<std::shared_ptr<const Hash32Map>>(data_).get();
    default:
      return nullptr;
  }
}

bool operator==(const Value& a, const Value& b) noexcept {
  if (a.type_ != b.type_) return false;
  switch (a.type_) {
    case Value::Type::Float:
      return ainb::bit_cast<std::uint32_t>(a.as_float()) ==
             ainb::bit_cast<std::uint32_t>(b.as_float());
    case Value::Type::Double:
      return ainb::bit_cast<std::uint64_t>(a.as_double()) ==
             ainb::bit_cast<std::uint64_t>(b.as_double());
    case Value::Type::Binary:
    case Value::Type::File:
      return a.as_binary().data == b.as_binary().data &&
             a.as_binary().alignment == b.as_binary().alignment;
    case Value::Type::Array:
      return a.container_identity() == b.container_identity() || a.as_array() == b.as_array();
    case Value::Type::Hash:
      return a.container_identity() == b.container_identity() || a.as_hash() == b.as_hash();
    case Value::Type::Hash32Map:
      return a.container_identity() == b.container_identity() || a.as_hash32() == b.as_hash32();
    default:
      return a.data_ == b.data_;
  }
}

const char* type_name(Value::Type type) noexcept {
  switch (type) {
    case Value::Type::Null:
      return "null";
    case Value::Type::Bool:
      return "bool";
    case Value::Type::Int:
      return "int";
    case Value::Type::UInt:
      return "uint";
    case Value::Type::Float:
      return "float";
    case Value::Type::Int64:
      return "int64";
    case Value::Type::UInt64:
      return "uint64";
    case Value::Type::Double:
      return "double";
    case Value::Type::String:
      return "string";
    case Value::Type::Binary:
      return "binary";
    case Value::Type::File:
      return "file";
    case Value::Type::Array:
      return "array";
    case Value::Type::Hash:
      return "hash";
    case Value::Type::Hash32Map:
      return "hash32 map";
  }
  return "?";
}

bool is_byml(std::span<const std::uint8_t> bytes) noexcept {
  if (bytes.size() < 4) return false;
  const bool little = bytes[0] == 'Y' && bytes[1] == 'B';
  const bool big = bytes[0] == 'B' && bytes[1] == 'Y';
  if (!little && !big) return false;
  const unsigned version = little ? bytes[2] | (bytes[3] << 8) : (bytes[2] << 8) | bytes[3];
  return version >= 1 && version <= 7;
}

Document read(std::span<const std::uint8_t> bytes, std::string_view file_name,
              const ReadOptions& options) {
  const ByteReader raw(bytes, file_name);
  auto section = raw.section("BYML header");
  raw.require(0, kHeaderSize, "header");
  Document document;
  const auto magic = raw.bytes(0, 2, "magic");
  if (magic[0] == 'Y' && magic[1] == 'B') {
    document.byte_order = std::endian::little;
  } else if (magic[0] == 'B' && magic[1] == 'Y') {
    document.byte_order = std::endian::big;
  } else {
    raw.fail(0, "not a BYML file (magic is not \"BY\" or \"YB\")");
  }
  const auto reader = raw.with_byte_order(document.byte_order);
  document.version = reader.u16(2, "version");
  if (document.version < 1 || document.version > 7) {
    reader.fail(2, "version {} is not supported (1 to 7 are)", document.version);
  }
  Parser parser(reader, options);
  parser.read_tables(reader.u32(4, "hash key table offset"), reader.u32(8, "string table offset"));
  const std::uint32_t root = reader.u32(12, "root offset");
  if (root != 0) {
    auto nodes = reader.section("nodes");
    document.root = parser.container(root, 0);
  }
  return document;
}

}  // namespace ainb::formats::byml
