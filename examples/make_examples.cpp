// Writes the bundled example files into the folder given on the command line.
//
// patrol.root.ainb: a guard. Its "Root" command runs a Sequential whose first child is a
// BoolSelector on the blackboard value IsEnemyNear: when true the guard attacks, otherwise it
// walks to its patrol point and waits there. A second command, "Alert", plays an alert reaction
// with SplitTiming (one node on enter, one every frame, one on leave).

#include <filesystem>
#include <fstream>
#include <iostream>

#include "ainb_builder.hpp"

using namespace ainb;
using namespace ainb::test;

namespace {

AinbSpec patrol() {
  AinbSpec spec;
  spec.file_name = "patrol.root";
  spec.commands = {{"Root", 0, {}}, {"Alert", 6, {}}};
  spec.blackboard = {{BlackboardType::Bool, "IsEnemyNear", false, "set by the perception system"},
                     {BlackboardType::F32, "PatrolSpeed", 1.5f},
                     {BlackboardType::Vec3f, "PatrolPoint", Vec3f{10, 0, -4}}};

  BuildNode root{.type = NodeType::Sequential, .flags = node_flags::kIsRoot};
  root.properties = {{ParamType::Bool, "IsLoop", true},
                     {ParamType::Int, "NumLoop", std::int32_t{0}}};
  root.plugs = {{PlugKind::Child, 1, ""}};

  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};  // blackboard bool 0
  choose.plugs = {{PlugKind::Child, 2, "True"}, {PlugKind::Child, 3, "False"}};

  BuildNode attack{.name = "Attack"};
  attack.properties = {{ParamType::String, "Weapon", std::string("Spear")},
                       {ParamType::Float, "Range", 2.5f}};

  BuildNode walk{.type = NodeType::Sequential};
  walk.plugs = {{PlugKind::Child, 4, ""}, {PlugKind::Child, 5, ""}};

  BuildNode move{.name = "MoveTo"};
  move.inputs = {{ParamType::Float, "Speed", -1, 0, 0x80000000u, 1.0f},  // blackboard f32 0
                 {ParamType::Vec3f, "Destination", -1, 0, 0x80000000u, Vec3f{}}};  // vec3f 0
  move.outputs = {{ParamType::Float, "DistanceLeft"}};

  BuildNode wait{.name = "Wait"};
  wait.properties = {{ParamType::Float, "Time", 2.0f}};

  BuildNode alert{.type = NodeType::SplitTiming, .flags = node_flags::kIsRoot};
  alert.plugs = {
      {PlugKind::Child, 7, "Enter"}, {PlugKind::Child, 8, "Update"}, {PlugKind::Child, 9, "Leave"}};
  BuildNode shout{.name = "PlayVoice"};
  shout.properties = {{ParamType::String, "Voice", std::string("Alert")}};
  BuildNode look{.name = "LookAround"};
  BuildNode calm{.name = "PlayVoice"};
  calm.properties = {{ParamType::String, "Voice", std::string("Calm")}};

  spec.nodes = {root, choose, attack, walk, move, wait, alert, shout, look, calm};
  return spec;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_examples OUTPUT_DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const auto bytes = build(patrol());
  std::ofstream out(dir / "patrol.root.ainb", std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return out ? 0 : 1;
}
