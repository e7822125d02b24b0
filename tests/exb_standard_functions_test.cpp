// The standard functions (ainb/exb/standard_functions.hpp): each one's values, the table's
// signatures, a host's function winning over a standard one, and every real file needing no
// user function but the game's own (the blackboard codes, the actor, IsEnter, StepRate, GetRand*).

#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>

#include <doctest/doctest.h>

#include "ainb/exb/program.hpp"
#include "ainb/exb/standard_functions.hpp"
#include "ainb/loader.hpp"
#include "cli_run.hpp"
#include "corpus.hpp"

using namespace ainb;
using namespace ainb::exb;

namespace {

// Calls the standard function `signature` on `arguments` (written one after another, as a CFN's
// block holds them) and reads its result of type R.
template <typename R, typename... A>
R call(std::string_view signature, A... arguments) {
  const auto function = standard_functions().find(signature);
  REQUIRE_MESSAGE(function != nullptr, signature);
  std::uint8_t block[64] = {};
  std::size_t at = 0;
  ((std::memcpy(block + at, &arguments, sizeof(A)), at += sizeof(A)), ...);
  CallContext context;
  (*function)(context, block);
  R result;
  std::memcpy(&result, block, sizeof(R));
  return result;
}

}  // namespace

TEST_CASE("standard functions: the values each one computes") {
  CHECK(call<float>("Min( Float, Float, Float )", 5.0f, 60.0f) == 5.0f);
  CHECK(call<float>("Max( Float, Float, Float )", 5.0f, 3.5f) == 5.0f);
  CHECK(call<float>("Cos( Float, Float )", 0.0f) == 1.0f);
  CHECK(call<float>("Cos( Float, Float )", std::numbers::pi_v<float>) == -1.0f);
  CHECK(call<float>("CastIntToFloat( Float, Int )", std::int32_t{-7}) == -7.0f);
  CHECK(call<Vec3>("Normalize( Vector3F, Vector3F )", Vec3{0, 3, 4}) == Vec3{0, 0.6f, 0.8f});
  CHECK(call<Vec3>("(Vector3F).Normalized( Vector3F )", Vec3{3, 0, 4}) == Vec3{0.6f, 0, 0.8f});
  // A zero vector has no direction: it stays zero, not NaN.
  CHECK(call<Vec3>("(Vector3F).Normalized( Vector3F )", Vec3{}) == Vec3{});
  CHECK(call<Vec3>("Normalize( Vector3F, Vector3F )", Vec3{}) == Vec3{});
  CHECK(call<float>("(Vector3F).Length( Float )", Vec3{3, 12, 4}) == 13.0f);
  CHECK(call<float>("(Vector3F).LengthXZ( Float )", Vec3{3, 12, 4}) == 5.0f);
  CHECK(call<float>("(Vector3F).Dot( Float, Vector3F )", Vec3{1, 2, 3}, Vec3{4, -5, 6}) == 12.0f);
  // Receiver x argument: (1,0,0) x (0,1,0) is +z.
  CHECK(call<Vec3>("(Vector3F).Cross( Vector3F, Vector3F )", Vec3{1, 0, 0}, Vec3{0, 1, 0}) ==
        Vec3{0, 0, 1});
  CHECK(call<float>("(Vector3F).CalcAngle( Float, Vector3F )", Vec3{2, 0, 0}, Vec3{0, 0, 5}) ==
        doctest::Approx(std::numbers::pi / 2));
  CHECK(call<float>("(Vector3F).CalcAngle( Float, Vector3F )", Vec3{1, 0, 0}, Vec3{-3, 0, 0}) ==
        doctest::Approx(std::numbers::pi));
  // Parallel vectors whose cosine rounds past 1 still give 0, not NaN.
  CHECK(call<float>("(Vector3F).CalcAngle( Float, Vector3F )", Vec3{0.1f, 0.2f, 0.3f},
                    Vec3{0.1f, 0.2f, 0.3f}) == 0.0f);
  CHECK(call<float>("(Vector3F).CalcAngle( Float, Vector3F )", Vec3{}, Vec3{1, 0, 0}) == 0.0f);
}

TEST_CASE("standard functions: the maths of the wide corpus") {
  using Limits = std::numeric_limits<std::int32_t>;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Symmetric: receiver and argument are two points.
  CHECK(call<float>("(Vector3F).Distance( Float, Vector3F )", Vec3{1, 2, 3}, Vec3{4, 6, 3}) ==
        5.0f);
  CHECK(call<float>("(Vector3F).Distance( Float, Vector3F )", Vec3{4, 6, 3}, Vec3{1, 2, 3}) ==
        5.0f);
  CHECK(call<float>("(Vector3F).Distance( Float, Vector3F )", Vec3{1, 2, 3}, Vec3{1, 2, 3}) ==
        0.0f);
  CHECK(call<float>("Abs( Float, Float )", -2.5f) == 2.5f);
  CHECK(call<float>("Abs( Float, Float )", 2.5f) == 2.5f);
  CHECK_FALSE(std::signbit(call<float>("Abs( Float, Float )", -0.0f)));
  CHECK(call<float>("Sin( Float, Float )", 0.0f) == 0.0f);
  CHECK(call<float>("Sin( Float, Float )", std::numbers::pi_v<float> / 2) == 1.0f);
  CHECK(call<float>("Sqrt( Float, Float )", 16.0f) == 4.0f);
  CHECK(call<float>("Sqrt( Float, Float )", 0.0f) == 0.0f);
  CHECK(std::isnan(call<float>("Sqrt( Float, Float )", -1.0f)));  // IEEE, as the hardware
  // Pow(base, exponent): Sandworm.brain.patrol compares a squared distance with Pow(5, 2).
  CHECK(call<float>("Pow( Float, Float, Float )", 5.0f, 2.0f) == 25.0f);
  CHECK(call<float>("Pow( Float, Float, Float )", 4.0f, 0.5f) == 2.0f);
  CHECK(call<float>("Pow( Float, Float, Float )", 0.0f, -1.0f) == inf);
  CHECK(call<float>("Pow( Float, Float, Float )", -8.0f, 0.0f) == 1.0f);
  CHECK(std::isnan(call<float>("Pow( Float, Float, Float )", -8.0f, 1.0f / 3)));
  // ClampMinMax(min, value, max), the order of the real calls.
  CHECK(call<float>("ClampMinMax( Float, Float, Float, Float )", 0.0f, 0.25f, 1.0f) == 0.25f);
  CHECK(call<float>("ClampMinMax( Float, Float, Float, Float )", 0.0f, -3.0f, 1.0f) == 0.0f);
  CHECK(call<float>("ClampMinMax( Float, Float, Float, Float )", 0.0f, 3.0f, 1.0f) == 1.0f);
  CHECK(call<float>("ClampMinMax( Float, Float, Float, Float )", 0.0f, 1.0f, 1.0f) == 1.0f);
  // min above max (Lynel.action.largeattack: at least 3, at most the target's distance): min.
  CHECK(call<float>("ClampMinMax( Float, Float, Float, Float )", 3.0f, 10.0f, 2.0f) == 3.0f);
  CHECK(call<float>("ClampMinMax( Float, Float, Float, Float )", 3.0f, 2.5f, 2.0f) == 3.0f);
  CHECK(std::isnan(call<float>("ClampMinMax( Float, Float, Float, Float )", 0.0f, nan, 1.0f)));
  CHECK(call<std::int32_t>("ClampMinMax( Int, Int, Int, Int )", -1, 5, 2) == 2);
  CHECK(call<std::int32_t>("ClampMinMax( Int, Int, Int, Int )", -1, -7, 2) == -1);
  CHECK(call<std::int32_t>("ClampMinMax( Int, Int, Int, Int )", -1, 0, 2) == 0);
  CHECK(call<std::int32_t>("ClampMinMax( Int, Int, Int, Int )", 4, 0, 2) == 4);
  // Toward zero, saturating, NaN 0: what the Switch's FCVTZS gives.
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", 2.9f) == 2);
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", -2.9f) == -2);
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", -0.5f) == 0);
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", 7.0f) == 7);
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", 3e9f) == Limits::max());
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", 2147483648.0f) == Limits::max());
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", -2147483648.0f) == Limits::min());
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", -inf) == Limits::min());
  CHECK(call<std::int32_t>("CastFloatToInt( Int, Float )", nan) == 0);
  CHECK(call<float>("GetY( Float, Vector3F )", Vec3{1, -2, 3}) == -2.0f);
  CHECK(call<Vec3>("SetY( Vector3F, Vector3F, Float )", Vec3{1, -2, 3}, 9.5f) == Vec3{1, 9.5f, 3});
  // Lerp(a, b, t) = a + (b - a) t; t is not clamped (the real calls clamp it first).
  const Vec3 a{0, 10, -4}, b{8, 20, 4};
  CHECK(call<Vec3>("Lerp( Vector3F, Vector3F, Vector3F, Float )", a, b, 0.0f) == a);
  CHECK(call<Vec3>("Lerp( Vector3F, Vector3F, Vector3F, Float )", a, b, 1.0f) == b);
  CHECK(call<Vec3>("Lerp( Vector3F, Vector3F, Vector3F, Float )", a, b, 0.25f) ==
        Vec3{2, 12.5f, -2});
  CHECK(call<Vec3>("Lerp( Vector3F, Vector3F, Vector3F, Float )", a, b, 1.5f) == Vec3{12, 25, 8});
  CHECK(call<Vec3>("Lerp( Vector3F, Vector3F, Vector3F, Float )", a, b, -0.5f) == Vec3{-4, 5, -8});
}

TEST_CASE("standard functions: the wide corpus's calls compute in their files (ainb eval)") {
  const auto dir = test::corpus_dir();
  if (dir.empty()) return;
  const auto eval = [&](const char* file, std::vector<std::string> args) {
    args.insert(args.begin(), {"eval", (dir / "wide/ainb" / file).string()});
    const auto r = test::ainb_cli(args);
    CHECK_MESSAGE(r.code == 0, r.err);
    return r.out;
  };
  // QueryMathLessOrEqualF32's F32Base: a squared distance against a radius of 5, squared.
  CHECK(eval("Sandworm.brain.patrol.module.ainb", {"--function", "0"}) == "FLOAT 25\n");
  // Alpha = ClampMinMax(0, 1 - x, 1).
  CHECK(eval("MiasmaSwarmGanon.action.hide.module.ainb", {"--function", "0", "--input", "0.25"}) ==
        "FLOAT 0.75\n");
  CHECK(eval("MiasmaSwarmGanon.action.hide.module.ainb", {"--function", "0", "--input", "-2"}) ==
        "FLOAT 1\n");
  // -Sqrt(n + 1).
  CHECK(eval("Mogurudo_Baby.action.eat.module.ainb", {"--function", "1", "--input", "8"}) ==
        "FLOAT -3\n");
  // SetY(v, GetY(v) + 1).
  CHECK(eval("MiasmaSwarm.action.miasmacreateattack.module.ainb",
             {"--function", "1", "--input", "1,2,3"}) == "VECTOR3F (1, 3, 3)\n");
  // KeepTime = CastFloatToInt(a blackboard float).
  CHECK(eval("Lynel_SightDown.actionseq.root.ainb",
             {"--function", "0", "--user", "GetBBCodeFloat( Float, Int )=2.9"}) == "INT 2\n");
  CHECK(eval("Drake_ReturnToHomePosition_ToGround.actionseq.root.ainb",
             {"--function", "0", "--input", "-4.5"}) == "FLOAT 4.5\n");
}

TEST_CASE("standard functions: the table lists every one, each signature parsed and bound") {
  const auto list = standard_function_list();
  CHECK(list.size() == 22);
  std::set<std::string_view> seen;
  for (const auto& f : list) {
    CAPTURE(f.signature);
    CHECK(parse_signature(f.signature));
    CHECK(standard_functions().find(f.signature) != nullptr);
    CHECK_FALSE(f.meaning.empty());
    CHECK(seen.insert(f.signature).second);
  }
  CHECK(standard_functions().find("GetBBCodeBool( Bool, Int )") == nullptr);
  CHECK(standard_functions().find("GetRand( Int, Int )") == nullptr);
}

TEST_CASE("every real file needs no user function but the game's own") {
  const auto files = test::all_real_ainb_files();
  if (files.empty()) return;
  std::set<std::string> missing;
  std::size_t with_expressions = 0;
  for (const auto& path : files) {
    const auto model = load_file(path);
    if (!model->expressions) continue;
    ++with_expressions;
    const Program program(*model->expressions, model->name, nullptr);
    for (auto& signature : program.missing_functions())
      missing.insert(std::move(signature));
  }
  CHECK(with_expressions > 30);
  // What the game's state answers: blackboard codes, the actor, whether a state was entered, the
  // frame's step rate, and random numbers (the instance's generator is not the EXB API's to give;
  // docs/exb.md, "Standard functions").
  CHECK(missing == std::set<std::string>{
                       "Actor.Forward( Vector3F )",
                       "Actor.HomePos( Vector3F )",
                       "Actor.Pos( Vector3F )",
                       "Actor.Up( Vector3F )",
                       "GetBBCodeBool( Bool, Int )",
                       "GetBBCodeFloat( Float, Int )",
                       "GetBBCodeInt( Int, Int )",
                       "GetBBCodeVector3F( Vector3F, Int )",
                       "GetRand( Float, Float )",
                       "GetRand( Int, Int )",
                       "GetRandRange( Int, Int, Int )",
                       "IsEnter( Bool )",
                       "StepRate( Float )",
                   });
}
