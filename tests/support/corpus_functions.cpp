#include "corpus_functions.hpp"

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
  f.add("Actor.Forward( Vector3F )", [] { return Vec3{0, 0, 1}; });
  f.add("Actor.Pos( Vector3F )", [] { return Vec3{1, 2, 3}; });
  f.add("Actor.Up( Vector3F )", [] { return Vec3{0, 1, 0}; });
  f.add("IsEnter( Bool )", [] { return true; });
  return f;
}

}  // namespace ainb::test
