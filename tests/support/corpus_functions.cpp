#include "corpus_functions.hpp"

#include <algorithm>
#include <cmath>

namespace ainb::test {

exb::UserFunctions corpus_user_functions() {
  using exb::Vec3;
  exb::UserFunctions f;
  f.add("GetBBCodeBool( Bool, Int )", [](std::int32_t code) { return code % 2 == 1; });
  f.add("GetBBCodeInt( Int, Int )", [](std::int32_t code) { return code * 10; });
  f.add("GetBBCodeFloat( Float, Int )",
        [](std::int32_t code) { return static_cast<float>(code) * 0.5f; });
  f.add("GetBBCodeVector3F( Vector3F, Int )", [](std::int32_t code) {
    const auto c = static_cast<float>(code);
    return Vec3{c, 2 * c, 3 * c};
  });
  f.add("Normalize( Vector3F, Vector3F )", [](Vec3 v) { return v; });
  f.add("(Vector3F).Normalized( Vector3F )", [](Vec3 v) { return v; });
  f.add("Actor.Forward( Vector3F )", [] { return Vec3{0, 0, 1}; });
  f.add("Actor.Pos( Vector3F )", [] { return Vec3{1, 2, 3}; });
  f.add("Actor.Up( Vector3F )", [] { return Vec3{0, 1, 0}; });
  f.add("IsEnter( Bool )", [] { return true; });
  f.add("Min( Float, Float, Float )", [](float a, float b) { return std::min(a, b); });
  f.add("Max( Float, Float, Float )", [](float a, float b) { return std::max(a, b); });
  f.add("Cos( Float, Float )", [](float a) { return std::cos(a); });
  f.add("CastIntToFloat( Float, Int )", [](std::int32_t v) { return static_cast<float>(v); });
  auto dot = [](Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; };
  f.add("(Vector3F).Length( Float )", [dot](Vec3 v) { return std::sqrt(dot(v, v)); });
  f.add("(Vector3F).LengthXZ( Float )", [](Vec3 v) { return std::sqrt(v.x * v.x + v.z * v.z); });
  f.add("(Vector3F).Dot( Float, Vector3F )", dot);
  f.add("(Vector3F).Cross( Vector3F, Vector3F )", [](Vec3 a, Vec3 b) {
    return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  });
  f.add("(Vector3F).CalcAngle( Float, Vector3F )", [dot](Vec3 a, Vec3 b) {
    const float lengths = std::sqrt(dot(a, a) * dot(b, b));
    return lengths == 0 ? 0.0f : std::acos(std::clamp(dot(a, b) / lengths, -1.0f, 1.0f));
  });
  return f;
}

}  // namespace ainb::test
