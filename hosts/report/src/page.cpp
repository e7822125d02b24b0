// What every page is made of (page_parts.hpp), and the page of a run: the template
// (assets/page.html) filled with the style, the script, the graphs dot laid out and the data the
// script reads.

#include "ainb/report/page.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ainb/report/dot.hpp"
#include "ainb/writer/text_form.hpp"
#include "assets.hpp"
#include "markup.hpp"
#include "page_parts.hpp"

namespace ainb::report {

namespace {

// JSON inside <script>: no '<' at all (written as \u003c), so no "</script>" or "<!--" in a name
// ends or comments out the script. A string that is not UTF-8 gets U+FFFD for its bad bytes.
std::string script_json(const nlohmann::json& data) {
  const auto text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

// dot's SVG without its XML prologue and doctype, to sit inside the page.
std::string inline_svg(const std::string& svg) {
  const auto start = svg.find("<svg");
  return start == std::string::npos ? std::string() : svg.substr(start);
}

}  // namespace

namespace detail {

// The template with each {{NAME}} replaced, in one pass over the template only (a value that
// holds "{{DATA}}" stays as it is).
std::string fill_template(std::string_view page,
                          const std::map<std::string_view, std::string_view>& values) {
  std::string out;
  for (std::size_t at = 0;;) {
    const auto open = page.find("{{", at);
    if (open == std::string_view::npos) {
      out += page.substr(at);
      return out;
    }
    const auto close = page.find("}}", open);
    out += page.substr(at, open - at);
    const auto value = values.find(page.substr(open + 2, close - open - 2));
    out += value != values.end() ? value->second : page.substr(open, close + 2 - open);
    at = close + 2;
  }
}

std::string dot_program(const PageOptions& options) {
  const auto dot = options.dot.empty() ? find_dot() : options.dot;
  return !dot.empty() && std::filesystem::exists(dot) ? dot : std::string();
}

Side page_side(const runtime::Graph& top, const std::string& dot, std::string_view prefix,
               std::string label) {
  const auto graphs = simulation::actor_graphs(top);
  Side side;
  nlohmann::json files = nlohmann::json::array();
  std::string layouts;
  for (std::size_t f = 0; f < graphs.size(); ++f) {
    const auto& graph = *graphs[f];
    const auto& model = graph.model();
    const auto ids = fmt::format("{}{}", prefix, f);
    auto text = writer::to_text(model);
    nlohmann::json nodes = nlohmann::json::array();
    for (std::uint32_t n = 0; n < model.nodes.size(); ++n) {
      nlohmann::json node = std::move(text["nodes"][n]);
      node["label"] = node_label(model, n);
      if (const auto* called = graph.module_graph(n)) {
        const auto at = std::find(graphs.begin(), graphs.end(), called) - graphs.begin();
        node["calls"] = at;
      }
      nodes.push_back(std::move(node));
    }
    nlohmann::json commands = nlohmann::json::array();
    for (const auto& command : model.commands)
      commands.push_back(command.name);
    files.push_back({{"name", graph.file_name()},
                     {"ids", ids},
                     {"nodes", std::move(nodes)},
                     {"commands", std::move(commands)},
                     {"blackboard", std::move(text["blackboard"])}});
    // Laid out by dot where it runs, else (or where it fails) by the report's own layout.
    const auto drawing = graph_drawing(model, {.results = {}, .ids = ids});
    std::string svg;
    if (!dot.empty()) {
      const auto rendered = render_svg(dot, dot_text(drawing));
      if (rendered.ok) {
        svg = inline_svg(rendered.svg);
      } else {
        side.failed +=
            fmt::format("{}{}: {}{}", side.failed.empty() ? "" : "\n", graph.file_name(),
                        rendered.error, rendered.messages.empty() ? "" : ": " + rendered.messages);
      }
    }
    if (svg.empty()) svg = layout_svg(drawing);
    layouts += fmt::format("<div class=\"layout\" data-file=\"{}\" hidden>\n{}</div>\n", f, svg);
  }
  side.graphs = fmt::format(
      "<div class=\"side\" data-side=\"{}\">\n<h2 class=\"side-label\">{}</h2>\n{}</div>\n", prefix,
      detail::escape_markup(label), layouts);
  side.data = {{"label", std::move(label)}, {"prefix", prefix}, {"files", std::move(files)}};
  return side;
}

Side run_side(const simulation::Summary& summary, const Timeline& timeline, const std::string& dot,
              std::string_view prefix, std::string label) {
  auto side = page_side(*summary.graph, dot, prefix, std::move(label));
  side.data["timeline"] = timeline.to_json(summary.frames);
  side.data["summary"] = {{"file", summary.file},
                          {"command", summary.command},
                          {"state", summary.state},
                          {"frames", summary.frames},
                          {"ended_frame", summary.ended_frame},
                          {"fault", summary.fault},
                          {"alerts", summary.alerts.size()},
                          {"warnings", summary.warnings.size()}};
  return side;
}

Page assemble(std::string_view kind, std::string_view title, const std::string& dot,
              std::vector<Side> sides, nlohmann::json data) {
  std::string missing;
  if (dot.empty()) {
#ifdef __EMSCRIPTEN__
    // A browser cannot start programs: what the reader can do is the native CLI's page.
    missing =
        "The graphs are laid out by the report's own layout, plainer than Graphviz's: a page "
        "in the browser cannot run Graphviz's dot program. For dot's, write the page with the "
        "native `ainb run --html` where Graphviz is installed.";
#else
    missing =
        "Graphviz's dot program was not found, so the graphs are laid out by the report's own "
        "layout, plainer than dot's. For dot's, install Graphviz (Debian: apt-get install "
        "graphviz, or the project's scripts/install-deps.sh) and write the page again.";
#endif
  }
  std::string graphs;
  data["sides"] = nlohmann::json::array();
  for (auto& side : sides) {
    if (!side.failed.empty()) missing += (missing.empty() ? "" : "\n") + side.failed;
    graphs += side.graphs;
    data["sides"].push_back(std::move(side.data));
  }
  data["kind"] = kind;
  data["graphviz"] = missing;
  const auto escaped_title = detail::escape_markup(title);
  const auto json = script_json(data);
  // The page's parts share one function's scope: their names stay out of the global scope, as
  // when the page was one file.
  std::string script = fmt::format("{}\n{}\n(() => {{\n", assets::dom_js, assets::tracks_js);
  for (const auto part :
       {assets::page_js, assets::graph_js, assets::nodes_js, assets::blackboard_js,
        assets::items_js, assets::timeline_js, assets::panel_js, assets::frame_js})
    script += fmt::format("{}\n", part);
  script += "})();\n";
  return {.html = fill_template(assets::page_html, {{"TITLE", escaped_title},
                                                    {"STYLE", assets::page_css},
                                                    {"GRAPHS", graphs},
                                                    {"DATA", json},
                                                    {"SCRIPT", script}}),
          .missing_graphs = std::move(missing)};
}

}  // namespace detail

Page run_page(const simulation::Summary& summary, const Timeline& timeline,
              const PageOptions& options) {
  if (!summary.graph) throw std::invalid_argument("run_page: the summary has no graph");
  const auto dot = detail::dot_program(options);
  std::vector<detail::Side> sides;
  sides.push_back(detail::run_side(summary, timeline, dot, "f", ""));
  return detail::assemble("run", options.title.empty() ? summary.file : options.title, dot,
                          std::move(sides), nlohmann::json::object());
}

}  // namespace ainb::report
