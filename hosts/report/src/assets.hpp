#pragma once

// The page's assets (hosts/report/assets/), embedded by the build (assets.cpp is generated).

#include <string_view>

namespace ainb::report::assets {

extern const std::string_view page_html;  // the template: {{TITLE}}, {{STYLE}}, {{GRAPHS}}, ...
extern const std::string_view page_css;
extern const std::string_view review_html;  // the review's page: {{TITLE}}, {{COUNTS}}, {{FILES}}
// The page's script, in this order: helpers, the reading of a run, then the page by concept, its
// parts sharing one function's scope (page.cpp).
extern const std::string_view dom_js;
extern const std::string_view tracks_js;
extern const std::string_view page_js;  // the page's data, state, sides and marks
extern const std::string_view graph_js;
extern const std::string_view nodes_js;
extern const std::string_view blackboard_js;
extern const std::string_view items_js;
extern const std::string_view timeline_js;
extern const std::string_view panel_js;
extern const std::string_view frame_js;  // drawing a frame, navigation, controls, the start

}  // namespace ainb::report::assets
