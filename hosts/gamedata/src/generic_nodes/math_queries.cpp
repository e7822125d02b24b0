// The Query*Math* classes and the casts: outputs computed from inputs (docs/generic-nodes.md,
// "Queries").

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "internal.hpp"

namespace ainb::gamedata::generic {

namespace {

Vec3f cross(Vec3f a, Vec3f b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// TotK runs its AI at 30 frames a second: its frame counters count 30, 60, 150, 300 (seconds).
constexpr float kFramesPerSecond = 30;

class MakeVector final : public Calculation {
 public:
  MakeVector()
      : x_(declare_input<float>("X")),
        y_(declare_input<float>("Y")),
        z_(declare_input<float>("Z")),
        out_(declare_output<Vec3f>("Vector3f")) {}

 private:
  void calculate(NodeContext& c) override {
    c.write(out_, Vec3f{c.read(x_), c.read(y_), c.read(z_)});
  }
  runtime::InputParam<float> x_, y_, z_;
  runtime::OutputParam<Vec3f> out_;
};

class VectorElements final : public Calculation {
 public:
  VectorElements()
      : in_(declare_input<Vec3f>("Vector")),
        x_(declare_output<float>("f32_X")),
        y_(declare_output<float>("f32_Y")),
        z_(declare_output<float>("f32_Z")) {}

 private:
  void calculate(NodeContext& c) override {
    const auto v = c.read(in_);
    c.write(x_, v.x);
    c.write(y_, v.y);
    c.write(z_, v.z);
  }
  runtime::InputParam<Vec3f> in_;
  runtime::OutputParam<float> x_, y_, z_;
};

// Magnitude and the unit vector; a zero vector gives 0 and the zero vector.
class Normalize final : public Calculation {
 public:
  Normalize()
      : in_(declare_input<Vec3f>("Vector3f")),
        magnitude_(declare_output<float>("Magnitude")),
        out_(declare_output<Vec3f>("Vector3f")) {}

 private:
  void calculate(NodeContext& c) override {
    const auto v = c.read(in_);
    const auto m = length(v);
    c.write(magnitude_, m);
    c.write(out_, m > 0 ? scaled(1 / m, v) : Vec3f{});
  }
  runtime::InputParam<Vec3f> in_;
  runtime::OutputParam<float> magnitude_;
  runtime::OutputParam<Vec3f> out_;
};

// The distance between two points, on the XZ plane when IsCalcXZDistance, squared when
// IsCalcSquareDistance.
class Distance final : public Calculation {
 public:
  Distance()
      : from_(declare_input<Vec3f>("FromVector")),
        to_(declare_input<Vec3f>("ToVector")),
        square_(declare_property<bool>("IsCalcSquareDistance")),
        xz_(declare_property<bool>("IsCalcXZDistance")),
        out_(declare_output<float>("F32")) {}

 private:
  void calculate(NodeContext& c) override {
    auto d = minus(c.read(to_), c.read(from_));
    if (c.read(xz_)) d.y = 0;
    const auto squared = d.x * d.x + d.y * d.y + d.z * d.z;
    c.write(out_, c.read(square_) ? squared : std::sqrt(squared));
  }
  runtime::InputParam<Vec3f> from_, to_;
  runtime::PropertyParam<bool> square_, xz_;
  runtime::OutputParam<float> out_;
};

// From StartPosition to TargetPosition: TargetDistance, the unit TargetDirection (the zero vector
// for a zero distance) and TargetWorldYDistance, the target's height above the start. With
// CalcOnXZPlane the distance and direction ignore Y (the Y distance does not).
class DirAndDistance final : public Calculation {
 public:
  DirAndDistance()
      : start_(declare_input<Vec3f>("StartPosition")),
        target_(declare_input<Vec3f>("TargetPosition")),
        xz_(declare_property<bool>("CalcOnXZPlane")),
        distance_(declare_output<float>("TargetDistance")),
        y_distance_(declare_output<float>("TargetWorldYDistance")),
        direction_(declare_output<Vec3f>("TargetDirection")) {}

 private:
  void calculate(NodeContext& c) override {
    auto d = minus(c.read(target_), c.read(start_));
    c.write(y_distance_, d.y);
    if (c.read(xz_)) d.y = 0;
    const auto m = length(d);
    c.write(distance_, m);
    c.write(direction_, m > 0 ? scaled(1 / m, d) : Vec3f{});
  }
  runtime::InputParam<Vec3f> start_, target_;
  runtime::PropertyParam<bool> xz_;
  runtime::OutputParam<float> distance_, y_distance_;
  runtime::OutputParam<Vec3f> direction_;
};

}  // namespace

void add_math_queries(ClassList& classes) {
  using F = float;
  using I = std::int32_t;
  using V = Vec3f;
  auto add = [&](std::string name, std::shared_ptr<NodeClass> node_class) {
    classes.emplace_back(std::move(name), std::move(node_class));
  };
  auto binary_f32 = [&](std::string name, std::function<F(F, F)> f) {
    add(std::move(name), std::make_shared<Binary<F, F, F>>("InputA", "InputB", "Result", f));
  };
  auto unary_f32 = [&](std::string name, std::string in, std::string out, std::function<F(F)> f) {
    add(std::move(name), std::make_shared<Unary<F, F>>(std::move(in), std::move(out), f));
  };
  auto compare_s32 = [&](std::string name, std::string out, std::function<bool(I, I)> f) {
    add(std::move(name), std::make_shared<Binary<I, I, bool>>("S32", "S32Base", std::move(out), f));
  };
  binary_f32("QueryMathAddF32", std::plus<F>());
  binary_f32("QueryMathSubF32", std::minus<F>());
  binary_f32("QueryMathMulF32", std::multiplies<F>());
  binary_f32("QueryMathDivF32", std::divides<F>());  // IEEE: x / 0 is infinite (or NaN)
  add("QueryMathAddS32",
      std::make_shared<Binary<I, I, I>>("InputA", "InputB", "Result", [](I a, I b) {
        // Wraps around, as the game's 32-bit integers do (no undefined overflow here).
        return static_cast<I>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
      }));
  add("QueryMathAddVector3f",
      std::make_shared<Binary<V, V, V>>("InputA", "InputB", "Result", plus));
  add("QueryMathSubVector3f",
      std::make_shared<Binary<V, V, V>>("InputA", "InputB", "Result", minus));
  add("QueryMathLessF32", std::make_shared<Binary<F, F, bool>>(
                              "F32", "F32Base", "Bool", [](F x, F base) { return x < base; }));
  add("QueryMathLessOrEqualF32",
      std::make_shared<Binary<F, F, bool>>("F32", "F32Base", "Bool",
                                           [](F x, F base) { return x <= base; }));
  // The real files name EqualF32's base "S32Base", of type f32 (a copy of EqualS32's names).
  add("QueryMathEqualF32", std::make_shared<Binary<F, F, bool>>(
                               "F32", "S32Base", "Bool", [](F x, F base) { return x == base; }));
  compare_s32("QueryMathEqualS32", "Bool", std::equal_to<I>());
  compare_s32("QueryMathLessS32", "Bool", std::less<I>());
  // LessOrEqualS32's output is "Result" in every real file, where LessS32's is "Bool".
  compare_s32("QueryMathLessOrEqualS32", "Result", std::less_equal<I>());
  add("QueryMathClampUnderMax",
      std::make_shared<Binary<F, F, F>>("F32", "Max", "F32",
                                        [](F x, F max) { return std::min(x, max); }));
  add("QueryMathClampOverMin",
      std::make_shared<Binary<F, F, F>>("F32", "Min", "F32",
                                        [](F x, F min) { return std::max(x, min); }));
  add("QueryMathF32Min2",
      std::make_shared<Binary<F, F, F>>("a", "b", "F32", [](F a, F b) { return std::min(a, b); }));
  add("QueryMathF32Max2",
      std::make_shared<Binary<F, F, F>>("a", "b", "F32", [](F a, F b) { return std::max(a, b); }));
  add("QueryMathPowF32", std::make_shared<Binary<F, F, F>>(
                             "Base", "Exponent", "Power", [](F b, F e) { return std::pow(b, e); }));
  unary_f32("QueryMathAbsF32", "Input", "Result", [](F x) { return std::fabs(x); });
  unary_f32("QueryMathCosF32", "Input", "Result", [](F x) { return std::cos(x); });
  unary_f32("QueryMathDeg2Rad", "deg", "rad",
            [](F deg) { return deg * (std::numbers::pi_v<F> / 180); });
  unary_f32("QueryMathrad2deg", "F32", "F32",
            [](F rad) { return rad * (180 / std::numbers::pi_v<F>); });
  // Metres per frame and per second, at the game's 30 frames a second.
  unary_f32("QueryMathSpeedMpf2SpeedMps", "mpf", "mps",
            [](F mpf) { return mpf * kFramesPerSecond; });
  unary_f32("QueryMathSpeedMps2SpeedMpf", "mps", "mpf",
            [](F mps) { return mps / kFramesPerSecond; });
  add("QueryMathMulF32AndVector3f",
      std::make_shared<Binary<F, V, V>>("F32", "Vector", "Vector", scaled));
  add("QueryMathCrossVector",
      std::make_shared<Binary<V, V, V>>("FromVector", "ToVector", "Vector", cross));
  add("QueryMathDotVector",
      std::make_shared<Binary<V, V, F>>("FromVector", "ToVector", "F32", [](V a, V b) {
        return a.x * b.x + a.y * b.y + a.z * b.z;
      }));
  add("QueryMathGetVectorLength", std::make_shared<Unary<V, F>>("Vector", "F32", length));
  add("QueryMathGetVectorLengthXZ", std::make_shared<Unary<V, F>>("Vector", "F32", [](V v) {
        return std::sqrt(v.x * v.x + v.z * v.z);
      }));
  // The vector on the XZ plane (Y dropped); 10 of the 12 real ones feed a NormalizeVector.
  add("QueryMathMakeXZVector3f", std::make_shared<Unary<V, V>>("Vector", "Vector", [](V v) {
        return V{v.x, 0, v.z};
      }));
  add("QueryGenericCastS32ToF32",
      std::make_shared<Unary<I, F>>("Input", "Output", [](I x) { return static_cast<F>(x); }));
  add("QueryGenericStringIsEmpty",
      std::make_shared<Unary<std::string_view, bool>>(
          "String", "Result", [](std::string_view s) { return s.empty(); }));
  add("QueryMathMakeVector3fFromXYZ", std::make_shared<MakeVector>());
  add("QueryMathVector3fGetElements", std::make_shared<VectorElements>());
  add("QueryMathNormalizeVector", std::make_shared<Normalize>());
  add("QueryMathCalcVectorDistance", std::make_shared<Distance>());
  add("QueryMathCalcDirAndDistToTarget", std::make_shared<DirAndDistance>());
}

}  // namespace ainb::gamedata::generic
