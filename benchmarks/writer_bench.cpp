// Writer throughput beside the loader's, on every corpus file: read (ainb::load), write (the model
// back to bytes under its captured layout), write with capture (write(model): the layout read
// from the file first), to JSON (the text form, printed) and from JSON (parsed, written and read
// back by the loader, as `ainb convert X.json Y.ainb` does). MB/s count the AINB file's bytes.
//
//   build/release/benchmarks/writer_bench [--corpus DIR] [benchmark flags]

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <benchmark/benchmark.h>

#include "ainb/loader.hpp"
#include "ainb/writer/text_form.hpp"
#include "ainb/writer/writer.hpp"
#include "bench_common.hpp"

namespace {

struct Subject {
  std::vector<std::uint8_t> bytes;
  std::shared_ptr<const ainb::Model> model;
  ainb::writer::Layout layout;
  std::string text;
};

void finish(benchmark::State& state, const Subject& s) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s.bytes.size()));
  state.counters["bytes"] = static_cast<double>(s.bytes.size());
}

void read_file(benchmark::State& state, const Subject& s) {
  for (auto _ : state) {
    auto model = ainb::load(s.bytes, "bench.ainb");
    benchmark::DoNotOptimize(model);
  }
  finish(state, s);
}

void write_file(benchmark::State& state, const Subject& s) {
  for (auto _ : state) {
    auto bytes = ainb::writer::write(*s.model, s.layout);
    benchmark::DoNotOptimize(bytes);
  }
  finish(state, s);
}

void write_with_capture(benchmark::State& state, const Subject& s) {
  for (auto _ : state) {
    auto bytes = ainb::writer::write(*s.model);
    benchmark::DoNotOptimize(bytes);
  }
  finish(state, s);
}

void to_json(benchmark::State& state, const Subject& s) {
  for (auto _ : state) {
    auto text = ainb::writer::to_text(*s.model).dump(2);
    benchmark::DoNotOptimize(text);
  }
  finish(state, s);
}

void from_json(benchmark::State& state, const Subject& s) {
  for (auto _ : state) {
    auto bytes = ainb::writer::from_text(nlohmann::ordered_json::parse(s.text), "bench.json");
    benchmark::DoNotOptimize(bytes);
  }
  finish(state, s);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  const auto corpus = ainb::bench::take_corpus_argument(argc, argv, args);
  const auto files = ainb::bench::corpus_files_largest_first(corpus, "writer_bench");
  if (files.empty()) return 1;
  static std::vector<Subject> subjects;
  subjects.reserve(files.size());
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    Subject s;
    s.bytes = {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    s.model = ainb::load(s.bytes, path.filename().string());
    s.layout = ainb::writer::capture_layout(*s.model);
    s.text = ainb::writer::to_text(*s.model).dump(2);
    subjects.push_back(std::move(s));
    const auto& subject = subjects.back();
    const auto name = path.filename().string();
    for (const auto& [what, fn] :
         {std::pair{"read/", &read_file}, std::pair{"write/", &write_file},
          std::pair{"write_capture/", &write_with_capture}, std::pair{"to_json/", &to_json},
          std::pair{"from_json/", &from_json}}) {
      benchmark::RegisterBenchmark((what + name).c_str(), fn, subject)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
