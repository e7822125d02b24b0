#include "simulation_samples.hpp"

#include "scratch.hpp"

namespace ainb::test {

ainb::test::AinbSpec guard() {
  using namespace ainb::test;
  AinbSpec spec;
  spec.file_name = "Guard.root";
  spec.commands = {{"Root", 0, {}}};
  spec.blackboard = {{BlackboardType::Bool, "Alarm", false}};
  BuildNode seq{.type = NodeType::Sequential};
  seq.plugs = {{PlugKind::Child, 1, ""}, {PlugKind::Child, 4, ""}};
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};
  choose.plugs = {{PlugKind::Child, 2, "True"}, {PlugKind::Child, 3, "False"}};
  BuildNode wait{.name = "Wait"};
  wait.properties = {{ParamType::Float, "Time", 2.0f}};
  spec.nodes = {seq, choose, BuildNode{.name = "Attack"}, BuildNode{.name = "Patrol"}, wait};
  return spec;
}

ainb::test::AinbSpec guard_without(std::size_t deleted) {
  using namespace ainb::test;
  auto spec = guard();
  spec.nodes.erase(spec.nodes.begin() + static_cast<std::ptrdiff_t>(deleted));
  spec.nodes[0].plugs[1].node = 3;  // Wait
  spec.nodes[1].plugs = {{PlugKind::Child, 2, "True"}, {PlugKind::Child, 2, "False"}};
  for (std::size_t i = deleted; i < spec.nodes.size(); ++i)
    spec.nodes[i].guid_from = static_cast<std::uint8_t>(i + 1);
  return spec;
}

ainb::test::AinbSpec guard_calling_walk() {
  auto caller = guard();
  caller.nodes[3] = {.name = "Walk.module", .flags = ainb::node_flags::kIsModule};
  caller.modules = {{"Walk.module.ainb"}};
  return caller;
}

ainb::test::AinbSpec walk_module() {
  ainb::test::AinbSpec module;
  module.file_name = "Walk.module";
  module.commands = {{"Root", 0, {}}};
  module.nodes = {ainb::test::BuildNode{.name = "Walk"}};
  return module;
}

std::string write_spec(const std::string& name, const ainb::test::AinbSpec& spec) {
  return ainb::test::write_scratch(name, ainb::test::build(spec)).string();
}

}  // namespace ainb::test
