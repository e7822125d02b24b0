#pragma once

// What a Graph is made of: the flat arrays the scheduler reads (nodes, children, parameter
// bindings, query plans, footprints) and their element types, laid out for the cache. Not API:
// the graph's API is graph.hpp, which includes this for its private base.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/model.hpp"
#include "ainb/runtime/graph_view.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::exb {
class Program;  // only the graph's build and the scheduler's expressions need it whole
}  // namespace ainb::exb

namespace ainb::runtime {

class Graph;

namespace detail {

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
    MultiSource,  // `index` = first binding in source_bindings(), `count` of them
  };
  Kind kind = Kind::Default;
  std::uint8_t component = 0;
  ParamType source_type = ParamType::Int;  // Expression: type of the linked output
  std::int32_t source_index = -1;          // Expression: linked output index, or -1
  std::uint32_t index = 0;
  std::uint32_t count = 0;
};

// One step of a node's unrolled queries (query_plan()).
struct QueryStep {
  std::uint32_t node = 0;
  // A query's first step (enter it if it is not active) holds the index after its last step,
  // so its own queries can be skipped; its last step (calculate it) holds 0. A query without
  // queries, the common case, has one step that does both: its `end` is the next index.
  std::uint32_t end : 31 = 0;
  // Listed by a query of its own cycle (query_cycles.hpp): a use not counted among its users.
  std::uint32_t within_cycle : 1 = 0;
  std::uint32_t state_index = 0;  // the query's GraphNode::state_index
};

// Selector conditions and transitions are public (graph_view.hpp): hosts read them in place.
using runtime::GraphTransition;
using runtime::SelectorCase;

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
  // also requests its first_transition when it finishes: Scheduler::update_plain_transition.)
  bool plain_update = false;
  // Sequential, Simultaneous or a selector without queries, transitions or setup blocks:
  // with no observer attached, its Enter, Update and Leave are its own work on its children.
  bool plain_composite = false;
  bool calls_enter = false, calls_leave = false;  // the class's hooks
  bool enter_work = false;      // Enter writes stub outputs, zeroes a state block or calls enter()
  bool is_stub = false;         // an unregistered class, or a missing module under the Stub policy
  bool has_xlink = false;       // the file names XLink actions for this node
  bool in_query_cycle = false;  // a query of a query cycle (query_cycles.hpp)
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
  std::int32_t module = -1;  // index into module_calls() (module nodes)
  Range children;            // window of children() / child_plugs: Child plugs after replacement
  Range queries;             // window of queries(): node indices
  Range query_plan;          // window of query_plan()
  Range attachments;         // window of attachments(): after replacement
  Range transitions;         // window of transitions()
  Range sites;               // window of the graph's site order: expression sites this node owns
  Range stub_outputs;        // window of stub_outputs() (stub nodes only)
  Range declared;            // window of declared_parameters() (nodes with a class)
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
  using Argument = ModuleArgument;  // public (graph_view.hpp)
  std::vector<Argument> arguments;
};

struct StubOutput {
  ParamType type = ParamType::Int;
  std::uint32_t index = 0;  // in the instance's outputs of that type
  Value value;
};

// Graph's private base: only the runtime (Graph's friends) and arrays() reach it.
class GraphArrays {
 public:
  const std::vector<GraphNode>& nodes() const { return nodes_; }
  // A node's children by child plug. An empty plug (docs/semantics.md, "Empty plugs") is
  // kNoChild where its position means something (a selector's case, a user class's plug) and is
  // left out elsewhere (Sequential, Simultaneous, SplitTiming run nothing for it).
  static constexpr std::uint32_t kNoChild = ~0u;
  std::span<const std::uint32_t> children(std::uint32_t node) const {
    return window(children_, nodes_[node].children);
  }
  // Every node's child plugs together (GraphNode::children windows this count).
  std::size_t child_plug_count() const { return children_.size(); }
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
  // step. The instance walks it in a loop. A query the walk meets again while it is on the
  // path (a query cycle) has no step there: that read gives the outputs the query holds.
  std::span<const QueryStep> query_plan(std::uint32_t node) const {
    return window(query_plan_, nodes_[node].query_plan);
  }
  // Whether `user` listing `query` makes it one of the query's users (kept entered by it): not
  // when both are queries of one cycle, whose uses of each other would keep them entered forever.
  bool counts_as_user(std::uint32_t user, std::uint32_t query) const {
    return !nodes_[user].in_query_cycle || query_cycle_[user] != query_cycle_[query];
  }
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
  std::int32_t property_site(ParamType type, std::uint32_t index) const {
    return property_sites_[static_cast<std::size_t>(type)][index];
  }
  std::int32_t node_site(std::uint32_t node) const { return node_sites_[node]; }
  // Sites whose setup blocks run when `node` is entered.
  std::span<const std::uint32_t> sites_of(std::uint32_t node) const {
    return window(site_order_, nodes_[node].sites);
  }

 protected:
  GraphArrays() = default;
  ~GraphArrays();  // where exb::Program is whole (graph.cpp)
  GraphArrays(const GraphArrays&) = delete;
  GraphArrays& operator=(const GraphArrays&) = delete;

  template <typename T>
  static std::span<const T> window(const std::vector<T>& v, Range r) {
    return std::span(v).subspan(r.base, r.count);
  }

  std::shared_ptr<const Model> model_;
  // Hot reload (Graph::successor): beside model_, which a command start reads too.
  mutable std::atomic<const Graph*> successor_{nullptr};
  mutable std::shared_ptr<const Graph> successor_owner_;  // written before successor_ is set
  std::string file_name_;
  std::vector<GraphNode> nodes_;
  std::vector<std::uint32_t> children_, child_plugs_, child_states_;
  std::vector<SelectorCase> selector_cases_;  // parallel to children_
  std::vector<std::uint32_t> queries_;
  std::vector<QueryStep> query_plan_;
  std::vector<std::uint32_t> query_cycle_;  // per node: 1 + its cycle's index, 0 for none
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

// The arrays of a graph, for the runtime's white-box tests and tools that show a graph's
// structure (defined in graph.hpp).
inline const GraphArrays& arrays(const Graph& graph);

}  // namespace detail
}  // namespace ainb::runtime
