// The page of a run: the template (assets/page.html) filled with the style, the script, the
// graphs dot laid out and the data the script reads.

#include "ainb/report/page.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "ainb/report/dot.hpp"
#include "ainb/writer/text_form.hpp"
#include "assets.hpp"

namespace ainb::report {

namespace {

std::string html_escape(std::string_view text) {
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

// The template with each {{NAME}} replaced, in one pass over the template only (a value that
// holds "{{DATA}}" stays as it is).
std::string fill(std::string_view page,
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

// The files an actor runs: the graph's first, then each module the first time it is called.
void collect(const runtime::Graph& graph, std::vector<const runtime::Graph*>& out) {
  if (std::find(out.begin(), out.end(), &graph) != out.end()) return;
  out.push_back(&graph);
  for (const auto* module : graph.module_graphs())
    collect(*module, out);
}

// dot's SVG without its XML prologue and doctype, to sit inside the page.
std::string inline_svg(const std::string& svg) {
  const auto start = svg.find("<svg");
  return start == std::string::npos ? std::string() : svg.substr(start);
}

struct Files {
  nlohmann::json data = nlohmann::json::array();
  std::string graphs;   // a <div class="layout"> for each file dot laid out
  std::string message;  // why graphs are missing, if any are
};

// Each file's nodes (their text form, with a label and the file a module node calls), commands
// and blackboard, and its graph as SVG; element ids start with `prefix` and the file's number.
Files page_files(const runtime::Graph& top, const PageOptions& options, std::string_view prefix) {
  std::vector<const runtime::Graph*> graphs;
  collect(top, graphs);
  Files files;
  const auto dot = options.dot.empty() ? find_dot() : options.dot;
  const bool have_dot = !dot.empty() && std::filesystem::exists(dot);
  if (!have_dot) {
    files.message =
        "The graphs are not drawn: Graphviz's dot program was not found. Install Graphviz "
        "(Debian: apt-get install graphviz, or the project's scripts/install-deps.sh) and write "
        "the page again. The timeline, the node list and the blackboard below work without it.";
  }
  for (std::size_t f = 0; f < graphs.size(); ++f) {
    const auto& graph = *graphs[f];
    const auto& model = graph.model();
    const auto ids = fmt::format("{}{}", prefix, f);
    auto text = writer::to_text(model);
    nlohmann::json nodes = nlohmann::json::array();
    for (std::uint32_t n = 0; n < model.nodes.size(); ++n) {
      nlohmann::json node = text["nodes"][n];
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
    files.data.push_back({{"name", graph.file_name()},
                          {"ids", ids},
                          {"nodes", std::move(nodes)},
                          {"commands", std::move(commands)},
                          {"blackboard", text["blackboard"]}});
    if (!have_dot) continue;
    const auto rendered = render_svg(dot, graph_dot(model, {.results = {}, .ids = ids}));
    if (!rendered.ok) {
      files.message +=
          fmt::format("{}{}: {}{}", files.message.empty() ? "" : "\n", graph.file_name(),
                      rendered.error, rendered.messages.empty() ? "" : ": " + rendered.messages);
      continue;
    }
    files.graphs += fmt::format("<div class=\"layout\" data-file=\"{}\" hidden>\n{}</div>\n", f,
                                inline_svg(rendered.svg));
  }
  return files;
}

}  // namespace

Page run_page(const simulation::Summary& summary, const Timeline& timeline,
              const PageOptions& options) {
  if (!summary.graph) throw std::invalid_argument("run_page: the summary has no graph");
  auto files = page_files(*summary.graph, options, "f");
  nlohmann::json data;
  data["kind"] = "run";
  data["files"] = std::move(files.data);
  data["graphviz"] = files.message;
  data["summary"] = {{"file", summary.file},
                     {"command", summary.command},
                     {"state", summary.state},
                     {"ended_frame", summary.ended_frame},
                     {"fault", summary.fault},
                     {"alerts", summary.alerts.size()},
                     {"warnings", summary.warnings.size()}};
  data["timeline"] = timeline.to_json(summary.frames);
  const auto title = html_escape(options.title.empty() ? summary.file : options.title);
  const auto json = script_json(data);
  return {.html = fill(assets::page_html, {{"TITLE", title},
                                           {"STYLE", assets::page_css},
                                           {"GRAPHS", files.graphs},
                                           {"DATA", json},
                                           {"SCRIPT", assets::page_js}}),
          .missing_graphs = files.message};
}

}  // namespace ainb::report
