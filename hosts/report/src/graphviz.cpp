// Runs Graphviz's `dot` to lay a graph out as SVG.

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "ainb/process.hpp"
#include "ainb/report/dot.hpp"

namespace ainb::report {

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

// dot's messages quote the graph's name, a file path: they come back in Rendered::messages for
// the caller to print (escaped on a terminal), rather than reach the terminal from dot's stderr.
Rendered render_svg(const std::string& program, const std::string& dot_text,
                    const std::string& output_file) {
  std::vector<std::string> args{program, "-Tsvg"};
  if (!output_file.empty()) args.insert(args.end(), {"-o", output_file});
  auto dot = run_process(args, dot_text);
  Rendered rendered;
  rendered.messages = std::move(dot.err);
  if (!dot.succeeded()) {
    rendered.error = fmt::format("dot failed ({} -Tsvg{})", program,
                                 output_file.empty() ? "" : " -o " + output_file);
    return rendered;
  }
  rendered.ok = true;
  if (output_file.empty()) rendered.svg = std::move(dot.out);
  return rendered;
}

}  // namespace ainb::report
