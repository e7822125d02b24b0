#include "ainb/formats/node_definitions.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/formats/byml.hpp"
#include "ainb/formats/sarc.hpp"
#include "ainb/formats/zstd.hpp"

namespace ainb::formats {

namespace {

constexpr std::string_view kDefinitionsSection = "node definitions";
constexpr std::array<std::string_view, 3> kCategories{"AI", "Logic", "Sequence"};

bool is_category(std::string_view text) {
  return std::find(kCategories.begin(), kCategories.end(), text) != kCategories.end();
}

[[noreturn]] void fail(std::string_view file, std::string reason) {
  throw LoadError(std::string(file), std::string(kDefinitionsSection), 0, std::move(reason));
}

// One input or output (`kind` says which, for messages) and its default.
NodeInputDefinition parameter(std::string_view kind, const std::string& type,
                              const std::string& name, const nlohmann::json& entry,
                              std::string_view file, const std::string& where) {
  if (!entry.is_object() || !entry.contains("default")) {
    fail(file, fmt::format("{}: {} {} has no \"default\"", where, kind, name));
  }
  const auto& value = entry["default"];
  NodeInputDefinition result{name, type, std::string()};
  auto wrong = [&] {
    fail(file, fmt::format("{}: {} {} of type {}: unexpected default {}", where, kind, name, type,
                           value.dump()));
  };
  if (type == "Bool") {
    if (!value.is_boolean()) wrong();
    result.default_value = value.get<bool>();
  } else if (type == "Int") {
    if (!value.is_number_integer()) wrong();
    result.default_value = value.get<std::int64_t>();
  } else if (type == "Float") {
    // The dump writes float defaults as strings ("0.5"), a few as "" (no default given: 0, as a
    // zero-initialised parameter would be); numbers are accepted too.
    if (value.is_number()) {
      result.default_value = value.get<double>();
    } else if (value.is_string()) {
      const auto text = value.get<std::string>();
      if (text.empty()) {
        result.default_value = 0.0;
        return result;
      }
      char* end = nullptr;
      const double number = std::strtod(text.c_str(), &end);
      if (end != text.c_str() + text.size()) wrong();
      result.default_value = number;
    } else {
      wrong();
    }
  } else if (type == "Vector3") {
    // The dump's [x, y, z]; a BYML table may also give a hash {X, Y, Z}, as vectors are elsewhere.
    if (value.is_object() && value.size() == 3 && value.contains("X") && value.contains("Y") &&
        value.contains("Z")) {
      const std::array<const nlohmann::json*, 3> xyz{&value["X"], &value["Y"], &value["Z"]};
      if (!std::all_of(xyz.begin(), xyz.end(), [](const auto* v) { return v->is_number(); })) {
        wrong();
      }
      result.default_value = std::array<double, 3>{xyz[0]->get<double>(), xyz[1]->get<double>(),
                                                   xyz[2]->get<double>()};
      return result;
    }
    if (!value.is_array() || value.size() != 3 ||
        !std::all_of(value.begin(), value.end(), [](const auto& v) { return v.is_number(); })) {
      wrong();
    }
    result.default_value = std::array<double, 3>{value[0].get<double>(), value[1].get<double>(),
                                                 value[2].get<double>()};
  } else {
    if (!value.is_string()) wrong();
    result.default_value = value.get<std::string>();
  }
  return result;
}

}  // namespace

bool NodeClassDefinition::has_tag(std::string_view tag) const noexcept {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

namespace {
const NodeInputDefinition* named(const std::vector<NodeInputDefinition>& list,
                                 std::string_view name) noexcept {
  const auto it =
      std::find_if(list.begin(), list.end(), [&](const auto& d) { return d.name == name; });
  return it == list.end() ? nullptr : &*it;
}
}  // namespace

const NodeInputDefinition* NodeClassDefinition::find_input(std::string_view key) const noexcept {
  return named(inputs, key);
}

const NodeInputDefinition* NodeClassDefinition::find_output(std::string_view key) const noexcept {
  return named(outputs, key);
}

std::vector<std::string> NodeCatalogue::categories_of(std::string_view name) const {
  std::vector<std::string> result;
  for (const auto& c : classes_) {
    if (c.name == name) result.push_back(c.category);
  }
  return result;
}

void NodeCatalogue::merge(const NodeCatalogue& other) {
  for (const auto& theirs : other.classes_) {
    const auto key = theirs.category + "/" + theirs.name;
    const auto found = index_.find(key);
    if (found == index_.end()) {
      index_.emplace(key, classes_.size());
      classes_.push_back(theirs);
      continue;
    }
    auto& ours = classes_[found->second];
    for (const auto& tag : theirs.tags) {
      if (!ours.has_tag(tag)) ours.tags.push_back(tag);
    }
    for (const auto& in : theirs.inputs) {
      if (!ours.find_input(in.name)) ours.inputs.push_back(in);
    }
    for (const auto& out : theirs.outputs) {
      if (!ours.find_output(out.name)) ours.outputs.push_back(out);
    }
  }
}

// One category's classes from {class: {"Inputs", "Tags", "Outputs"}}. BYML tables are read
// through their JSON equivalent, so both forms follow the same rules and give the same messages.
struct NodeCatalogue::Reader {
  static void add_category(NodeCatalogue& catalogue, const std::string& category,
                           const nlohmann::json& classes, std::string_view file_name);
};

void NodeCatalogue::Reader::add_category(NodeCatalogue& catalogue, const std::string& category,
                                         const nlohmann::json& classes,
                                         std::string_view file_name) {
  if (!classes.is_object()) fail(file_name, fmt::format("category {} is not an object", category));
  for (const auto& [name, body] : classes.items()) {
    const auto where = category + "/" + name;
    if (!body.is_object()) fail(file_name, fmt::format("{} is not an object", where));
    NodeClassDefinition definition{name, category, {}, {}, {}};
    if (const auto tags = body.find("Tags"); tags != body.end()) {
      if (!tags->is_array()) fail(file_name, fmt::format("{}: \"Tags\" is not a list", where));
      for (const auto& tag : *tags) {
        if (!tag.is_string()) fail(file_name, fmt::format("{}: a tag is not a string", where));
        definition.tags.push_back(tag.get<std::string>());
      }
    }
    for (const auto* key : {"Inputs", "Outputs"}) {
      const auto found = body.find(key);
      if (found == body.end()) continue;
      const bool is_input = std::string_view(key) == "Inputs";
      if (!found->is_object())
        fail(file_name, fmt::format("{}: \"{}\" is not an object", where, key));
      for (const auto& [type, parameters] : found->items()) {
        if (!parameters.is_object()) {
          fail(file_name, fmt::format("{}: {} of type {} are not an object", where,
                                      is_input ? "inputs" : "outputs", type));
        }
        for (const auto& [parameter_name, entry] : parameters.items()) {
          (is_input ? definition.inputs : definition.outputs)
              .push_back(parameter(is_input ? "input" : "output", type, parameter_name, entry,
                                   file_name, where));
        }
      }
    }
    catalogue.index_.emplace(where, catalogue.classes_.size());
    catalogue.classes_.push_back(std::move(definition));
  }
}

NodeCatalogue NodeCatalogue::from_json(std::string_view text, std::string_view file_name) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw LoadError(std::string(file_name), std::string(kDefinitionsSection), e.byte, e.what());
  } catch (const nlohmann::json::exception& e) {  // a number past double's range
    throw LoadError(std::string(file_name), std::string(kDefinitionsSection), 0, e.what());
  }
  if (!root.is_object()) fail(file_name, "the top level is not an object of categories");
  NodeCatalogue catalogue;
  for (const auto& [category, classes] : root.items())
    Reader::add_category(catalogue, category, classes, file_name);
  return catalogue;
}

NodeCatalogue NodeCatalogue::from_json_file(const std::filesystem::path& path) {
  const auto bytes = read_binary_file(path);
  return from_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                   path.string());
}

namespace {

// A BYML value as the JSON dump would hold it, so that one set of rules reads both. `where` names
// the value in messages ("AI/Class/Inputs/Int").
nlohmann::json to_json(const byml::Value& value, std::string_view file, const std::string& where) {
  using Type = byml::Value::Type;
  switch (value.type()) {
    case Type::Null:
      return nullptr;
    case Type::Bool:
      return value.as_bool();
    case Type::Int:
      return value.as_int();
    case Type::UInt:
      return value.as_uint();
    case Type::Int64:
      return value.as_int64();
    case Type::UInt64:
      return value.as_uint64();
    case Type::Float:
      return static_cast<double>(value.as_float());
    case Type::Double:
      return value.as_double();
    case Type::String:
      return value.as_string();
    case Type::Array: {
      auto items = nlohmann::json::array();
      for (std::size_t i = 0; i < value.as_array().size(); ++i)
        items.push_back(to_json(value.as_array()[i], file, fmt::format("{}/{}", where, i)));
      return items;
    }
    case Type::Hash: {
      auto object = nlohmann::json::object();
      for (const auto& [key, item] : value.as_hash())
        object[key] = to_json(item, file, where + "/" + key);
      return object;
    }
    default:
      fail(file, fmt::format("{}: a node of type {}, which node definitions do not use", where,
                             byml::type_name(value.type())));
  }
}

}  // namespace

NodeCatalogue NodeCatalogue::from_byml(const byml::Value& root, std::string_view category,
                                       std::string_view file_name) {
  if (root.type() != byml::Value::Type::Hash) {
    fail(file_name,
         fmt::format("the root is {}, expected a hash of node classes (class: "
                     "{{\"Inputs\": ..., \"Tags\": [...]}})",
                     root.is_null() ? std::string("missing (an empty document)")
                                    : fmt::format("of type {}", byml::type_name(root.type()))));
  }
  const std::string prefix(category);
  auto classes = nlohmann::json::object();
  for (const auto& [name, body] : root.as_hash())
    classes[name] = to_json(body, file_name, prefix + "/" + name);
  NodeCatalogue catalogue;
  Reader::add_category(catalogue, prefix, classes, file_name);
  return catalogue;
}

NodeCatalogue NodeCatalogue::from_byml(std::span<const std::uint8_t> bytes,
                                       std::string_view category, std::string_view file_name) {
  return from_byml(byml::read(bytes, file_name).root, category, file_name);
}

NodeCatalogue NodeCatalogue::from_file(const std::filesystem::path& path,
                                       const ZstdDictionaries* dictionaries,
                                       std::string_view category) {
  const auto name = path.string();
  if (!category.empty() && !is_category(category)) {
    fail(name, fmt::format("\"{}\" is not a category (AI, Logic or Sequence)", category));
  }
  auto bytes = read_binary_file(path);
  const bool compressed = is_zstd(bytes);
  if (compressed) bytes = zstd_decompress(bytes, name, dictionaries);
  if (bytes.size() >= 2 &&
      ((bytes[0] == 'B' && bytes[1] == 'Y') || (bytes[0] == 'Y' && bytes[1] == 'B'))) {
    const auto table_category = category.empty() ? category_of(path) : std::string(category);
    if (table_category.empty()) {
      fail(name,
           "a BYML node-definition table holds one category, and neither its folder nor its "
           "name tells which: give it as AI=PATH, Logic=PATH or Sequence=PATH, keep it in its "
           "romfs folder (AI/NodeDefinition/), or start its name with the category "
           "(AI.Node.Product.120.aidefn.byml.zs)");
    }
    return from_byml(bytes, table_category, name);
  }
  if (compressed || name.ends_with(".byml") || name.ends_with(".zs")) {
    fail(name, fmt::format("not a BYML file (the {}data do not start with \"BY\" or \"YB\")",
                           compressed ? "decompressed " : ""));
  }
  if (!category.empty()) {
    fail(name, fmt::format("{}= gives the category of a BYML table; a JSON dump names its own",
                           category));
  }
  return from_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                   name);
}

NodeCatalogue NodeCatalogue::from_spec(std::string_view spec,
                                       const ZstdDictionaries* dictionaries) {
  const auto equals = spec.find('=');
  if (equals != std::string_view::npos && equals > 0) {
    const auto prefix = spec.substr(0, equals);
    if (is_category(prefix))
      return from_file(std::filesystem::path(spec.substr(equals + 1)), dictionaries, prefix);
    std::error_code error;
    if (prefix.find_first_of("/\\") == std::string_view::npos &&
        !std::filesystem::exists(std::filesystem::path(spec), error)) {
      fail(spec, fmt::format("\"{}\" is not a category (AI, Logic or Sequence): a BYML table's "
                             "category is given as CATEGORY=PATH",
                             prefix));
    }
  }
  return from_file(std::filesystem::path(spec), dictionaries);
}

std::string NodeCatalogue::category_of(const std::filesystem::path& path) {
  std::error_code error;
  auto full = std::filesystem::absolute(path, error);
  if (error) full = path;
  const auto folder = full.lexically_normal().parent_path();
  const auto above = folder.parent_path().filename().string();
  if (folder.filename() == "NodeDefinition" && is_category(above)) return above;
  const auto name = path.filename().string();
  const auto dot = name.find('.');
  if (dot != std::string::npos && is_category(std::string_view(name).substr(0, dot))) {
    return name.substr(0, dot);
  }
  return {};
}

const NodeClassDefinition* NodeCatalogue::find(std::string_view category,
                                               std::string_view name) const {
  const auto found = index_.find(std::string(category) + "/" + std::string(name));
  return found == index_.end() ? nullptr : &classes_[found->second];
}

std::size_t NodeCatalogue::count(std::string_view category) const {
  return static_cast<std::size_t>(std::count_if(
      classes_.begin(), classes_.end(), [&](const auto& c) { return c.category == category; }));
}

}  // namespace ainb::formats
