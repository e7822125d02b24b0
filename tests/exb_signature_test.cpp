// CFN signatures: the grammar (signature.hpp) with each of its errors, a method on a value
// receiver through the verifier, disassembler, assembler and machine, and every signature of
// the real files (corpus/ainb and corpus/bulk/ainb), the three bulk files with receiver methods
// round-tripping through the text form.

#include <cstring>
#include <set>

#include <doctest/doctest.h>

#include "ainb/exb/assembler.hpp"
#include "ainb/exb/disassembler.hpp"
#include "ainb/exb/machine.hpp"
#include "ainb/exb/signature.hpp"
#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"
#include "corpus_functions.hpp"
#include "exb_assembler.hpp"
#include "scratch.hpp"

using namespace ainb;
using namespace ainb::exb;
using namespace ainb::test;

namespace {

// On-disk v2 type codes and operand sources (docs/exb.md).
constexpr std::uint8_t kFloat = 4, kVec = 6;
constexpr std::uint8_t kStatic = 2, kParam = 3, kOut = 5;

std::string parse_error(std::string_view text) {
  std::string error;
  if (parse_signature(text, &error)) return "parsed";
  return error;
}

// Out = |(3, 0, 4)|, then GMem[0x4] = (1, 0, 0) x (0, 1, 0): two methods on a Vector3F, one with
// an argument after the receiver. Each CFN's type byte is its result, as in the game's files.
ExbSpec receiver_methods(std::uint8_t length_type = kFloat) {
  ExbSpec spec;
  const std::string_view signatures[] = {"(Vector3F).Length( Float )",
                                         "(Vector3F).Cross( Vector3F, Vector3F )"};
  for (const auto text : signatures) {
    spec.signatures.push_back(static_cast<std::uint32_t>(spec.pool.size()));
    spec.pool += text;
    spec.pool.push_back('\0');
  }
  for (const float v : {3.0f, 0.0f, 4.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f}) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    spec.param_region.insert(spec.param_region.end(), b, b + 4);
  }
  // CFN: bytes 2-3 the block's static offset, bytes 4-7 the signature index.
  spec.instructions = {{2, kVec, kStatic, kParam, 0x0, 0},    // GMem[0x0] = (3, 0, 4)
                       {27, length_type, 0x0, 0, 0, 0},       // CFN Length, GMem[0x0]
                       {2, kVec, kStatic, kParam, 0x4, 12},   // GMem[0x4] = (1, 0, 0)
                       {2, kVec, kStatic, kParam, 0x10, 24},  // GMem[0x10] = (0, 1, 0)
                       {27, kVec, 0x4, 0, 1, 0},              // CFN Cross, GMem[0x4]
                       {2, kFloat, kOut, kStatic, 0, 0x0},    // Out = GMem[0x0]
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{-1, 0, 0, 7, kFloat, 0, 0x1C, 0, 0}};
  return spec;
}

// Bytes of a model's EXB section, as stored.
std::vector<std::uint8_t> exb_bytes(const Model& model) {
  const auto begin = model.bytes.begin() + model.header.offsets[header_slot::kExpressions];
  return {begin, model.bytes.begin() + model.header.offsets[header_slot::kModules]};
}

constexpr const char* kReceiverFiles[] = {"Horablin.action.basicattack.module.ainb",
                                          "Toby.action.lift.module.ainb",
                                          "Toby.action.throw.module.ainb"};

}  // namespace

TEST_CASE("signatures: [receiver.]name( result, arguments... )") {
  const auto direct = parse_signature("GetBBCodeVector3F( Vector3F, Int )");
  REQUIRE(direct);
  CHECK(direct->name == "GetBBCodeVector3F");
  CHECK(direct->object.empty());
  CHECK(direct->result == DataType::Vec3f);
  CHECK(direct->arguments == std::vector<DataType>{DataType::Int});
  CHECK(direct->block_size() == 12);

  const auto object = parse_signature("Actor.Forward( Vector3F )");
  REQUIRE(object);
  CHECK(object->object == "Actor");
  CHECK(object->name == "Forward");
  CHECK_FALSE(object->value_object);
  CHECK(object->arguments.empty());

  // The real files' methods on a value: the receiver comes first in the block, the result is
  // still the first type of the list (not the receiver's type).
  const auto length = parse_signature("(Vector3F).Length( Float )");
  REQUIRE(length);
  CHECK(length->value_object);
  CHECK(length->object == "Vector3F");
  CHECK(length->name == "Length");
  CHECK(length->result == DataType::Float);
  CHECK(length->arguments == std::vector<DataType>{DataType::Vec3f});
  CHECK(length->block_size() == 12);
  const auto angle = parse_signature("(Vector3F).CalcAngle( Float, Vector3F )");
  REQUIRE(angle);
  CHECK(angle->result == DataType::Float);
  CHECK(angle->arguments == std::vector<DataType>{DataType::Vec3f, DataType::Vec3f});
  CHECK(angle->block_size() == 24);

  // Spaces inside the list are optional; the text is kept as written (functions bind by it).
  const auto tight = parse_signature("Min(Float,Float,Float)");
  REQUIRE(tight);
  CHECK(tight->text == "Min(Float,Float,Float)");
  CHECK(tight->arguments == std::vector<DataType>{DataType::Float, DataType::Float});
  CHECK(parse_signature("Host.Object.Tick( Void )")->object == "Host.Object");

  CHECK(parse_error("Foo( Matrix )") == "unknown type \"Matrix\"");
  CHECK(parse_error("Broken( Float") == "missing \")\"");
  CHECK(parse_error("Name( )") == "missing the result type");
  CHECK(parse_error("Name( Float, )") == "missing an argument");
  CHECK(parse_error("Name( Float, Void )") == "an argument cannot be Void");
  CHECK(parse_error("Name( Float Int )") == "expected \",\" or \")\" after \"Float\"");
  CHECK(parse_error("Name( Float )x") == "unexpected \"x\" after the list");
  CHECK(parse_error("Name") == "expected \"(\" after \"Name\"");
  CHECK(parse_error("Name ( Float )") == "expected \"(\" after \"Name\"");
  CHECK(parse_error("Name( Float ) ") == "unexpected \" \" after the list");
  CHECK(parse_error("") == "missing function name");
  CHECK(parse_error(".Pos( Float )") == "missing function name");
  CHECK(parse_error("<malformed: x>( Float )") == "missing function name");
  CHECK(parse_error("(Actor).Pos( Vector3F )") == "unknown value type \"Actor\"");
  CHECK(parse_error("(Vector3F)Length( Float )") == "expected (Type).Name");
  CHECK(parse_error("(Vector3F).Length.Squared( Float )") == "expected \"(\" after \"Length\"");
  // The result is not written in front: the files put it first in the list.
  CHECK(parse_error("Float (Vector3F).Length( )") == "expected \"(\" after \"Float\"");
}

TEST_CASE("a method on a value receiver: verify, disassemble, assemble, evaluate") {
  const auto bytes = assemble(receiver_methods());
  const auto section = decode(ByteReader(bytes, "receiver.ainb"));
  CHECK(disassemble(section) ==
        ".version 2\n"
        "\n"
        ".expression0 input=NONE output=FLOAT static=0x1c scratch32=0x0 scratch64=0x0\n"
        "    .main\n"
        "        0x0000    STR vec3f GMem[0x0], vec3f (3.0, 0.0, 4.0)\n"
        "        0x0008    CFN (Vector3F).Length( Float ), GMem[0x0]\n"
        "        0x0010    STR vec3f GMem[0x4], vec3f (1.0, 0.0, 0.0)\n"
        "        0x0018    STR vec3f GMem[0x10], vec3f (0.0, 1.0, 0.0)\n"
        "        0x0020    CFN (Vector3F).Cross( Vector3F, Vector3F ), GMem[0x4]\n"
        "        0x0028    STR float Out[0x0], float GMem[0x0]\n"
        "        0x0030    END\n");
  // The assembler gives each CFN its signature's result type: FLOAT for Length, not VECTOR3F.
  CHECK(exb::assemble(to_assembly(section)) == bytes);

  // Both are standard functions (standard_functions.hpp): the host registers nothing.
  const Program program(section, "receiver.ainb", nullptr);
  CHECK(program.missing_functions().empty());
  MachineOptions options;
  options.keep_static_memory = true;
  Machine machine(program, options);
  FrameStorage storage(program, 0);
  REQUIRE(machine.run_main(0, storage.frame()) == Status::Ok);
  float out = 0;
  std::memcpy(&out, storage.frame().output.data(), 4);
  CHECK(out == 5.0f);
  Vec3 cross;
  std::memcpy(&cross, storage.static_memory().data() + 4, sizeof cross);
  CHECK(cross == Vec3{0, 0, 1});  // receiver x argument; the other order gives (0, 0, -1)

  SUBCASE("the host's function for a signature wins over the standard one") {
    UserFunctions host;
    host.add("(Vector3F).Length( Float )", [](Vec3) { return 2.0f; });
    const Program own(section, "receiver.ainb", &host);
    Machine machine2(own);
    FrameStorage frame(own, 0);
    REQUIRE(machine2.run_main(0, frame.frame()) == Status::Ok);
    std::memcpy(&out, frame.frame().output.data(), 4);
    CHECK(out == 2.0f);
  }
  SUBCASE("registration checks the receiver as the first argument") {
    UserFunctions bad;
    CHECK_THROWS_WITH(bad.add("(Vector3F).Length( Float )", [] { return 1.0f; }),
                      "signature \"(Vector3F).Length( Float )\" means Float( Vector3F ) but the "
                      "function is Float( )");
  }
}

TEST_CASE("a CFN whose type is not its signature's result is still refused") {
  try {
    const auto bytes = assemble(receiver_methods(kVec));
    const auto section = decode(ByteReader(bytes, "receiver.ainb"));
    const Program program(section, "receiver.ainb", nullptr);
    FAIL("expected a LoadError");
  } catch (const LoadError& e) {
    CHECK(e.section() + ": " + e.reason() ==
          "EXB function 0 main block: instruction 1: returns VECTOR3F but its signature "
          "\"(Vector3F).Length( Float )\" returns FLOAT");
  }
  AssemblySource source;
  AssemblyFunction function;
  function.output_type = DataType::Float;
  function.static_size = 0x10;
  function.main = {"CFN Float (Vector3F).Length( ), GMem[0x0]", "END"};
  source.functions.push_back(function);
  CHECK_THROWS_WITH(exb::assemble(source),
                    "expression 0 main line 0: cannot parse signature \"Float "
                    "(Vector3F).Length( )\": expected \"(\" after \"Float\"");
}

TEST_CASE("every signature of the real files parses, and each CFN's type is its result") {
  auto files = corpus_ainb_files();
  const auto bulk = corpus_files("bulk/ainb", ".ainb");
  files.insert(files.end(), bulk.begin(), bulk.end());
  const auto functions = corpus_user_functions();
  std::set<std::string> distinct;
  std::size_t table_entries = 0, calls = 0, runs = 0;
  for (const auto& path : files) {
    CAPTURE(path.filename().string());
    std::shared_ptr<const Model> model;
    try {
      model = load_file(path);
    } catch (const LoadError& e) {  // two bulk files: a child plug to node 32767, not EXB
      MESSAGE("not loaded: " << std::string(e.what()));
      continue;
    }
    if (!model->expressions) continue;
    const auto& section = *model->expressions;
    for (const auto text : section.signatures) {
      std::string error;
      CHECK_MESSAGE(parse_signature(text, &error), text << ": " << error);
      distinct.emplace(text);
      ++table_entries;
    }
    for (const auto& ins : section.instructions) {
      if (ins.opcode != Opcode::UserFunction) continue;
      const auto sig = parse_signature(section.signatures[ins.signature_index]);
      REQUIRE(sig);
      CHECK(ins.type == sig->result);
      ++calls;
    }
    const Program program(section, model->name, &functions);
    CHECK(program.missing_functions().empty());
    Machine machine(program);
    for (std::uint32_t f = 0; f < program.functions().size(); ++f) {
      FrameStorage storage(program, f);
      CHECK(machine.run_setup(f, storage.frame()) == Status::Ok);
      CHECK_MESSAGE(machine.run_main(f, storage.frame()) == Status::Ok, machine.error());
      ++runs;
    }
  }
  if (corpus_dir().empty()) return;
  CHECK(distinct.size() == 19);
  CHECK(table_entries == 72);
  CHECK(calls == 111);
  MESSAGE(runs << " functions of the real files ran");
}

TEST_CASE("the bulk files with receiver methods round-trip, evaluate and run") {
  const auto dir = corpus_dir();
  if (dir.empty()) return;
  for (const auto* name : kReceiverFiles) {
    CAPTURE(name);
    const auto model = load_file(dir / "bulk/ainb" / name);
    REQUIRE(model->expressions);
    CHECK(exb::assemble(to_assembly(*model->expressions)) == exb_bytes(*model));
    const auto text = nlohmann::ordered_json::parse(writer::to_text(*model).dump(2));
    CHECK(writer::from_text(text, name) == model->bytes);
  }

  const auto lift = (dir / "bulk/ainb/Toby.action.lift.module.ainb").string();
  const auto eval = ainb_cli(
      {"eval", lift, "--function", "1", "--user", "(Vector3F).Length( Float )=2.5", "--user",
       "Min( Float, Float, Float )=1.5", "--user", "(Vector3F).Normalized( Vector3F )=1,0,0"});
  CHECK(eval.code == 0);
  CHECK(eval.out == "UserOut FLOAT[0] = 1.5\nUserOut VECTOR3F[0] = (1.5, 0, 0)\n");
  // Without --user the standard functions compute it: the user slots are zero, so is it.
  const auto standard = ainb_cli({"eval", lift, "--function", "1"});
  CHECK(standard.code == 0);
  CHECK(standard.out == "UserOut FLOAT[0] = 0\nUserOut VECTOR3F[0] = (0, 0, 0)\n");

  // Expression 1 moves TargetPos by Normalized(...) * Min(...): the scenario's values.
  const auto scenario = write_scratch("lift.scenario.json", R"json({"functions": {
    "(Vector3F).Length( Float )": 10, "Min( Float, Float, Float )": 2.5,
    "(Vector3F).Normalized( Vector3F )": [0, 0, 1], "GetBBCodeFloat( Float, Int )": 3}})json");
  const auto run = ainb_cli({"run", lift, "--frames", "5", "--stub-missing-modules",
                             "--generic-nodes", "--scenario", scenario.string()});
  CHECK(run.code == 0);
  // (0, 1, 0) before the move: QuerySelectVector3fByBool's fallback B, the action's target
  // (stubbed: 0) raised by 1, as its stubbed top-surface query finds none (docs/generic-nodes.md).
  CHECK(run.out.find("  TargetPos                                [0, 1, 2.5]\n") !=
        std::string::npos);
}
