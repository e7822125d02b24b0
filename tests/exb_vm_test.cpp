// The EXB verifier and machine: every instruction for the types it takes, every operand source,
// setup and static-memory semantics, the budget, user functions, and every verifier rejection.

#include <cmath>
#include <cstring>
#include <limits>

#include <doctest/doctest.h>

#include "ainb/exb/machine.hpp"
#include "ainb/loader.hpp"
#include "corpus.hpp"
#include "corpus_functions.hpp"
#include "exb_assembler.hpp"

using namespace ainb;
using namespace ainb::exb;
using namespace ainb::test;

namespace {

// On-disk data type codes (v2; v3 where noted).
constexpr std::uint8_t kBool = 2, kInt = 3, kFloat = 4, kString = 5, kVec = 6;
constexpr std::uint8_t kV3UInt = 4, kV3Float = 5;
// Operand sources.
constexpr std::uint8_t kImm = 0, kImmStr = 1, kStatic = 2, kParam = 3, kParamStr = 4, kOut = 5,
                       kIn = 6, kScratch32 = 7, kScratch64 = 8, kUserOut = 9, kUserIn = 10;

std::vector<std::uint8_t> f32s(std::initializer_list<float> values) {
  std::vector<std::uint8_t> out;
  for (float v : values) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
  }
  return out;
}
std::vector<std::uint8_t> i32s(std::initializer_list<std::int32_t> values) {
  std::vector<std::uint8_t> out;
  for (auto v : values) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    out.insert(out.end(), b, b + 4);
  }
  return out;
}

// One function (main block = `code` + END), compiled and ready to run.
struct Fixture {
  std::vector<std::uint8_t> bytes;
  Section section;
  std::unique_ptr<Program> program;
  std::unique_ptr<Machine> machine;
  std::array<std::uint8_t, 64> static_memory{};
  Frame frame;

  // Tests look at static memory after a run, so the machine keeps it (see MachineOptions).
  Fixture(ExbSpec spec, const UserFunctions* functions = nullptr, MachineOptions options = {}) {
    options.keep_static_memory = true;
    if (spec.functions.empty()) {
      spec.instructions.push_back({1, 0, 0, 0, 0, 0});
      spec.functions = {{-1, 0, 0, static_cast<std::uint32_t>(spec.instructions.size()), kInt, kInt,
                         0x40, 0x20, 0x10}};
    }
    bytes = assemble(spec);
    section = decode(ByteReader(bytes, "vm.ainb"));
    program = std::make_unique<Program>(section, "vm.ainb", functions);
    machine = std::make_unique<Machine>(*program, options);
    frame.static_memory = static_memory;
  }

  Status run() { return machine->run_main(0, frame); }
  template <typename T>
  T at(std::size_t offset) const {
    T v;
    std::memcpy(&v, static_memory.data() + offset, sizeof v);
    return v;
  }
  template <typename T>
  void set(std::size_t offset, T v) {
    std::memcpy(static_memory.data() + offset, &v, sizeof v);
  }
};

// GMem[0] = lhs (int, from the parameter region), then `op` int GMem[0], rhs (parameter region).
std::int32_t int_op(std::uint8_t op, std::int32_t lhs, std::int32_t rhs, std::uint8_t type = kInt,
                    std::uint32_t version = 2) {
  ExbSpec spec;
  spec.version = version;
  spec.param_region = i32s({lhs, rhs});
  spec.instructions = {{2, type, kStatic, kParam, 0, 0}, {op, type, kStatic, kParam, 0, 4}};
  Fixture fx(spec);
  REQUIRE(fx.run() == Status::Ok);
  return fx.at<std::int32_t>(0);
}

float float_op(std::uint8_t op, float lhs, float rhs) {
  ExbSpec spec;
  spec.param_region = f32s({lhs, rhs});
  spec.instructions = {{2, kFloat, kStatic, kParam, 0, 0}, {op, kFloat, kStatic, kParam, 0, 4}};
  Fixture fx(spec);
  REQUIRE(fx.run() == Status::Ok);
  return fx.at<float>(0);
}

bool compare(std::uint8_t op, std::uint8_t type, std::vector<std::uint8_t> region,
             std::uint32_t width, std::uint32_t version = 2) {
  ExbSpec spec;
  spec.version = version;
  spec.param_region = std::move(region);
  spec.instructions = {{2, type, kStatic, kParam, 0, 0},
                       {op, type, kStatic, kParam, 0, static_cast<std::uint16_t>(width)}};
  Fixture fx(spec);
  REQUIRE(fx.run() == Status::Ok);
  return fx.at<std::uint32_t>(0) != 0;
}

Vec3 vec_op(std::uint8_t op, Vec3 lhs, std::vector<std::uint8_t> rhs) {
  ExbSpec spec;
  spec.param_region = f32s({lhs.x, lhs.y, lhs.z});
  spec.param_region.insert(spec.param_region.end(), rhs.begin(), rhs.end());
  spec.instructions = {{2, kVec, kStatic, kParam, 0, 0}, {op, kVec, kStatic, kParam, 0, 12}};
  Fixture fx(spec);
  REQUIRE(fx.run() == Status::Ok);
  return fx.at<Vec3>(0);
}

std::string rejection(ExbSpec spec) {
  try {
    Fixture fx(std::move(spec));
  } catch (const LoadError& e) {
    return e.section() + ": " + e.reason();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("integer arithmetic, including the defined edge cases") {
  CHECK(int_op(5, 7, 5) == 12);
  CHECK(int_op(6, 3, 5) == -2);
  CHECK(int_op(7, -3, 4) == -12);
  CHECK(int_op(7, 0x10000, 0x10000) == 0);  // wraps
  CHECK(int_op(8, 7, 2) == 3);
  CHECK(int_op(8, -7, 2) == -3);
  CHECK(int_op(8, 7, 0) == 0);  // division by zero gives 0
  CHECK(int_op(8, INT32_MIN, -1) == INT32_MIN);
  CHECK(int_op(9, 7, 3) == 1);
  CHECK(int_op(9, -7, 3) == -1);
  CHECK(int_op(9, 7, 0) == 0);
  CHECK(int_op(14, 1, 4) == 16);
  CHECK(int_op(14, 1, 33) == 2);    // shift counts are taken modulo 32
  CHECK(int_op(15, -8, 1) == -4);   // arithmetic shift for int
  CHECK(int_op(15, 256, -1) == 0);  // -1 & 31 = 31
  CHECK(int_op(22, 0b1100, 0b1010) == 0b1000);
  CHECK(int_op(23, 0b1100, 0b1010) == 0b0110);
  CHECK(int_op(24, 0b1100, 0b1010) == 0b1110);
  CHECK(int_op(2, 5, INT32_MIN) == INT32_MIN);  // STR copies
  CHECK(int_op(3, 5, 0) == -5);                 // NEG (unary: the second operand is ignored)
  CHECK(int_op(10, 41, 0) == 42);               // INC
  CHECK(int_op(11, 43, 0) == 42);               // DEC
  CHECK(int_op(10, INT32_MAX, 0) == INT32_MIN);
}

TEST_CASE("unsigned integers (EXB v3)") {
  const auto big = static_cast<std::int32_t>(0xFFFFFFFFu);
  CHECK(static_cast<std::uint32_t>(int_op(8, big, 2, kV3UInt, 3)) == 0x7FFFFFFFu);
  CHECK(int_op(8, big, 0, kV3UInt, 3) == 0);
  CHECK(int_op(9, big, 10, kV3UInt, 3) == 5);
  CHECK(static_cast<std::uint32_t>(int_op(15, INT32_MIN, 31, kV3UInt, 3)) == 1u);  // logical
  CHECK_FALSE(compare(16, kV3UInt, i32s({big, 1}), 4, 3));  // 0xFFFFFFFF < 1 is false unsigned
  CHECK(compare(16, kInt, i32s({big, 1}), 4));              // -1 < 1 is true signed
}

TEST_CASE("float arithmetic and comparisons") {
  CHECK(float_op(5, 1.5f, 2.25f) == 3.75f);
  CHECK(float_op(6, 1.5f, 2.25f) == -0.75f);
  CHECK(float_op(7, 1.5f, -2.0f) == -3.0f);
  CHECK(float_op(8, 1.0f, 4.0f) == 0.25f);
  CHECK(std::isinf(float_op(8, 1.0f, 0.0f)));  // IEEE for floats
  CHECK(float_op(3, 2.5f, 0) == -2.5f);
  CHECK(float_op(10, 1.5f, 0) == 2.5f);
  CHECK(float_op(11, 1.5f, 0) == 0.5f);
  CHECK(compare(16, kFloat, f32s({1, 2}), 4));
  CHECK_FALSE(compare(16, kFloat, f32s({2, 2}), 4));
  CHECK(compare(17, kFloat, f32s({2, 2}), 4));
  CHECK(compare(18, kFloat, f32s({3, 2}), 4));
  CHECK_FALSE(compare(19, kFloat, f32s({1, 2}), 4));
  CHECK(compare(20, kFloat, f32s({0.5f, 0.5f}), 4));
  CHECK(compare(21, kFloat, f32s({0.5f, 0.25f}), 4));
  CHECK(compare(16, kInt, i32s({-3, 2}), 4));
  CHECK(compare(19, kInt, i32s({2, 2}), 4));
  CHECK(compare(20, kInt, i32s({7, 7}), 4));
  CHECK_FALSE(compare(21, kInt, i32s({7, 7}), 4));
}

TEST_CASE("bool operations") {
  CHECK(compare(25, kBool, i32s({1, 1}), 4));
  CHECK_FALSE(compare(25, kBool, i32s({1, 0}), 4));
  CHECK(compare(26, kBool, i32s({0, 1}), 4));
  CHECK_FALSE(compare(26, kBool, i32s({0, 0}), 4));
  CHECK(compare(20, kBool, i32s({1, 5}), 4));  // any non-zero is true
  CHECK(compare(21, kBool, i32s({0, 5}), 4));
  CHECK(compare(4, kBool, i32s({0, 0}), 4));   // NOT
  CHECK(compare(23, kBool, i32s({1, 0}), 4));  // XOR
}

TEST_CASE("vec3f operations") {
  CHECK(vec_op(5, {1, 2, 3}, f32s({1, 1, 1})) == Vec3{2, 3, 4});
  CHECK(vec_op(6, {1, 2, 3}, f32s({1, 1, 1})) == Vec3{0, 1, 2});
  CHECK(vec_op(3, {1, -2, 3}, f32s({0, 0, 0})) == Vec3{-1, 2, -3});
  CHECK(vec_op(12, {1, 2, 3}, f32s({2})) == Vec3{2, 4, 6});  // VMS: the scalar is a float
  CHECK(vec_op(13, {2, 4, 6}, f32s({2})) == Vec3{1, 2, 3});
  CHECK(vec_op(2, {0, 0, 0}, f32s({7, 8, 9})) == Vec3{7, 8, 9});
  CHECK(compare(20, kVec, f32s({1, 2, 3, 1, 2, 3}), 12));
  CHECK(compare(21, kVec, f32s({1, 2, 3, 1, 2, 4}), 12));
}

TEST_CASE("operand sources") {
  SUBCASE("immediates: ints are zero-extended 16-bit values, floats converted, bools non-zero") {
    ExbSpec spec;
    spec.instructions = {{2, kInt, kStatic, kImm, 0, 0xFFFF},
                         {2, kFloat, kStatic, kImm, 4, 3},
                         {2, kBool, kStatic, kImm, 8, 2}};
    Fixture fx(spec);
    REQUIRE(fx.run() == Status::Ok);
    CHECK(fx.at<std::int32_t>(0) == 65535);
    CHECK(fx.at<float>(4) == 3.0f);
    CHECK(fx.at<std::uint32_t>(8) == 1);
  }
  SUBCASE("strings: immediate, parameter region, scratch-64, comparisons") {
    ExbSpec spec;
    spec.pool = std::string("Burn\0Freeze\0", 12);
    spec.param_region = i32s({5});                                   // offset of "Freeze"
    spec.instructions = {{2, kString, kScratch64, kImmStr, 0, 0},    // LMem64[0] = "Burn"
                         {2, kString, kScratch64, kParamStr, 8, 0},  // LMem64[8] = "Freeze"
                         {2, kString, kStatic, kScratch64, 0, 0},
                         {20, kString, kStatic, kImmStr, 0, 0},  // == "Burn"
                         {2, kString, kStatic + 0, kScratch64, 8, 8},
                         {21, kString, kStatic, kImmStr, 8, 0}};  // "Freeze" != "Burn"
    Fixture fx(spec);
    REQUIRE(fx.run() == Status::Ok);
    CHECK(fx.at<std::uint32_t>(0) == 1);
    CHECK(fx.at<std::uint32_t>(8) == 1);
  }
  SUBCASE("parameter region ints, floats and vec3f") {
    ExbSpec spec;
    spec.param_region = i32s({-5});
    const auto floats = f32s({0.5f, 1, 2, 3});
    spec.param_region.insert(spec.param_region.end(), floats.begin(), floats.end());
    spec.instructions = {{2, kInt, kStatic, kParam, 0, 0},
                         {2, kFloat, kStatic, kParam, 4, 4},
                         {2, kVec, kStatic, kParam, 8, 8}};
    Fixture fx(spec);
    REQUIRE(fx.run() == Status::Ok);
    CHECK(fx.at<std::int32_t>(0) == -5);
    CHECK(fx.at<float>(4) == 0.5f);
    CHECK(fx.at<Vec3>(8) == Vec3{1, 2, 3});
  }
  SUBCASE("input, output and scratch-32") {
    ExbSpec spec;
    spec.instructions = {{2, kInt, kScratch32, kIn, 0, 0},
                         {5, kInt, kScratch32, kImm, 0, 1},
                         {2, kInt, kOut, kScratch32, 0, 0}};
    Fixture fx(spec);
    const std::int32_t input = 41;
    std::memcpy(fx.frame.input.data(), &input, 4);
    REQUIRE(fx.run() == Status::Ok);
    std::int32_t output;
    std::memcpy(&output, fx.frame.output.data(), 4);
    CHECK(output == 42);
  }
  SUBCASE("user inputs and outputs, per type, with vec3f components") {
    ExbSpec spec;
    spec.instructions = {{2, kVec, kStatic, kUserIn, 0, 1},          // GMem = UserIn vec3f[1]
                         {6, kVec, kStatic, kUserIn, 0, 0},          // -= UserIn vec3f[0]
                         {2, kVec, kUserOut, kStatic, 0, 0},         // UserOut vec3f[0] = GMem
                         {2, kFloat, kStatic, kUserIn, 12, 0x8801},  // GMem[12] = UserIn vec[1].z
                         {2, kInt, kUserOut, kUserIn, 0, 0}};  // UserOut int[0] = UserIn int[0]
    Fixture fx(spec);
    Vec3 in_vec[2] = {{1, 1, 1}, {4, 5, 6}};
    Vec3 out_vec[1] = {};
    std::int32_t in_int[1] = {9}, out_int[1] = {0};
    auto& f = fx.frame;
    f.user[5] = reinterpret_cast<std::uint8_t*>(in_vec);
    f.user_slots[5] = 2;
    f.user[11] = reinterpret_cast<std::uint8_t*>(out_vec);
    f.user_slots[11] = 1;
    f.user[1] = reinterpret_cast<std::uint8_t*>(in_int);
    f.user_slots[1] = 1;
    f.user[7] = reinterpret_cast<std::uint8_t*>(out_int);
    f.user_slots[7] = 1;
    REQUIRE(fx.run() == Status::Ok);
    CHECK(out_vec[0] == Vec3{3, 4, 5});
    CHECK(fx.at<float>(12) == 6.0f);
    CHECK(out_int[0] == 9);

    f.user_slots[5] = 1;  // the frame offers fewer vec3f inputs than the function reads
    CHECK(fx.run() == Status::BadFrame);
    CHECK(fx.machine->error() == "function 0 uses 2 user slot(s) of space 5, the frame has 1");

    BasicFrame basic;  // a frame without user slots: as a Frame that offers none
    basic.static_memory = f.static_memory;
    CHECK(fx.machine->run_main(0, basic) == Status::BadFrame);
    CHECK(fx.machine->error() == "function 0 uses 1 user slot(s) of space 1, the frame has 0");
  }
  SUBCASE("the highest user slot an operand can name is counted without wrapping") {
    // A fuzz finding: slot 65535 made the count 65536, which a 16-bit counter wrapped to zero,
    // so neither the arena nor the frame check covered the slot and the copy ran off the arena.
    ExbSpec spec;
    spec.instructions = {{2, kInt, kStatic, kUserIn, 0, 0xFFFF}};
    Fixture fx(spec);
    CHECK(fx.program->functions()[0].user_slots[1] == 65536);
    std::int32_t in_int[1] = {9};
    fx.frame.user[1] = reinterpret_cast<std::uint8_t*>(in_int);
    fx.frame.user_slots[1] = 1;
    CHECK(fx.run() == Status::BadFrame);
    CHECK(fx.machine->error() == "function 0 uses 65536 user slot(s) of space 1, the frame has 1");
  }
}

TEST_CASE("strings: the machine follows only pointers the program or the host gave it") {
  // A file can write an int over half of a string pointer. Such a value reads as "": in
  // comparisons, in the output the host reads back, and as a user function's argument.
  ExbSpec spec;
  spec.pool = std::string("Burn\0\0Name( String, String )\0", 30);  // "" at 5, signature at 6
  spec.signatures = {6};
  spec.instructions = {{2, kString, kStatic, kImmStr, 0, 0},    // GMem[0] = "Burn"
                       {2, kInt, kStatic, kImm, 4, 0x1234},     // half of it overwritten
                       {2, kString, kOut, kStatic, 0, 0},       // output = the broken pointer
                       {2, kString, kStatic, kStatic, 8, 0},    // GMem[8] = the broken pointer
                       {20, kString, kStatic, kImmStr, 8, 5},   // GMem[8] = (it == "")
                       {2, kString, kStatic, kStatic, 16, 0},   // the call's argument
                       {27, kString, 16, 0, 0, 0},              // GMem[16] = Name(GMem[16])
                       {2, kString, kStatic, kStatic, 24, 16},  // a trusted result, copied
                       {20, kString, kStatic, kImmStr, 24, 0},  // GMem[24] = (it == "Burn")
                       {20, kString, kStatic, kImmStr, 0, 0},   // GMem[0] = (broken == "Burn")
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{-1, 0, 0, 11, kString, kInt, 0x20, 0, 0}};
  UserFunctions functions;
  std::string seen = "not called";
  static const char* const kBurn = "Burn";
  functions.add("Name( String, String )", [&](const char* s) {
    seen = s;
    return kBurn;  // the host's own string: comparable for the rest of the run
  });
  Fixture fx(spec, &functions);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(fx.at<std::uint32_t>(8) == 1);   // the broken pointer reads as ""
  CHECK(fx.at<std::uint32_t>(24) == 1);  // the host's result compares as itself
  CHECK(fx.at<std::uint32_t>(0) == 0);   // and the broken one is not "Burn"
  CHECK(seen == "");
  const char* output = nullptr;
  std::memcpy(&output, fx.frame.output.data(), sizeof output);
  REQUIRE(output != nullptr);
  CHECK(std::string_view(output) == "");
  // Its string bookkeeping: the string input, and the last 32 string results of user functions.
  CHECK(fx.machine->memory_bytes() ==
        sizeof(Machine) + fx.program->arena_size() + (1 + 32) * sizeof(const char*));
}

TEST_CASE("a machine keeps string bookkeeping only for programs that pass strings") {
  Fixture fx(ExbSpec{});  // one Int -> Int function, no calls
  CHECK(fx.machine->memory_bytes() == sizeof(Machine) + fx.program->arena_size());
}

TEST_CASE("jumps and the instruction budget") {
  // GMem[0] = 5; loop: GMem[0] -= 1; GMem[4] = GMem[0] > 0 ... counts down to zero.
  ExbSpec spec;
  spec.instructions = {{2, kInt, kStatic, kImm, 0, 5},     // 0
                       {11, kInt, kStatic, kImm, 0, 0},    // 1: DEC
                       {10, kInt, kStatic, kImm, 8, 0},    // 2: INC GMem[8] (iterations)
                       {2, kInt, kStatic, kStatic, 4, 0},  // 3
                       {28, 0, kStatic, 0, 4, 6},          // 4: JZE GMem[4] -> 6
                       {29, 0, 0, 0, 0, 1},                // 5: JMP 1
                       {1, 0, 0, 0, 0, 0}};                // 6: END
  spec.functions = {{-1, 0, 0, 7, kInt, kInt, 0x10, 0, 0}};
  Fixture fx(spec);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(fx.at<std::int32_t>(0) == 0);
  CHECK(fx.at<std::int32_t>(8) == 5);

  spec.instructions[0].rhs = 60000;  // 60000 iterations x 5 instructions > 100,000
  Fixture slow(spec);
  CHECK(slow.run() == Status::BudgetExhausted);
  CHECK(slow.machine->error() == "function 0 ran past its budget of 100000 instructions");

  spec.instructions[1] = {29, 0, 0, 0, 0, 1};  // JMP to itself: an endless loop
  Fixture endless(spec);
  CHECK(endless.run() == Status::BudgetExhausted);
}

TEST_CASE("the setup block runs on enter, and static memory persists across evaluations") {
  ExbSpec spec;
  spec.instructions = {{2, kInt, kStatic, kImm, 0, 10},  // setup: GMem[0] = 10
                       {1, 0, 0, 0, 0, 0},
                       {10, kInt, kStatic, kImm, 0, 0},  // main: GMem[0] += 1; Out = GMem[0]
                       {2, kInt, kOut, kStatic, 0, 0},
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{0, 2, 2, 3, kInt, kInt, 4, 0, 0}};
  Fixture fx(spec);
  auto out = [&] {
    std::int32_t v;
    std::memcpy(&v, fx.frame.output.data(), 4);
    return v;
  };
  REQUIRE(fx.machine->run_setup(0, fx.frame) == Status::Ok);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(out() == 11);
  REQUIRE(fx.run() == Status::Ok);
  CHECK(out() == 12);
  // A second context has its own static memory.
  std::array<std::uint8_t, 4> other{};
  Frame second;
  second.static_memory = other;
  REQUIRE(fx.machine->run_main(0, second) == Status::Ok);
  std::int32_t v;
  std::memcpy(&v, second.output.data(), 4);
  CHECK(v == 1);
  // Too little static memory is refused, not overrun.
  Frame small;
  CHECK(fx.machine->run_main(0, small) == Status::BadFrame);
}

TEST_CASE("user functions: typed registration, argument blocks, host context, missing ones") {
  ExbSpec spec;
  auto signature = [&spec](std::string_view text) {
    spec.signatures.push_back(static_cast<std::uint32_t>(spec.pool.size()));
    spec.pool += text;
    spec.pool.push_back('\0');
  };
  signature("GetBBCodeFloat( Float, Int )");
  signature("(Vector3F).Normalized( Vector3F )");
  signature("Actor.Pos( Vector3F )");
  spec.param_region = f32s({3, 0, 4});
  // CFN: bytes 2-3 the static offset of the block (lhs/rhs source bytes), bytes 4-7 the index.
  spec.instructions = {{2, kInt, kStatic, kImm, 0, 4},    // GMem[0] = 4 (the code)
                       {27, kFloat, 0, 0, 0, 0},          // CFN GetBBCodeFloat, GMem[0]
                       {2, kVec, kStatic, kParam, 4, 0},  // GMem[4] = (3, 0, 4)
                       {27, kVec, 4, 0, 1, 0},            // CFN (Vector3F).Normalized, GMem[4]
                       {27, kVec, 16, 0, 2, 0},           // CFN Actor.Pos, GMem[16]
                       {1, 0, 0, 0, 0, 0}};
  spec.functions = {{-1, 0, 0, 6, kInt, kInt, 0x1C, 0, 0}};

  UserFunctions functions;
  functions.add("GetBBCodeFloat( Float, Int )",
                [](std::int32_t code) { return static_cast<float>(code) * 0.5f; });
  functions.add("(Vector3F).Normalized( Vector3F )", [](Vec3 v) {
    const float n = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    return Vec3{v.x / n, v.y / n, v.z / n};
  });
  struct Actor {
    Vec3 pos;
  } actor{{7, 8, 9}};
  functions.add("Actor.Pos( Vector3F )",
                [](CallContext& context) { return static_cast<Actor*>(context.host)->pos; });
  Fixture fx(spec, &functions);
  fx.frame.host = &actor;
  CHECK(fx.program->missing_functions().empty());
  REQUIRE(fx.run() == Status::Ok);
  CHECK(fx.at<float>(0) == 2.0f);
  CHECK(fx.at<Vec3>(4) == Vec3{0.6f, 0.0f, 0.8f});
  CHECK(fx.at<Vec3>(16) == Vec3{7, 8, 9});

  SUBCASE("a missing function is reported at load and follows the policy at run time") {
    UserFunctions some;
    some.add("GetBBCodeFloat( Float, Int )", [](std::int32_t) { return 1.0f; });
    Fixture strict(spec, &some);
    // (Vector3F).Normalized is a standard function: only the game's Actor.Pos is missing.
    CHECK(strict.program->missing_functions() == std::vector<std::string>{"Actor.Pos( Vector3F )"});
    CHECK(strict.run() == Status::MissingFunction);
    CHECK(strict.machine->error() ==
          "no user function is registered for \"Actor.Pos( Vector3F )\"");
    CHECK(strict.at<Vec3>(4) == Vec3{0.6f, 0.0f, 0.8f});
  }
  SUBCASE("registration checks the C++ types against the signature") {
    UserFunctions bad;
    CHECK_THROWS_WITH(bad.add("GetBBCodeFloat( Float, Int )", [](float) { return 1.0f; }),
                      "signature \"GetBBCodeFloat( Float, Int )\" means Float( Int ) but the "
                      "function is Float( Float )");
    CHECK_THROWS_WITH(bad.add("Broken( Float", [] { return 1.0f; }),
                      "signature \"Broken( Float\": missing \")\"");
  }
}

TEST_CASE("the verifier rejects what the machine could not run safely") {
  auto one = [](Ins ins, std::uint16_t in = kInt, std::uint16_t out = kInt) {
    ExbSpec spec;
    spec.pool = std::string("s\0", 2);
    spec.param_region = i32s({0, 0, 0});
    spec.instructions = {ins, {1, 0, 0, 0, 0, 0}};
    spec.functions = {{-1, 0, 0, 2, out, in, 0x10, 0x8, 0x8}};
    return rejection(spec);
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
  CHECK(rejection(call) ==
        "EXB function 0 main block: instruction 0: call block at static offset 0x8 (+12) is "
        "outside its 16 bytes");
  call.instructions[0] = {27, kInt, 0, 0, 0, 0};
  CHECK(rejection(call) ==
        "EXB function 0 main block: instruction 0: returns INT but its signature "
        "\"F( Vector3F, Int )\" returns VECTOR3F");
  call.instructions[0] = {27, kInt, 0, 0, 1, 0};
  CHECK(rejection(call) ==
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

#include "ainb/exb/binding.hpp"

TEST_CASE("binding: an expression parameter and an Element_Expression node") {
  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  const auto model = load_file(dir / "ainb/Toby.action.basicattack.module.ainb");
  UserFunctions functions;
  functions.add("GetBBCodeInt( Int, Int )", [](std::int32_t code) { return code + 100; });
  const Program program(*model->expressions, model->name, &functions);
  Machine machine(program);

  // Expression 2 is "In - 10" on floats: bound to a float parameter fed 12.5.
  const auto binding = bind_parameter(program, 2, DataType::Float);
  CHECK(binding.input_type() == DataType::Float);
  std::vector<std::uint8_t> memory(binding.static_size());
  exb::Value out;
  REQUIRE(binding.setup(machine, memory, nullptr) == Status::Ok);
  REQUIRE(binding.evaluate(machine, memory, 12.5f, out, nullptr) == Status::Ok);
  CHECK(std::get<float>(out) == 2.5f);

  // Expression 1 ignores its input: GetBBCodeInt(0) + 1.
  const auto counter = bind_parameter(program, 1, DataType::Int);
  std::vector<std::uint8_t> counter_memory(counter.static_size());
  REQUIRE(counter.evaluate(machine, counter_memory, std::monostate{}, out, nullptr) == Status::Ok);
  CHECK(std::get<std::int32_t>(out) == 101);

  CHECK_THROWS_WITH(bind_parameter(program, 2, DataType::Bool),
                    "expression 2 returns FLOAT, but the parameter is BOOL");
  CHECK_THROWS_WITH(bind_parameter(program, 10, DataType::Float),
                    "expression 10 does not exist (the file has 10)");

  // Expression 0 belongs to an Element_Expression node with two vec3f inputs, one vec3f output.
  std::array<std::uint16_t, 12> slots{};
  slots[5] = 2;   // UserIn vec3f
  slots[11] = 1;  // UserOut vec3f
  CHECK(check_user_slots(program, 0, slots).empty());
  slots[5] = 1;
  CHECK(check_user_slots(program, 0, slots) == "reads 2 vec3f input(s), the node has 1");
}

#include <random>

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

TEST_CASE("static memory is loaded and saved only when a run can observe it") {
  ExbSpec scratchpad;  // writes GMem[0] before reading it: nothing carries over between runs
  scratchpad.instructions = {{2, kInt, kStatic, kImm, 0, 5},
                             {5, kInt, kStatic, kImm, 0, 1},
                             {2, kInt, kOut, kStatic, 0, 0},
                             {1, 0, 0, 0, 0, 0}};
  scratchpad.functions = {{-1, 0, 0, 4, kInt, kInt, 4, 0, 0}};
  auto bytes = assemble(scratchpad);
  const auto section = decode(ByteReader(bytes, "vm.ainb"));
  const Program program(section, "vm.ainb", nullptr);
  CHECK_FALSE(program.functions()[0].static_memory_live);
  Machine machine(program);
  std::array<std::uint8_t, 4> memory = {0xAB, 0xAB, 0xAB, 0xAB};
  Frame frame;
  frame.static_memory = memory;
  REQUIRE(machine.run_main(0, frame) == Status::Ok);
  std::int32_t out;
  std::memcpy(&out, frame.output.data(), 4);
  CHECK(out == 6);
  CHECK(memory == std::array<std::uint8_t, 4>{0xAB, 0xAB, 0xAB, 0xAB});  // untouched

  ExbSpec counter = scratchpad;  // reads GMem[0] first: the count carries over
  counter.instructions = {
      {10, kInt, kStatic, kImm, 0, 0}, {2, kInt, kOut, kStatic, 0, 0}, {1, 0, 0, 0, 0, 0}};
  counter.functions = {{-1, 0, 0, 3, kInt, kInt, 4, 0, 0}};
  auto counter_bytes = assemble(counter);
  const auto counter_section = decode(ByteReader(counter_bytes, "vm.ainb"));
  const Program counting(counter_section, "vm.ainb", nullptr);
  CHECK(counting.functions()[0].static_memory_live);

  const auto dir = ainb::test::corpus_dir();
  if (dir.empty()) return;
  std::size_t dead = 0, total = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    const Program corpus(*model->expressions, model->name, nullptr);
    for (const auto& fn : corpus.functions()) {
      dead += fn.static_memory_live ? 0 : 1;
      ++total;
    }
  }
  // Only the function with jumps (Horablin.action.jumpoffceiling) is left live.
  CHECK(total == 22);
  CHECK(dead == 21);
}

#include "allocation_counter.hpp"

TEST_CASE("an evaluation allocates nothing") {
  const auto functions = ainb::test::corpus_user_functions();
  std::size_t evaluations = 0;
  for (const auto& path : ainb::test::corpus_ainb_files()) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    const Program program(*model->expressions, model->name, &functions);
    Machine machine(program);
    std::vector<std::uint8_t> memory(program.static_size());
    std::array<std::vector<std::uint8_t>, 12> slots;
    Frame frame;
    frame.static_memory = memory;
    for (std::size_t k = 0; k < 12; ++k) {
      slots[k].assign(16 * 12, 0);
      frame.user[k] = slots[k].data();
      frame.user_slots[k] = 16;
    }
    // No test macros inside the measured loop: they may allocate themselves.
    bool all_ok = true;
    const auto before = ainb::test::allocations();
    for (int round = 0; round < 100; ++round) {
      for (std::uint32_t f = 0; f < program.functions().size(); ++f) {
        all_ok = all_ok && machine.run_main(f, frame) == Status::Ok;
        ++evaluations;
      }
    }
    const auto allocated = ainb::test::allocations() - before;
    CHECK(all_ok);
    CHECK_MESSAGE(allocated == 0, path.filename().string());
  }
  MESSAGE(evaluations << " evaluations, no allocation");
}

#include <thread>

#include "ainb/exb/thread_machines.hpp"

TEST_CASE("a thread lends one machine per program and options, and another to a nested run") {
  // Making a machine sweeps those of programs that have gone (earlier tests'): done first, with
  // a program that lives to the end, so the count below moves only by this test's machines.
  Fixture sweeper({}), a({}), b({});
  { const auto sweep = thread_machine(*sweeper.program); }
  const auto kept = thread_machines_kept();
  Machine* first = nullptr;
  Machine* second = nullptr;
  {
    const auto lease = thread_machine(*a.program);
    first = &*lease;
    CHECK(&lease->program() == a.program.get());
    // A run further up the stack holds it: a nested borrow gets a machine of its own.
    const auto nested = thread_machine(*a.program);
    second = &*nested;
    CHECK(second != first);
    CHECK(&nested->program() == a.program.get());
  }
  CHECK(thread_machines_kept() == kept + 2);
  const auto before = ainb::test::allocations();
  Machine* again = nullptr;
  {
    const auto lease = thread_machine(*a.program);
    again = &*lease;
  }
  CHECK(ainb::test::allocations() == before);  // lending a kept machine allocates nothing
  CHECK(again == second);                      // the most recently lent of the two
  {
    const auto other_program = thread_machine(*b.program);
    CHECK(&other_program->program() == b.program.get());
    const auto other_options = thread_machine(*a.program, {.instruction_budget = 7});
    CHECK(&*other_options != first);
  }
  CHECK(thread_machines_kept() == kept + 4);
  // Another thread has machines of its own.
  const Machine* theirs = nullptr;
  std::thread([&] { theirs = &*thread_machine(*a.program); }).join();
  CHECK(theirs != first);

  // A program's machines go when the program has gone and the thread makes its next machine.
  a.program.reset();
  CHECK(thread_machines_kept() == kept + 4);
  Fixture c({});
  { const auto lease = thread_machine(*c.program); }
  CHECK(thread_machines_kept() == kept + 2);  // b's, and c's new one

  // A program moved to another object is another program to the machines: theirs refers to the
  // object it was made for.
  Program moved(std::move(*c.program));
  const auto lease = thread_machine(moved);
  CHECK(&lease->program() == &moved);
  CHECK(moved.identity().serial() != c.program->identity().serial());
}
