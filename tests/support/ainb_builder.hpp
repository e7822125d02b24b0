#pragma once

// Lays out small, valid AINB files from a description, for tests and the bundled examples: the
// cases the real corpus lacks (0x408 blackboards, transitions, Fork/Join, random weights, child
// replacement...). It writes sections in the game's order with a deduplicated string pool. It is
// a test fixture, not the project's writer (writer/).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::test {

// A value as the builder writes it; the alternative must match the declared type.
using BuildValue = std::variant<std::int32_t, std::uint32_t, float, bool, std::string, Vec3f>;

struct BuildProperty {
  ParamType type = ParamType::Int;
  std::string name;
  BuildValue value = std::int32_t{0};
  std::uint32_t flags = 0;
  std::string class_name;  // pointer properties
};

struct BuildInput {
  ParamType type = ParamType::Int;
  std::string name;
  std::int16_t node = -1;
  std::int16_t output = 0;
  std::uint32_t flags = 0;
  BuildValue value = std::int32_t{0};
  std::string class_name;
};

struct BuildOutput {
  ParamType type = ParamType::Int;
  std::string name;
  bool is_output = false;
  std::string class_name;
};

// A plug: node index, then the name (or, for transitions, the transition index), then `extra`.
struct BuildPlug {
  PlugKind kind = PlugKind::Child;
  std::uint32_t node = 0;
  std::string name;
  std::uint32_t transition = 0;
  std::vector<std::uint8_t> extra;
  // If set, the string-pool offset of this string overwrites the u32 at entry offset 0xC (string
  // selector conditions, the F32 selector's default plug).
  std::optional<std::string> string_at_0xc;
};

struct BuildNode {
  NodeType type = NodeType::UserDefined;
  std::string name;
  std::uint8_t flags = 0;
  std::vector<BuildProperty> properties;
  std::vector<BuildInput> inputs;
  std::vector<BuildOutput> outputs;
  std::vector<BuildPlug> plugs;                 // any order; written grouped by kind
  std::vector<std::uint32_t> attachments;       // attachment record indices
  std::vector<std::uint16_t> queries;           // indices among query nodes
  std::optional<std::uint16_t> index_override;  // a wrong index field, for error tests
  // The GUID is made from the node's index, or this number (a node renumbered by an edit keeps
  // the GUID it had).
  std::optional<std::uint8_t> guid_from;
};

struct BuildBlackboardEntry {
  BlackboardType type = BlackboardType::S32;
  std::string name;
  BuildValue value = std::int32_t{0};
  std::string notes;
  std::uint8_t inherit = 0;
  std::optional<std::uint8_t> file_reference;
};

struct BuildAttachment {
  std::string name;
  std::vector<BuildProperty> properties;
};

struct BuildTransition {
  std::uint32_t word = 1;
  std::string command;  // type 0 only
};
// The word of a valid transition (type 1) taken right after the calculation (the top bit).
constexpr std::uint32_t kPostCalc = 0x80000001u;

// A transition plug to node `target`, of the file's transition `index`.
inline BuildPlug transition(std::uint32_t target, std::uint32_t index) {
  return BuildPlug{PlugKind::Transition, target, "", index};
}

// One entry of the multi-param array: an input with node index -100 - k and output index n reads
// entries k .. k + n - 1.
struct BuildMultiSource {
  std::int16_t node = -1;
  std::int16_t output = 0;
  std::uint32_t flags = 0;
};

struct BuildReplacement {
  std::uint8_t type = 0;
  std::uint16_t node = 0;
  std::uint16_t target = 0;
  std::uint16_t replacement = 0;
};

struct BuildCommand {
  std::string name;
  std::uint16_t root = 0;
  std::optional<std::uint16_t> secondary;
};

struct BuildModule {
  std::string path;
  std::string category = "AI";
  std::uint32_t count = 1;
};

struct BuildXLink {
  std::uint32_t node = 0;
  std::string slot;
  std::string action;
};

struct AinbSpec {
  std::uint32_t version = kVersion407;
  std::string file_name = "Test.root";
  std::string category = "AI";
  std::vector<BuildCommand> commands;
  std::vector<BuildNode> nodes;
  std::vector<BuildBlackboardEntry> blackboard;  // any order; written grouped by type
  std::vector<std::string> file_references;
  std::vector<BuildAttachment> attachments;
  std::vector<BuildTransition> transitions;
  std::vector<BuildMultiSource> multi_sources;
  std::vector<BuildReplacement> replacements;
  std::vector<BuildModule> modules;
  std::vector<BuildXLink> xlink_actions;
  std::vector<std::uint8_t> exb;  // a raw EXB section, if any
  std::uint32_t blackboard_id = 0x12345678;
};

std::vector<std::uint8_t> build(const AinbSpec& spec);
// The spec built and loaded as `<file_name>.ainb`.
std::shared_ptr<const Model> load_spec(const AinbSpec& spec);

// A Sequential (IsUpdateNextInFrame) of a Probe node, whose Bool output Flag a BoolSelector reads
// next: True leads to a Yes node, False to a No node. What a stub's declared output steers.
AinbSpec probe_steers_selector();

// Plug extras in their on-disk form.
std::vector<std::uint8_t> s32_condition(std::int32_t value, std::optional<std::uint16_t> bb = {});
std::vector<std::uint8_t> f32_condition(float min, float max,
                                        std::optional<std::uint16_t> min_bb = {},
                                        std::optional<std::uint16_t> max_bb = {});
std::vector<std::uint8_t> random_weight(float weight, std::optional<std::uint16_t> bb = {});

}  // namespace ainb::test
