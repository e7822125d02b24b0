// The EXB verifier: every rejection of what the machine could not run safely, every corpus
// function verified and run (with what one computes), and mutated sections that must never
// crash the verifier or the machine.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/exb/machine.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"
#include "corpus_functions.hpp"
#include "exb_vm_fixture.hpp"

using namespace ainb;
using namespace ainb::exb;
using namespace ainb::test;

namespace {

std::string verifier_rejection(ExbSpec spec) {
  try {
    Fixture fx(std::move(spec));
  } catch (const LoadError& e) {
    return e.section() + ": " + e.reason();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("the verifier rejects what the machine could not run safely") {
  auto one = [](Ins ins, std::uint16_t in = kInt, std::uint16_t out = kInt) {
    ExbSpec spec;
    spec.pool = std::string("s\0", 2);
    spec.param_region = i32s({0, 0, 0});
    spec.instructions = {ins, {1, 0, 0, 0, 0, 0}};
    spec.functions = {{-1, 0, 0, 2, out, in, 0x10, 0x8, 0x8}};
    return verifier_rejection(spec);
  };
  CHECK(one({2, kInt, kStatic, kStatic, 0x10, 0}) ==
        "EXB function 0 main block: instruction 0: static-memory offset 0x10 (+4) is outside its "
        "16 bytes");
  CHECK(one({2, kVec, kStatic, kStatic, 0x8, 0}) ==
        "EXB function 0 main block: instruction 0: static-memory offset 0x8 (+12) is outside its "
        "16 bytes");
  CHECK(one({2, kInt, kScratch32, kImm, 0x8, 0}) ==
        "EXB function 0 main block: instruction 0: scratch-32 offset 0x8 (+4) is outside its 8 "
        "bytes");
  CHECK(one({2, kString, kScratch32, kImmStr, 0, 0}) ==
        "EXB function 0 main block: instruction 0: strings live in scratch-64, not scratch-32");
  CHECK(one({2, kInt, kScratch64, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: scratch-64 holds strings, not INT");
  CHECK(one({2, kInt, kOut, kImm, 4, 0}) ==
        "EXB function 0 main block: instruction 0: output offset 0x4 (+4) is outside its 4 bytes");
  CHECK(one({2, kInt, kStatic, kIn, 0, 0}, 0) ==
        "EXB function 0 main block: instruction 0: the function has no input value (NONE)");
  CHECK(one({2, kInt, kIn, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: cannot write to In");
  CHECK(one({5, kInt, kImm, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: cannot write to Imm");
  CHECK(one({2, kInt, kUserIn, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: cannot write to UserIn");
  CHECK(one({9, kFloat, kStatic, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: MOD does not take FLOAT operands");
  CHECK(one({25, kInt, kStatic, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: LAN does not take INT operands");
  CHECK(one({12, kFloat, kStatic, kImm, 0, 0}) ==
        "EXB function 0 main block: instruction 0: VMS does not take FLOAT operands");
  CHECK(one({2, kString, kStatic, kParam, 0, 0}) ==  // caught by decode()
        "EXB instructions: instruction 0: the parameter region cannot hold a STRING value");
  CHECK(one({2, kInt, kStatic, kImmStr, 0, 0}) ==
        "EXB function 0 main block: instruction 0: a string immediate used as INT");
  CHECK(one({2, kFloat, kStatic, kUserIn, 0, 0x8C00}) ==
        "EXB function 0 main block: instruction 0: vec3f component offset 12 is not 0, 4 or 8");
  CHECK(one({28, kVec, kStatic, 0, 0, 0}) ==
        "EXB function 0 main block: instruction 0: a jump condition must be a 4-byte value");

  ExbSpec call;
  call.pool = std::string("F( Vector3F, Int )\0G( Matrix )\0", 31);
  call.signatures = {0, 19};
  call.instructions = {{27, kVec, 8, 0, 0, 0}, {1, 0, 0, 0, 0, 0}};
  call.functions = {{-1, 0, 0, 2, kInt, kInt, 0x10, 0, 0}};
  CHECK(verifier_rejection(call) ==
        "EXB function 0 main block: instruction 0: call block at static offset 0x8 (+12) is "
        "outside its 16 bytes");
  call.instructions[0] = {27, kInt, 0, 0, 0, 0};
  CHECK(verifier_rejection(call) ==
        "EXB function 0 main block: instruction 0: returns INT but its signature "
        "\"F( Vector3F, Int )\" returns VECTOR3F");
  call.instructions[0] = {27, kInt, 0, 0, 1, 0};
  CHECK(verifier_rejection(call) ==
        "EXB function 0 main block: instruction 0: cannot parse signature "
        "\"G( Matrix )\": unknown type \"Matrix\"");
}

TEST_CASE("every corpus function verifies and runs") {
  const auto functions = ainb::test::corpus_user_functions();

  std::size_t ran = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    CAPTURE(path.filename().string());
    const Program program(*model->expressions, model->name, &functions);
    CHECK(program.missing_functions().empty());
    Machine machine(program);
    for (std::uint32_t f = 0; f < program.functions().size(); ++f) {
      std::vector<std::uint8_t> memory(program.functions()[f].source->static_size);
      Vec3 vec_slots[4] = {{1, 0, 0}, {0, 3, 4}, {}, {}};
      std::int32_t int_slots[4] = {5, 3, 2, 0};
      std::uint32_t bool_out[2] = {}, vec_out_count = 0;
      Vec3 vec_out[2] = {};
      Frame frame;
      frame.static_memory = memory;
      frame.user[1] = reinterpret_cast<std::uint8_t*>(int_slots);
      frame.user_slots[1] = 4;
      frame.user[5] = reinterpret_cast<std::uint8_t*>(vec_slots);
      frame.user_slots[5] = 4;
      frame.user[6] = reinterpret_cast<std::uint8_t*>(bool_out);
      frame.user_slots[6] = 2;
      frame.user[11] = reinterpret_cast<std::uint8_t*>(vec_out);
      frame.user_slots[11] = 2;
      (void)vec_out_count;
      const float input = 12.0f;
      std::memcpy(frame.input.data(), &input, 4);
      CHECK(machine.run_setup(f, frame) == Status::Ok);
      CHECK_MESSAGE(machine.run_main(f, frame) == Status::Ok, machine.error());
      ++ran;
    }
  }
  MESSAGE(ran << " corpus functions ran");
}

TEST_CASE("corpus expressions compute what their code says") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto model = load_file(dir / "ainb/Accessory_Battery_Event.event.root.ainb");
  // UserIn int[1] + UserIn int[2] >= UserIn int[0] -> UserOut bool[0] ("IsGetAll").
  const Program program(*model->expressions, model->name, nullptr);
  Machine machine(program);
  std::array<std::uint8_t, 4> memory{};
  std::int32_t counts[3] = {10, 4, 5};
  std::uint32_t is_get_all = 7;
  Frame frame;
  frame.static_memory = memory;
  frame.user[1] = reinterpret_cast<std::uint8_t*>(counts);
  frame.user_slots[1] = 3;
  frame.user[6] = reinterpret_cast<std::uint8_t*>(&is_get_all);
  frame.user_slots[6] = 1;
  REQUIRE(machine.run_main(0, frame) == Status::Ok);
  CHECK(is_get_all == 0);  // 4 + 5 < 10
  counts[2] = 6;
  REQUIRE(machine.run_main(0, frame) == Status::Ok);
  CHECK(is_get_all == 1);  // 4 + 6 >= 10
}

TEST_CASE("mutated EXB sections never crash the verifier or the machine") {
  std::vector<std::vector<std::uint8_t>> sections;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    const auto begin = model->expressions->file_offset;
    const auto end = model->header.offsets[header_slot::kModules];
    sections.emplace_back(model->bytes.begin() + begin, model->bytes.begin() + end);
  }
  if (sections.empty()) return;
  std::mt19937_64 rng(4);
  std::size_t rejected = 0, verified = 0, runs = 0;
  for (int i = 0; i < 3000; ++i) {
    auto bytes = sections[rng() % sections.size()];
    for (int e = 0, n = 1 + static_cast<int>(rng() % 6); e < n; ++e) {
      bytes[rng() % bytes.size()] = static_cast<std::uint8_t>(rng());
    }
    try {
      const auto section = decode(ByteReader(bytes, "mutant.ainb"));
      const Program program(section, "mutant.ainb", nullptr);
      ++verified;
      Machine machine(program);
      for (std::uint32_t f = 0; f < program.functions().size(); ++f) {
        const auto& compiled = program.functions()[f];
        if (compiled.source->static_size > (1u << 16)) continue;
        FrameStorage storage(program, f);
        (void)machine.run_setup(f, storage.frame());
        (void)machine.run_main(f, storage.frame());
        ++runs;
      }
    } catch (const LoadError&) {
      ++rejected;
    }
  }
  MESSAGE("EXB mutations: " << rejected << " rejected, " << verified << " verified, " << runs
                            << " function runs");
  CHECK(rejected + verified == 3000);
}
