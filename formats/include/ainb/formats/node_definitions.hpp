#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ainb/load_error.hpp"

namespace ainb::formats {

// One declared input (or output) of a user node class. `type` is Bool, Int, Float, String, Vector3,
// or the C++ type name of a pointer/enum input (e.g. "const sead::Matrix33f").
struct NodeInputDefinition {
  std::string name;
  std::string type;
  // Bool: bool; Int: int64; Float: double; Vector3: three doubles; String and pointer types: the
  // string the dump gives (empty for most pointers).
  std::variant<bool, std::int64_t, double, std::string, std::array<double, 3>> default_value;
};

struct NodeClassDefinition {
  std::string name;
  std::string category;                     // AI, Logic or Sequence
  std::vector<std::string> tags;            // Query, Execute, OneShot, EventNode, Selector, ...
  std::vector<NodeInputDefinition> inputs;  // grouped by type, in the dump's order
  // Declared outputs with their defaults: TotK's dump has none; a supplementary file in the same
  // shape with an "Outputs" object (same layout as "Inputs") supplies them.
  std::vector<NodeInputDefinition> outputs;
  bool has_tag(std::string_view tag) const noexcept;
  const NodeInputDefinition* find_input(std::string_view key) const noexcept;
  const NodeInputDefinition* find_output(std::string_view key) const noexcept;
};

// The user node classes a game declares, read from the JSON dump of its node-definition tables
// (`NodeDefinition.json`: {category: {class: {"Inputs": {type: {name: {"default": v}}},
// "Tags": [...]}}}). The dump lists no outputs; a class may carry an "Outputs" object in the
// layout of "Inputs" (supplementary files, see merge()).
class NodeCatalogue {
 public:
  using Definition = NodeClassDefinition;
  // Throws LoadError (section "node definitions") for unreadable JSON or an unexpected shape.
  static NodeCatalogue from_json(std::string_view text, std::string_view file_name);
  static NodeCatalogue from_json_file(const std::filesystem::path& path);

  const std::vector<NodeClassDefinition>& classes() const noexcept { return classes_; }
  // The class of this name in this category, or nullptr.
  const NodeClassDefinition* find(std::string_view category, std::string_view name) const;
  std::size_t count(std::string_view category) const;
  // The categories declaring a class of this name, in catalogue order (for "wrong category").
  std::vector<std::string> categories_of(std::string_view name) const;
  // Adds another catalogue's classes: a class this one lacks is added; for a class both have,
  // the tags, inputs and outputs this one lacks (by name) are added. Used to complete the dump
  // with supplementary files (e.g. outputs and their defaults).
  void merge(const NodeCatalogue& other);

 private:
  std::vector<NodeClassDefinition> classes_;
  std::unordered_map<std::string, std::size_t> index_;  // "category/name" -> position
};

}  // namespace ainb::formats
