#include "edits.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/writer/text_form.hpp"

namespace ainb::simulation {

namespace {

using json = nlohmann::ordered_json;

// GUIDs that occur once in the file, and where ("", a node without one, pairs nothing).
std::map<std::string, std::size_t> unique_guids(const std::vector<std::string>& guids) {
  std::map<std::string, std::size_t> at;
  std::set<std::string> repeated;
  for (std::size_t i = 0; i < guids.size(); ++i) {
    if (guids[i].empty()) continue;
    if (!at.emplace(guids[i], i).second) repeated.insert(guids[i]);
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

// The differences between two values, a line each, under `label` ("input Speed", "its plugs"):
// objects field by field, lists of one length item by item (an item by its name when it has
// one), an expression by its first differing instruction, anything else whole.
void describe_changes(const std::string& label, const json& a, const json& b,
                      std::vector<std::string>& out) {
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
      if (key == "expression" && x.is_object() && y.is_object() && x != y) {
        out.push_back(fmt::format("{}: {}", label, expression_change(x, y)));
      } else {
        // A parameter's stored value is the parameter's: "property Time is 2 ... 5".
        describe_changes(key == "value" || key == "default" ? label : label + " " + key, x, y, out);
      }
    }
    return;
  }
  const bool items =
      a.is_array() && b.is_array() && a.size() == b.size() &&
      std::any_of(a.begin(), a.end(), [](const json& x) { return x.is_structured(); });
  if (items) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      const auto name = a[i].is_object() ? a[i].value("name", "") : std::string();
      describe_changes(
          fmt::format("{} {}", label, name.empty() ? std::to_string(i) : "\"" + name + "\""), a[i],
          b[i], out);
    }
    return;
  }
  out.push_back(fmt::format("{} is {}", label, was_now(a, b)));
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
    } else {
      describe_changes(fmt::format("{} {}", kind, name), x, *y, out);
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
      describe_changes("its " + key, x, y, out);
    }
  }
}

}  // namespace

std::vector<std::string> node_guids(const Model& m) {
  std::vector<std::string> guids;
  guids.reserve(m.nodes.size());
  const Guid none{};
  for (const auto& n : m.nodes)
    guids.push_back(n.guid == none ? std::string() : n.guid.to_string());
  return guids;
}

NodePairing pair_guids(const std::vector<std::string>& original,
                       const std::vector<std::string>& edited) {
  NodePairing p;
  p.original_guids = original;
  p.edited_guids = edited;
  p.edited_of.assign(original.size(), -1);
  p.original_of.assign(edited.size(), -1);
  auto pair = [&](std::size_t i, std::size_t j) {
    p.edited_of[i] = static_cast<std::int64_t>(j);
    p.original_of[j] = static_cast<std::int64_t>(i);
  };
  // GUIDs given once in each file first.
  const auto in_original = unique_guids(original);
  for (const auto& [key, j] : unique_guids(edited)) {
    if (const auto i = in_original.find(key); i != in_original.end()) pair(i->second, j);
  }
  // A GUID given more than once (a node copied with its GUID, or a file that repeats GUIDs): its
  // nodes keep their order. As many on both sides pair in order; else each original node goes to
  // the edited node nearest where its neighbours moved (the shift of the nearest node before it
  // paired by a unique GUID), so the copy, not the node, is the new one. A copy next to its node
  // cannot be told from it by GUIDs: first_difference takes either as the node.
  std::map<std::string, std::vector<std::size_t>> in_a, in_b;
  for (std::size_t i = 0; i < original.size(); ++i) {
    if (p.edited_of[i] < 0 && !original[i].empty()) in_a[original[i]].push_back(i);
  }
  for (std::size_t j = 0; j < edited.size(); ++j) {
    if (p.original_of[j] < 0 && !edited[j].empty()) in_b[edited[j]].push_back(j);
  }
  const auto expected = [&](std::size_t i) {
    for (std::size_t k = i; k-- > 0;) {
      if (p.edited_of[k] >= 0)
        return static_cast<std::int64_t>(i) + p.edited_of[k] - static_cast<std::int64_t>(k);
    }
    return static_cast<std::int64_t>(i);
  };
  for (auto& [key, olds] : in_a) {
    const auto found = in_b.find(key);
    if (found == in_b.end()) continue;
    const auto& news = found->second;
    if (olds.size() == news.size()) {
      for (std::size_t k = 0; k < olds.size(); ++k)
        pair(olds[k], news[k]);
      continue;
    }
    std::size_t next = 0;  // the first edited candidate still free, in order
    for (std::size_t k = 0; k < olds.size() && next < news.size(); ++k) {
      // Leave enough candidates for the original nodes after this one.
      const auto left = olds.size() - k - 1;
      const auto last = news.size() > left ? news.size() - left : next + 1;
      const auto want = expected(olds[k]);
      const auto distance = [&](std::size_t c) {
        const auto v = static_cast<std::int64_t>(news[c]) - want;
        return v < 0 ? -v : v;
      };
      auto best = next;
      for (auto c = next + 1; c < last; ++c) {
        if (distance(c) < distance(best)) best = c;
      }
      pair(olds[k], news[best]);
      next = best + 1;
    }
  }
  // The rest by index, where neither side's node there has a partner.
  for (std::size_t i = 0; i < original.size() && i < edited.size(); ++i) {
    if (p.edited_of[i] < 0 && p.original_of[i] < 0) pair(i, i);
  }
  return p;
}

NodePairing pair_nodes(const Model& original, const Model& edited) {
  return pair_guids(node_guids(original), node_guids(edited));
}

std::map<std::string, const Model*> actor_files(const runtime::Graph& graph) {
  std::map<std::string, const Model*> files;
  std::vector<const runtime::Graph*> pending{&graph};
  while (!pending.empty()) {
    const auto* g = pending.back();
    pending.pop_back();
    if (!files.emplace(g->file_name(), &g->model()).second) continue;
    for (const auto* module : g->module_graphs())
      pending.push_back(module);
  }
  return files;
}

std::vector<Edit> edits_between(const Model& original, const Model& edited,
                                const NodePairing& pairing) {
  const auto text_a = writer::to_text(original), text_b = writer::to_text(edited);
  const Normaliser norm_a(text_a, pairing, false), norm_b(text_b, pairing, true);
  std::vector<Edit> edits;

  // The file: its commands (by name), blackboard entries (by type and name, and their order,
  // which expressions that read entries by index see), other fields.
  {
    std::vector<std::string> found;
    compare_entries(norm_a(text_a.value("commands", json::array())),
                    norm_b(text_b.value("commands", json::array())), "command", "", found);
    const auto bb_a = norm_a(text_a.value("blackboard", json::object()));
    const auto bb_b = norm_b(text_b.value("blackboard", json::object()));
    compare_named(bb_a, bb_b, "blackboard entry", found);
    for (const auto& [type, list] : bb_a.items()) {
      if (!bb_b.contains(type)) continue;
      auto names = [](const json& entries) {
        std::vector<std::string> out;
        for (const auto& e : entries)
          out.push_back(e.value("name", ""));
        return out;
      };
      const auto before = names(list), after = names(bb_b[type]);
      if (before != after &&
          std::is_permutation(before.begin(), before.end(), after.begin(), after.end())) {
        found.push_back(fmt::format(
            "the {} blackboard entries are in another order (an expression that reads entries "
            "by index, as GetBBCode* functions do, now reads others)",
            type));
      }
    }
    for (const auto* key : {"category", "blackboard_files", "modules", "replacements"}) {
      describe_changes(fmt::format("the file's {}", key), norm_a(text_a.value(key, json())),
                       norm_b(text_b.value(key, json())), found);
    }
    for (auto& what : found)
      edits.push_back({{}, -1, -1, std::move(what)});
  }

  // The nodes, pair by pair, then the unpaired ones.
  const auto& nodes_a = text_a["nodes"];
  const auto& nodes_b = text_b["nodes"];
  for (std::size_t i = 0; i < original.nodes.size(); ++i) {
    const auto j = pairing.edited_of[i];
    if (j < 0) {
      edits.push_back({{}, static_cast<std::int64_t>(i), -1, "deleted in the edited file"});
      continue;
    }
    auto a = norm_a(nodes_a[i]);
    auto b = norm_b(nodes_b[static_cast<std::size_t>(j)]);
    a.erase("index");
    b.erase("index");
    std::vector<std::string> found;
    compare_node(a, b, found);
    for (auto& what : found)
      edits.push_back({{}, static_cast<std::int64_t>(i), j, std::move(what)});
  }
  for (std::size_t j = 0; j < edited.nodes.size(); ++j) {
    if (pairing.original_of[j] < 0)
      edits.push_back({{}, -1, static_cast<std::int64_t>(j), "new in the edited file"});
  }
  return edits;
}

}  // namespace ainb::simulation
