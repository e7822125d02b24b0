#pragma once

// Text -> model: the reader behind from_text(), shared by text_form_from_text.cpp (the file as
// a whole: header, blackboard, expressions, commands and the tables after the nodes) and
// text_form_from_text_nodes.cpp (nodes, their parameters, attachments and plugs). The reader
// lays the model's flat arrays out again in node order, which is the order of every known
// file, so an unedited text gives the same arrays, ranges and bytes.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ainb/model.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "text_form_common.hpp"

namespace ainb::writer::detail {

inline std::string type_of(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_float:
      return "a number";
    default:
      return "an integer";
  }
}

inline std::string escape_key(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// A JSON value with its pointer, for messages.
struct At {
  const json& j;
  std::string path;

  [[noreturn]] void fail(const std::string& reason) const { throw TextFormError(path, reason); }

  bool has(std::string_view key) const { return j.is_object() && j.contains(key); }
  At operator[](std::string_view key) const {
    if (!j.is_object()) fail("expected an object, got " + type_of(j));
    const auto it = j.find(key);
    if (it == j.end()) fail(fmt::format("missing field \"{}\"", key));
    return {*it, path + "/" + escape_key(key)};
  }
  At operator[](std::size_t i) const { return {j[i], fmt::format("{}/{}", path, i)}; }
  // The field, or `fallback` (one of the empty values below) when the text leaves it out.
  At or_empty(std::string_view key, const json& fallback) const {
    if (!has(key)) return {fallback, path + "/" + escape_key(key)};
    return (*this)[key];
  }
  std::size_t size() const { return j.size(); }
  // Fails on a key outside `known` (a misspelt field would otherwise be ignored).
  void only(std::initializer_list<std::string_view> known) const {
    only(std::span<const std::string_view>(known.begin(), known.size()));
  }
  // `what` says where the fields belong, for a field that exists but not here.
  void only(std::span<const std::string_view> known, std::string_view what = {}) const {
    for (const auto& [key, value] : object().items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        fail(what.empty() ? fmt::format("unknown field \"{}\"", key)
                          : fmt::format("field \"{}\" does not apply to {}", key, what));
      }
    }
  }

  const json& object() const {
    if (!j.is_object()) fail("expected an object, got " + type_of(j));
    return j;
  }
  std::size_t array() const {
    if (!j.is_array()) fail("expected an array, got " + type_of(j));
    return j.size();
  }
  std::string string() const {
    if (!j.is_string()) fail("expected a string, got " + type_of(j));
    auto s = j.get<std::string>();
    // The file stores strings NUL-terminated: one inside would cut the string there.
    if (s.find('\0') != std::string::npos) fail("a string cannot hold a NUL character (\\u0000)");
    return s;
  }
  bool boolean() const {
    if (!j.is_boolean()) fail("expected true or false, got " + type_of(j));
    return j.get<bool>();
  }
  // An integer in [lo, hi]; hex strings ("0x1f") are accepted too.
  std::int64_t integer(std::int64_t lo, std::int64_t hi) const {
    std::int64_t v = 0;
    if (j.is_number_integer()) {
      v = j.get<std::int64_t>();
    } else if (j.is_string()) {
      const auto s = j.get<std::string>();
      std::size_t used = 0;
      try {
        v = s.starts_with("0x") ? static_cast<std::int64_t>(std::stoull(s.substr(2), &used, 16))
                                : std::stoll(s, &used, 10);
        if (s.starts_with("0x")) used += 2;
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != s.size()) fail(fmt::format("\"{}\" is not an integer", s));
    } else {
      fail("expected an integer, got " + type_of(j));
    }
    if (v < lo || v > hi) fail(fmt::format("{} is out of range [{}, {}]", v, lo, hi));
    return v;
  }
  std::uint32_t u32() const { return static_cast<std::uint32_t>(integer(0, 0xFFFFFFFFll)); }
  std::uint16_t u16() const { return static_cast<std::uint16_t>(integer(0, 0xFFFF)); }
  float f32() const {
    if (j.is_string()) {
      const auto s = j.get<std::string>();
      if (s == "nan") return std::numeric_limits<float>::quiet_NaN();
      if (s == "inf") return std::numeric_limits<float>::infinity();
      if (s == "-inf") return -std::numeric_limits<float>::infinity();
      fail(fmt::format("expected a number or \"nan\", \"inf\", \"-inf\", got \"{}\"", s));
    }
    if (!j.is_number()) fail("expected a number, got " + type_of(j));
    const auto v = j.get<double>();
    // Past float's range a number would become an infinity: write "inf" for that.
    if (std::abs(v) > std::numeric_limits<float>::max()) {
      fail(fmt::format("{} is out of float32's range (write \"inf\" or \"-inf\" for an infinity)",
                       j.dump()));
    }
    return static_cast<float>(v);
  }
  // An index below `count`; `what` names the array ("nodes").
  std::uint32_t index(std::size_t count, std::string_view what) const {
    if (!j.is_number_integer()) fail("expected an index, got " + type_of(j));
    const auto v = j.get<std::int64_t>();
    if (v < 0 || static_cast<std::uint64_t>(v) >= count) {
      fail(fmt::format("index {} out of range (file has {} {})", v, count, what));
    }
    return static_cast<std::uint32_t>(v);
  }
};

// A GUID written as the loader prints it (8-4-4-4-12 hex digits).
Guid parse_guid(const At& at);

// Where an enum resolve patches: an entry of the model's flat property or input arrays, and the
// byte offset inside it. The file offset is known once the file is written.
struct PatchTarget {
  bool input = false;
  ParamType type = ParamType::Int;
  std::uint32_t index = 0;
  std::uint32_t offset = 0;
};

struct Built {
  Model model;
  std::vector<std::pair<std::size_t, PatchTarget>> patches;  // enum resolve index, target
  std::deque<std::string> strings;
  std::vector<std::uint8_t> exb;
  Layout layout;

  std::string_view keep(std::string s) {
    strings.push_back(std::move(s));
    return strings.back();
  }
};

class FromText {
 public:
  FromText(const json& text, Built& out) : root_{text, ""}, b_(out), m_(out.model) {}

  void run();

 private:
  // The file as a whole (text_form_from_text.cpp).
  void read_layout();
  void read_header();
  void read_expressions();
  void read_blackboard();
  void read_commands();
  void read_transitions();
  PatchTarget read_patch(const At& p);
  void read_tail();

  // The nodes (text_form_from_text_nodes.cpp).
  Value read_value(const At& at, ParamType type);
  ParamFlags read_flags(const At& at, ParamType type);
  template <typename Fn>
  void per_type(const At& at, Fn&& fn);
  std::array<Range, kParamTypeCount> read_properties(const At& owner);
  void read_attachment_count();
  void read_outputs(const At& n, std::size_t i);
  void read_node(const At& n, std::size_t i);
  void read_queries(const At& nodes);
  void apply_query_layout();
  std::pair<std::int16_t, std::int16_t> read_link(const At& at, ParamType type,
                                                  const ParamFlags& f);
  void read_inputs_all(const At& nodes);
  void read_attachments();
  // The EXB function count and result size as the JSON states them; what it leaves out is
  // derived once every parameter is read (settle_expression_use).
  struct StatedExpressionUse {
    std::optional<std::uint16_t> function_count, io_size;
  };
  static StatedExpressionUse read_expression_use(const At& owner);
  template <typename Owner>  // Node or Attachment
  void settle(Owner& owner, const StatedExpressionUse& stated);
  void settle_expression_use();
  PlugBlackboard plug_bb(const At& p, std::string_view key, BlackboardType type);
  void read_plugs(const At& n, std::size_t i);
  static std::vector<std::string_view> plug_fields(const Node& node, PlugKind kind, bool last,
                                                   std::string_view name, bool v407);
  void read_condition(const Node& node, const At& at, Plug& plug, bool last);

  At root_;
  Built& b_;
  Model& m_;
  std::size_t node_count_ = 0;
  std::size_t attachment_count_ = 0;
  std::vector<StatedExpressionUse> node_expression_use_, attachment_expression_use_;
};

}  // namespace ainb::writer::detail
