// `ainb graph`: a file as Graphviz DOT: commands, nodes, plugs by kind, queries and module calls;
// with a trace of `ainb run`, the nodes that ran coloured by their last result.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/loader.hpp"
#include "commands.hpp"

namespace ainb::cli {

namespace {

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

const char* colour(std::string_view result) {
  if (result == "Success") return "#b7e4b0";
  if (result == "Failure") return "#f4b6b0";
  if (result == "Running") return "#fbe6a2";
  return "#ffffff";
}

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

std::string find_dot() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const auto candidate = std::filesystem::path(dir) / "dot";
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error)) return candidate.string();
  }
  return {};
}

// What a child edge says: the plug's name, or a selector's condition for that child.
std::string child_label(const Model& m, const Plug& plug) {
  auto bb = [&](const PlugBlackboard& b, BlackboardType type, std::string value) {
    if (!b.used) return value;
    const auto entries = m.blackboard.of_type(type);
    return b.index < entries.size() ? std::string(entries[b.index].name) : value;
  };
  return std::visit(
      [&](const auto& d) -> std::string {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, S32Condition>) {
          if (d.is_default) return "default";
          return "= " + bb(d.blackboard, BlackboardType::S32, std::to_string(d.value));
        } else if constexpr (std::is_same_v<T, StringCondition>) {
          if (d.is_default) return "default";
          return "= " + bb(d.blackboard, BlackboardType::String, fmt::format("\"{}\"", d.value));
        } else if constexpr (std::is_same_v<T, F32Condition>) {
          if (d.is_default) return "default";
          return fmt::format(
              "[{}, {}]", bb(d.min.blackboard, BlackboardType::F32, fmt::format("{}", d.min.value)),
              bb(d.max.blackboard, BlackboardType::F32, fmt::format("{}", d.max.value)));
        } else if constexpr (std::is_same_v<T, RandomWeight>) {
          return "weight " + bb(d.blackboard, BlackboardType::F32, fmt::format("{}", d.weight));
        } else if constexpr (std::is_same_v<T, EnumCondition>) {
          return fmt::format("= {}", d.value);
        } else {
          return std::string(plug.name);
        }
      },
      plug.data);
}

}  // namespace

std::string format_graph(const Model& m, const std::map<std::uint32_t, std::string>& results) {
  std::string out = fmt::format("digraph \"{}\" {{\n", escape(m.name));
  out +=
      "  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", "
      "fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (std::size_t c = 0; c < m.commands.size(); ++c) {
    const auto& command = m.commands[c];
    out += fmt::format("  command{} [label=\"{}\", shape=cds, fillcolor=\"#d6e4ff\"];\n", c,
                       escape(command.name));
    out += fmt::format("  command{} -> node{};\n", c, command.root);
    if (command.secondary_root) {
      out += fmt::format("  command{} -> node{} [style=dashed, label=\"secondary\"];\n", c,
                         *command.secondary_root);
    }
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    std::string label = fmt::format("#{} {}", i, node_type_name(n.type));
    if (n.type == NodeType::UserDefined) label = fmt::format("#{} {}", i, escape(n.name));
    std::string shape = n.is_module() ? "component" : n.is_query() ? "ellipse" : "box";
    const auto it = results.find(i);
    const auto* fill = it != results.end() ? colour(it->second) : "#ffffff";
    const auto* pen = it != results.end() ? "black" : "gray60";
    out += fmt::format("  node{} [label=\"{}{}\", shape={}, fillcolor=\"{}\", color={}];\n", i,
                       label, n.is_module() ? "\\n(module)" : "", shape, fill, pen);
  }
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    // An empty plug (it leads nowhere) ends at a point of its own, so its case stays visible.
    std::size_t empty_plugs = 0;
    const auto target = [&](const Plug& plug) {
      if (plug.target) return fmt::format("node{}", *plug.target);
      const auto point = fmt::format("empty{}_{}", i, empty_plugs++);
      out += fmt::format("  {} [label=\"empty\", shape=plaintext, fontcolor=gray50];\n", point);
      return point;
    };
    for (const auto& plug : m.plugs_of(n, PlugKind::Child)) {
      const auto label = child_label(m, plug);
      const auto to = target(plug);
      out += fmt::format("  node{} -> {}{};\n", i, to,
                         label.empty() ? "" : fmt::format(" [label=\"{}\"]", escape(label)));
    }
    for (const auto& plug : m.plugs_of(n, PlugKind::Transition)) {
      const auto& t = m.transitions[plug.transition_index];
      const auto to = target(plug);
      out += fmt::format("  node{} -> {} [color=\"#3465a4\", style=bold, label=\"{}\"];\n", i, to,
                         t.type() == 0 ? escape(t.command) : (t.post_calc() ? "post calc" : ""));
    }
    for (const auto q : m.queries_of(n)) {
      out +=
          fmt::format("  node{} -> node{} [style=dashed, color=gray50, label=\"query\"];\n", i, q);
    }
    // Data links: one edge from each node whose outputs this node's inputs read, labelled with
    // those inputs. (The input plugs are not used: both ends of a link list one.)
    std::map<std::int16_t, std::vector<std::string_view>> sources;
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      for (const auto& in : m.inputs_of(n, static_cast<ParamType>(t))) {
        if (in.has_node_source()) sources[in.raw_node_index].push_back(in.name);
        for (const auto& s : m.sources_of(in)) {
          if (s.node_index >= 0) sources[s.node_index].push_back(in.name);
        }
      }
    }
    for (const auto& [source, inputs] : sources) {
      out += fmt::format(
          "  node{} -> node{} [style=dotted, color=gray60, arrowhead=open, label=\"{}\"];\n",
          source, i, escape(fmt::format("{}", fmt::join(inputs, ", "))));
    }
  }
  out += "}\n";
  return out;
}

namespace {

// The bytes of an unlinked temporary file, from its start.
std::string read_all(std::FILE* file) {
  std::string text;
  std::rewind(file);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
    text.append(buffer, n);
  return text;
}

// Runs dot on `dot_text` without a shell (an argument vector: no path is read as shell syntax)
// and through unlinked temporary files (no name in the temporary folder to guess or replace).
// dot's messages quote the graph's name, a file path, so they pass through `err`, which escapes
// control characters on a terminal (terminal.hpp), rather than reach it from dot's own stderr.
int run_dot(const std::string& dot, const std::string& dot_text, const std::string& output,
            std::ostream& out, std::ostream& err) {
  using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
  File in(std::tmpfile(), &std::fclose), svg(std::tmpfile(), &std::fclose),
      messages(std::tmpfile(), &std::fclose);
  if (!in || !svg || !messages) {
    err << "error: --svg: cannot create a temporary file: " << std::strerror(errno) << '\n';
    return kExitLoadError;
  }
  std::fwrite(dot_text.data(), 1, dot_text.size(), in.get());
  std::fflush(in.get());
  std::rewind(in.get());
  std::vector<std::string> args{dot, "-Tsvg"};
  if (!output.empty()) args.insert(args.end(), {"-o", output});
  std::vector<char*> argv;
  for (auto& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fileno(in.get()), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fileno(svg.get()), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fileno(messages.get()), STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, dot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (spawned == 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  err << read_all(messages.get());
  if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    err << "error: dot failed (" << dot << " -Tsvg"
        << (output.empty() ? std::string() : " -o " + output) << ")\n";
    return kExitLoadError;
  }
  if (output.empty()) out << read_all(svg.get());
  return kExitOk;
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
  const auto dot_text = format_graph(model, results);
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
  const auto dot = find_dot();
  if (dot.empty()) {
    err << "error: --svg renders through the `dot` program of Graphviz, which is not installed "
           "(Debian: apt-get install graphviz); without --svg the DOT text is printed\n";
    return kExitLoadError;
  }
  return run_dot(dot, dot_text, request.output, out, err);
}

}  // namespace ainb::cli
