#pragma once

// The validated, immutable model of one AINB file. Produced only by ainb::load (loader.hpp).
//
// The model owns the file's bytes; every string in it is a view into them. Records are kept in
// flat arrays in file order and refer to each other by index, exactly as the file does, and every
// such index has been checked by the loader: a Node's parameter ranges lie inside the parameter
// arrays, a plug's node index names a node, a blackboard index names an entry of the right type,
// and so on. Code that walks a model never needs to bounds-check it again.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "ainb/exb/section.hpp"

namespace ainb {

inline constexpr std::uint32_t kVersion404 = 0x404;  // Splatoon 3, Switch Sports
inline constexpr std::uint32_t kVersion407 = 0x407;  // Tears of the Kingdom, Wonder
inline constexpr std::uint32_t kVersion408 = 0x408;  // later titles: adds the U32 blackboard type

// A 16-byte GUID as stored: u32, u16, u16 little endian, then 8 bytes in stored order.
struct Guid {
  std::array<std::uint8_t, 16> bytes{};
  // Canonical lowercase 8-4-4-4-12 form, zero-padded.
  std::string to_string() const;
  friend bool operator==(const Guid&, const Guid&) = default;
};

// What a node type is, for the questions asked of every type rather than of one.
enum class NodeKind : std::uint8_t {
  User,          // UserDefined: a class the host registers, or a stub
  Composite,     // a built-in whose Update is a loop over its children: Sequential, Simultaneous,
                 // the selectors
  Element,       // the other built-ins
  ModuleInput,   // Element_ModuleIF_Input_*: a module's input, read from its caller
  ModuleOutput,  // Element_ModuleIF_Output_*: a module's output, given to its caller
  ModuleChild,   // Element_ModuleIF_Child: runs the caller's child plug
};

// How a node chooses among its child plugs: it does not (it runs them all, in turn, or is a user
// class, which decides in its own code), by its `Input` against each plug's condition (the S32,
// F32, String and Bool selectors), or by a weighted draw from the instance's generator (the
// Random selector). Coverage counts the branches of both kinds of choice; a scenario steers the
// Input ones by values and the draws only by the seed (docs/semantics.md, "Built-in nodes").
enum class NodeChoice : std::uint8_t { None, Input, Draw };

// The node types, one row each: enumerator, value, official name, kind, choice. The rows build the
// enum, node_type_name, node_type_named, is_known_node_type, node_kind and node_choice.
#define AINB_NODE_TYPES(X)                                                           \
  X(UserDefined, 0, "UserDefined", User, None)                                       \
  X(S32Selector, 1, "Element_S32Selector", Composite, Input)                         \
  X(Sequential, 2, "Element_Sequential", Composite, None)                            \
  X(Simultaneous, 3, "Element_Simultaneous", Composite, None)                        \
  X(F32Selector, 4, "Element_F32Selector", Composite, Input)                         \
  X(StringSelector, 5, "Element_StringSelector", Composite, Input)                   \
  X(RandomSelector, 6, "Element_RandomSelector", Composite, Draw)                    \
  X(BoolSelector, 7, "Element_BoolSelector", Composite, Input)                       \
  X(Fork, 8, "Element_Fork", Element, None)                                          \
  X(Join, 9, "Element_Join", Element, None)                                          \
  X(Alert, 10, "Element_Alert", Element, None)                                       \
  X(Expression, 20, "Element_Expression", Element, None)                             \
  X(ModuleIFInputS32, 100, "Element_ModuleIF_Input_S32", ModuleInput, None)          \
  X(ModuleIFInputF32, 101, "Element_ModuleIF_Input_F32", ModuleInput, None)          \
  X(ModuleIFInputVec3f, 102, "Element_ModuleIF_Input_Vec3f", ModuleInput, None)      \
  X(ModuleIFInputString, 103, "Element_ModuleIF_Input_String", ModuleInput, None)    \
  X(ModuleIFInputBool, 104, "Element_ModuleIF_Input_Bool", ModuleInput, None)        \
  X(ModuleIFInputPtr, 105, "Element_ModuleIF_Input_Ptr", ModuleInput, None)          \
  X(ModuleIFOutputS32, 200, "Element_ModuleIF_Output_S32", ModuleOutput, None)       \
  X(ModuleIFOutputF32, 201, "Element_ModuleIF_Output_F32", ModuleOutput, None)       \
  X(ModuleIFOutputVec3f, 202, "Element_ModuleIF_Output_Vec3f", ModuleOutput, None)   \
  X(ModuleIFOutputString, 203, "Element_ModuleIF_Output_String", ModuleOutput, None) \
  X(ModuleIFOutputBool, 204, "Element_ModuleIF_Output_Bool", ModuleOutput, None)     \
  X(ModuleIFOutputPtr, 205, "Element_ModuleIF_Output_Ptr", ModuleOutput, None)       \
  X(ModuleIFChild, 300, "Element_ModuleIF_Child", ModuleChild, None)                 \
  X(StateEnd, 400, "Element_StateEnd", Element, None)                                \
  X(SplitTiming, 500, "Element_SplitTiming", Element, None)

enum class NodeType : std::uint16_t {
#define AINB_NODE_TYPE_ENUM(name, value, text, kind, choice) name = value,
  AINB_NODE_TYPES(AINB_NODE_TYPE_ENUM)
#undef AINB_NODE_TYPE_ENUM
};
// The official name ("UserDefined", "Element_S32Selector", ...); empty for an unknown value.
std::string_view node_type_name(NodeType type);
// The type of an official name; none for a name no row has.
std::optional<NodeType> node_type_named(std::string_view name);
bool is_known_node_type(std::uint16_t raw);
constexpr NodeKind node_kind(NodeType type) {
  switch (type) {
#define AINB_NODE_TYPE_KIND(name, value, text, kind, choice) \
  case NodeType::name:                                       \
    return NodeKind::kind;
    AINB_NODE_TYPES(AINB_NODE_TYPE_KIND)
#undef AINB_NODE_TYPE_KIND
  }
  return NodeKind::Element;
}
constexpr NodeChoice node_choice(NodeType type) {
  switch (type) {
#define AINB_NODE_TYPE_CHOICE(name, value, text, kind, choice) \
  case NodeType::name:                                         \
    return NodeChoice::choice;
    AINB_NODE_TYPES(AINB_NODE_TYPE_CHOICE)
#undef AINB_NODE_TYPE_CHOICE
  }
  return NodeChoice::None;
}
// The selectors: the built-ins that run one child plug of their choosing (coverage counts their
// plugs as branches, the graph labels them with their conditions).
constexpr bool is_selector(NodeType type) {
  return node_choice(type) != NodeChoice::None;
}

// Node flag bits (byte 0x06 of a node entry).
namespace node_flags {
inline constexpr std::uint8_t kIsQuery = 0x01;
inline constexpr std::uint8_t kIsModule = 0x02;
inline constexpr std::uint8_t kIsRoot = 0x04;  // "Is Resident Node" in older documents
inline constexpr std::uint8_t kMultiParamType2 = 0x08;
}  // namespace node_flags

// The six value types of properties, inputs and outputs, in the order the file groups them.
enum class ParamType : std::uint8_t { Int, Bool, Float, String, Vec3f, Pointer };
inline constexpr std::size_t kParamTypeCount = 6;
std::string_view param_type_name(ParamType type);  // "int", "bool", "float", "string", ...
// Bytes of one property entry (name, flags, value: 0x0C, a vec3f 0x14; a pointer's name, class,
// flags: 0x0C) and one input entry (name, source, value: 0x10, a vec3f 0x18; a pointer's name,
// class, source, u32: 0x14) of `type`.
std::uint32_t property_entry_size(ParamType type);
std::uint32_t input_entry_size(ParamType type);

// Blackboard value types in file order. U32 exists only from version 0x408 on.
enum class BlackboardType : std::uint8_t { String, S32, U32, F32, Bool, Vec3f, Pointer };
inline constexpr std::size_t kBlackboardTypeCount = 7;
std::string_view blackboard_type_name(BlackboardType type);

struct Vec3f {
  float x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3f&, const Vec3f&) = default;
};

// A pointer slot stores no object; `raw` is the u32 the file holds there (0 in valid files).
struct PointerValue {
  std::uint32_t raw = 0;
  friend bool operator==(const PointerValue&, const PointerValue&) = default;
};

// A stored parameter or blackboard value. The alternative matches the declared type: Int -> int32,
// Bool -> bool, Float -> float, String -> string_view, Vec3f -> Vec3f, Pointer -> PointerValue,
// blackboard U32 -> uint32.
using Value =
    std::variant<std::int32_t, bool, float, std::string_view, Vec3f, PointerValue, std::uint32_t>;

enum class VectorComponent : std::uint8_t { X, Y, Z };

// The flags word of a property, an input or a multi-source entry: where the value really comes
// from. Bits 0-15 index; all of 0xC2000000 set -> EXB function; any of them -> blackboard;
// bits 26-27 choose a vec3f component; bits 23 and 24 are flags of unknown meaning.
struct ParamFlags {
  enum class Source : std::uint8_t { Constant, Blackboard, Expression };
  static constexpr std::uint32_t kSourceMask = 0xC2000000;

  std::uint32_t raw = 0;

  Source source() const {
    if ((raw & kSourceMask) == kSourceMask) return Source::Expression;
    return (raw & kSourceMask) != 0 ? Source::Blackboard : Source::Constant;
  }
  std::uint16_t index() const { return static_cast<std::uint16_t>(raw & 0xFFFF); }
  // The vec3f component a float parameter reads from a vec3f blackboard entry, if any.
  std::optional<VectorComponent> component() const {
    const auto bits = (raw >> 26) & 3;
    if (source() != Source::Blackboard || bits == 0) return std::nullopt;
    return static_cast<VectorComponent>(bits - 1);
  }
  bool bit23() const { return (raw & 0x00800000) != 0; }  // "Pulse TLS" / "Uses Default"
  bool bit24() const { return (raw & 0x01000000) != 0; }  // "Is Output" / "Set Pointer Flag"
};

// The vec3f component a blackboard read of a parameter of `type` selects. Only floats select one;
// on other types the bits mean nothing (the entry has the parameter's own type).
std::optional<VectorComponent> blackboard_component(ParamType type, const ParamFlags& flags);
// The blackboard type a parameter of `type` reads when its flags point at the blackboard (a float
// with a vec3f component reads a Vec3f entry).
BlackboardType blackboard_type_for(ParamType type, const ParamFlags& flags);
// The parameter type an entry of `type` is read and written as (U32 as Int).
ParamType param_type_of(BlackboardType type);
// The blackboard sections' type order in a file of `version` (0x408 adds U32 after S32), and
// the bytes of one stored default value of `type` (pointers store none).
std::span<const BlackboardType> blackboard_types(std::uint32_t version);
std::uint32_t blackboard_value_size(BlackboardType type);
// The parameter type an EXB value type is read and written as (UInt as Int); nullopt for none.
std::optional<ParamType> param_type_of(exb::DataType type);

// A parameter value as the EXB machine takes it, and back: the one conversion between the two
// (the runtime's expressions, scenarios' user functions). Model strings are NUL-terminated views
// into the file; a pointer has no EXB value. Inline: the runtime converts at every evaluation.
inline exb::Value exb_value(const Value& v) {
  return std::visit(
      [](const auto& x) -> exb::Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Vec3f>) {
          return exb::Vec3{x.x, x.y, x.z};
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          return x.data();
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return std::monostate{};
        } else {
          return x;
        }
      },
      v);
}
// An EXB value as a parameter value; `fallback` where it has none. A null string reads as "".
inline Value model_value(const exb::Value& v, const Value& fallback) {
  return std::visit(
      [&](const auto& x) -> Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, exb::Vec3>) {
          return Vec3f{x.x, x.y, x.z};
        } else if constexpr (std::is_same_v<T, const char*>) {
          return std::string_view(x != nullptr ? x : "");
        } else if constexpr (std::is_same_v<T, std::monostate>) {
          return fallback;
        } else {
          return x;
        }
      },
      v);
}

// [base, base + count) in one of the model's arrays; checked by the loader.
struct Range {
  std::uint32_t base = 0;
  std::uint32_t count = 0;
  std::uint32_t end() const { return base + count; }
};

// A property: a per-node constant (or a blackboard / expression reference).
struct Property {
  std::string_view name;
  ParamType type = ParamType::Int;
  std::string_view class_name;  // pointer properties only
  ParamFlags flags;
  Value value;
  std::uint32_t offset = 0;  // file offset of the entry
};

// A node index at or below this marks a multi-source input (-100 - index is its first source).
inline constexpr std::int32_t kMultiSourceMark = -100;

// One source of a multi-source input.
struct MultiSource {
  std::int16_t node_index = -1;
  std::int16_t output_index = 0;
  ParamFlags flags;
};

// An input parameter: a default value, optionally fed by another node's output, a list of such
// sources, the blackboard or an expression.
struct Input {
  std::string_view name;
  ParamType type = ParamType::Int;
  std::string_view class_name;  // pointer inputs only
  // As stored: node index (-1 none, <= -100 multi-source marker) and output index (or count).
  std::int16_t raw_node_index = -1;
  std::int16_t raw_output_index = 0;
  ParamFlags flags;  // unused when the input is multi-source
  Value default_value;
  std::uint32_t offset = 0;

  bool is_multi_source() const { return raw_node_index <= kMultiSourceMark; }
  // The sources in Model::multi_sources (multi-source inputs only).
  Range multi_sources() const {
    if (!is_multi_source()) return {};
    return {static_cast<std::uint32_t>(kMultiSourceMark - raw_node_index),
            static_cast<std::uint16_t>(raw_output_index)};
  }
  bool has_node_source() const { return raw_node_index >= 0; }
  // Bit 15 of the output index: "set blackboard", meaning unknown.
  bool set_blackboard() const { return !is_multi_source() && raw_output_index < 0; }
  std::int16_t source_output() const {
    return static_cast<std::int16_t>(raw_output_index & 0x7FFF);
  }
};

struct Output {
  std::string_view name;
  ParamType type = ParamType::Int;
  std::string_view class_name;  // pointer outputs only
  bool is_output = false;       // bit 31: the value is consumed elsewhere
  std::uint32_t offset = 0;
};

// Plug (link) kinds, by their slot in a node body's plug header.
enum class PlugKind : std::uint8_t {
  Generic = 0,  // input/output links (bool, float, vec3f, pointer parameters)
  Unknown1 = 1,
  Child = 2,       // control flow: children, selector branches
  Transition = 3,  // active node update
  String = 4,      // string input links
  Int = 5,         // int input links
  Unknown6 = 6,
  Unknown7 = 7,
  Unknown8 = 8,
  Unknown9 = 9,
};
inline constexpr std::size_t kPlugKindCount = 10;
std::string_view plug_kind_name(PlugKind kind);
// Whether a child plug carries an enum value (EnumCondition, two extra words): a UserDefined node's
// plug named `__CHILD_ENUM[k]` or `__CHILD_ENUM_OTHER` (the default), as the engine names the
// plugs of classes that choose a child by an enum (TotK's SelectorBSABrainVerbUpdater).
bool is_child_enum_plug(NodeType type, std::string_view plug_name);
inline constexpr std::string_view kChildEnumDefault = "__CHILD_ENUM_OTHER";

// A blackboard reference inside a selector plug (bit 15 of its flag half-word).
struct PlugBlackboard {
  bool used = false;
  std::uint16_t index = 0;  // per-type blackboard index when used
};

// Selector and input-plug extras. Which alternative a plug carries follows from its kind and its
// node's type (see docs/loader.md).
struct S32Condition {
  PlugBlackboard blackboard;
  std::int32_t value = 0;
  bool is_default = false;  // the last child plug
};
struct StringCondition {
  PlugBlackboard blackboard;
  std::string_view value;  // for the default plug: "その他" ("other")
  bool is_default = false;
};
struct F32Bound {
  PlugBlackboard blackboard;
  float value = 0;
};
struct F32Condition {
  F32Bound min, max;
  bool is_default = false;
  std::string_view default_name;  // the default plug stores the string "その他"
};
struct RandomWeight {
  PlugBlackboard blackboard;
  float weight = 0;
};
struct EnumCondition {  // SelectorBSA*Updater user nodes
  PlugBlackboard blackboard;
  std::uint32_t value = 0;
};
// Two extra words of some input plugs (selector inputs, Element_Expression links, 0x407+).
struct InputPlugExtra {
  std::uint32_t unknown = 0;
  std::uint32_t default_raw = 0;
  std::string_view default_string;  // String plugs: default_raw resolved in the string pool
};
using PlugData = std::variant<std::monostate, S32Condition, StringCondition, F32Condition,
                              RandomWeight, EnumCondition, InputPlugExtra>;

// The node index real files store for a plug that leads nowhere (an S32Selector's unused default
// case, a BoolSelector without a `False` branch): loaded as a plug with no target.
inline constexpr std::uint32_t kEmptyPlugIndex = 0x7FFF;

struct Plug {
  PlugKind kind = PlugKind::Generic;
  // The node the plug leads to (or reads from); none for an empty plug (stored as kEmptyPlugIndex).
  std::optional<std::uint32_t> target;
  // A generic plug as dt-12345/AINB writes it for a source of a multi-source input: the input's
  // marker (its node index, <= -100) instead of the source node; no target (docs/loader.md).
  std::int32_t multi_source_mark = 0;
  std::string_view name;               // empty for transitions
  std::uint32_t transition_index = 0;  // Transition plugs: index into Model::transitions
  PlugData data;
  std::uint32_t offset = 0;  // file offset of the entry
};

// An entry of the active node update (transition) array.
struct Transition {
  std::uint32_t word = 0;
  std::string_view command;  // type 0 (state end) only: the command to continue with
  std::uint32_t offset = 0;

  std::uint8_t type() const { return static_cast<std::uint8_t>(word & 0xFF); }
  bool post_calc() const { return (word & 0x80000000u) != 0; }
};

struct Attachment {
  std::string_view name;
  std::uint32_t name_hash = 0;  // 0x407+ only
  std::uint16_t exb_function_count = 0;
  std::uint16_t exb_io_size = 0;
  std::uint32_t debug = 0;  // first word of the parameter block
  std::array<Range, kParamTypeCount> properties{};
  std::uint32_t offset = 0;
};

// 0x404 only: the record a node's state-info offset points to.
struct NodeStateInfo {
  std::string_view desired_state;
  std::array<std::uint32_t, 4> unknown{};
};

struct Node {
  NodeType type = NodeType::UserDefined;
  std::uint16_t index = 0;
  std::uint8_t flags = 0;
  std::string_view name;        // user class name, or the module path for module nodes
  std::uint32_t name_hash = 0;  // 0x407+ only
  Guid guid;
  std::uint16_t exb_function_count = 0;
  std::uint16_t exb_io_size = 0;
  std::uint16_t multi_param_count = 0;
  Range attachments;  // window of Model::attachment_indices
  Range queries;      // window of Model::query_nodes
  std::uint32_t state_info_offset = 0;
  std::optional<NodeStateInfo> state_info;  // 0x404 files whose node points to one
  std::array<Range, kParamTypeCount> properties{};
  std::array<Range, kParamTypeCount> inputs{};
  std::array<Range, kParamTypeCount> outputs{};
  std::array<Range, kPlugKindCount> plugs{};  // windows of Model::plugs, by kind
  std::uint32_t entry_offset = 0;
  std::uint32_t body_offset = 0;

  bool has_flag(std::uint8_t flag) const { return (flags & flag) != 0; }
  bool is_query() const { return has_flag(node_flags::kIsQuery); }
  bool is_module() const { return has_flag(node_flags::kIsModule); }
};
// What a node is called in traces and messages: a user node's class, else its type's name
// ("Element_Sequential").
std::string_view node_class_name(const Node& node);

struct Command {
  std::string_view name;
  Guid guid;
  std::uint16_t root = 0;
  std::optional<std::uint16_t> secondary_root;  // stored + 1, 0 meaning none
};

enum class InheritMode : std::uint8_t {
  FromRoot = 0,
  FromParent = 1,
  DontInherit = 2,
  Unknown3 = 3
};

struct BlackboardEntry {
  std::string_view name;
  std::string_view notes;
  BlackboardType type = BlackboardType::String;
  std::uint32_t raw_word = 0;  // name offset and flags as stored
  InheritMode inherit = InheritMode::FromRoot;
  std::optional<std::uint8_t> file_reference;  // index into Blackboard::file_references
  Value default_value;                         // PointerValue{} for pointers (nothing stored)
};

struct FileReference {
  std::string_view path;
  std::uint32_t path_hash = 0;
  std::uint32_t name_hash = 0;
  std::uint32_t extension_hash = 0;
};

struct Blackboard {
  // Entries grouped by type in file order; `first[t]` / `count[t]` give each type's slice.
  std::vector<BlackboardEntry> entries;
  std::array<std::uint16_t, kBlackboardTypeCount> first{};
  std::array<std::uint16_t, kBlackboardTypeCount> count{};
  std::vector<FileReference> file_references;

  std::span<const BlackboardEntry> of_type(BlackboardType type) const {
    const auto t = static_cast<std::size_t>(type);
    return std::span(entries).subspan(first[t], count[t]);
  }
};

struct Module {
  std::string_view path;  // e.g. "Common.action.smash.module.ainb"
  std::string_view category;
  std::uint32_t instance_count = 0;
};

struct XLinkAction {
  std::uint32_t node_index = 0;
  std::string_view slot;
  std::string_view action;
};

enum class ReplacementType : std::uint8_t {
  RemoveChild = 0,
  ReplaceChild = 1,
  RemoveAttachment = 2
};

struct Replacement {
  ReplacementType type = ReplacementType::RemoveChild;
  std::uint16_t node_index = 0;
  std::uint16_t target = 0;            // child plug index (among Child plugs) or attachment index
  std::uint16_t replacement_node = 0;  // ReplaceChild only
};

struct ReplacementTable {
  bool applied = false;
  std::int16_t node_count_after = -1;
  std::int16_t attachment_count_after = -1;
  std::vector<Replacement> entries;
};

// 0x404: a value the game patches at load time from its own enum tables.
struct EnumResolve {
  std::uint32_t patch_offset = 0;
  std::string_view class_name;
  std::string_view value_name;
};

struct Section0x58 {
  std::string_view description;
  std::array<std::uint32_t, 3> unknown{};
};

// The file header: magic, version, file name, the command, node, query, attachment and module
// output counts, then 21 u32 slots from 0x20 to 0x70 (the table below). The command array
// follows it, then the node array; every other section is found through a slot.
inline constexpr std::uint32_t kHeaderSize = 0x74;
inline constexpr std::uint32_t kCommandEntrySize = 0x18;
// A node entry; 0x404 stores no name hash.
constexpr std::uint32_t node_entry_size(std::uint32_t version) {
  return version == kVersion404 ? 0x38 : 0x3C;
}
// The parameter block an attachment entry points to: a debug word, the property ranges, a tail.
inline constexpr std::uint32_t kAttachmentParamsSize = 0x64;

// What a header slot holds. The loader checks a Section's or Optional's offset against the file
// and the header; an Unread offset (0x50, always the query array's again; 0x6C) only against the
// file's end; a Field not at all.
enum class HeaderSlotKind : std::uint8_t {
  Field,     // not an offset: the 0x54 field, the category's name (a pool offset), the category
  Unread,    // an offset no reader follows
  Section,   // a section every file has
  Optional,  // a section a file may lack: offset 0
};

// The header's slots, one row each, in header order: enumerator, header offset, kind, the first
// version that has the section (0x404 files have no child replacement table: the loader does not
// read the slot), the bytes of one entry from 0x407 on and in 0x404 (0 where entries vary or
// there are none), the place in the file as every known file lays it out and the writer writes it
// (1 first; 0 not a section: node bodies come between 1 and 2), then the names: the header field's
// (the loader's offset messages), the section's (the loader's error messages, the writer's
// differences), the writer's layout key (gaps; text-form files keep it), the JSON dump's key.
// The rows build header_slot::Slot, kHeaderSlots and the questions below.
// clang-format off
#define AINB_HEADER_SLOTS(X)                                                                       \
  /* enumerator        at    kind      since  entry  0x404  place */                               \
  /*   name (header field), section, layout key, dump key        */                                \
  X(Blackboard,        0x20, Section,  0x404, 0,     0,     1,                                     \
    "blackboard", "blackboard", "blackboard", "blackboard")                                        \
  X(StringPool,        0x24, Section,  0x404, 0,     0,     17,                                    \
    "string pool", "string pool", "string pool", "string_pool")                                    \
  X(EnumResolve,       0x28, Optional, 0x404, 0x0C,  0x0C,  15,                                    \
    "enum resolve array", "enum resolve array", "enum resolves", "enum_resolve")                   \
  X(Properties,        0x2C, Section,  0x404, 0,     0,     4,                                     \
    "property table", "properties", "properties", "properties")                                    \
  X(Transitions,       0x30, Section,  0x404, 0,     0,     7,                                     \
    "transition array", "transitions", "transitions", "transitions")                               \
  X(InputsOutputs,     0x34, Section,  0x404, 0,     0,     5,                                     \
    "input/output table", "inputs/outputs", "inputs/outputs", "inputs_outputs")                    \
  X(MultiParams,       0x38, Section,  0x404, 8,     8,     6,                                     \
    "multi-param array", "multi-params", "multi-params", "multi_params")                           \
  X(Attachments,       0x3C, Section,  0x404, 0x10,  0x0C,  3,                                     \
    "attachment array", "attachments", "attachments", "attachments")                               \
  X(AttachmentIndices, 0x40, Section,  0x404, 4,     4,     2,                                     \
    "attachment index array", "attachment index array", "attachment indices", "attachment_indices") \
  X(Expressions,       0x44, Optional, 0x404, 0,     0,     9,                                     \
    "EXB section", "EXB", "EXB", "expressions")                                                    \
  X(Replacements,      0x48, Optional, 0x407, 8,     8,     13,                                    \
    "child replacement table", "child replacement table", "child replacement table", "replacements") \
  X(Queries,           0x4C, Section,  0x404, 4,     4,     8,                                     \
    "resident update (query) array", "queries", "queries", "queries")                              \
  X(Unknown50,         0x50, Unread,   0x404, 0,     0,     0,                                     \
    "0x50 field", "", "", "unknown_50")                                                            \
  X(Unknown54,         0x54, Field,    0x404, 0,     0,     0,                                     \
    "0x54 field", "", "", "unknown_54")                                                            \
  X(Section58,         0x58, Optional, 0x404, 0x10,  0x10,  16,                                    \
    "0x58 section", "0x58 section", "0x58 section", "section_58")                                  \
  X(Modules,           0x5C, Section,  0x404, 0x0C,  0x0C,  10,                                    \
    "module array", "modules", "modules", "modules")                                               \
  X(CategoryName,      0x60, Field,    0x404, 0,     0,     0,                                     \
    "category name", "", "", "category_name")                                                      \
  X(Category,          0x64, Field,    0x404, 0,     0,     0,                                     \
    "category", "", "", "category")                                                                \
  X(XLinkActions,      0x68, Section,  0x404, 0x0C,  0x0C,  11,                                    \
    "XLink action array", "XLink actions", "XLink actions", "xlink_actions")                       \
  X(Unknown6C,         0x6C, Unread,   0x404, 4,     4,     14,                                    \
    "0x6C field", "unknown 0x6C section", "unknown 0x6C section", "unknown_6c")                    \
  X(BlackboardIds,     0x70, Section,  0x404, 8,     8,     12,                                    \
    "blackboard ID (file identification hash)", "blackboard IDs", "blackboard IDs", "blackboard_ids")
// clang-format on

// A slot's index, into Header::offsets and kHeaderSlots (header_slot::kModules, ...).
namespace header_slot {
enum Slot : std::size_t {
#define AINB_HEADER_SLOT_ENUM(id, at, kind, since, entry, entry_404, place, name, section, layout, \
                              key)                                                                 \
  k##id,
  AINB_HEADER_SLOTS(AINB_HEADER_SLOT_ENUM)
#undef AINB_HEADER_SLOT_ENUM
};
}  // namespace header_slot

struct HeaderSlotRow {
  std::uint32_t at;  // offset in the header
  HeaderSlotKind kind;
  std::uint32_t since;  // the first version with the section
  std::uint32_t entry, entry_404;
  std::uint8_t place;  // in the file, 1 first; 0 not a section
  std::string_view name, section, layout, key;
};
inline constexpr HeaderSlotRow kHeaderSlots[] = {
#define AINB_HEADER_SLOT_ROW(id, at, kind, since, entry, entry_404, place, name, section, layout, \
                             key)                                                                 \
  {at, HeaderSlotKind::kind, since, entry, entry_404, place, name, section, layout, key},
    AINB_HEADER_SLOTS(AINB_HEADER_SLOT_ROW)
#undef AINB_HEADER_SLOT_ROW
};
inline constexpr std::size_t kHeaderSlotCount = std::size(kHeaderSlots);

constexpr const HeaderSlotRow& header_slot_row(header_slot::Slot slot) {
  return kHeaderSlots[slot];
}
// The header offset of `slot` (0x20 + 4 * slot).
constexpr std::uint32_t header_slot_offset(header_slot::Slot slot) {
  return header_slot_row(slot).at;
}
constexpr bool is_offset_slot(header_slot::Slot slot) {
  return header_slot_row(slot).kind != HeaderSlotKind::Field;
}
// Whether files of `version` have the slot's section (the loader reads it only then).
constexpr bool has_header_slot(header_slot::Slot slot, std::uint32_t version) {
  return version >= header_slot_row(slot).since;
}
// The bytes of one entry of the slot's section in a file of `version` (0: none fixed).
constexpr std::uint32_t entry_size(header_slot::Slot slot, std::uint32_t version) {
  const auto& row = header_slot_row(slot);
  return version == kVersion404 ? row.entry_404 : row.entry;
}
static_assert(
    [] {
      for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
        if (kHeaderSlots[i].at != 0x20 + 4 * i) return false;
      }
      return 0x20 + 4 * kHeaderSlotCount == kHeaderSize;
    }(),
    "the rows are the header's slots in order, up to its end");

// The sections' slots in the order of the file (the writer's, every known file's).
inline constexpr std::size_t kFileSectionCount = [] {
  std::size_t count = 0;
  for (const auto& row : kHeaderSlots)
    count += row.place != 0 ? 1 : 0;
  return count;
}();
inline constexpr auto kSectionsInFileOrder = [] {
  std::array<header_slot::Slot, kFileSectionCount> order{};
  for (std::size_t i = 0; i < kHeaderSlotCount; ++i) {
    if (kHeaderSlots[i].place != 0) order[kHeaderSlots[i].place - 1U] = header_slot::Slot(i);
  }
  return order;
}();
static_assert(
    [] {
      for (std::size_t place = 1; place <= kFileSectionCount; ++place) {
        std::size_t rows = 0;
        for (const auto& row : kHeaderSlots)
          rows += row.place == place ? 1 : 0;
        if (rows != 1) return false;
      }
      return true;
    }(),
    "each place in the file is one section's");

struct Header {
  std::uint32_t version = 0;
  std::string_view file_name;
  std::string_view category_name;
  std::uint32_t category = 0;
  std::uint32_t query_count = 0;
  std::uint32_t output_node_count = 0;
  // Raw slot values, in header order from 0x20 to 0x70 (header_slot).
  std::array<std::uint32_t, kHeaderSlotCount> offsets{};
};

class Model {
 public:
  Model() = default;
  Model(const Model&) = delete;  // strings are views into `bytes`
  Model& operator=(const Model&) = delete;
  Model(Model&&) = default;
  Model& operator=(Model&&) = default;

  std::string name;  // what the file was loaded as (used in messages)
  std::vector<std::uint8_t> bytes;

  Header header;
  std::vector<Command> commands;
  std::vector<Node> nodes;
  Blackboard blackboard;
  std::array<std::vector<Property>, kParamTypeCount> properties;
  std::array<std::vector<Input>, kParamTypeCount> inputs;
  std::array<std::vector<Output>, kParamTypeCount> outputs;
  std::vector<MultiSource> multi_sources;
  std::vector<Plug> plugs;
  std::vector<Transition> transitions;
  std::vector<Attachment> attachments;
  std::vector<std::uint32_t> attachment_indices;
  std::vector<std::uint16_t> query_indices;  // as stored: index among query nodes
  std::vector<std::uint16_t> query_nodes;    // the same, resolved to node indices
  // A query array entry that no node's window covers and that names no query node.
  static constexpr std::uint16_t kUnresolvedQuery = 0xFFFF;
  std::optional<exb::Section> expressions;
  std::vector<Module> modules;
  std::vector<XLinkAction> xlink_actions;
  std::uint32_t blackboard_id = 0;
  std::uint32_t parent_blackboard_id = 0;
  std::optional<ReplacementTable> replacements;  // 0x407+
  std::vector<EnumResolve> enum_resolves;
  std::optional<Section0x58> section_0x58;

  std::uint32_t version() const { return header.version; }

  std::span<const Property> properties_of(const Node& node, ParamType type) const {
    return slice(properties, node.properties, type);
  }
  std::span<const Property> properties_of(const Attachment& attachment, ParamType type) const {
    return slice(properties, attachment.properties, type);
  }
  std::span<const Input> inputs_of(const Node& node, ParamType type) const {
    return slice(inputs, node.inputs, type);
  }
  std::span<const Output> outputs_of(const Node& node, ParamType type) const {
    return slice(outputs, node.outputs, type);
  }
  std::span<const Plug> plugs_of(const Node& node, PlugKind kind) const {
    const auto range = node.plugs[static_cast<std::size_t>(kind)];
    return std::span(plugs).subspan(range.base, range.count);
  }
  std::span<const MultiSource> sources_of(const Input& input) const {
    const auto range = input.multi_sources();
    return std::span(multi_sources).subspan(range.base, range.count);
  }
  std::span<const std::uint16_t> queries_of(const Node& node) const {
    return std::span(query_nodes).subspan(node.queries.base, node.queries.count);
  }
  std::span<const std::uint32_t> attachments_of(const Node& node) const {
    return std::span(attachment_indices).subspan(node.attachments.base, node.attachments.count);
  }

 private:
  template <typename T>
  static std::span<const T> slice(const std::array<std::vector<T>, kParamTypeCount>& arrays,
                                  const std::array<Range, kParamTypeCount>& ranges,
                                  ParamType type) {
    const auto t = static_cast<std::size_t>(type);
    return std::span(arrays[t]).subspan(ranges[t].base, ranges[t].count);
  }
};

// Fields a file stores that follow from the rest of it. Every corpus file agrees with these, so
// the text form leaves a field out when it agrees and recomputes it when a person edits the file.
//
// What a node or attachment stores about the expressions its parameters use: one function per
// property, input or multi-source link bound to an expression, and the bytes of those
// functions' results (the output sizes; no corpus function reads more than it returns, so the
// input sizes are not part of the sum as far as the files show).
struct ExpressionUse {
  std::uint16_t function_count = 0;
  std::uint16_t io_size = 0;
};
ExpressionUse expression_use(const Model& model, const Node& node);
ExpressionUse expression_use(const Model& model, const Attachment& attachment);
// The header's module output node count: the nodes of types 200-299.
std::uint32_t module_output_node_count(const Model& model);

// How many entries each section holds, in the order `ainb info` lists them ("commands",
// "nodes", "query nodes", ..., "EXB functions"): one list, so every tool counts alike.
struct SectionCount {
  std::string_view section;
  std::size_t count = 0;
};
std::vector<SectionCount> section_counts(const Model& model);

}  // namespace ainb
