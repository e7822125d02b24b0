#pragma once

// The executable graph: built once from a loaded model and a node registry, immutable, shared by
// any number of instances (and threads). Flat arrays; every class, parameter source, module
// and child replacement resolved once.

#include <array>
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ainb/exb/program.hpp"
#include "ainb/loader.hpp"
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

// Whether an expression's result is read as a parameter of `type`: a function that declares no
// result, or one of that type (an Int parameter takes a UInt result's bits). Any other result
// gives the parameter its stored value.
inline bool result_reads_as(exb::DataType result, ParamType type) {
  return exb::value_size(result) == 0 || param_type_of(result) == type;
}

// Where an input's value comes from, decided once (docs/semantics.md, "Parameters").
struct InputBinding {
  enum class Kind : std::uint8_t {
    Default,      // the stored value
    Output,       // `index` = the source output's index in the instance's outputs of this type
    Blackboard,   // `index` = blackboard entry index
    Component,    // a float read from component `component` of vec3f blackboard entry `index`
    Expression,   // `index` = expression site; `source_*` the value it is given, if any
    MultiSource,  // `index` = first binding in Graph::source_bindings, `count` of them
  };
  Kind kind = Kind::Default;
  std::uint8_t component = 0;
  ParamType source_type = ParamType::Int;  // Expression: type of the linked output
  std::int32_t source_index = -1;          // Expression: linked output index, or -1
  std::uint32_t index = 0;
  std::uint32_t count = 0;
};

// One step of a node's unrolled queries (Graph::query_plan).
struct QueryStep {
  std::uint32_t node = 0;
  // A query's first step (enter it if it is not active) holds the index after its last step,
  // so its own queries can be skipped; its last step (calculate it) holds 0. A query without
  // queries, the common case, has one step that does both: its `end` is the next index.
  std::uint32_t end = 0;
  std::uint32_t state_index = 0;  // the query's GraphNode::state_index
};

// One child plug of a selector, its condition read once (Graph::selector_cases): the constant
// operands, each replaced by a blackboard entry when the plug names one (an index into the
// instance's blackboard, -1 for the constant).
struct SelectorCase {
  std::int32_t value = 0;  // Element_S32Selector
  float min = 0, max = 0;  // Element_F32Selector; Element_RandomSelector's weight is `min`
  std::string_view text;   // Element_StringSelector
  std::int32_t entry = -1, max_entry = -1;  // for value, text, min or weight; for max
};

struct GraphTransition {
  std::uint32_t target = 0;
  bool post_calc = false;
  bool state_end = false;    // type 0: taken when a called module ends naming `command`
  std::string_view command;  // type 0 only
};

// The built-ins whose Update is a loop over their children: Sequential, Simultaneous, selectors.
inline bool is_composite(NodeType type) {
  return node_kind(type) == NodeKind::Composite;
}

// The fields the scheduler reads on every visit come first, so a plain node's visit touches one
// cache line of its GraphNode.
struct GraphNode {
  NodeType type = NodeType::UserDefined;
  // A registered class or a stub with nothing else to do on Enter and Leave (no queries,
  // setup blocks, XLink actions): the instance takes a short path for it when no observer
  // is attached.
  bool plain = false;
  // Plain, and no transitions: Update is the class's call alone. (A plain node with transitions
  // also requests its first_transition when it finishes: Instance::update_plain_transition.)
  bool plain_update = false;
  // Sequential, Simultaneous or a selector without queries, transitions or setup blocks:
  // with no observer attached, its Enter, Update and Leave are its own work on its children.
  bool plain_composite = false;
  bool calls_enter = false, calls_leave = false;  // the class's hooks
  bool enter_work = false;  // Enter writes stub outputs, zeroes a state block or calls enter()
  bool is_stub = false;     // an unregistered class, or a missing module under the Stub policy
  bool has_xlink = false;   // the file names XLink actions for this node
  // One of its expression sites has a setup block, run on every Enter. Sites without one are
  // evaluated where their value is read, so they leave the node on the short paths.
  bool runs_setup = false;
  // Where this node's state is in an instance's node state array: in visit order, not file
  // order (Graph::order_node_states), so the nodes a frame reads share cache lines.
  std::uint32_t state_index = 0;
  NodeClass* user_class = nullptr;  // UserDefined nodes with a registered class
  // The user class's state block (NodeClass::state_size): its offset among the instance's class
  // states, and its size.
  std::uint32_t class_state = 0;
  std::uint32_t class_state_size = 0;
  std::int32_t module = -1;  // index into Graph::module_calls (module nodes)
  Range children;      // window of Graph::children / child_plugs: Child plugs after replacement
  Range queries;       // window of Graph::queries: node indices
  Range query_plan;    // window of Graph::query_plan
  Range attachments;   // window of Graph::attachments: after replacement
  Range transitions;   // window of Graph::transitions
  Range sites;         // window of the graph's site order: expression sites this node owns
  Range stub_outputs;  // window of Graph::stub_outputs (stub nodes only)
  Range declared;      // window of Graph::declared_parameters (nodes with a class)
  // Element_Sequential's properties, read once (constant values; see docs/semantics.md).
  bool update_next_in_frame = false;
  bool loop = false;
  std::int32_t loop_count = 0;       // at most kMaxLoops when `loop`
  bool no_select_when_busy = false;  // selectors: IsNoSelectWhenChildBusy
  // Element_Simultaneous with ResultPolicy 1 under GraphOptions::simultaneous_ends_first.
  bool ends_with_first_child = false;
  // Selectors: their input ("Input", the only one of their type), as an index among the model's
  // inputs of that type. A choice reads the common sources straight
  // from the instance, at `selector_at`: another node's output (its bytes' offset in the
  // instance's outputs), a blackboard entry (its index) or, for Bool, S32 and F32 selectors, an
  // expression that takes no input (its site); any other source through its binding.
  std::int32_t selector_input = -1;
  enum class SelectorSource : std::uint8_t { Binding, Output, Blackboard, Expression };
  SelectorSource selector_source = SelectorSource::Binding;
  std::uint32_t selector_at = 0;
  // Child plugs a built-in finds by name, found once (their index in children(), -1 when the
  // node has none): BoolSelector's True and False; SplitTiming's Enter, Update and Leave. A
  // stub's [0]: the child it passes through to (NodeRegistry::stub_runs_first_child).
  std::array<std::int16_t, 3> named_plugs{-1, -1, -1};
  // The transition a node takes when it finishes: its first that is not a StateEnd one (an index
  // in transitions()); -1 when it has none, and for Element_Fork, whose transitions are its
  // paths.
  std::int16_t first_transition = -1;
  // Element_Simultaneous and user nodes (NodeContext::run_child): which children it holds (from
  // their Enter until each finishes) is a bit per child in its own state (kHeldInState) when it
  // has at most kInlineHeld; with more, a byte per child in the instance's held flags, from this
  // offset.
  static constexpr std::uint32_t kInlineHeld = 8;
  static constexpr std::uint32_t kHeldInState = ~0u;
  std::uint32_t held = kHeldInState;
  std::uint32_t in_flow = 1;   // Element_Join: InFlowNum
  std::string_view parameter;  // ModuleIF nodes: their `Name`; StateEnd: TransitionCommand
  ParamType value_type = ParamType::Int;  // ModuleIF_Input / _Output: the type they pass
};

class Graph;

// A module node: the called file's graph and how its ModuleIF nodes meet this node.
struct ModuleCall {
  std::uint32_t node = 0;
  std::shared_ptr<const Graph> graph;
  // By node of the module: for a ModuleIF_Input, the index of the caller's input (of that
  // type, among the module node's inputs); for a ModuleIF_Output, of the caller's output; for a
  // ModuleIF_Child, of the caller's child plug; -1 when the caller has no such parameter.
  std::vector<std::int32_t> links;
  // The caller's properties that set the module's blackboard entries of the same name and type
  // when the module is entered (how the corpus passes a module its constants).
  struct Argument {
    ParamType type = ParamType::Int;
    std::uint32_t property = 0;  // index into the caller model's properties of `type`
    std::uint32_t entry = 0;     // the module's blackboard entry
  };
  std::vector<Argument> arguments;
};

struct StubOutput {
  ParamType type = ParamType::Int;
  std::uint32_t index = 0;  // in the instance's outputs of that type
  Value value;
};

class Graph {
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
  const std::vector<GraphNode>& nodes() const { return nodes_; }
  // A node's children by child plug. An empty plug (docs/semantics.md, "Empty plugs") is
  // kNoChild where its position means something (a selector's case, a user class's plug) and is
  // left out elsewhere (Sequential, Simultaneous, SplitTiming run nothing for it).
  static constexpr std::uint32_t kNoChild = ~0u;
  std::span<const std::uint32_t> children(std::uint32_t node) const {
    return window(children_, nodes_[node].children);
  }
  // Each child's GraphNode::state_index, beside children(): a composite's loop finds its
  // children's states without waiting for their graph nodes.
  std::span<const std::uint32_t> child_states(std::uint32_t node) const {
    return window(child_states_, nodes_[node].children);
  }
  // The model plugs (indices into Model::plugs) behind children(node), in the same order.
  std::span<const std::uint32_t> child_plugs(std::uint32_t node) const {
    return window(child_plugs_, nodes_[node].children);
  }
  // Selectors: the conditions of children(node), in the same order (the last, default plug's
  // is not read).
  std::span<const SelectorCase> selector_cases(std::uint32_t node) const {
    return window(selector_cases_, nodes_[node].children);
  }
  std::span<const std::uint32_t> queries(std::uint32_t node) const {
    return window(queries_, nodes_[node].queries);
  }
  // The node's queries unrolled, depth first, into the order calculating them visits them
  // (docs/semantics.md, "Queries"): each query's first step, its own queries' steps, its last
  // step. The instance walks it in a loop. A file whose queries form a cycle is refused when the
  // graph is built.
  std::span<const QueryStep> query_plan(std::uint32_t node) const {
    return window(query_plan_, nodes_[node].query_plan);
  }
  // Query steps a graph may hold. Queries shared along many paths unroll to a number of steps
  // exponential in the chain's length, which would be the work of every calculation, and each
  // node's plan repeats the chain below it (quadratic in a chain's length). A file needing more
  // is refused when the graph is built (what real files need: docs/robustness.md, "Limits").
  static constexpr std::uint32_t kMaxQuerySteps = 1u << 20;
  std::span<const std::uint32_t> attachments(std::uint32_t node) const {
    return window(attachments_, nodes_[node].attachments);
  }
  bool has_transitions() const { return !transitions_.empty(); }
  std::span<const GraphTransition> transitions(std::uint32_t node) const {
    return window(transitions_, nodes_[node].transitions);
  }
  // The value an instance's blackboard entry starts with (GraphOptions::blackboard_defaults, or
  // the file's stored default).
  const Value& blackboard_default(std::uint32_t entry) const { return blackboard_defaults_[entry]; }
  // The parameters a node's class declared (NodeClass::declared), found in the node: each one's
  // kind and type, and its index among the model's inputs, properties or outputs of that type
  // (kNoParameter when the node has none of that name).
  static constexpr std::uint32_t kNoParameter = ~0u;
  struct DeclaredParameter {
    std::uint32_t index = kNoParameter;
    ParamKind kind = ParamKind::Input;
    ParamType type = ParamType::Int;
  };
  std::span<const DeclaredParameter> declared_parameters(std::uint32_t node) const {
    return window(declared_parameters_, nodes_[node].declared);
  }
  // Declaration `position` of the node's class when the node has it and it is of this kind and
  // type (what a handle of that kind and type may reach), else null.
  const DeclaredParameter* declared_parameter(std::uint32_t node, std::uint32_t position,
                                              ParamKind kind, ParamType type) const {
    const auto declared = declared_parameters(node);
    if (position >= declared.size()) return nullptr;
    const auto& d = declared[position];
    return d.kind == kind && d.type == type && d.index != kNoParameter ? &d : nullptr;
  }
  // The declarations a node of the class does not have (a misspelt name reads zero): for hosts
  // that want to check their classes against a file.
  struct UnresolvedParameter {
    std::uint32_t node;
    std::uint32_t position;  // in the node's class's declared()
  };
  std::vector<UnresolvedParameter> unresolved_parameters() const;
  // "node 3 (MoveTo) has no float input "Sped", which its class declares".
  std::string describe(const UnresolvedParameter& parameter) const;
  std::span<const StubOutput> stub_outputs(std::uint32_t node) const {
    return window(stub_outputs_, nodes_[node].stub_outputs);
  }
  // Files without commands (Logic files, command-less modules): the nodes no control-flow plug
  // leads to, which all run every frame.
  const std::vector<std::uint32_t>& logic_roots() const { return logic_roots_; }
  // ModuleIF_Output nodes: calculated after each update of a module.
  const std::vector<std::uint32_t>& module_outputs() const { return module_outputs_; }
  const std::vector<ModuleCall>& module_calls() const { return module_calls_; }
  std::uint16_t stub_running_updates() const { return stub_running_updates_; }
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
  // The index of the command of this name in model().commands, for Instance::start by index.
  std::optional<std::size_t> find_command(std::string_view name) const;
  // Most active roots a calculation can have at once (the widest Fork; at least 1). At most 255:
  // the format counts a node's plugs of a kind in a byte.
  std::uint32_t max_active_roots() const { return max_active_roots_; }
  // The node states a frame can reach come first (GraphNode::state_index): the others belong
  // to nodes nothing enters (below a stub that runs no children, or reached by no root), whose
  // states stay as an instance made them.
  std::uint32_t reached_states() const { return reached_states_; }
  // Outputs in an instance: one byte array, each type's values together in their natural size
  // (string views first, for their alignment).
  static constexpr std::size_t output_size(std::size_t type) {
    constexpr std::size_t kSizes[kParamTypeCount] = {4, 1, 4, sizeof(std::string_view), 12, 4};
    return kSizes[type];
  }
  std::uint32_t output_offset(std::size_t type) const { return output_offset_[type]; }
  std::uint32_t output_bytes() const { return output_bytes_; }
  // Bytes of user class state per instance.
  std::uint32_t class_state_bytes() const { return class_state_bytes_; }
  // Held flags per instance: one per child plug of each Element_Simultaneous with more than
  // GraphNode::kInlineHeld children (GraphNode::held).
  std::uint32_t held_flags() const { return held_flags_; }

  // What the frames of a command can read of an instance's own memory, for Instance::prefetch:
  // the node states, outputs and expressions' static memory of every node its roots reach
  // (children, queries, transition targets; not the children of a stub that runs none). Index:
  // the command's; a file without commands has one, for its Logic roots and module outputs.
  // Empty when the states and outputs span fewer than kMinFootprintLines cache lines: a frame
  // that reads so few is fast without help, and a prefetch would only add work
  // (docs/benchmarks-runtime-history.md, "Prefetching the next actor").
  struct Footprint {
    std::vector<Range> states;   // windows of the node state array (GraphNode::state_index)
    std::vector<Range> outputs;  // byte windows of the outputs (output_offset)
    // Byte windows of the instance's expression memory (ExpressionSite::static_offset), and
    // whether any node of it evaluates an expression (which reads the instance object's second
    // cache line, with or without static memory). A stub's inputs count only for a setup block,
    // the one run a stub makes.
    std::vector<Range> expression_memory;
    bool evaluates = false;
    // Frames of the running command read much of it too, not only the frame that enters it:
    // the states and outputs of the nodes a frame updates at most (every child of an
    // Element_Simultaneous, the largest child of other nodes, the queries of each) come to
    // kMinRunningBytes or more.
    bool every_frame = false;
  };
  static constexpr std::uint32_t kMinFootprintLines = 8;
  // Between the running frames that gain from a prefetch and those that lose, as measured on the
  // corpus trees (docs/benchmarks-runtime-history.md, "Reached states first").
  static constexpr std::uint32_t kMinRunningBytes = 384;
  const std::vector<Footprint>& footprints() const { return footprints_; }
  // Some footprint is not empty: Instance::prefetch can do something for this graph's instances.
  // A host ticking many actors of one graph tests this once, and skips prefetching for a graph
  // whose frames all read little (each call would only cost).
  bool worth_prefetching() const { return worth_prefetching_; }

  // Inputs: one binding per model input (by type and index) and per multi-source entry.
  const InputBinding& input_binding(ParamType type, std::uint32_t index) const {
    return input_bindings_[static_cast<std::size_t>(type)][index];
  }
  std::span<const InputBinding> source_bindings(const InputBinding& multi) const {
    return std::span(source_bindings_).subspan(multi.index, multi.count);
  }

  // Expressions: the compiled program (null when the file has none) and one use-site per
  // parameter that reads an expression and per Element_Expression node. Each use-site has its
  // own static memory in every instance, at `static_offset` of the instance's block.
  struct ExpressionSite {
    std::uint32_t function = 0;
    std::uint32_t owner = 0;  // the node whose Enter runs the setup block
    std::uint32_t static_offset = 0;
    std::uint32_t static_size = 0;  // the function's (read at every evaluation)
  };
  const exb::Program* program() const { return program_.get(); }
  const std::vector<ExpressionSite>& expression_sites() const { return sites_; }
  std::uint32_t expression_memory() const { return expression_memory_; }
  // The static memory all expression sites may need per instance; a file needing more is
  // refused when the graph is built (real files need a few hundred bytes).
  static constexpr std::uint32_t kMaxExpressionMemory = 64u << 20;
  std::int32_t property_site(ParamType type, std::uint32_t index) const {
    return property_sites_[static_cast<std::size_t>(type)][index];
  }
  std::int32_t node_site(std::uint32_t node) const { return node_sites_[node]; }
  // Sites whose setup blocks run when `node` is entered.
  std::span<const std::uint32_t> sites_of(std::uint32_t node) const {
    return window(site_order_, nodes_[node].sites);
  }

 private:
  struct Build;  // the state of one top-level build: module cache and the chain of files
  Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry, Build& build);

  template <typename T>
  static std::span<const T> window(const std::vector<T>& v, Range r) {
    return std::span(v).subspan(r.base, r.count);
  }
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

  std::shared_ptr<const Model> model_;
  // Beside model_, which a command start reads too: start() asks for a successor.
  mutable std::atomic<const Graph*> successor_{nullptr};
  mutable std::shared_ptr<const Graph> successor_owner_;  // written before successor_ is set
  friend class Runtime;
  void set_successor(std::shared_ptr<const Graph> next) const;
  std::string file_name_;
  std::vector<GraphNode> nodes_;
  std::vector<std::uint32_t> children_, child_plugs_, child_states_;
  std::vector<SelectorCase> selector_cases_;  // parallel to children_
  std::vector<std::uint32_t> queries_;
  std::vector<QueryStep> query_plan_;
  std::vector<std::uint32_t> attachments_;
  std::vector<GraphTransition> transitions_;
  std::vector<StubOutput> stub_outputs_;
  std::vector<DeclaredParameter> declared_parameters_;
  std::deque<std::string> stub_strings_;  // strings of stub outputs and blackboard defaults
  std::vector<Value> blackboard_defaults_;
  std::vector<std::uint32_t> logic_roots_;
  std::vector<std::uint32_t> module_outputs_;
  std::vector<ModuleCall> module_calls_;
  std::vector<Footprint> footprints_;
  bool worth_prefetching_ = false;
  // The classes the nodes use: the graph keeps them alive, so the registry it was built from
  // may go away.
  std::vector<std::shared_ptr<NodeClass>> classes_;
  std::uint16_t stub_running_updates_ = 0;
  bool stubs_run_first_child_ = false;  // NodeRegistry::stub_runs_first_child
  std::uint32_t max_active_roots_ = 1;
  std::uint32_t reached_states_ = 0;
  std::uint32_t class_state_bytes_ = 0;
  std::uint32_t held_flags_ = 0;
  std::uint64_t module_instances_ = 0;  // sub-instances an actor holds, its modules' included
  std::array<std::uint32_t, kParamTypeCount> output_offset_{};
  std::uint32_t output_bytes_ = 0;
  std::array<std::vector<InputBinding>, kParamTypeCount> input_bindings_;
  std::vector<InputBinding> source_bindings_;
  std::unique_ptr<exb::Program> program_;
  std::vector<ExpressionSite> sites_;
  std::vector<std::uint32_t> site_order_;  // site indices grouped by owner node
  std::array<std::vector<std::int32_t>, kParamTypeCount> property_sites_;
  std::vector<std::int32_t> node_sites_;
  std::uint32_t expression_memory_ = 0;
};

}  // namespace ainb::runtime
