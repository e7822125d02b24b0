#include "edits.hpp"

#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/writer/text_form.hpp"

namespace ainb::simulation {

namespace {

using json = nlohmann::ordered_json;

// GUIDs that occur once in the file (an all-zero GUID pairs nothing), and where.
std::map<std::string, std::size_t> unique_guids(const Model& m) {
  std::map<std::string, std::size_t> at;
  std::set<std::string> repeated;
  const Guid none{};
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    if (m.nodes[i].guid == none) continue;
    const auto key = m.nodes[i].guid.to_string();
    if (!at.emplace(key, i).second) repeated.insert(key);
  }
  for (const auto& key : repeated)
    at.erase(key);
  return at;
}

// How one file reads after normalisation: node references as the original's numbers, indices
// into the file's tables replaced by what they point at, restated fields dropped.
class Normaliser {
 public:
  Normaliser(const json& text, const NodePairing& pairing, bool edited)
      : text_(text), pairing_(pairing), edited_(edited) {}

  std::string node_ref(std::int64_t node) const {
    if (!edited_) return fmt::format("#{}", node);
    const auto original = pairing_.original(node);
    return original >= 0 ? fmt::format("#{}", original) : fmt::format("new node #{}", node);
  }

  json operator()(const json& v) const {
    if (v.is_array()) {
      json out = json::array();
      for (const auto& x : v)
        out.push_back((*this)(x));
      return out;
    }
    if (!v.is_object()) return v;
    static const std::set<std::string> restated = {"node_name", "output_name", "root_name",
                                                   "name_hash", "guid",        "state_info_offset"};
    json out = json::object();
    for (const auto& [key, x] : v.items()) {
      if (restated.contains(key)) continue;
      if (key == "node" && x.is_number_integer()) {
        out[key] = node_ref(x.get<std::int64_t>());
      } else if (key == "queries" && x.is_array()) {
        out[key] = json::array();
        for (const auto& q : x)
          out[key].push_back(q.is_number_integer() ? json(node_ref(q.get<std::int64_t>())) : q);
      } else if (key == "expression" && x.is_number_integer()) {
        out[key] = table("/expressions/functions", x);
      } else if (key == "transition" && x.is_number_integer()) {
        out[key] = table("/transitions", x);
      } else if (key == "attachments" && x.is_array()) {
        out[key] = json::array();
        for (const auto& a : x)
          out[key].push_back(a.is_number_integer() ? (*this)(table("/attachments", a)) : a);
      } else if (key == "blackboard" && x.is_object() && x.contains("name")) {
        out[key] = x["name"];
      } else if (key == "flags" && x.is_string() &&
                 (v.contains("blackboard") || v.contains("expression"))) {
        // The low 16 bits index the blackboard or expression table, compared by what they name.
        out[key] = fmt::format("{:#x}", std::stoul(x.get<std::string>(), nullptr, 16) & ~0xFFFFul);
      } else {
        out[key] = (*this)(x);
      }
    }
    return out;
  }

 private:
  json table(const char* pointer, const json& index) const {
    const auto ptr = json::json_pointer(pointer);
    const auto i = index.get<std::int64_t>();
    if (!text_.contains(ptr) || i < 0 || static_cast<std::size_t>(i) >= text_[ptr].size()) {
      return index;
    }
    return text_[ptr][static_cast<std::size_t>(i)];
  }

  const json& text_;
  const NodePairing& pairing_;
  bool edited_;
};

// A value as a modder reads it: numbers as the file's floats print, strings bare.
std::string shown(const json& v) {
  if (v.is_number_float()) return fmt::format("{}", static_cast<float>(v.get<double>()));
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "none";
  if (v.is_array() &&
      std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_number(); })) {
    std::string s;
    for (const auto& x : v)
      s += (s.empty() ? "" : ", ") + shown(x);
    return "[" + s + "]";
  }
  auto text = v.dump();
  constexpr std::size_t kLongest = 160;
  if (text.size() > kLongest) text = text.substr(0, kLongest) + "…";
  return text;
}

// The first instruction where two expression functions (text form) differ.
std::string expression_change(const json& a, const json& b) {
  for (const auto* block : {"setup", "main"}) {
    const auto la = a.value(block, json::array()), lb = b.value(block, json::array());
    for (std::size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
      const auto x = i < la.size() ? la[i].get<std::string>() : std::string("(none)");
      const auto y = i < lb.size() ? lb[i].get<std::string>() : std::string("(none)");
      if (x != y) {
        return fmt::format(
            "its expression's {} block, instruction {}, is \"{}\" in the original "
            "and \"{}\" in the edited file",
            block, i, x, y);
      }
    }
  }
  return "its expression's sizes or types differ";
}

std::string was_now(const json& a, const json& b) {
  return fmt::format("{} in the original and {} in the edited file", shown(a), shown(b));
}

const json* named(const json& list, const std::string& name) {
  for (const auto& x : list) {
    if (x.is_object() && x.value("name", "") == name) return &x;
  }
  return nullptr;
}

// Two lists of named entries (the parameters of one type, the commands): entry by entry.
// `type` ("int", "" for none) is shown beside a name that is new or gone.
void compare_entries(const json& la, const json& lb, const std::string& kind,
                     const std::string& type, std::vector<std::string>& out) {
  const auto label = [&](const std::string& name) {
    return type.empty() ? fmt::format("{} {}", kind, name)
                        : fmt::format("{} {} ({})", kind, name, type);
  };
  for (const auto& x : la) {
    const auto name = x.value("name", "");
    const auto* y = named(lb, name);
    if (y == nullptr) {
      out.push_back(label(name) + " is not in the edited file");
    } else if (x != *y) {
      // Only the value (a property), or only the default (an input, an entry): that value.
      json rest_x = x, rest_y = *y;
      for (const auto* field : {"value", "default"}) {
        rest_x.erase(field);
        rest_y.erase(field);
      }
      const auto* field = x.contains("value") ? "value" : "default";
      const auto expression = x.value("expression", json()), other = y->value("expression", json());
      rest_x.erase("expression");
      rest_y.erase("expression");
      if (rest_x != rest_y) {
        out.push_back(fmt::format("{} {} is {}", kind, name, was_now(x, *y)));
      } else if (expression != other && expression.is_object() && other.is_object()) {
        out.push_back(fmt::format("{} {}: {}", kind, name, expression_change(expression, other)));
      } else if (expression != other) {
        out.push_back(
            fmt::format("{} {}'s expression is {}", kind, name, was_now(expression, other)));
      } else {
        out.push_back(fmt::format("{} {} is {}", kind, name,
                                  was_now(x.value(field, json()), y->value(field, json()))));
      }
    }
  }
  for (const auto& y : lb) {
    const auto name = y.value("name", "");
    if (named(la, name) == nullptr) out.push_back(label(name) + " is new in the edited file");
  }
}

// Named entries by type (properties, inputs, outputs, blackboard entries).
void compare_named(const json& a, const json& b, const std::string& kind,
                   std::vector<std::string>& out) {
  static const json empty = json::array();
  for (const auto& [type, la] : a.items())
    compare_entries(la, b.contains(type) ? b[type] : empty, kind, type, out);
  for (const auto& [type, lb] : b.items()) {
    if (!a.contains(type)) compare_entries(empty, lb, kind, type, out);
  }
}

void compare_node(const json& a, const json& b, std::vector<std::string>& out) {
  std::vector<std::string> keys;
  for (const auto& [key, _] : a.items())
    keys.push_back(key);
  for (const auto& [key, _] : b.items()) {
    if (!a.contains(key)) keys.push_back(key);
  }
  static const std::map<std::string, std::string> kinds = {
      {"properties", "property"}, {"inputs", "input"}, {"outputs", "output"}};
  for (const auto& key : keys) {
    const json x = a.value(key, json()), y = b.value(key, json());
    if (x == y) continue;
    if (const auto kind = kinds.find(key); kind != kinds.end() && x.is_object() && y.is_object()) {
      compare_named(x, y, kind->second, out);
    } else if (key == "type" || key == "name") {
      out.push_back(fmt::format("its {} is {}", key == "type" ? "type" : "class", was_now(x, y)));
    } else {
      out.push_back(fmt::format("its {} {}", key, was_now(x, y)));
    }
  }
}

}  // namespace

NodePairing pair_nodes(const Model& original, const Model& edited) {
  NodePairing p;
  p.edited_of.assign(original.nodes.size(), -1);
  p.original_of.assign(edited.nodes.size(), -1);
  const auto in_original = unique_guids(original);
  for (const auto& [key, j] : unique_guids(edited)) {
    if (const auto i = in_original.find(key); i != in_original.end()) {
      p.edited_of[i->second] = static_cast<std::int64_t>(j);
      p.original_of[j] = static_cast<std::int64_t>(i->second);
    }
  }
  for (std::size_t i = 0; i < original.nodes.size() && i < edited.nodes.size(); ++i) {
    if (p.edited_of[i] < 0 && p.original_of[i] < 0) {
      p.edited_of[i] = p.original_of[i] = static_cast<std::int64_t>(i);
    }
  }
  return p;
}

std::vector<Edit> edits_between(const Model& original, const Model& edited,
                                const NodePairing& pairing) {
  const auto text_a = writer::to_text(original), text_b = writer::to_text(edited);
  const Normaliser norm_a(text_a, pairing, false), norm_b(text_b, pairing, true);
  std::vector<Edit> edits;
  auto file_edit = [&](std::string what) { edits.push_back({-1, -1, std::move(what)}); };

  // The file: its commands (by name), blackboard entries (by type and name), other fields.
  {
    std::vector<std::string> found;
    compare_entries(norm_a(text_a.value("commands", json::array())),
                    norm_b(text_b.value("commands", json::array())), "command", "", found);
    compare_named(norm_a(text_a.value("blackboard", json::object())),
                  norm_b(text_b.value("blackboard", json::object())), "blackboard entry", found);
    for (const auto* key : {"category", "blackboard_files", "modules"}) {
      const auto x = text_a.value(key, json()), y = text_b.value(key, json());
      if (x != y) found.push_back(fmt::format("the file's {} {}", key, was_now(x, y)));
    }
    for (auto& what : found)
      file_edit(std::move(what));
  }

  // The nodes, pair by pair, then the unpaired ones.
  const auto& nodes_a = text_a["nodes"];
  const auto& nodes_b = text_b["nodes"];
  for (std::size_t i = 0; i < original.nodes.size(); ++i) {
    const auto j = pairing.edited_of[i];
    if (j < 0) {
      edits.push_back({static_cast<std::int64_t>(i), -1, "deleted in the edited file"});
      continue;
    }
    auto a = norm_a(nodes_a[i]);
    auto b = norm_b(nodes_b[static_cast<std::size_t>(j)]);
    a.erase("index");
    b.erase("index");
    std::vector<std::string> found;
    compare_node(a, b, found);
    for (auto& what : found)
      edits.push_back({static_cast<std::int64_t>(i), j, std::move(what)});
  }
  for (std::size_t j = 0; j < edited.nodes.size(); ++j) {
    if (pairing.original_of[j] < 0)
      edits.push_back({-1, static_cast<std::int64_t>(j), "new in the edited file"});
  }
  return edits;
}

}  // namespace ainb::simulation
