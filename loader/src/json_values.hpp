#pragma once

// Shared by the two JSON writers (json_dump.cpp, peer_json.cpp).

#include <nlohmann/json.hpp>

#include "ainb/model.hpp"

namespace ainb::json_values {

// How a pointer slot is printed: the project's schema prints null (no object is stored), the
// reference tool's layout prints the raw u32 the file holds.
enum class Pointers { AsNull, AsRaw };

inline nlohmann::ordered_json to_json(const Value& value, Pointers pointers) {
  return std::visit(
      [pointers](const auto& v) -> nlohmann::ordered_json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Vec3f>) {
          return nlohmann::ordered_json::array({double{v.x}, double{v.y}, double{v.z}});
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return pointers == Pointers::AsRaw ? nlohmann::ordered_json(v.raw)
                                             : nlohmann::ordered_json(nullptr);
        } else if constexpr (std::is_same_v<T, float>) {
          return double{v};  // float32 printed as the shortest double that round-trips
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          return std::string(v);
        } else {
          return v;
        }
      },
      value);
}

}  // namespace ainb::json_values
