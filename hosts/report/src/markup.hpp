#pragma once

// Text inside HTML or SVG markup, attributes included: the page's and the built-in layout's.

#include <string>
#include <string_view>

namespace ainb::report::detail {

inline std::string escape_markup(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace ainb::report::detail
