#pragma once

// The page's assets (hosts/report/assets/), embedded by the build (assets.cpp is generated).

#include <string_view>

namespace ainb::report::assets {

extern const std::string_view page_html;  // the template: {{TITLE}}, {{STYLE}}, {{GRAPHS}}, ...
extern const std::string_view page_css;
extern const std::string_view page_js;

}  // namespace ainb::report::assets
