// Hand-made files for what the corpus lacks: 0x408 blackboards, 0x404 layouts, transitions and
// Fork/Join, selector conditions, random weights, child replacement, and the exact errors.

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/loader.hpp"
#include "ainb_builder.hpp"
#include "exb_assembler.hpp"

using namespace ainb;
using namespace ainb::test;

namespace {

// The LoadError a spec produces (fails the test when it loads).
LoadError error_of(const std::vector<std::uint8_t>& bytes, const std::string& name = "bad.ainb") {
  try {
    load(bytes, name);
  } catch (const LoadError& e) {
    return e;
  }
  FAIL("expected a LoadError");
  return LoadError("", "", 0, "");
}

// A small tree: Sequential root with two user nodes, one feeding the other.
AinbSpec sample_tree() {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}, {"Other", 2, 1}};
  BuildNode root{.type = NodeType::Sequential, .flags = node_flags::kIsRoot};
  root.properties = {{ParamType::Bool, "IsLoop", false},
                     {ParamType::Int, "NumLoop", std::int32_t{3}}};
  root.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  BuildNode wait{.type = NodeType::UserDefined, .name = "Wait"};
  wait.properties = {{ParamType::Float, "Time", 1.5f},
                     {ParamType::String, "Anim", std::string("Idle")},
                     {ParamType::Vec3f, "Offset", Vec3f{1, 2, 3}},
                     {ParamType::Pointer, "Target", std::int32_t{0}, 0, "game::Actor"}};
  wait.outputs = {{ParamType::Float, "Remaining", true}};
  BuildNode move{.type = NodeType::UserDefined, .name = "Move"};
  move.inputs = {{ParamType::Float, "Speed", 1, 0, 0, 2.0f},
                 {ParamType::Int, "Mode", -1, 0, 0x80000000u, std::int32_t{-7}}};
  spec.nodes = {root, wait, move};
  spec.blackboard = {{BlackboardType::S32, "Mode", std::int32_t{4}}};
  return spec;
}

}  // namespace

TEST_CASE("a hand-made 0x407 tree loads with every value in place") {
  const auto m = load_spec(sample_tree());
  REQUIRE(m->commands.size() == 2);
  CHECK(m->commands[0].name == "Root");
  CHECK(m->commands[0].root == 0);
  CHECK_FALSE(m->commands[0].secondary_root);
  CHECK(m->commands[1].secondary_root == 1);
  CHECK(m->commands[0].guid.to_string() == "13121110-1514-1716-1819-1a1b1c1d1e1f");

  REQUIRE(m->nodes.size() == 3);
  const auto& root = m->nodes[0];
  CHECK(root.type == NodeType::Sequential);
  CHECK(root.has_flag(node_flags::kIsRoot));
  CHECK(root.name_hash == 0xABCD0000u);
  const auto children = m->plugs_of(root, PlugKind::Child);
  REQUIRE(children.size() == 2);
  CHECK(children[0].target == 1);
  CHECK(children[1].target == 2);
  CHECK(std::get<bool>(m->properties_of(root, ParamType::Bool)[0].value) == false);
  CHECK(std::get<std::int32_t>(m->properties_of(root, ParamType::Int)[0].value) == 3);

  const auto& wait = m->nodes[1];
  CHECK(wait.name == "Wait");
  CHECK(std::get<float>(m->properties_of(wait, ParamType::Float)[0].value) == 1.5f);
  CHECK(std::get<std::string_view>(m->properties_of(wait, ParamType::String)[0].value) == "Idle");
  CHECK(std::get<Vec3f>(m->properties_of(wait, ParamType::Vec3f)[0].value) == Vec3f{1, 2, 3});
  CHECK(m->properties_of(wait, ParamType::Pointer)[0].class_name == "game::Actor");
  CHECK(m->outputs_of(wait, ParamType::Float)[0].name == "Remaining");
  CHECK(m->outputs_of(wait, ParamType::Float)[0].is_output);

  const auto& move = m->nodes[2];
  const auto speed = m->inputs_of(move, ParamType::Float)[0];
  CHECK(speed.has_node_source());
  CHECK(speed.raw_node_index == 1);
  CHECK(speed.source_output() == 0);
  CHECK(std::get<float>(speed.default_value) == 2.0f);
  const auto mode = m->inputs_of(move, ParamType::Int)[0];
  CHECK(mode.flags.source() == ParamFlags::Source::Blackboard);
  CHECK(mode.flags.index() == 0);
  CHECK(std::get<std::int32_t>(mode.default_value) == -7);
  CHECK(m->blackboard_id == 0x12345678);
}

TEST_CASE("0x408 blackboards carry a U32 type between S32 and F32") {
  AinbSpec spec;
  spec.version = kVersion408;
  spec.nodes = {BuildNode{.name = "Node"}};
  spec.file_references = {"Work/Param/A.gyml", "Work/Param/B.gyml"};
  spec.blackboard = {
      {BlackboardType::Vec3f, "Pos", Vec3f{1, 2, 3}},
      {BlackboardType::U32, "Mask", std::uint32_t{0xDEADBEEF}, "bits", 1},
      {BlackboardType::String, "Name", std::string("Link")},
      {BlackboardType::F32, "Speed", 2.5f, "", 2, 1},
      {BlackboardType::S32, "Count", std::int32_t{-3}},
      {BlackboardType::Bool, "Flag", true, "", 0, 0},
      {BlackboardType::Pointer, "Actor", std::int32_t{0}},
      {BlackboardType::U32, "Mask2", std::uint32_t{7}},
  };
  const auto m = load_spec(spec);
  const auto& bb = m->blackboard;
  REQUIRE(bb.entries.size() == 8);
  const auto u32 = bb.of_type(BlackboardType::U32);
  REQUIRE(u32.size() == 2);
  CHECK(u32[0].name == "Mask");
  CHECK(u32[0].notes == "bits");
  CHECK(u32[0].inherit == InheritMode::FromParent);
  CHECK(std::get<std::uint32_t>(u32[0].default_value) == 0xDEADBEEF);
  CHECK(std::get<std::uint32_t>(u32[1].default_value) == 7);
  CHECK(std::get<std::int32_t>(bb.of_type(BlackboardType::S32)[0].default_value) == -3);
  CHECK(std::get<std::string_view>(bb.of_type(BlackboardType::String)[0].default_value) == "Link");
  CHECK(std::get<bool>(bb.of_type(BlackboardType::Bool)[0].default_value));
  CHECK(std::get<Vec3f>(bb.of_type(BlackboardType::Vec3f)[0].default_value) == Vec3f{1, 2, 3});
  const auto speed = bb.of_type(BlackboardType::F32)[0];
  CHECK(std::get<float>(speed.default_value) == 2.5f);
  CHECK(speed.inherit == InheritMode::DontInherit);
  REQUIRE(speed.file_reference == 1);
  CHECK(bb.file_references.size() == 2);
  CHECK(bb.file_references[1].path == "Work/Param/B.gyml");
  CHECK(bb.file_references[1].path_hash == 0x11111111);
  CHECK(bb.of_type(BlackboardType::Pointer)[0].name == "Actor");
  // The type order of the file: string, s32, u32, f32, bool, vec3f, pointer.
  CHECK(bb.entries[0].type == BlackboardType::String);
  CHECK(bb.entries[2].type == BlackboardType::U32);
  CHECK(bb.entries[4].type == BlackboardType::F32);
}

TEST_CASE("0x404 node entries have no name hash and attachments are 12 bytes") {
  AinbSpec spec;
  spec.version = kVersion404;
  spec.category = "Logic";
  BuildNode node{.name = "Logic"};
  node.attachments = {0, 1};
  node.properties = {{ParamType::Int, "Value", std::int32_t{9}}};
  spec.nodes = {node};
  spec.attachments = {{"First", {{ParamType::Bool, "On", true}}}, {"Second", {}}};
  const auto m = load_spec(spec);
  CHECK(m->version() == kVersion404);
  CHECK(m->nodes[0].name_hash == 0);
  CHECK(std::get<std::int32_t>(m->properties_of(m->nodes[0], ParamType::Int)[0].value) == 9);
  REQUIRE(m->attachments.size() == 2);
  CHECK(m->attachments[0].name == "First");
  CHECK(m->attachments[0].name_hash == 0);
  CHECK(std::get<bool>(m->properties_of(m->attachments[0], ParamType::Bool)[0].value));
  CHECK(m->attachments_of(m->nodes[0]).size() == 2);
  CHECK_FALSE(m->replacements);
}

TEST_CASE("Fork and Join: transition plugs resolve into the active node update array") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode fork{.type = NodeType::Fork};
  fork.plugs = {{PlugKind::Transition, 1, "", 0}, {PlugKind::Transition, 2, "", 1}};
  BuildNode a{.name = "PathA"}, b{.name = "PathB"};
  a.plugs = {{PlugKind::Transition, 3, "", 2}};
  b.plugs = {{PlugKind::Transition, 3, "", 2}};
  BuildNode join{.type = NodeType::Join};
  join.properties = {{ParamType::Int, "InFlowNum", std::int32_t{2}}};
  join.plugs = {{PlugKind::Transition, 4, "", 3}};
  BuildNode end{.type = NodeType::StateEnd};
  end.properties = {{ParamType::String, "TransitionCommand", std::string("Next")}};
  spec.nodes = {fork, a, b, join, end};
  spec.transitions = {{1}, {1}, {0x80000001u}, {0, "Next"}};
  const auto m = load_spec(spec);
  REQUIRE(m->transitions.size() == 4);
  CHECK(m->transitions[0].type() == 1);
  CHECK_FALSE(m->transitions[0].post_calc());
  CHECK(m->transitions[2].post_calc());
  CHECK(m->transitions[3].type() == 0);
  CHECK(m->transitions[3].command == "Next");
  const auto fork_plugs = m->plugs_of(m->nodes[0], PlugKind::Transition);
  REQUIRE(fork_plugs.size() == 2);
  CHECK(fork_plugs[0].target == 1);
  CHECK(fork_plugs[1].target == 2);
  CHECK(fork_plugs[1].transition_index == 1);
  CHECK(m->plugs_of(m->nodes[1], PlugKind::Transition)[0].transition_index == 2);
  CHECK(std::get<std::int32_t>(m->properties_of(m->nodes[3], ParamType::Int)[0].value) == 2);

  SUBCASE("a transition plug past the array is rejected") {
    spec.nodes[3].plugs[0].transition = 4;
    const auto e = error_of(build(spec));
    CHECK(e.section() == "node bodies");
    CHECK(e.reason() == "node 3: transition plug names transition 4, but the file has 4");
    CHECK(e.offset() == m->plugs_of(m->nodes[3], PlugKind::Transition)[0].offset + 4);
  }
}

TEST_CASE("selector conditions: S32, F32 ranges, strings, random weights and defaults") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::S32, "Mode", std::int32_t{0}},
                     {BlackboardType::F32, "Low", 0.0f},
                     {BlackboardType::F32, "High", 1.0f},
                     {BlackboardType::F32, "Weight", 3.0f}};
  BuildNode s32{.type = NodeType::S32Selector};
  s32.plugs = {{PlugKind::Child, 4, "", 0, s32_condition(5)},
               {PlugKind::Child, 4, "", 0, s32_condition(0, 0)},
               {PlugKind::Child, 4, "", 0, s32_condition(0)}};
  BuildNode f32{.type = NodeType::F32Selector};
  std::vector<std::uint8_t> f32_default(0x20, 0);
  f32.plugs = {{PlugKind::Child, 4, "", 0, f32_condition(0.5f, 2.0f)},
               {PlugKind::Child, 4, "", 0, f32_condition(0, 0, 0, 1)},
               {PlugKind::Child, 4, "", 0, f32_default, "その他"}};
  BuildNode str{.type = NodeType::StringSelector};
  str.plugs = {{PlugKind::Child, 4, "", 0, s32_condition(0), "Burn"},
               {PlugKind::Child, 4, "", 0, s32_condition(0), "その他"}};
  BuildNode random{.type = NodeType::RandomSelector};
  random.plugs = {{PlugKind::Child, 4, "", 0, random_weight(0.25f)},
                  {PlugKind::Child, 4, "", 0, random_weight(1.0f, 2)}};
  BuildNode leaf{.name = "Leaf"};
  spec.nodes = {s32, f32, str, random, leaf};
  const auto m = load_spec(spec);

  const auto s32_plugs = m->plugs_of(m->nodes[0], PlugKind::Child);
  CHECK(std::get<S32Condition>(s32_plugs[0].data).value == 5);
  CHECK_FALSE(std::get<S32Condition>(s32_plugs[0].data).blackboard.used);
  CHECK(std::get<S32Condition>(s32_plugs[1].data).blackboard.used);
  CHECK(std::get<S32Condition>(s32_plugs[1].data).blackboard.index == 0);
  CHECK(std::get<S32Condition>(s32_plugs[2].data).is_default);

  const auto f32_plugs = m->plugs_of(m->nodes[1], PlugKind::Child);
  const auto range = std::get<F32Condition>(f32_plugs[0].data);
  CHECK(range.min.value == 0.5f);
  CHECK(range.max.value == 2.0f);
  const auto bb_range = std::get<F32Condition>(f32_plugs[1].data);
  CHECK(bb_range.min.blackboard.used);
  CHECK(bb_range.min.blackboard.index == 0);
  CHECK(bb_range.max.blackboard.index == 1);
  CHECK(std::get<F32Condition>(f32_plugs[2].data).is_default);
  CHECK(std::get<F32Condition>(f32_plugs[2].data).default_name == "その他");

  const auto str_plugs = m->plugs_of(m->nodes[2], PlugKind::Child);
  CHECK(std::get<StringCondition>(str_plugs[0].data).value == "Burn");
  CHECK(std::get<StringCondition>(str_plugs[1].data).is_default);

  const auto weights = m->plugs_of(m->nodes[3], PlugKind::Child);
  CHECK(std::get<RandomWeight>(weights[0].data).weight == 0.25f);
  CHECK(std::get<RandomWeight>(weights[1].data).blackboard.used);
  CHECK(std::get<RandomWeight>(weights[1].data).blackboard.index == 2);

  SUBCASE("a blackboard index past its type is rejected") {
    spec.nodes[3].plugs[1].extra = random_weight(1.0f, 3);
    const auto e = error_of(build(spec));
    CHECK(e.section() == "nodes");
    CHECK(e.reason() == "node 3 child plug reads f32 blackboard entry 3, but there are 3");
    CHECK(e.offset() == weights[1].offset);
  }
}

TEST_CASE("child replacement entries are read and checked against their nodes") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode root{.type = NodeType::Simultaneous};
  root.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 2, ""}};
  root.attachments = {0};
  spec.nodes = {root, BuildNode{.name = "A"}, BuildNode{.name = "DebugOnly"}};
  spec.attachments = {{"DebugDraw", {}}};
  spec.replacements = {{0, 0, 1}, {1, 0, 0, 1}, {2, 0, 0}};
  const auto m = load_spec(spec);
  REQUIRE(m->replacements);
  const auto& entries = m->replacements->entries;
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].type == ReplacementType::RemoveChild);
  CHECK(entries[0].target == 1);
  CHECK(entries[1].type == ReplacementType::ReplaceChild);
  CHECK(entries[1].replacement_node == 1);
  CHECK(entries[2].type == ReplacementType::RemoveAttachment);
  CHECK_FALSE(m->replacements->applied);
  CHECK(m->replacements->node_count_after == -1);

  SUBCASE("a child plug index past the node's plugs is rejected") {
    spec.replacements = {{0, 0, 2}};
    const auto e = error_of(build(spec));
    CHECK(e.section() == "child replacement table");
    CHECK(e.reason() == "replacement 0 targets child plug 2 of node 0, which has 2");
  }
  SUBCASE("an unknown replacement type is rejected") {
    spec.replacements = {{3, 0, 0}};
    CHECK(error_of(build(spec)).reason() == "replacement 0 has unknown type 3");
  }
}

TEST_CASE("modules, XLink actions and queries resolve") {
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode caller{.name = "Common.action.smash.module", .flags = node_flags::kIsModule};
  caller.queries = {0};
  BuildNode query{.name = "IsNear", .flags = node_flags::kIsQuery};
  spec.nodes = {caller, query};
  spec.modules = {{"Common.action.smash.module.ainb", "AI", 1}};
  spec.xlink_actions = {{0, "メインステート", "Attack"}, {0, "Sub", "Guard"}};
  const auto m = load_spec(spec);
  CHECK(m->modules[0].path == "Common.action.smash.module.ainb");
  CHECK(m->nodes[0].is_module());
  REQUIRE(m->queries_of(m->nodes[0]).size() == 1);
  CHECK(m->queries_of(m->nodes[0])[0] == 1);  // query node 0 is node 1
  REQUIRE(m->xlink_actions.size() == 2);
  CHECK(m->xlink_actions[1].action == "Guard");

  SUBCASE("a module node the module array does not list loads (lint finds it)") {
    // Mogurudo_Baby.action.root (wide corpus) ships such a node; the run finds it by name.
    spec.modules.clear();
    const auto unlisted = load_spec(spec);
    CHECK(unlisted->modules.empty());
    CHECK(unlisted->nodes[0].is_module());
    CHECK(unlisted->nodes[0].name == "Common.action.smash.module");
  }
  SUBCASE("a query index past the query nodes is rejected") {
    spec.nodes[0].queries = {1};
    const auto e = error_of(build(spec));
    CHECK(e.section() == "queries");
    CHECK(e.reason() == "query 0 names query node 1, but the file has 1 query nodes");
  }
}

TEST_CASE("bad files give one LoadError naming file, section, offset and reason") {
  const auto good = build(sample_tree());
  const auto model = load(good, "good.ainb");

  SUBCASE("wrong magic") {
    auto bytes = good;
    bytes[0] = 'X';
    CHECK(std::string(error_of(bytes).what()) ==
          "bad.ainb: header at offset 0x0: bad magic (expected \"AIB \")");
  }
  SUBCASE("unsupported version") {
    auto bytes = good;
    bytes[4] = 0x05;
    CHECK(std::string(error_of(bytes).what()) ==
          "bad.ainb: header at offset 0x4: unsupported AINB version 0x405");
  }
  SUBCASE("a file shorter than the header") {
    const std::vector<std::uint8_t> bytes(good.begin(), good.begin() + 0x40);
    CHECK(std::string(error_of(bytes).what()) ==
          "bad.ainb: header at offset 0x0: file is 64 bytes, too small for the 0x74-byte header");
  }
  SUBCASE("a section offset past the end") {
    auto bytes = good;
    bytes[0x24 + 2] = 0x01;  // string pool offset + 0x10000
    CHECK(std::string(error_of(bytes).what()) ==
          fmt::format("bad.ainb: header at offset 0x24: section offset {:#x} lies past the end of "
                      "the file ({:#x})",
                      model->header.offsets[header_slot::kStringPool] + 0x10000, bytes.size()));
  }
  SUBCASE("a section offset inside the header") {
    // The header's own bytes would be read as the section's (a file identification hash that is
    // the magic "AIB ", say); 0 means "absent" only where a section is optional.
    auto set_slot = [&](std::size_t slot, std::uint32_t value) {
      auto bytes = good;
      for (std::size_t k = 0; k < 4; ++k)
        bytes[0x20 + 4 * slot + k] = static_cast<std::uint8_t>(value >> (8 * k));
      return bytes;
    };
    CHECK(std::string(error_of(set_slot(header_slot::kBlackboardIds, 0)).what()) ==
          "bad.ainb: header at offset 0x70: blackboard ID (file identification hash) offset 0x0 "
          "lies inside the header (which ends at 0x74)");
    CHECK(std::string(error_of(set_slot(header_slot::kStringPool, 0x10)).what()) ==
          "bad.ainb: header at offset 0x24: string pool offset 0x10 lies inside the header "
          "(which ends at 0x74)");
    CHECK(std::string(error_of(set_slot(header_slot::kEnumResolve, 0x73)).what()) ==
          "bad.ainb: header at offset 0x28: enum resolve array offset 0x73 lies inside the "
          "header (which ends at 0x74)");
    const auto without_enums = load(set_slot(header_slot::kEnumResolve, 0), "optional.ainb");
    CHECK(without_enums->enum_resolves.empty());
  }
  SUBCASE("a section starting inside the node array") {
    auto bytes = good;
    bytes[0x20] = 0x80;  // blackboard offset 0x80: inside the node entries
    bytes[0x21] = 0x00;
    CHECK(std::string(error_of(bytes).what()) ==
          "bad.ainb: header at offset 0x20: section offset 0x80 overlaps the command and node "
          "arrays (which end at 0x158)");
  }
  SUBCASE("a node body inside the node array") {
    auto bytes = good;
    const auto at = model->nodes[1].entry_offset + 0x14;
    bytes[at] = 0x74;  // body offset 0x74: the command array
    bytes[at + 1] = 0x00;
    const auto e = error_of(bytes);
    CHECK(e.section() == "node bodies");
    CHECK(e.offset() == at);
    CHECK(e.reason() == fmt::format("node 1 body at 0x74 lies outside the space between the node "
                                    "array (0x158) and the string pool ({:#x})",
                                    model->header.offsets[header_slot::kStringPool]));
  }
  SUBCASE("a command root past the nodes") {
    auto spec = sample_tree();
    spec.commands[0].root = 3;
    CHECK(std::string(error_of(build(spec)).what()) ==
          "bad.ainb: commands at offset 0x88: command \"Root\" has root node 3, but the file has 3 "
          "nodes");
  }
  SUBCASE("an unknown node type") {
    auto bytes = good;
    const auto at = model->nodes[1].entry_offset;
    bytes[at] = 0x0B;
    CHECK(std::string(error_of(bytes).what()) ==
          fmt::format("bad.ainb: nodes at offset {:#x}: node 1: unknown node type 11", at));
  }
  SUBCASE("a node whose index field disagrees with its position") {
    auto spec = sample_tree();
    spec.nodes[2].index_override = 7;
    const auto e = error_of(build(spec));
    CHECK(e.reason() == "node 2 says its index is 7");
    CHECK(e.offset() == model->nodes[2].entry_offset + 2);
  }
  SUBCASE("a plug leading to a missing node") {
    auto spec = sample_tree();
    spec.nodes[0].plugs[1].node = 9;
    const auto e = error_of(build(spec));
    CHECK(e.section() == "node bodies");
    CHECK(e.reason() == "node 0: child plug leads to node 9, but the file has 3 nodes");
    CHECK(e.offset() == model->plugs_of(model->nodes[0], PlugKind::Child)[1].offset);
  }
  SUBCASE("a string offset outside the pool") {
    auto bytes = good;
    const auto at = model->nodes[1].entry_offset + 8;
    bytes[at + 3] = 0x7F;
    const auto e = error_of(bytes);
    CHECK(e.section() == "nodes");
    CHECK(e.offset() == at);
    CHECK(e.reason().starts_with("node name string offset 0x7f"));
    CHECK(e.reason().ends_with(
        "lies outside the string pool (size " +
        fmt::format("{:#x})", good.size() - model->header.offsets[header_slot::kStringPool])));
  }
  SUBCASE("a string without terminator") {
    auto bytes = good;
    bytes.back() = 'x';  // the pool's last string loses its NUL
    const auto e = error_of(bytes);
    CHECK(e.reason().find("has no NUL terminator") != std::string::npos);
  }
  SUBCASE("an input reading a missing output") {
    auto spec = sample_tree();
    spec.nodes[2].inputs[0].output = 1;
    const auto e = error_of(build(spec));
    CHECK(e.section() == "inputs/outputs");
    CHECK(e.reason() == "input reads float output 1 of node 1, which has 1");
  }
  SUBCASE("a blackboard parameter index past its type") {
    auto spec = sample_tree();
    spec.nodes[2].inputs[1].flags = 0x80000001u;
    CHECK(error_of(build(spec)).reason() == "input reads s32 blackboard entry 1, but there are 1");
  }
  SUBCASE("an expression reference in a file without expressions") {
    auto spec = sample_tree();
    spec.nodes[1].properties[0].flags = 0xC2000000u;
    const auto e = error_of(build(spec));
    CHECK(e.section() == "properties");
    CHECK(e.reason() == "property uses expression 0, but the file has 0 expressions");
  }
  SUBCASE("an expression that returns another type than its parameter's") {
    // Function 0 returns a BOOL (STR bool Out[0], true; END); Wait's Time is a float.
    ExbSpec exb;
    exb.instructions = {{2, 2, 5, 0, 0, 1}, {1, 0, 0, 0, 0, 0}};
    exb.functions = {{-1, 0, 0, 2, 2, 0, 0x10, 0, 0}};
    auto spec = sample_tree();
    spec.exb = assemble(exb);
    spec.nodes[1].properties[0].flags = 0xC2000000u;
    const auto e = error_of(build(spec));
    CHECK(e.section() == "properties");
    CHECK(e.reason() == "property \"Time\" (float) uses expression 0, which returns BOOL");
    spec.nodes[1].properties[0] = {ParamType::Bool, "Time", false, 0xC2000000u};
    CHECK_NOTHROW(load_spec(spec));
  }
  SUBCASE("a parameter range past its array") {
    auto bytes = good;
    const auto body = model->nodes[0].body_offset;
    bytes[body + 4] = 0x09;  // int property count
    const auto e = error_of(bytes);
    CHECK(e.section() == "node bodies");
    CHECK(e.offset() == body);
    CHECK(e.reason() == "node 0 int properties [0, +9) run past the 1 entries there are");
  }
  SUBCASE("the size limit") {
    LoadOptions options;
    options.max_file_size = 100;
    try {
      load(good, "big.ainb", options);
      FAIL("expected a LoadError");
    } catch (const LoadError& e) {
      CHECK(std::string(e.what()) ==
            fmt::format("big.ainb: file at offset 0x0: file is {} bytes, over the 100-byte limit "
                        "(LoadOptions::max_file_size)",
                        good.size()));
    }
  }
}
