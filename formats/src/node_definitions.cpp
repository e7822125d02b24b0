#include "ainb/formats/node_definitions.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/formats/sarc.hpp"

namespace ainb::formats {

namespace {

constexpr std::string_view kSection = "node definitions";

[[noreturn]] void fail(std::string_view file, std::string reason) {
  throw LoadError(std::string(file), std::string(kSection), 0, std::move(reason));
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

NodeCatalogue NodeCatalogue::from_json(std::string_view text, std::string_view file_name) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw LoadError(std::string(file_name), std::string(kSection), e.byte, e.what());
  } catch (const nlohmann::json::exception& e) {  // a number past double's range
    throw LoadError(std::string(file_name), std::string(kSection), 0, e.what());
  }
  if (!root.is_object()) fail(file_name, "the top level is not an object of categories");
  NodeCatalogue catalogue;
  for (const auto& [category, classes] : root.items()) {
    if (!classes.is_object())
      fail(file_name, fmt::format("category {} is not an object", category));
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
  return catalogue;
}

NodeCatalogue NodeCatalogue::from_json_file(const std::filesystem::path& path) {
  const auto bytes = read_binary_file(path);
  return from_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                   path.string());
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
