// `ainb scan` throughput: files per second over the bulk corpus (bulk/ainb, 109 real TotK AI
// files) at one job and at two, each file loaded, round-tripped and run 600 frames with its
// modules in a worker process. Prints the median of 3 scans per job count, and the CPU time the
// workers used per file (user + system), which another load on the machine does not change.
//
//   scan_bench [--corpus DIR] [--frames N]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include "bench_common.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
  std::vector<char*> rest;
  const auto corpus = ainb::bench::take_corpus_argument(argc, argv, rest);
  std::string frames = "600";
  for (std::size_t i = 1; i + 1 < rest.size(); i += 2) {
    if (std::strcmp(rest[i], "--frames") == 0) frames = rest[i + 1];
  }
  const auto folder = (corpus / "bulk" / "ainb").string();
  if (!std::filesystem::is_directory(folder)) {
    std::fprintf(stderr, "no bulk corpus at %s\n", folder.c_str());
    return 1;
  }
  std::printf("scan of %s, --frames %s, %u cores\n", folder.c_str(), frames.c_str(),
              std::thread::hardware_concurrency());
  for (const char* jobs : {"1", "2"}) {
    std::vector<double> seconds, cpu;
    std::size_t files = 0, failed = 0;
    for (int repetition = 0; repetition < 3; ++repetition) {
      std::ostringstream out, err;
      auto cpu_seconds = [] {
        rusage usage{};
        getrusage(RUSAGE_CHILDREN, &usage);
        auto of = [](const timeval& t) {
          return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
        };
        return of(usage.ru_utime) + of(usage.ru_stime);
      };
      const auto cpu_before = cpu_seconds();
      const auto start = std::chrono::steady_clock::now();
      ainb::cli::run(
          {"scan", folder, "--modules", folder, "--frames", frames, "--stub-missing-modules",
           "--generic-nodes", "--stub-children", "--restart", "--jobs", jobs, "--format", "json"},
          out, err);
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      cpu.push_back(cpu_seconds() - cpu_before);
      const auto summary = nlohmann::json::parse(out.str())["summary"];
      files = summary["files"].get<std::size_t>();
      failed = summary["failed"].get<std::size_t>();
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf(
        "--jobs %s: %zu files (%zu failed) in %.2f s: %.1f files/s; workers' CPU %.2f ms a file "
        "(medians of 3)\n",
        jobs, files, failed, seconds[1], static_cast<double>(files) / seconds[1],
        cpu[1] * 1000 / static_cast<double>(files));
  }
  return 0;
}
