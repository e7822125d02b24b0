#pragma once

// The page's assets (hosts/report/assets/), embedded by the build (assets.cpp is generated).

#include <string_view>

namespace ainb::report::assets {

extern const std::string_view page_html;  // the template: {{TITLE}}, {{STYLE}}, {{GRAPHS}}, ...
extern const std::string_view page_css;
// The page's script, in this order: helpers, the reading of a run, the page.
extern const std::string_view dom_js;
extern const std::string_view tracks_js;
extern const std::string_view page_js;

}  // namespace ainb::report::assets
