// Runs Graphviz's `dot` to lay a graph out as SVG.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "ainb/report/dot.hpp"

namespace ainb::report {

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

}  // namespace

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

// Without a shell (an argument vector: no path is read as shell syntax) and through unlinked
// temporary files (no name in the temporary folder to guess or replace). dot's messages quote
// the graph's name, a file path: they come back in Rendered::messages for the caller to print
// (escaped on a terminal), rather than reach the terminal from dot's own stderr.
Rendered render_svg(const std::string& program, const std::string& dot_text,
                    const std::string& output_file) {
  Rendered rendered;
  using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;
  File in(std::tmpfile(), &std::fclose), svg(std::tmpfile(), &std::fclose),
      messages(std::tmpfile(), &std::fclose);
  if (!in || !svg || !messages) {
    rendered.error = fmt::format("cannot create a temporary file: {}", std::strerror(errno));
    return rendered;
  }
  std::fwrite(dot_text.data(), 1, dot_text.size(), in.get());
  std::fflush(in.get());
  std::rewind(in.get());
  std::vector<std::string> args{program, "-Tsvg"};
  if (!output_file.empty()) args.insert(args.end(), {"-o", output_file});
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
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (spawned == 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  rendered.messages = read_all(messages.get());
  if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    rendered.error = fmt::format("dot failed ({} -Tsvg{})", program,
                                 output_file.empty() ? "" : " -o " + output_file);
    return rendered;
  }
  rendered.ok = true;
  if (output_file.empty()) rendered.svg = read_all(svg.get());
  return rendered;
}

}  // namespace ainb::report
