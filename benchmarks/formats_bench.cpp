// Format readers: BYML and AAMP parse throughput on each corpus file (bytes in memory to a
// complete value tree), BYML's writer on the same documents (`byml-write/...`), and the time to
// open a TotK actor pack (read from disk, zstd with the pack dictionary, SARC) and load its AI
// files with ainb::load. Dictionaries are loaded once, outside the timing, as a program would.
// `romfs/...`: from a romfs tree (a temporary copy of the corpus packs) to a runnable graph: open
// the actor's pack, load the AI file, resolve its modules through the romfs and read its blackboard
// parameter files (what `ainb run PACK:MEMBER --romfs` does before the first frame).
//
//   build/release/benchmarks/formats_bench [--corpus DIR] [benchmark flags]

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <benchmark/benchmark.h>

#include "ainb/formats/aamp.hpp"
#include "ainb/formats/byml.hpp"
#include "ainb/formats/sarc.hpp"
#include "ainb/formats/zstd.hpp"
#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/romfs.hpp"
#include "ainb/loader.hpp"
#include "bench_common.hpp"

namespace {

std::vector<std::uint8_t> read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::filesystem::path> binaries(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    if (entry.path().extension() != ".yml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return std::filesystem::file_size(a) > std::filesystem::file_size(b);
  });
  return files;
}

void parse_byml(benchmark::State& state, const std::vector<std::uint8_t>& bytes) {
  for (auto _ : state) {
    auto document = ainb::formats::byml::read(bytes, "bench.byml");
    benchmark::DoNotOptimize(document);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

// Writing a document back (the key and string tables sorted once, then looked up per value).
void write_byml(benchmark::State& state, const std::vector<std::uint8_t>& bytes) {
  const auto document = ainb::formats::byml::read(bytes, "bench.byml");
  for (auto _ : state) {
    auto written = ainb::formats::byml::write(document);
    benchmark::DoNotOptimize(written);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void parse_aamp(benchmark::State& state, const std::vector<std::uint8_t>& bytes) {
  for (auto _ : state) {
    auto io = ainb::formats::aamp::read(bytes, "bench.aamp");
    benchmark::DoNotOptimize(io);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void open_pack(benchmark::State& state, const std::filesystem::path& path,
               const ainb::formats::ZstdDictionaries& dictionaries) {
  std::size_t models = 0;
  for (auto _ : state) {
    for (auto& file : ainb::formats::pack_ai_files(path, &dictionaries)) {
      auto model = ainb::load(std::move(file.bytes), file.name);
      benchmark::DoNotOptimize(model);
      ++models;
    }
  }
  state.counters["AI files"] =
      static_cast<double>(models) / static_cast<double>(state.iterations());
  state.SetBytesProcessed(
      static_cast<std::int64_t>(state.iterations() * std::filesystem::file_size(path)));
}

void open_actor(benchmark::State& state, const std::filesystem::path& romfs,
                const std::string& spec, const ainb::formats::ZstdDictionaries& dictionaries) {
  for (auto _ : state) {
    ainb::gamedata::FileSource source(romfs, &dictionaries);
    auto model = ainb::gamedata::open_ai_file(spec, source);
    ainb::gamedata::RomfsResolver modules(source);
    ainb::gamedata::BlackboardFiles blackboard(source);
    ainb::runtime::GraphOptions options{
        .modules = &modules, .missing_modules = ainb::runtime::MissingModulePolicy::Stub};
    options.blackboard_defaults = blackboard.hook();
    auto graph =
        std::make_shared<const ainb::runtime::Graph>(model, ainb::runtime::NodeRegistry{}, options);
    benchmark::DoNotOptimize(graph);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  const auto corpus = ainb::bench::take_corpus_argument(argc, argv, args);
  static std::vector<std::vector<std::uint8_t>> contents;
  const auto byml_files = binaries(corpus / "byml");
  const auto aamp_files = binaries(corpus / "aamp");
  if (byml_files.empty() || aamp_files.empty()) {
    std::cerr << "formats_bench: no BYML/AAMP files under " << corpus.string() << '\n';
    return 1;
  }
  contents.reserve(byml_files.size() + aamp_files.size());
  for (const auto& path : byml_files) {
    contents.push_back(read(path));
    benchmark::RegisterBenchmark(("byml/" + path.filename().string()).c_str(), parse_byml,
                                 contents.back())
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("byml-write/" + path.filename().string()).c_str(), write_byml,
                                 contents.back())
        ->Unit(benchmark::kMicrosecond);
  }
  for (const auto& path : aamp_files) {
    contents.push_back(read(path));
    benchmark::RegisterBenchmark(("aamp/" + path.filename().string()).c_str(), parse_aamp,
                                 contents.back())
        ->Unit(benchmark::kMicrosecond);
  }
  static auto dictionaries = ainb::formats::ZstdDictionaries::from_directory(corpus / "zsdic");
  for (const auto& path : binaries(corpus / "packs")) {
    benchmark::RegisterBenchmark(("pack/" + path.filename().string()).c_str(), open_pack, path,
                                 std::cref(dictionaries))
        ->Unit(benchmark::kMicrosecond);
  }
  // A romfs of the corpus packs, under the temporary directory.
  static const auto romfs = std::filesystem::temp_directory_path() / "ainb_formats_bench_romfs";
  std::filesystem::remove_all(romfs);
  std::filesystem::create_directories(romfs / "Pack/Actor");
  for (const auto& path : binaries(corpus / "packs"))
    std::filesystem::copy_file(path, romfs / "Pack/Actor" / path.filename());
  for (const auto* spec :
       {"Pack/Actor/Accessory_Battery.pack.zs:AI/Accessory_Battery_Event.event.root.ainb",
        "Pack/Actor/Npc_TripMaster_02.pack.zs:AI/NpcTripMaster.utility.root.ainb"}) {
    benchmark::RegisterBenchmark(("romfs/" + ainb::gamedata::parse_file_spec(spec).member).c_str(),
                                 open_actor, romfs, std::string(spec), std::cref(dictionaries))
        ->Unit(benchmark::kMicrosecond);
  }
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
