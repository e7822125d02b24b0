#pragma once

// The executable graph: built once from a loaded model and a node registry, immutable, shared by
// any number of instances (and threads). Flat arrays (detail/graph_arrays.hpp); every class,
// parameter source, module and child replacement resolved once.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/exb/user_functions.hpp"
#include "ainb/loader.hpp"
#include "ainb/runtime/detail/graph_arrays.hpp"
#include "ainb/runtime/log.hpp"
#include "ainb/runtime/modules.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::runtime {

// What happens to a module node whose file the resolver cannot find.
enum class MissingModulePolicy : std::uint8_t {
  Error,  // building the graph fails, naming the module and where it was looked for
  Stub,   // the module node runs as a stub node (one warning per missing file: GraphOptions::log)
};

// The initial value of blackboard entry `entry` (an index into `file.blackboard.entries`), or
// nullopt for the file's stored default. String values are copied into the graph (a view need only
// stay valid until the graph is built).
using BlackboardDefaults =
    std::function<std::optional<Value>(const Model& file, std::uint32_t entry)>;

struct GraphOptions {
  // Resolves the user functions the file's expressions call, before the standard ones (null:
  // only those; a call of any other fails its evaluation, which gives the stored value). Used
  // while the graph is built: the graph shares the functions it calls, so this object may go
  // before the graph.
  const exb::UserFunctions* functions = nullptr;
  // Finds module files (null: every module is missing).
  const ModuleResolver* modules = nullptr;
  MissingModulePolicy missing_modules = MissingModulePolicy::Error;
  // Where the build's warnings go (a module run as a stub, a user function nobody registered:
  // once per file and module or signature, modules' own included); null: nowhere, as the library
  // prints nothing. A pointer, as the resolver and functions are: the host's object, used while
  // the graph is built only, and an options struct stays cheap to copy.
  const LogSink* log = nullptr;
  // Modules calling modules deeper than this is a load error (a guard; real files nest 3-4).
  std::uint32_t max_module_depth = 16;
  // An actor holds one sub-instance per module call, and calls in modules multiply: more than
  // this many in all is a load error (a guard against a fan-out that would need gigabytes per
  // actor; real files have tens).
  std::uint64_t max_module_instances = 4096;
  // Initial blackboard values other than the ones the file stores (e.g. read from the parameter
  // files its entries reference): asked once per entry of every file (modules too) while the
  // graph is built; nullopt keeps the stored default, a value of another type than the entry's
  // is ignored. Instances start (and restart) from these values; the tick never asks.
  BlackboardDefaults blackboard_defaults = {};
  // A reading of a property the runtime does not honour by default (docs/semantics.md,
  // "Properties not honoured"): an Element_Simultaneous with ResultPolicy 1 ends when its first
  // child finishes, with that child's result, leaving the others.
  bool simultaneous_ends_first = false;
};

namespace detail {
class Scheduler;
}  // namespace detail

// Its arrays, which the scheduler reads, are its private base (detail/graph_arrays.hpp).
class Graph : private detail::GraphArrays {
 public:
  // Throws LoadError naming the node and the reason: an unregistered class under the strict
  // policy, a missing module under the Error policy, a module cycle (naming the chain of files),
  // modules nested deeper than the limit, a cycle of child plugs or of queries, queries that
  // unroll past kMaxQuerySteps. The registry is only read here; the graph holds on to
  // the classes it uses.
  Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry,
        const GraphOptions& options = {});
  Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry,
        const exb::UserFunctions* functions)
      : Graph(std::move(model), registry, GraphOptions{.functions = functions}) {}

  // Hot reload (Runtime::reload): the graph built when this graph's file was loaded again, or
  // null. Set once, never changed after; any thread may ask while another reloads.
  std::shared_ptr<const Graph> successor() const;
  bool has_successor() const { return successor_.load(std::memory_order_acquire) != nullptr; }
  // `graph`, or the last of its successors: what an instance of it runs after its next start.
  static std::shared_ptr<const Graph> latest(std::shared_ptr<const Graph> graph);

  const Model& model() const { return *model_; }
  std::shared_ptr<const Model> model_ptr() const { return model_; }
  // "X.root.ainb": the name the file calls itself (the header's file name).
  const std::string& file_name() const { return file_name_; }
  // The number of nodes (as in model().nodes): node indices, as Instance::is_active and observers
  // take them, are below it.
  std::size_t node_count() const { return nodes_.size(); }
  // The declarations a node of the class does not have (a misspelt name reads zero): for hosts
  // that want to check their classes against a file.
  struct UnresolvedParameter {
    std::uint32_t node;
    std::uint32_t position;  // in the node's class's declared()
  };
  std::vector<UnresolvedParameter> unresolved_parameters() const;
  // "node 3 (MoveTo) has no float input "Sped", which its class declares".
  std::string describe(const UnresolvedParameter& parameter) const;
  // The graphs of the module files it calls, one per module node in node order (a file called
  // from two nodes is there twice, as one graph): for tools that go through every file an actor
  // runs.
  std::vector<const Graph*> module_graphs() const;
  // The graph module node `node` calls; null for another node, or a module run as a stub.
  const Graph* module_graph(std::uint32_t node) const;
  // The index of the command of this name in model().commands, for Instance::start by index.
  std::optional<std::size_t> find_command(std::string_view name) const;
  // Some command's frames read enough of an instance (the footprints its build works out) for
  // Instance::prefetch to do something for this graph's instances. A host ticking many actors of
  // one graph tests this once, and skips prefetching for a graph whose frames all read little (each
  // call would only cost).
  bool worth_prefetching() const { return worth_prefetching_; }

  // Query steps a graph may hold. Queries shared along many paths unroll to a number of steps
  // exponential in the chain's length, which would be the work of every calculation, and each
  // node's plan repeats the chain below it (quadratic in a chain's length). A file needing more
  // is refused when the graph is built (what real files need: docs/robustness.md, "Limits").
  static constexpr std::uint32_t kMaxQuerySteps = 1u << 20;
  // An instance counts loops and a stub's updates in 16 bits (its node states are 8 bytes): an
  // Element_Sequential looping more than kMaxLoops times is refused when the graph is built
  // (LoadError), a registry whose stubs run more than kMaxStubUpdates updates too
  // (std::invalid_argument).
  static constexpr std::uint16_t kMaxLoops = 65535;
  static constexpr std::uint16_t kMaxStubUpdates = 65535;
  // A node class's state_size() larger than this is refused when the graph is built
  // (std::invalid_argument), as are states that add up to 4 GiB (their offsets are 32-bit).
  static constexpr std::size_t kMaxNodeState = 65536 - 16;
  // A node that could be entered by more parents at once than this (child plugs, commands,
  // transitions, module calls), or that is a query of more nodes, is refused when the graph is
  // built (LoadError): an instance counts them in a byte.
  static constexpr std::uint32_t kMaxHolders = 255;
  // The static memory all expression sites may need per instance; a file needing more is
  // refused when the graph is built (real files need a few hundred bytes).
  static constexpr std::uint32_t kMaxExpressionMemory = 64u << 20;

 private:
  // The runtime's readers of the arrays.
  friend class Instance;
  friend class detail::Scheduler;
  friend class NodeContext;
  friend const detail::GraphArrays& detail::arrays(const Graph& graph);
  friend class Runtime;                                         // a reload sets the successor
  void set_successor(std::shared_ptr<const Graph> next) const;  // reload.cpp

  struct Build;  // the state of one top-level build: module cache and the chain of files
  Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry, Build& build);

  void build_blackboard(const GraphOptions& options);
  void build_nodes(const NodeRegistry& registry, const GraphOptions& options);
  void resolve_declared(std::uint32_t node, const NodeClass& node_class);
  void build_control_flow();
  void build_query_plans();
  // The children a frame can enter from `node`: none below a stub that runs none (an
  // unregistered class or a missing module, unless NodeRegistry::stub_runs_first_child), as its
  // subtree then stays out of the states a frame reads and out of its footprint.
  // Selectors' and user classes' may hold kNoChild (an empty plug).
  std::span<const std::uint32_t> entered_children(std::uint32_t node) const;
  void order_node_states();
  void build_modules(const NodeRegistry& registry, Build& build);
  void build_footprints();
  void check_holders() const;  // the limit of kMaxHolders
  void collect_expression_sites();
  void bind_inputs();
};

inline const detail::GraphArrays& detail::arrays(const Graph& graph) {
  return graph;
}

}  // namespace ainb::runtime
