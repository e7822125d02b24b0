#include "ainb/exb/standard_functions.hpp"

#include <algorithm>
#include <array>
#include <cmath>

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

using Register = void (*)(UserFunctions&, std::string_view);

template <auto F>
void add(UserFunctions& functions, std::string_view signature) {
  functions.add(signature, F);
}

struct Row {
  StandardFunction function;
  Register add;
};

// Every signature of the real files (corpus/ainb and corpus/bulk) that computes from its
// arguments alone; a receiver "(Vector3F)" is the first argument.
const std::array kTable{
    Row{{"Min( Float, Float, Float )", "the smaller of two floats"},
        add<+[](float a, float b) { return std::min(a, b); }>},
    Row{{"Max( Float, Float, Float )", "the larger of two floats"},
        add<+[](float a, float b) { return std::max(a, b); }>},
    Row{{"Cos( Float, Float )", "the cosine of an angle in radians"},
        add<+[](float a) { return std::cos(a); }>},
    Row{{"CastIntToFloat( Float, Int )", "an int as a float"},
        add<+[](std::int32_t v) { return static_cast<float>(v); }>},
    Row{{"Normalize( Vector3F, Vector3F )", "the vector scaled to length 1 (zero stays zero)"},
        add<+[](Vec3 v) { return normalized(v); }>},
    Row{{"(Vector3F).Normalized( Vector3F )", "the vector scaled to length 1 (zero stays zero)"},
        add<+[](Vec3 v) { return normalized(v); }>},
    Row{{"(Vector3F).Length( Float )", "the vector's length"},
        add<+[](Vec3 v) { return std::sqrt(dot(v, v)); }>},
    Row{{"(Vector3F).LengthXZ( Float )", "the length of its x and z, the horizontal distance"},
        add<+[](Vec3 v) { return std::sqrt(v.x * v.x + v.z * v.z); }>},
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
