// `ainb graph`: a file as Graphviz DOT: commands, nodes, plugs by kind, queries and module calls;
// with a trace of `ainb run`, the nodes that ran coloured by their last result.

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/loader.hpp"
#include "ainb/report/dot.hpp"
#include "commands.hpp"
#include "registration.hpp"

namespace ainb::cli {

namespace {

// The last result of each node of `file` (of `node_count` nodes) in a JSON-lines trace
// ("visited" when it only entered).
std::map<std::uint32_t, std::string> read_trace(const std::string& path, const std::string& file,
                                                std::size_t node_count) {
  if (std::error_code ec; std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error(path + ": cannot be read: Is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::map<std::uint32_t, std::string> results;
  std::size_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty()) continue;
    auto fail = [&](const std::string& why) {
      throw std::runtime_error(fmt::format("{}: line {}: {}", path, line_number, why));
    };
    try {
      const auto e = nlohmann::json::parse(line);
      if (!e.is_object())
        fail("not a JSON trace event (write the trace with ainb run --format jsonl)");
      if (e.value("file", "") != file || !e.contains("node")) continue;
      const auto& n = e["node"];
      if (!n.is_number_integer() || n.get<std::int64_t>() < 0 ||
          n.get<std::uint64_t>() >= node_count) {
        fail(fmt::format("\"node\" is {}, not a node of {} (it has {})", n.dump(), file,
                         node_count));
      }
      const auto node = n.get<std::uint32_t>();
      if (e.value("event", "") == "update") {
        results[node] = e.value("result", "");
      } else if (!results.contains(node)) {
        results[node] = "visited";
      }
    } catch (const nlohmann::json::parse_error&) {
      fail("not a JSON trace event (write the trace with ainb run --format jsonl)");
    } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
      fail(fmt::format("not a JSON trace event ({}; write the trace with ainb run --format jsonl)",
                       e.what()));
    }
  }
  return results;
}

}  // namespace

int run_graph(const Model& model, const GraphRequest& request, std::ostream& out,
              std::ostream& err) {
  std::map<std::uint32_t, std::string> results;
  if (!request.trace.empty()) {
    try {
      results =
          read_trace(request.trace,
                     model.header.file_name.empty() ? model.name
                                                    : std::string(model.header.file_name) + ".ainb",
                     model.nodes.size());
    } catch (const std::exception& e) {
      err << "error: " << e.what() << '\n';
      return kExitLoadError;
    }
  }
  const auto dot_text = report::graph_dot(model, {.results = std::move(results), .ids = {}});
  // `-o X.svg` asks for SVG as --svg does.
  const bool as_svg = request.svg || std::filesystem::path(request.output).extension() == ".svg";
  if (!as_svg) {
    if (request.output.empty()) {
      out << dot_text;
      return kExitOk;
    }
    std::ofstream file(request.output, std::ios::binary);
    file << dot_text;
    if (!file) {
      err << "error: cannot write " << request.output << '\n';
      return kExitLoadError;
    }
    return kExitOk;
  }
  const auto dot = report::find_dot();
  if (dot.empty()) {
    err << "error: --svg renders through the `dot` program of Graphviz, which is not installed "
           "(Debian: apt-get install graphviz); without --svg the DOT text is printed\n";
    return kExitLoadError;
  }
  // dot's messages quote the graph's name, a file path: they pass through `err`, which escapes
  // control characters on a terminal (terminal.hpp).
  const auto rendered = report::render_svg(dot, dot_text, request.output);
  err << rendered.messages;
  if (!rendered.ok) {
    err << "error: " << rendered.error << '\n';
    return kExitLoadError;
  }
  if (request.output.empty()) out << rendered.svg;
  return kExitOk;
}

Command add_graph_command(CLI::App& app) {
  auto request = std::make_shared<GraphRequest>();
  auto* graph = app.add_subcommand(
      "graph", "Print the file as Graphviz DOT: commands, nodes, plugs by kind, queries, modules");
  auto run =
      with_model(*graph, [request](const Model& model, std::ostream& out, std::ostream& err) {
        return run_graph(model, *request, out, err);
      });
  graph->add_option("--trace", request->trace,
                    "A JSON-lines trace of `ainb run`: colour the nodes that ran by their last "
                    "result");
  graph->add_flag("--svg", request->svg, "Render SVG through Graphviz's `dot` program");
  graph->add_option("-o,--output", request->output, "Write to this file");
  return {graph, run};
}

}  // namespace ainb::cli
