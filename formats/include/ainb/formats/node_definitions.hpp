#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ainb/load_error.hpp"

namespace ainb::formats {

class ZstdDictionaries;
namespace byml {
class Value;
}

// One declared input (or output) of a user node class. `type` is Bool, Int, Float, String, Vector3,
// or the C++ type name of a pointer/enum input (e.g. "const sead::Matrix33f").
struct NodeInputDefinition {
  std::string name;
  std::string type;
  // Bool: bool; Int: int64; Float: double; Vector3: three doubles; String and pointer types: the
  // string the dump gives (empty for most pointers).
  std::variant<bool, std::int64_t, double, std::string, std::array<double, 3>> default_value;
  friend bool operator==(const NodeInputDefinition&, const NodeInputDefinition&) = default;
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
  friend bool operator==(const NodeClassDefinition&, const NodeClassDefinition&) = default;
};

// The user node classes a game declares: the game's node-definition tables, one BYML file per
// category (`{AI,Logic,Sequence}/NodeDefinition/Node.Product.<N>.aidefn.byml.zs`: {class:
// {"Inputs": {type: {name: {"default": v}}}, "Tags": [...]}}), or the JSON dump of all three
// (`NodeDefinition.json`: {category: {class: ...}}). They list no outputs; a class may carry an
// "Outputs" object in the layout of "Inputs" (supplementary files, see merge()).
class NodeCatalogue {
 public:
  using Definition = NodeClassDefinition;
  // Throws LoadError (section "node definitions") for unreadable JSON or an unexpected shape.
  static NodeCatalogue from_json(std::string_view text, std::string_view file_name);
  static NodeCatalogue from_json_file(const std::filesystem::path& path);
  // One category's table, the root of an aidefn file. A default is read as the JSON's would be;
  // numbers may be any of BYML's integer and float types, a Float default also a string, a
  // Vector3 default an array of three numbers or a hash {X, Y, Z}. Throws LoadError (section
  // "node definitions") for an unexpected shape or a node type the tables do not use.
  static NodeCatalogue from_byml(const byml::Value& root, std::string_view category,
                                 std::string_view file_name);
  static NodeCatalogue from_byml(std::span<const std::uint8_t> bytes, std::string_view category,
                                 std::string_view file_name);
  // A JSON dump, a BYML table or a zstd-compressed BYML table, told by the content (zstd frames
  // are read with the dictionary the frame names). A BYML table's category is `category` when
  // given, else category_of(path); neither is an error naming the file and the ways to give one.
  static NodeCatalogue from_file(const std::filesystem::path& path,
                                 const ZstdDictionaries* dictionaries = nullptr,
                                 std::string_view category = {});
  // `--defs` of the ainb commands: "PATH", or "CATEGORY=PATH" (AI, Logic or Sequence) to name a
  // BYML table's category. A prefix before '=' that is not a category is an error unless the
  // whole argument names an existing file.
  static NodeCatalogue from_spec(std::string_view spec,
                                 const ZstdDictionaries* dictionaries = nullptr);
  // The category a BYML table's path tells: its romfs folder (`AI/NodeDefinition/FILE`), else
  // the first dot-separated part of its name (`Logic.Node.Product.100.aidefn.byml.zs`); empty
  // when neither is AI, Logic or Sequence.
  static std::string category_of(const std::filesystem::path& path);

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
  struct Reader;  // node_definitions.cpp: the JSON and BYML forms into classes_
  friend struct Reader;

  std::vector<NodeClassDefinition> classes_;
  std::unordered_map<std::string, std::size_t> index_;  // "category/name" -> position
};

}  // namespace ainb::formats
