// Uses the installed package (find_package(ainb)) from outside the project's tree: loads a file
// from its bytes, writes it back byte for byte, dumps it as JSON, and runs its first command for
// ten frames with a C++ node class added to a runtime::Runtime. scripts/test-install.sh checks the
// line it prints.

#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "ainb/dump/json.hpp"
#include "ainb/formats/zstd.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/runtime.hpp"
#include "ainb/writer/writer.hpp"

namespace {

// Every update of the class's nodes succeeds, and is counted.
class Counted : public ainb::runtime::NodeClass {
 public:
  Counted() : NodeClass(kUpdateOnly) {}
  ainb::runtime::Result update(ainb::runtime::NodeContext&) override {
    ++updates;
    return ainb::runtime::Result::Success;
  }
  int updates = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer FILE.ainb CLASS\n");
    return 2;
  }
  try {
    std::ifstream in(argv[1], std::ios::binary);
    const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
    if (ainb::formats::is_zstd(bytes)) {
      std::fprintf(stderr, "%s: compressed; give the .ainb\n", argv[1]);
      return 1;
    }
    const auto model = ainb::load(bytes, argv[1]);
    const bool exact = ainb::writer::write(*model, ainb::writer::capture_layout(*model)) == bytes;
    const auto json = ainb::dump_json(*model);

    ainb::runtime::Runtime runtime;  // the front door
    const auto counted = runtime.add<Counted>(argv[2]);
    const auto graph = runtime.load(bytes, argv[1]);
    ainb::runtime::Instance actor(graph, {.seed = 1});
    actor.start(std::size_t{0});
    for (int frame = 0; frame < 10; ++frame)
      actor.tick();
    std::printf("consumer: %zu nodes, rewritten %s, %zu JSON keys, %d %s updates in %llu frames\n",
                graph->node_count(), exact ? "byte for byte" : "differently", json.size(),
                counted->updates, argv[2], static_cast<unsigned long long>(actor.frame()));
    return exact ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
