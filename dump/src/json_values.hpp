#pragma once

// Shared by the two JSON writers (json_dump.cpp, peer_json.cpp).

#include <cmath>

#include <nlohmann/json.hpp>

#include "ainb/model.hpp"

namespace ainb::json_values {

// A float32 as JSON: the shortest double that reads back as the same float; JSON has no NaN or
// infinity, so those print as the strings the text form uses ("nan", "inf", "-inf") instead of
// the null nlohmann would write.
inline nlohmann::ordered_json float_json(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return double{v};
}

// How a pointer slot is printed: the project's schema prints null (no object is stored), the
// reference tool's layout prints the raw u32 the file holds.
enum class Pointers { AsNull, AsRaw };

inline nlohmann::ordered_json to_json(const Value& value, Pointers pointers) {
  return std::visit(
      [pointers](const auto& v) -> nlohmann::ordered_json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Vec3f>) {
          return nlohmann::ordered_json::array({float_json(v.x), float_json(v.y), float_json(v.z)});
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return pointers == Pointers::AsRaw ? nlohmann::ordered_json(v.raw)
                                             : nlohmann::ordered_json(nullptr);
        } else if constexpr (std::is_same_v<T, float>) {
          return float_json(v);
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          return std::string(v);
        } else {
          return v;
        }
      },
      value);
}

}  // namespace ainb::json_values
