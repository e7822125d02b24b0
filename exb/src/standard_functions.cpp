#include "ainb/exb/standard_functions.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ainb::exb {
namespace {

float dot(Vec3 a, Vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// A zero vector stays zero rather than becoming NaN: an actor standing on its target has no
// direction, and NaN would poison every comparison that follows.
Vec3 normalized(Vec3 v) {
  const float length = std::sqrt(dot(v, v));
  if (length == 0) return v;
  return {v.x / length, v.y / length, v.z / length};
}

// Radians in [0, pi], as Cos( Float, Float ) takes them (Horablin.action.basicattack calls
// Cos on CalcAngle's result); 0 when either vector is zero.
float angle(Vec3 a, Vec3 b) {
  const float lengths = std::sqrt(dot(a, a) * dot(b, b));
  if (lengths == 0) return 0;
  return std::acos(std::clamp(dot(a, b) / lengths, -1.0f, 1.0f));
}

// The distance between two points.
float distance(Vec3 a, Vec3 b) {
  const Vec3 d{a.x - b.x, a.y - b.y, a.z - b.z};
  return std::sqrt(dot(d, d));
}

// ClampMinMax's argument order is (min, value, max): the real calls clamp 1 - x into (0, 1),
// a blackboard int + 1 into (-1, 2), a ratio into (0, 1) before Lerp. The upper bound is
// applied first and the lower last, so min wins when min > max; a NaN value stays NaN.
template <typename T>
T clamp_min_max(T min, T value, T max) {
  if (value > max) value = max;
  if (value < min) value = min;
  return value;
}

// Toward zero, as a C cast and the Switch's ARM64 FCVTZS convert; out of range saturates and
// NaN gives 0, as FCVTZS does, instead of C++ undefined behaviour.
std::int32_t truncated(float v) {
  if (std::isnan(v)) return 0;
  if (v >= 2147483648.0f) return std::numeric_limits<std::int32_t>::max();
  if (v < -2147483648.0f) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(v);
}

using Register = void (*)(UserFunctions&, std::string_view);

template <auto F>
void add(UserFunctions& functions, std::string_view signature) {
  functions.add(signature, F);
}

struct Row {
  StandardFunction function;
  Register add;
};

// Every signature of the real files (corpus/ainb, corpus/bulk and corpus/wide) that computes
// from its arguments alone; a receiver "(Vector3F)" is the first argument.
const std::array kTable{
    Row{{"Min( Float, Float, Float )", "the smaller of two floats"},
        add<+[](float a, float b) { return std::min(a, b); }>},
    Row{{"Max( Float, Float, Float )", "the larger of two floats"},
        add<+[](float a, float b) { return std::max(a, b); }>},
    Row{{"Cos( Float, Float )", "the cosine of an angle in radians"},
        add<+[](float a) { return std::cos(a); }>},
    Row{{"Sin( Float, Float )", "the sine of an angle in radians"},
        add<+[](float a) { return std::sin(a); }>},
    Row{{"Abs( Float, Float )", "the absolute value of a float"},
        add<+[](float a) { return std::fabs(a); }>},
    Row{{"Sqrt( Float, Float )", "the square root (NaN for a negative float, as IEEE)"},
        add<+[](float a) { return std::sqrt(a); }>},
    Row{{"Pow( Float, Float, Float )", "the first float raised to the power of the second"},
        add<+[](float base, float exponent) { return std::pow(base, exponent); }>},
    Row{{"ClampMinMax( Float, Float, Float, Float )",
         "ClampMinMax(min, value, max): the value limited to [min, max] (min wins if min > max)"},
        add<+[](float min, float value, float max) { return clamp_min_max(min, value, max); }>},
    Row{{"ClampMinMax( Int, Int, Int, Int )",
         "ClampMinMax(min, value, max) on ints: the value limited to [min, max]"},
        add<+[](std::int32_t min, std::int32_t value, std::int32_t max) {
          return clamp_min_max(min, value, max);
        }>},
    Row{{"CastIntToFloat( Float, Int )", "an int as a float"},
        add<+[](std::int32_t v) { return static_cast<float>(v); }>},
    Row{{"CastFloatToInt( Int, Float )",
         "a float as an int, truncated toward zero (saturating; NaN gives 0)"},
        add<+[](float v) { return truncated(v); }>},
    Row{{"GetY( Float, Vector3F )", "the vector's y"}, add<+[](Vec3 v) { return v.y; }>},
    Row{{"SetY( Vector3F, Vector3F, Float )", "the vector with its y replaced by the float"},
        add<+[](Vec3 v, float y) {
          return Vec3{v.x, y, v.z};
        }>},
    Row{{"Lerp( Vector3F, Vector3F, Vector3F, Float )",
         "Lerp(a, b, t) = a + (b - a) * t, t not clamped"},
        add<+[](Vec3 a, Vec3 b, float t) {
          return Vec3{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t};
        }>},
    Row{{"Normalize( Vector3F, Vector3F )", "the vector scaled to length 1 (zero stays zero)"},
        add<+[](Vec3 v) { return normalized(v); }>},
    Row{{"(Vector3F).Normalized( Vector3F )", "the vector scaled to length 1 (zero stays zero)"},
        add<+[](Vec3 v) { return normalized(v); }>},
    Row{{"(Vector3F).Length( Float )", "the vector's length"},
        add<+[](Vec3 v) { return std::sqrt(dot(v, v)); }>},
    Row{{"(Vector3F).LengthXZ( Float )", "the length of its x and z, the horizontal distance"},
        add<+[](Vec3 v) { return std::sqrt(v.x * v.x + v.z * v.z); }>},
    Row{{"(Vector3F).Distance( Float, Vector3F )", "the distance between the two points"},
        add<+[](Vec3 a, Vec3 b) { return distance(a, b); }>},
    Row{{"(Vector3F).Dot( Float, Vector3F )", "the dot product"},
        add<+[](Vec3 a, Vec3 b) { return dot(a, b); }>},
    Row{{"(Vector3F).Cross( Vector3F, Vector3F )", "the cross product, receiver × argument"},
        add<+[](Vec3 a, Vec3 b) {
          return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
        }>},
    Row{{"(Vector3F).CalcAngle( Float, Vector3F )",
         "the angle between the two vectors in radians, 0 to pi (0 when either is zero)"},
        add<+[](Vec3 a, Vec3 b) { return angle(a, b); }>},
};

std::array<StandardFunction, kTable.size()> list() {
  std::array<StandardFunction, kTable.size()> out;
  std::transform(kTable.begin(), kTable.end(), out.begin(),
                 [](const Row& r) { return r.function; });
  return out;
}

}  // namespace

const UserFunctions& standard_functions() {
  static const UserFunctions functions = [] {
    UserFunctions f;
    for (const auto& row : kTable)
      row.add(f, row.function.signature);
    return f;
  }();
  return functions;
}

std::span<const StandardFunction> standard_function_list() {
  static const auto functions = list();
  return functions;
}

}  // namespace ainb::exb
