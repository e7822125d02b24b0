#pragma once

// Runs explore's scenarios on one graph built once: every class that `ainb run` would stub is a
// class whose behaviour each run looks up in its scenario (or, when the scenario does not script
// it, does what the stub does), so no run builds a graph.

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "../actor.hpp"
#include "../scripted.hpp"
#include "ainb/simulation/coverage.hpp"
#include "ainb/simulation/explore.hpp"
#include "ainb/simulation/scenario.hpp"
#include "fingerprint.hpp"
#include "targets.hpp"

namespace ainb::simulation::explorer {

// What a stub writes when entered (the node definitions' defaults), by node.
struct StubWrite {
  ParamType type = ParamType::Int;
  std::string_view name;
  Value value;
};

// The graph every run shares, read-only while runs go on.
class Shared {
 public:
  Shared(const std::filesystem::path& file, const RunOptions& options, const Targets& targets);
  const runtime::Graph& graph() const { return *actor_.graph; }
  std::shared_ptr<const runtime::Graph> graph_ptr() const { return actor_.graph; }
  std::uint32_t class_count() const { return static_cast<std::uint32_t>(classes_.size()); }
  // The class's index, or -1 for a class the graph does not script.
  std::int32_t class_index(std::string_view name) const;
  // The actor's files (actor_graphs), and each node's class index (-1: none) by file.
  const std::vector<const runtime::Graph*>& files() const { return files_; }
  const std::vector<std::int32_t>& classes_of(std::size_t file) const { return class_of_[file]; }
  const std::vector<StubWrite>& stub_writes(const Model& model, std::uint32_t node) const;
  // Whether any node of class `index` writes stub outputs (none without node definitions).
  bool writes_stub_outputs(std::uint32_t index) const { return writes_[index]; }
  bool stub_children() const { return stub_children_; }
  const Targets& targets() const { return targets_; }

 private:
  const Targets& targets_;
  // Every user function the expressions call, returning what the running scenario says.
  exb::UserFunctions functions_;
  Actor actor_;
  std::vector<std::string> classes_;
  std::vector<const runtime::Graph*> files_;
  std::vector<std::vector<std::int32_t>> class_of_;  // by file, by node
  std::unordered_map<const Model*, std::vector<std::vector<StubWrite>>> stub_writes_;
  std::vector<bool> writes_;  // by class
  std::deque<std::string> strings_;
  bool stub_children_ = false;
};

// The command a scenario starts on `graph`'s file: its own, else the file's first ("": none). An
// edited file runs it by name too, as `ainb regress` does.
std::string started(const Scenario& s, const runtime::Graph& graph);

// One thread's runs: its actor's memory, the behaviours of the run going on, its coverage.
class Runner {
 public:
  explicit Runner(const Shared& shared);
  // Runs `scenario` (checked against the file) and returns what it reached; starts `command`
  // when given, else the scenario's, else the file's first; with `print`, fingerprints it.
  const Coverage& run(const Scenario& scenario, std::uint64_t frames, std::string_view command = {},
                      Fingerprint* print = nullptr);
  const Shared& shared() const { return shared_; }
  const Coverage& coverage() const { return coverage_; }  // the last run's
  // What the running scenario scripts for a node: its own behaviour ("at"), else its class's
  // (null: it runs as a stub), and the child plug it runs there, found at its first update.
  struct Scripted {
    const PreparedBehaviour* behaviour = nullptr;
    std::uint32_t plug = kUnknown;
    static constexpr std::uint32_t kUnknown = kNoPlug - 1;
  };
  Scripted& scripted(runtime::NodeContext& c) {
    const auto* file = &c.instance().graph();
    for (std::size_t f = 0; f < by_node_.size(); ++f) {
      if (shared_.files()[f] == file) return by_node_[f][c.node_index()];
    }
    return unscripted_;
  }
  // What the running scenario has user function `index` (of Targets::functions) return.
  const std::array<std::uint8_t, 12>& function_result(std::uint32_t index) const {
    return results_[index];
  }

 private:
  const Shared& shared_;
  std::vector<PreparedBehaviour> prepared_;           // the running scenario's behaviours
  std::vector<const PreparedBehaviour*> behaviours_;  // by class
  // By file (Shared::files), by node: what scripted() returns, set at each run's start.
  std::vector<std::vector<Scripted>> by_node_;
  Scripted unscripted_;
  std::vector<std::array<std::uint8_t, 12>> results_;
  Coverage coverage_;
};

}  // namespace ainb::simulation::explorer
