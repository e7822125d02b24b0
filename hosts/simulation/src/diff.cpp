// The differences of two files through their text forms (edits_between, diff_files): each side
// normalised so that what only restates another field, or numbers nodes and tables, compares
// equal; then part by part, a change each.

#include "ainb/simulation/diff.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "ainb/writer/text_form.hpp"
#include "edits.hpp"

namespace ainb::simulation {

namespace {

using json = nlohmann::ordered_json;

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
    static const std::set<std::string> restated = {"node_name", "root_name", "name_hash", "guid",
                                                   "state_info_offset"};
    json out = json::object();
    for (const auto& [key, x] : v.items()) {
      if (restated.contains(key)) continue;
      // An index beside the name it gives (an output, a plug's blackboard entry): the name.
      static const std::set<std::string> named_indices = {"output", "blackboard", "min_blackboard",
                                                          "max_blackboard"};
      if (named_indices.contains(key) && x.is_number_integer() && v.contains(key + "_name")) {
        continue;
      }
      if ((key == "node" || key == "root" || key == "secondary_root" ||
           key == "replacement_node") &&
          x.is_number_integer()) {
        out[key] = node_ref(x.get<std::int64_t>());
      } else if (key == "file_reference" && x.is_number_integer()) {
        out[key] = table("/blackboard_files", x).value("path", json(x));
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

// A value as a modder reads it: numbers as the file's floats print, strings bare, a reference
// to a node as the node and what else it says ("#4 (condition 2)"), a list of such items as a
// list.
std::string shown(const json& v) {
  if (v.is_number_float()) return fmt::format("{}", static_cast<float>(v.get<double>()));
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "none";
  if (v.is_object() && v.contains("node")) {
    std::string rest;
    for (const auto& [key, x] : v.items()) {
      if (key == "node" || (x.is_string() && x.get<std::string>().empty())) continue;
      rest += fmt::format("{}{} {}", rest.empty() ? "" : ", ",
                          key == "output_name" ? "output" : key, shown(x));
    }
    return shown(v["node"]) + (rest.empty() ? "" : " (" + rest + ")");
  }
  const auto brief = [](const json& x) {
    return x.is_primitive() || (x.is_object() && x.contains("node"));
  };
  if (v.is_array() && std::all_of(v.begin(), v.end(), brief)) {
    std::string s;
    for (const auto& x : v)
      s += (s.empty() ? "" : ", ") + shown(x);
    return "[" + s + "]";
  }
  // A string of the file that is not UTF-8 is shown with U+FFFD, as the read-only outputs do.
  auto text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  constexpr std::size_t kLongest = 160;
  if (text.size() > kLongest) text = text.substr(0, kLongest) + "…";
  return text;
}

std::string was_now(const json& a, const json& b) {
  return fmt::format("{} in the original and {} in the edited file", shown(a), shown(b));
}

// One change, before it is placed on its node or on the file (Edit's fields).
struct Change {
  std::string kind, change, subject, what;
  json before, after;
};
using Changes = std::vector<Change>;

// What a sentence calls a part is its subject, less the word that places it ("its plugs child",
// "the file's category": under a node's or the file's heading already).
std::string subject_of(const std::string& label) {
  for (const std::string_view prefix : {"its ", "the file's "}) {
    if (label.starts_with(prefix)) return label.substr(prefix.size());
  }
  return label;
}

void changed(Changes& out, const std::string& kind, const std::string& label, const json& a,
             const json& b) {
  out.push_back(
      {kind, "changed", subject_of(label), fmt::format("{} is {}", label, was_now(a, b)), a, b});
}
void removed(Changes& out, const std::string& kind, const std::string& label, const json& a,
             const std::string& what) {
  out.push_back({kind, "removed", subject_of(label), what, a, json()});
}
void added(Changes& out, const std::string& kind, const std::string& label, const json& b,
           const std::string& what) {
  out.push_back({kind, "added", subject_of(label), what, json(), b});
}

// Two lists aligned by a longest common subsequence of equal items: each step an item of both
// (`same` when equal), or of one side (-1 for the other). Between two equal items, the items of
// each side are paired in order (an item edited in place) and the rest stand alone.
struct Step {
  std::ptrdiff_t a = -1, b = -1;
  bool same = false;
};
template <class Equal>
std::vector<Step> align(std::size_t n, std::size_t m, Equal equal) {
  std::vector<Step> steps;
  // A table past this many cells costs more than it tells: item by item instead.
  constexpr std::size_t kMostCells = 4'000'000;
  if ((n + 1) * (m + 1) > kMostCells) {
    for (std::size_t i = 0; i < std::max(n, m); ++i) {
      const auto a = i < n ? static_cast<std::ptrdiff_t>(i) : -1;
      const auto b = i < m ? static_cast<std::ptrdiff_t>(i) : -1;
      steps.push_back({a, b, a >= 0 && b >= 0 && equal(i, i)});
    }
    return steps;
  }
  // longest[i][j]: the longest common subsequence of the items from i and from j on.
  std::vector<std::vector<std::uint32_t>> longest(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      longest[i][j] =
          equal(i, j) ? longest[i + 1][j + 1] + 1 : std::max(longest[i + 1][j], longest[i][j + 1]);
    }
  }
  std::vector<std::ptrdiff_t> only_a, only_b;
  const auto pair_up = [&] {
    for (std::size_t k = 0; k < std::max(only_a.size(), only_b.size()); ++k) {
      steps.push_back(
          {k < only_a.size() ? only_a[k] : -1, k < only_b.size() ? only_b[k] : -1, false});
    }
    only_a.clear();
    only_b.clear();
  };
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && equal(i, j)) {
      pair_up();
      steps.push_back({static_cast<std::ptrdiff_t>(i++), static_cast<std::ptrdiff_t>(j++), true});
    } else if (j == m || (i < n && longest[i + 1][j] >= longest[i][j + 1])) {
      only_a.push_back(static_cast<std::ptrdiff_t>(i++));
    } else {
      only_b.push_back(static_cast<std::ptrdiff_t>(j++));
    }
  }
  pair_up();
  return steps;
}

// The instructions two expression functions (text form) differ in, block by block, then their
// types and sizes.
void describe_expression(const std::string& label, const json& a, const json& b, Changes& out) {
  for (const std::string block : {"setup", "main"}) {
    const auto la = a.value(block, json::array()), lb = b.value(block, json::array());
    const auto where = [&](std::ptrdiff_t i) {
      return fmt::format("{}: its expression's {} block, instruction {}", label, block, i);
    };
    const auto subject = [&](std::ptrdiff_t i) {
      return fmt::format("{} expression {} instruction {}", subject_of(label), block, i);
    };
    for (const auto& s : align(la.size(), lb.size(),
                               [&](std::size_t i, std::size_t j) { return la[i] == lb[j]; })) {
      if (s.same) continue;
      const auto x = s.a >= 0 ? la[static_cast<std::size_t>(s.a)] : json();
      const auto y = s.b >= 0 ? lb[static_cast<std::size_t>(s.b)] : json();
      if (s.a >= 0 && s.b >= 0) {
        out.push_back({"expression", "changed", subject(s.a),
                       fmt::format("{}, is \"{}\" in the original and \"{}\" in the edited file",
                                   where(s.a), shown(x), shown(y)),
                       x, y});
      } else if (s.a >= 0) {
        out.push_back({"expression", "removed", subject(s.a),
                       fmt::format("{} (\"{}\") is not in the edited file", where(s.a), shown(x)),
                       x, json()});
      } else {
        out.push_back({"expression", "added", subject(s.b),
                       fmt::format("{} (\"{}\") is new in the edited file", where(s.b), shown(y)),
                       json(), y});
      }
    }
  }
  auto rest_a = a, rest_b = b;
  for (const auto* block : {"setup", "main"}) {
    rest_a.erase(block);
    rest_b.erase(block);
  }
  for (const auto& [key, x] : rest_a.items()) {
    const auto y = rest_b.value(key, json());
    if (x != y) changed(out, "expression", fmt::format("{} expression {}", label, key), x, y);
  }
  for (const auto& [key, y] : rest_b.items()) {
    if (!rest_a.contains(key))
      changed(out, "expression", fmt::format("{} expression {}", label, key), json(), y);
  }
}

void describe_changes(const std::string& kind, const std::string& label, const json& a,
                      const json& b, Changes& out);

// Two lists that differ: the same items in another order as one change, else item by item
// along their alignment (an item by its name when it has one, else its position).
void describe_list(const std::string& kind, const std::string& label, const json& a, const json& b,
                   Changes& out) {
  if (a.size() == b.size() && std::is_permutation(a.begin(), a.end(), b.begin())) {
    out.push_back({kind, "reordered", subject_of(label),
                   fmt::format("{} are in another order: {}", label, was_now(a, b)), a, b});
    return;
  }
  const auto item = [&](const json& x, std::ptrdiff_t i) {
    const auto name = x.is_object() ? x.value("name", "") : std::string();
    return fmt::format("{} {}", label, name.empty() ? std::to_string(i) : "\"" + name + "\"");
  };
  for (const auto& s :
       align(a.size(), b.size(), [&](std::size_t i, std::size_t j) { return a[i] == b[j]; })) {
    if (s.same) continue;
    if (s.a >= 0 && s.b >= 0) {
      const auto& x = a[static_cast<std::size_t>(s.a)];
      describe_changes(kind, item(x, s.a), x, b[static_cast<std::size_t>(s.b)], out);
    } else if (s.a >= 0) {
      const auto& x = a[static_cast<std::size_t>(s.a)];
      removed(out, kind, item(x, s.a), x,
              fmt::format("{} ({}) is not in the edited file", item(x, s.a), shown(x)));
    } else {
      const auto& y = b[static_cast<std::size_t>(s.b)];
      added(out, kind, item(y, s.b), y,
            fmt::format("{} ({}) is new in the edited file", item(y, s.b), shown(y)));
    }
  }
}

// The differences between two values under `label` ("input Speed", "its plugs"): objects field
// by field, lists of items (not of numbers: a vec3f is one value) by describe_list, an expression
// by its instructions, anything else whole.
void describe_changes(const std::string& kind, const std::string& label, const json& a,
                      const json& b, Changes& out) {
  if (a == b) return;
  if (a.is_object() && b.is_object()) {
    std::vector<std::string> keys;
    for (const auto& [key, _] : a.items())
      keys.push_back(key);
    for (const auto& [key, _] : b.items()) {
      if (!a.contains(key)) keys.push_back(key);
    }
    for (const auto& key : keys) {
      const auto x = a.value(key, json()), y = b.value(key, json());
      if (key == "expression" && x.is_object() && y.is_object()) {
        if (x != y) describe_expression(label, x, y, out);
      } else if (key == "source" && x != y) {
        // A link to another node's output is one thing: "#2 (output Speed)".
        changed(out, kind, label + " source", x, y);
      } else {
        // A parameter's stored value is the parameter's: "property Time is 2 ... 5".
        const bool value = (key == "value" || key == "default") &&
                           (kind == "property" || kind == "input" || kind == "blackboard");
        describe_changes(kind, value ? label : label + " " + key, x, y, out);
      }
    }
    return;
  }
  // A list of items against another, or against none (a list left out of the text): item by
  // item.
  const auto items = [](const json& x) {
    return x.is_array() &&
           std::any_of(x.begin(), x.end(), [](const json& i) { return i.is_structured(); });
  };
  if ((items(a) || items(b)) && (a.is_array() || a.is_null()) && (b.is_array() || b.is_null())) {
    describe_list(kind, label, a.is_null() ? json::array() : a, b.is_null() ? json::array() : b,
                  out);
    return;
  }
  changed(out, kind, label, a, b);
}

const json* keyed(const json& list, const char* key, const std::string& value) {
  for (const auto& x : list) {
    if (x.is_object() && x.value(key, "") == value) return &x;
  }
  return nullptr;
}

// Two lists of entries named by `key` (the parameters of one type, the commands, the modules by
// path): entry by entry. `type` ("int", "" for none) is shown beside a name that is new or gone.
void compare_entries(const std::string& kind, const json& la, const json& lb,
                     const std::string& noun, const std::string& type, Changes& out,
                     const char* key = "name") {
  const auto label = [&](const std::string& name) {
    return type.empty() ? fmt::format("{} {}", noun, name)
                        : fmt::format("{} {} ({})", noun, name, type);
  };
  for (const auto& x : la) {
    const auto name = x.value(key, "");
    const auto* y = keyed(lb, key, name);
    if (y == nullptr) {
      removed(out, kind, label(name), x, label(name) + " is not in the edited file");
    } else {
      describe_changes(kind, fmt::format("{} {}", noun, name), x, *y, out);
    }
  }
  for (const auto& y : lb) {
    const auto name = y.value(key, "");
    if (keyed(la, key, name) == nullptr)
      added(out, kind, label(name), y, label(name) + " is new in the edited file");
  }
}

// Named entries by type (properties, inputs, outputs, blackboard entries).
void compare_named(const std::string& kind, const json& a, const json& b, const std::string& noun,
                   Changes& out) {
  static const json empty = json::array();
  for (const auto& [type, la] : a.items())
    compare_entries(kind, la, b.contains(type) ? b[type] : empty, noun, type, out);
  for (const auto& [type, lb] : b.items()) {
    if (!a.contains(type)) compare_entries(kind, empty, lb, noun, type, out);
  }
}

void compare_node(const json& a, const json& b, Changes& out) {
  std::vector<std::string> keys;
  for (const auto& [key, _] : a.items())
    keys.push_back(key);
  for (const auto& [key, _] : b.items()) {
    if (!a.contains(key)) keys.push_back(key);
  }
  static const std::map<std::string, std::string> parameters = {
      {"properties", "property"}, {"inputs", "input"}, {"outputs", "output"}};
  // The kind of change of the node's other fields, by field.
  static const std::map<std::string, std::string> kinds = {{"type", "type"},
                                                           {"name", "class"},
                                                           {"plugs", "plug"},
                                                           {"attachments", "attachment"},
                                                           {"queries", "query"}};
  for (const auto& key : keys) {
    const json x = a.value(key, json()), y = b.value(key, json());
    if (x == y) continue;
    if (const auto p = parameters.find(key);
        p != parameters.end() && x.is_object() && y.is_object()) {
      compare_named(p->second, x, y, p->second, out);
    } else if (key == "type" || key == "name") {
      changed(out, kinds.at(key), key == "type" ? "its type" : "its class", x, y);
    } else {
      const auto kind = kinds.find(key);
      describe_changes(kind != kinds.end() ? kind->second : key, "its " + key, x, y, out);
    }
  }
}

// The file's own parts: its commands (by name), blackboard entries (by type and name, and their
// order, which expressions that read entries by index see), modules and blackboard files (by
// path), the expression section's header, the rest of its fields. Attachments and transitions
// are compared where nodes use them, layouts not at all (they only place bytes).
Changes compare_file(const json& text_a, const json& text_b, const Normaliser& norm_a,
                     const Normaliser& norm_b) {
  Changes found;
  const auto part = [](const json& text, const char* key, const json& none) {
    return text.contains(key) ? text[key] : none;
  };
  const auto list = [&](const json& text, const Normaliser& norm, const char* key) {
    return norm(part(text, key, json::array()));
  };
  compare_entries("command", list(text_a, norm_a, "commands"), list(text_b, norm_b, "commands"),
                  "command", "", found);
  const auto bb_a = norm_a(part(text_a, "blackboard", json::object()));
  const auto bb_b = norm_b(part(text_b, "blackboard", json::object()));
  compare_named("blackboard", bb_a, bb_b, "blackboard entry", found);
  for (const auto& [type, entries] : bb_a.items()) {
    if (!bb_b.contains(type)) continue;
    auto names = [](const json& of) {
      json out = json::array();
      for (const auto& e : of)
        out.push_back(e.value("name", ""));
      return out;
    };
    const auto before = names(entries), after = names(bb_b[type]);
    if (before != after && std::is_permutation(before.begin(), before.end(), after.begin())) {
      found.push_back(
          {"blackboard", "reordered", fmt::format("{} blackboard entries", type),
           fmt::format("the {} blackboard entries are in another order (an expression that reads "
                       "entries by index, as GetBBCode* functions do, now reads others)",
                       type),
           before, after});
    }
  }
  compare_entries("module", list(text_a, norm_a, "modules"), list(text_b, norm_b, "modules"),
                  "module", "", found, "path");
  compare_entries("blackboard file", list(text_a, norm_a, "blackboard_files"),
                  list(text_b, norm_b, "blackboard_files"), "blackboard file", "", found, "path");
  // The expression section's header and how many functions it has; the functions themselves
  // where they are used.
  const auto exb = [](const json& text) {
    if (!text.contains("expressions")) return json();
    auto e = text["expressions"];
    e["function_count"] = e.value("functions", json::array()).size();
    e.erase("functions");
    e.erase("layout");
    return e;
  };
  describe_changes("expression", "the file's expressions", exb(text_a), exb(text_b), found);
  static const std::set<std::string> elsewhere = {
      "format",  "layout",           "nodes",       "commands",    "blackboard",
      "modules", "blackboard_files", "expressions", "attachments", "transitions"};
  std::vector<std::string> keys;
  for (const auto& [key, _] : text_a.items())
    keys.push_back(key);
  for (const auto& [key, _] : text_b.items()) {
    if (!text_a.contains(key)) keys.push_back(key);
  }
  for (const auto& key : keys) {
    if (elsewhere.contains(key)) continue;
    describe_changes(key == "replacements" ? "replacement" : "file", "the file's " + key,
                     norm_a(part(text_a, key.c_str(), json())),
                     norm_b(part(text_b, key.c_str(), json())), found);
  }
  return found;
}

Edit edit_of(std::int64_t original_node, std::int64_t edited_node, Change&& c) {
  Edit e;
  e.original_node = original_node;
  e.edited_node = edited_node;
  e.what = std::move(c.what);
  e.kind = std::move(c.kind);
  e.change = std::move(c.change);
  e.subject = std::move(c.subject);
  e.before = std::move(c.before);
  e.after = std::move(c.after);
  return e;
}

}  // namespace

std::vector<Edit> edits_between(const Model& original, const Model& edited,
                                const NodePairing& pairing) {
  const auto text_a = writer::to_text(original), text_b = writer::to_text(edited);
  const Normaliser norm_a(text_a, pairing, false), norm_b(text_b, pairing, true);
  std::vector<Edit> edits;
  for (auto& c : compare_file(text_a, text_b, norm_a, norm_b))
    edits.push_back(edit_of(-1, -1, std::move(c)));

  // The nodes, pair by pair, then the unpaired ones (the node as the text form has it).
  const auto& nodes_a = text_a["nodes"];
  const auto& nodes_b = text_b["nodes"];
  for (std::size_t i = 0; i < original.nodes.size(); ++i) {
    const auto j = pairing.edited_of[i];
    auto a = norm_a(nodes_a[i]);
    a.erase("index");
    if (j < 0) {
      edits.push_back(
          edit_of(static_cast<std::int64_t>(i), -1,
                  {"node", "removed", "node", "deleted in the edited file", a, json()}));
      continue;
    }
    auto b = norm_b(nodes_b[static_cast<std::size_t>(j)]);
    b.erase("index");
    Changes found;
    compare_node(a, b, found);
    for (auto& c : found)
      edits.push_back(edit_of(static_cast<std::int64_t>(i), j, std::move(c)));
  }
  for (std::size_t j = 0; j < edited.nodes.size(); ++j) {
    if (pairing.original_of[j] >= 0) continue;
    auto b = norm_b(nodes_b[j]);
    b.erase("index");
    edits.push_back(edit_of(-1, static_cast<std::int64_t>(j),
                            {"node", "added", "node", "new in the edited file", json(), b}));
  }
  return edits;
}

std::string shown_value(const nlohmann::ordered_json& value) {
  return shown(value);
}

FileDiff diff_files(const Model& original, const Model& edited) {
  FileDiff diff;
  diff.pairing = pair_nodes(original, edited);
  diff.edits = edits_between(original, edited, diff.pairing);
  return diff;
}

}  // namespace ainb::simulation
