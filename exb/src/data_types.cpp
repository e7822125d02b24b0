// The data types' names and version bytes, looked up in AINB_EXB_DATA_TYPES, and the one
// conversion between a value and its bytes in EXB memory.

#include "ainb/exb/data_types.hpp"

#include <utility>

namespace ainb::exb {

namespace {

// The enum's values are the rows' values, 0, 1, ... in order, so the tables below are indexed
// by them.
static_assert(
    [] {
      std::uint8_t next = 0;
      bool in_order = true;
#define AINB_EXB_DATA_TYPE_ORDER(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  in_order = in_order && value == next++;
      AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_ORDER)
#undef AINB_EXB_DATA_TYPE_ORDER
      return in_order;
    }(),
    "data type values run 0, 1, ... in the order of their rows");

// Value's alternatives are the rows' C++ types: monostate, then each value type in order.
template <std::size_t... K>
constexpr bool alternatives_in_order(std::index_sequence<K...>) {
  return std::variant_size_v<Value> == kValueTypeCount + 1 &&
         std::is_same_v<std::variant_alternative_t<0, Value>, std::monostate> &&
         ((detail::data_type_of<std::variant_alternative_t<K + 1, Value>>() == kValueTypes[K]) &&
          ...);
}
static_assert(alternatives_in_order(std::make_index_sequence<kValueTypeCount>{}),
              "Value's alternatives are the value types' C++ types, in the rows' order");

struct Row {
  int v2;
  std::string_view text, word, signature, peer, noun;
};
constexpr Row kRows[kDataTypeCount] = {
#define AINB_EXB_DATA_TYPE_ROW(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  {v2, text, word, signature, peer, noun},
    AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_ROW)
#undef AINB_EXB_DATA_TYPE_ROW
};

const Row* row(DataType type) {
  const auto index = static_cast<std::size_t>(type);
  return index < kDataTypeCount ? &kRows[index] : nullptr;
}

// The type whose spelling `member` is `text`; an empty text names none.
std::optional<DataType> named(std::string_view Row::*member, std::string_view text) {
  if (text.empty()) return std::nullopt;
  for (std::size_t k = 0; k < kDataTypeCount; ++k) {
    if (kRows[k].*member == text) return static_cast<DataType>(k);
  }
  return std::nullopt;
}

std::string_view spelling(std::string_view Row::*member, DataType type) {
  const auto* r = row(type);
  return r != nullptr ? r->*member : std::string_view{};
}

// The types of each v1/v2 byte (the v3 byte is the enum's value).
constexpr std::size_t kV2Count = [] {
  std::size_t count = 0;
  for (const auto& r : kRows)
    count += r.v2 >= 0 ? 1 : 0;
  return count;
}();
constexpr std::array<DataType, kV2Count> kV2Types = [] {
  std::array<DataType, kV2Count> types{};
  for (std::size_t k = 0; k < kDataTypeCount; ++k) {
    if (kRows[k].v2 >= 0) types[static_cast<std::size_t>(kRows[k].v2)] = static_cast<DataType>(k);
  }
  return types;
}();

}  // namespace

std::string_view data_type_name(DataType type) {
  return spelling(&Row::text, type);
}
std::optional<DataType> data_type_named(std::string_view name) {
  return named(&Row::text, name);
}
std::string_view assembly_word(DataType type) {
  return spelling(&Row::word, type);
}
std::optional<DataType> data_type_of_word(std::string_view word) {
  return named(&Row::word, word);
}
std::string_view signature_type_name(DataType type) {
  const auto word = spelling(&Row::signature, type);
  return word.empty() ? "Void" : word;
}
std::optional<DataType> data_type_of_signature_word(std::string_view word) {
  return named(&Row::signature, word);
}
std::string_view peer_name(DataType type) {
  return spelling(&Row::peer, type);
}
std::string_view data_type_noun(DataType type) {
  return spelling(&Row::noun, type);
}

std::optional<DataType> data_type_of_byte(std::uint32_t version, std::uint8_t raw) {
  if (version >= 3) {
    if (raw >= kDataTypeCount) return std::nullopt;
    return static_cast<DataType>(raw);
  }
  if (raw >= kV2Types.size()) return std::nullopt;
  return kV2Types[raw];
}

std::optional<std::uint8_t> data_type_byte(std::uint32_t version, DataType type) {
  const auto* r = row(type);
  if (r == nullptr) return std::nullopt;
  if (version >= 3) return static_cast<std::uint8_t>(type);
  if (r->v2 < 0) return std::nullopt;
  return static_cast<std::uint8_t>(r->v2);
}

DataType type_of(const Value& value) {
  return value.index() == 0 ? DataType::None : kValueTypes[value.index() - 1];
}

Value read_value(DataType type, const std::uint8_t* bytes) {
  switch (type) {
#define AINB_EXB_DATA_TYPE_READ(name, value, v2, size, cpp, text, word, signature, peer, noun) \
  case DataType::name:                                                                         \
    if constexpr (size != 0) return detail::load<cpp>(bytes);                                  \
    break;
    AINB_EXB_DATA_TYPES(AINB_EXB_DATA_TYPE_READ)
#undef AINB_EXB_DATA_TYPE_READ
  }
  return std::monostate{};
}

void store_value(const Value& value, std::uint8_t* at) {
  std::visit(
      [&](const auto& v) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, std::monostate>) {
          detail::store(at, v);
        }
      },
      value);
}

void write_value(const Value& value, std::array<std::uint8_t, 12>& bytes) {
  bytes.fill(0);
  store_value(value, bytes.data());
}

}  // namespace ainb::exb
