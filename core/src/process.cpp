#include "ainb/process.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#ifndef __EMSCRIPTEN__
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;
#endif

namespace ainb {

#ifndef __EMSCRIPTEN__
namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// The bytes of an unlinked temporary file, from its start.
std::string read_all(std::FILE* file) {
  std::string text;
  std::rewind(file);
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
    text.append(buffer, n);
  return text;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& args, std::string_view input) {
  ProcessResult result;
  File in(std::tmpfile(), &std::fclose), out(std::tmpfile(), &std::fclose),
      err(std::tmpfile(), &std::fclose);
  if (!in || !out || !err || args.empty()) {
    result.error = args.empty()
                       ? "no program"
                       : std::string("cannot create a temporary file: ") + std::strerror(errno);
    return result;
  }
  std::fwrite(input.data(), 1, input.size(), in.get());
  std::fflush(in.get());
  std::rewind(in.get());
  std::vector<std::string> owned(args);
  std::vector<char*> argv;
  for (auto& arg : owned)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fileno(in.get()), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fileno(out.get()), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fileno(err.get()), STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    result.error = args[0] + ": " + std::strerror(spawned);
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.out = read_all(out.get());
  result.err = read_all(err.get());
  if (!WIFEXITED(status)) {
    result.error = args[0] + ": ended by a signal";
    return result;
  }
  result.ran = true;
  result.exit_code = WEXITSTATUS(status);
  return result;
}
#else
ProcessResult run_process(const std::vector<std::string>& args, std::string_view) {
  ProcessResult result;
  result.error =
      (args.empty() ? std::string("a program") : args[0]) + ": a browser runs no programs";
  return result;
}
#endif

}  // namespace ainb
