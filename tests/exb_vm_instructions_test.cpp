// The EXB machine's instructions: each one for every type it takes, with the defined edge cases
// of integer arithmetic, and every operand source.

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <doctest/doctest.h>

#include "ainb/exb/machine.hpp"
#include "exb_vm_fixture.hpp"

using namespace ainb;
using namespace ainb::exb;
using namespace ainb::test;

namespace {

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
    // Slot 65535 makes the count 65536: wrapped to zero in 16 bits, neither the arena nor the
    // frame check would cover the slot, and the copy would run off the arena.
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
