// Building graphs: what a host pays at load time for each real file (every class resolved by
// name, every binding, module and query plan laid out), with a registry holding a class for every
// UserDefined name of the corpus, as a game's would. The name look-ups this measures (registry,
// user functions, module resolvers) are built once and read per node (docs/benchmarks.md,
// "Graph building").
//
//   build/release/benchmarks/graph_build_bench [--corpus DIR] [benchmark flags]

#include <benchmark/benchmark.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ainb/runtime/graph.hpp"
#include "bench_common.hpp"

using namespace ainb;
using namespace ainb::runtime;

namespace {

class Nothing : public NodeClass {
 public:
  Nothing() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext&) override { return Result::Success; }
};

struct Corpus {
  std::vector<std::shared_ptr<const Model>> models;
  NodeRegistry registry;
  std::vector<std::unique_ptr<DirectoryResolver>> modules;
};

void build_all(benchmark::State& state, const Corpus& corpus) {
  std::size_t nodes = 0;
  for (auto _ : state) {
    for (std::size_t k = 0; k < corpus.models.size(); ++k) {
      const GraphOptions options{.modules = corpus.modules[k].get(),
                                 .missing_modules = MissingModulePolicy::Stub};
      const Graph graph(corpus.models[k], corpus.registry, options);
      nodes += graph.node_count();
      benchmark::DoNotOptimize(&graph);
    }
  }
  state.counters["files"] = static_cast<double>(corpus.models.size());
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  const auto dir = bench::take_corpus_argument(argc, argv, args);
  static Corpus corpus;
  std::set<std::string> classes;
  for (const auto& folder : {dir / "ainb", dir / "bulk/ainb"}) {
    if (!std::filesystem::is_directory(folder)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.path().extension() != ".ainb") continue;
      corpus.models.push_back(load_file(entry.path()));
      corpus.modules.push_back(
          std::make_unique<DirectoryResolver>(std::vector{entry.path().parent_path()}));
      for (const auto& node : corpus.models.back()->nodes)
        if (node.type == NodeType::UserDefined) classes.insert(std::string(node.name));
    }
  }
  if (corpus.models.empty()) {
    std::cerr << "graph_build_bench: no corpus at " << dir.string() << '\n';
    return 1;
  }
  for (const auto& name : classes)
    corpus.registry.add(name, std::make_shared<Nothing>());
  // Once before timing, so that every module file is read and kept by its resolver.
  for (std::size_t k = 0; k < corpus.models.size(); ++k) {
    const GraphOptions options{.modules = corpus.modules[k].get(),
                               .missing_modules = MissingModulePolicy::Stub};
    const Graph graph(corpus.models[k], corpus.registry, options);
  }
  std::cerr << "graph_build_bench: " << corpus.models.size() << " files, " << classes.size()
            << " classes registered\n";
  benchmark::RegisterBenchmark("graph_build/corpus", build_all, std::cref(corpus))
      ->Unit(benchmark::kMillisecond);
  int count = static_cast<int>(args.size());
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
