#pragma once

// What an Instance is made of: its layout and the scheduler's steps, defined in runtime/src (a file
// per node kind and protocol step: docs/architecture.md, "Inside the runtime"). Not API: include
// instance.hpp, the instance's API, which includes this after the types it names.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ainb/runtime/detail/block_arena.hpp"
#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/memory.hpp"
#include "ainb/runtime/node_class.hpp"

// The expression machine's types, which only the scheduler's definitions need whole.
namespace ainb::exb {
struct BasicFrame;
struct Frame;
class MachineLease;
enum class Status : std::uint8_t;
}  // namespace ainb::exb

namespace ainb::runtime {

class Instance;

namespace detail {

// Instance's private base. Cache-line aligned: see the order of its fields.
class alignas(64) Scheduler {
 protected:
  // The Instance this is the base of: what observers, node classes and callers are handed.
  inline Instance& self();  // defined beside the steps (runtime/src/protocol.hpp)
  inline const Instance& self() const;

 public:
  // What NodeContext reads and writes for a node class, and the built-in nodes too: public here,
  // private in Instance, whose base only its friends (the scheduler, NodeContext) can reach.
  Value input_value(const Input& input) const;
  Value input_source(const Input& input, std::size_t source) const;
  Value property_value(const Property& property) const;
  bool write_output(std::uint32_t node, ParamType type, std::string_view name, const Value& value);
  // A parameter the node's class declared (`position` in NodeClass::declared): a
  // read gives the type's zero, and a write false, when the node has none or kind or type differ.
  template <ParamKind Kind, ParamValue T>
  T read_declared(std::uint32_t node, std::uint32_t position) const;
  template <ParamValue T>
  bool write_declared(std::uint32_t node, std::uint32_t position, T value);
  bool request_transition(std::uint32_t node, std::uint32_t k);
  Result run_user_child(std::uint32_t node, std::size_t k);  // NodeContext::run_child
  void leave_user_child(std::uint32_t node, std::size_t k);

 protected:
  // 8 bytes per node: the state a tick touches is what an actor costs in cache when thousands
  // run. A node may have several parents (files are DAGs): `active` counts the parents that
  // entered it, and an update is done once per epoch (tick or command start).
  struct NodeState {
    std::uint8_t active = 0;  // parents (or commands) that entered it
    // kCalculating, kWasEntered: beside `active`, so an Enter's constant fits an instruction.
    std::uint8_t bits = 0;
    std::uint8_t query_users = 0;  // how many active users keep this query node entered
    // Current child (Sequential), chosen plug (selectors): a node has at most 255 child plugs
    // (the format stores each plug kind's count in a byte). Simultaneous: its held children
    // (HeldChildren).
    std::uint8_t cursor = 0;
    Result last = Result::Running;
    std::uint8_t epoch = 0;  // when it was last updated (0: not since it was entered)
    // Loops done (Sequential, NumLoop <= Graph::kMaxLoops); failures (Simultaneous, at most
    // 255); a stub's updates (NodeRegistry::stub_running_updates <= Graph::kMaxStubUpdates).
    std::uint16_t counter = 0;
  };
  static_assert(sizeof(NodeState) == 8);
  // Bits of NodeState::bits. kWasEntered outlives the node's activity: it is part of the constant
  // an Enter stores anyway (first_enter), so the record costs nothing (Instance::was_entered).
  static constexpr std::uint8_t kCalculating = 1;  // a query between its first and last step
  static constexpr std::uint8_t kWasEntered = 2;   // entered since the instance was made
  // An entry of the active node array, and the transition it asked for this frame.
  // 16 bytes, so the array's size is a shift away from its end pointer.
  struct ActiveRoot {
    std::uint32_t node = 0;
    std::int32_t next = -1;  // requested transition target, or -1
    std::uint32_t next_from = 0;
    bool next_post = false;
    bool dormant = false;  // an Element_Join waiting until InFlowNum copies are in the array
    bool fresh = false;    // put here by a transition and not calculated yet
    // Its root finished and was left (or, for a Join copy, gave way to another): the entry holds
    // no node any more, and leaves the array unless a transition is pending.
    bool done = false;
    bool leaves_array() const { return done && next < 0; }
  };
  // In visit order, not node order (GraphNode::state_index).
  std::span<NodeState> node_states() const { return {nodes_, graph_->nodes().size()}; }
  NodeState& state_of(std::uint32_t node) const {
    return nodes_[graph_->nodes()[node].state_index];
  }
  std::span<ActiveRoot> roots() const { return {roots_, root_count_}; }
  ActiveRoot& push_root(ActiveRoot root);  // the array has room for every root a file can have
  [[noreturn]] void throw_array_full() const;
  struct ForkRequest {
    std::int32_t node = -1;
    bool post = false;
  };

  // Output `index` (the model's index among outputs of type `t`).
  Value output(std::size_t t, std::uint32_t index) const;
  void set_output(std::size_t t, std::uint32_t index, const Value& value);
  // A top-level instance's block: the arena at its front, then the bytes it carves. It goes
  // back to the memory it came from.
  struct BlockDeleter {
    MemoryResource* memory;  // InstanceOptions::memory; nullptr: operator new
    std::size_t bytes;
    void operator()(std::byte* block) const;
  };
  using Block = std::unique_ptr<std::byte, BlockDeleter>;
  static Block new_block(const Graph& graph, MemoryResource* memory);
  static std::size_t carved_bytes(const Graph& graph);  // block_size less the arena
  static BlockArena* block_arena(std::byte* block);
  // Sets the fields (Instance's constructor carves the block): `parent`, `call` and `arena` are a
  // module sub-instance's caller, its module call and the caller's block; null at the top.
  // `block`: a top-level instance's, made beforehand (a hot reload's); null: made here.
  Scheduler(std::shared_ptr<const Graph> graph, const InstanceOptions& options, Instance* parent,
            const ModuleCall* call, MemoryResource* arena, Block block = {});
  void link_blackboard();

  void start_command(std::size_t index);
  [[noreturn, gnu::cold, gnu::noinline]] void throw_no_command(std::size_t index) const;
  [[noreturn, gnu::cold, gnu::noinline]] void throw_no_command(std::string_view name) const;
  [[gnu::cold, gnu::noinline]] void forget_fault();
  [[gnu::noinline]] void notify_command(std::string_view name);
  [[noreturn, gnu::cold, gnu::noinline]] void throw_reentered(const char* call) const;
  // A new epoch: a tick, or a command started (the sweep runs when the byte wraps).
  void next_epoch() {
    if (++epoch_ == 0) sweep_epochs();
  }
  void sweep_epochs();
  // The protocol's rules (protocol.hpp): a node entered and left once whatever its parents
  // count, updated once per epoch.
  bool first_enter(NodeState& s);
  bool last_leave(NodeState& s);
  bool updated_in_epoch(const NodeState& s) const { return s.epoch == epoch_; }
  Result record_update(NodeState& s, Result result);
  // Enter, Update and Leave of a node: the short paths below when they apply (inlined), else
  // the general ones (*_node).
  void enter(std::uint32_t node);
  Result update(std::uint32_t node);
  void leave(std::uint32_t node);
  void enter_node(std::uint32_t node, const GraphNode& g, NodeState& s);
  [[gnu::noinline]] void enter_setup_and_events(std::uint32_t node, const GraphNode& g);
  [[gnu::noinline]] void run_setup_blocks(std::uint32_t node);
  Result update_node(std::uint32_t node, const GraphNode& g, NodeState& s);
  void leave_node(std::uint32_t node, const GraphNode& g, NodeState& s);
  void enter_builtin(std::uint32_t node, const GraphNode& g, NodeState& s);
  Result update_builtin(std::uint32_t node, NodeState& s);
  void leave_builtin(std::uint32_t node, const GraphNode& g, NodeState& s);
  // Output `index` of type `t`: its value's bytes, in the type's natural size (Graph::output_size).
  std::byte* output_at(std::size_t t, std::uint32_t index) const {
    return outputs_ + graph_->output_offset(t) + index * Graph::output_size(t);
  }
  // A node's class state block. (With no state in the graph there are no class states: null plus
  // an offset of 0, which C++ defines as null.)
  std::byte* class_state(const GraphNode& g) const { return class_states_ + g.class_state; }
  Result call_update(std::uint32_t node, const GraphNode& g);
  Result call_update_outlined(std::uint32_t node, const GraphNode& g);
  // The short paths of a plain node (GraphNode::plain, plain_update) when no observer watches.
  void enter_plain(std::uint32_t node, const GraphNode& g, NodeState& s);
  Result update_plain(std::uint32_t node, const GraphNode& g, NodeState& s);
  void leave_plain(std::uint32_t node, const GraphNode& g, NodeState& s);
  Result update_plain_transition(std::uint32_t node, const GraphNode& g, NodeState& s);
  void take_first_transition(std::uint32_t node, const GraphNode& g, Result result);
  void enter_child(std::uint32_t node, const GraphNode& g, NodeState& s, bool quiet);
  Result update_child(std::uint32_t node, const GraphNode& g, NodeState& s, bool quiet);
  void leave_child(std::uint32_t node, const GraphNode& g, NodeState& s, bool quiet);
  Result update_stub(NodeState& s) const;
  // The short paths of a plain composite (GraphNode::plain_composite) when no observer watches.
  void enter_composite(std::uint32_t node, const GraphNode& g, NodeState& s);
  Result update_composite(std::uint32_t node, NodeType type, NodeState& s);
  void leave_composite(std::uint32_t node, NodeState& s);
  // A composite's children, entered and left as its kind says (`quiet`: no observer).
  void enter_composite_children(std::uint32_t node, const GraphNode& g, NodeState& s, bool quiet);
  void leave_held_children(std::uint32_t node, NodeState& s, bool quiet);
  void leave_current_child(std::uint32_t node, NodeState& s, bool quiet);
  // The children an Element_Simultaneous holds: bits of its own state's cursor byte (unused by
  // it otherwise), or its bytes in the held flags (GraphNode::held says which).
  struct HeldChildren {
    std::uint8_t* bits;
    std::uint8_t* flags;  // null: the bits
    bool holds(std::size_t k) const {
      return flags != nullptr ? flags[k] != 0 : ((*bits >> k) & 1u) != 0;
    }
    // Whether any of the first `count` children is held.
    bool any(std::size_t count) const {
      if (flags == nullptr) return *bits != 0;
      for (std::size_t k = 0; k < count; ++k) {
        if (flags[k] != 0) return true;
      }
      return false;
    }
    void set(std::size_t k, bool held) const {
      if (flags != nullptr) {
        flags[k] = held ? 1 : 0;
      } else {
        const auto bit = static_cast<std::uint8_t>(1u << k);
        *bits = static_cast<std::uint8_t>(held ? *bits | bit : *bits & ~bit);
      }
    }
  };
  HeldChildren held_children(const GraphNode& g, NodeState& s) const {
    // A call, so held_ (not in the object's first cache line) is read only for large ones.
    return {&s.cursor, g.held == GraphNode::kHeldInState ? nullptr : held_bytes(g)};
  }
  [[gnu::noinline]] std::uint8_t* held_bytes(const GraphNode& g) const { return held_ + g.held; }
  Result composite_loop(std::uint32_t node, NodeType type, NodeState& s);
  Result calculate(std::uint32_t node);  // the node's own calculation (no children protocol)
  void calculate_queries(std::uint32_t node);
  void enter_query(std::uint32_t query, NodeState& s);
  void update_module_outputs();
  void update_secondary_root();
  void calculate_post_transitions();
  void leave_queries(std::uint32_t node);
  void enter_own(std::uint32_t node);  // a user class, stub or module call: its own Enter
  void leave_own(std::uint32_t node);
  void end_command(Result result);
  static CommandState ended(Result result) {
    return result == Result::Success ? CommandState::Succeeded : CommandState::Failed;
  }
  // The command ends once no root is left in the active node array and no Fork waits. (A Fork
  // waits only while kTransitionRequested is set, so a frame reads the flags, not fork_, which
  // is outside the object's first cache line.)
  // (The command is still running: a class cannot start or stop it from inside the frame.)
  void end_if_done() {
    if (root_count_ == 0 && !has(kTransitionRequested)) end_command(last_root_result_);
  }
  // Anything for leave_roots() to do: a slot, a Fork waiting, a transition requested.
  bool has_roots() const { return root_count_ != 0 || has(kTransitionRequested); }
  void leave_secondary_root();
  void leave_roots();

  // The active node array (docs/semantics.md, "Transitions, Fork and Join").
  void calculate_roots(bool only_fresh);
  // A dormant Join's slot: may it run now? (Its other copies then leave the array.)
  bool wake_join(std::uint32_t slot);
  void remove_finished_roots();
  void apply_transitions(bool post);
  void finish_state_end();

  // Module calls: the caller's side and the called file's side.
  Result update_module_call(std::uint32_t node);
  void begin_module(std::uint64_t actor_frame);
  Result update_module(std::uint64_t actor_frame);
  void end_module();
  Result calculate_module_if(std::uint32_t node);

  // The built-in kinds, a file each (`s`: the node's own state; `quiet`: no observer).
  void enter_sequential(std::uint32_t node, bool quiet);
  Result update_sequential(std::uint32_t node, NodeState& s);
  void enter_simultaneous(std::uint32_t node, const GraphNode& g, NodeState& s, bool quiet);
  Result update_simultaneous(std::uint32_t node, NodeState& s);
  void leave_simultaneous(std::uint32_t node, NodeState& s, bool quiet);
  void enter_selector(std::uint32_t node, NodeState& s, bool quiet);
  // A decision (a selector's choice, a user node's run_child, a module's ModuleIF_Child), with an
  // observer attached: kept in branches_ for one that reads them at the end
  // (Observer::branch_events), else told it (on_branch). `plug` is below the node's plug count.
  [[gnu::cold, gnu::noinline]] void observe_branch(std::uint32_t node, std::uint32_t plug);
  Result update_selector(std::uint32_t node, NodeState& s);
  void enter_split_timing(std::uint32_t node, const GraphNode& g);
  Result update_split_timing(std::uint32_t node);
  void leave_split_timing(std::uint32_t node, const GraphNode& g);
  void run_once(std::uint32_t node);  // entered, updated and left at once
  Result update_alert(std::uint32_t node);
  [[gnu::cold, gnu::noinline]] void log_alert(std::uint32_t node, std::string_view message) const;
  Result update_fork(std::uint32_t node, const GraphNode& g);
  Result update_state_end(const GraphNode& g);
  const std::uint32_t* caller_child(std::uint32_t node) const;  // ModuleIF_Child's target
  void enter_module_child(std::uint32_t node);
  Result update_module_child(std::uint32_t node);
  void leave_module_child(std::uint32_t node);
  // A plug index: a node has at most 255 child plugs (NodeState::cursor).
  std::uint8_t choose(std::uint32_t node);
  std::uint8_t choose_plug(std::uint32_t node);
  [[gnu::noinline]] std::uint8_t choose_other(const GraphNode& g,
                                              std::span<const SelectorCase> cases);
  std::uint8_t choose_random(std::span<const SelectorCase> cases);
  template <typename T>
  T selector_input(const GraphNode& g, ParamType type) const;
  template <typename T>
  [[gnu::noinline]] T bound_selector_input(const GraphNode& g, ParamType type) const;
  template <typename T>
  [[gnu::noinline]] T evaluated_selector_input(const GraphNode& g, ParamType type) const;
  template <typename T>
  T plug_operand(std::int32_t entry, T constant) const;
  bool set_blackboard(std::string_view name, BlackboardType type, Value value);
  void write_blackboard(std::string_view name, BlackboardType type, Value value, bool& found);
  void write_module_blackboard(std::string_view module_file, std::string_view name,
                               BlackboardType type, const Value& value, bool& found);
  Value bound_value(const InputBinding& binding, ParamType type, const Value& fallback) const;
  Value blackboard_value(ParamType type, ParamFlags flags) const;
  Value evaluate(std::int32_t site, ParamType type, const Value& input,
                 const Value& fallback) const;
  struct ExpressionSlots;
  exb::Frame expression_frame(std::uint32_t node, std::uint32_t site, ExpressionSlots& slots) const;
  Result update_expression(std::uint32_t node);
  exb::BasicFrame site_frame(std::uint32_t site) const;
  // The thread's machine for the graph's program, lent for one run (a graph with expressions).
  exb::MachineLease machine() const;
  template <typename F>  // exb::Frame or exb::BasicFrame
  exb::Status run_main_of(std::uint32_t site, F& frame) const;

  // Failure behaviour (docs/robustness.md): host code is called through guarded(), which turns
  // an exception into an internal fault exception naming this instance's file, the node and the
  // frame (no cost when nothing throws); the entry points catch it with catching().
  template <typename F>
  decltype(auto) guarded(Fault::Source source, std::int64_t node, const char* call, F&& f) const;
  [[noreturn]] void throw_fault(Fault::Source source, std::int64_t node, std::string call,
                                std::string message) const;
  template <typename F>
  void catching(F&& f);
  [[gnu::cold, gnu::noinline]] void stop_on_fault(Fault& fault);
  [[gnu::cold, gnu::noinline]] void forget_thrown();  // an exception that is not a fault
  bool faulting() const;              // a fault was thrown in the current entry point
  const Instance& top_level() const;  // the actor's instance (this one, or its callers' top)
  template <typename F>
  void scheduling(const char* call,
                  F&& f);    // start, stop, tick: refused from inside, then catching
  void reset_after_fault();  // every node inactive, in this instance and its sub-instances
  bool inside_entry() const;
  void tick_frame();
  void calculate_frame();
  void tick_command();
  void calculate_root();
  void finish_frame();
  void tick_logic();
  void stop_nodes();

  // Bits of flags_.
  static constexpr std::uint8_t kTransitionRequested = 1;  // a transition or Fork, not applied yet
  static constexpr std::uint8_t kStateEndRequested = 2;    // an Element_StateEnd was calculated
  // The short paths are not taken: an observer takes node events (kNodeEvents), or nodes are
  // forced (Rare::forced).
  static constexpr std::uint8_t kGeneralPaths = 4;
  // Inside an entry point (catching); always set in a module's sub-instance, which is only ever
  // run from inside its top-level instance's.
  static constexpr std::uint8_t kEntered = 8;
  // Fixed by the graph (shape_flags), so a frame's common path reads no more than the flags:
  static constexpr std::uint8_t kLogic = 16;       // no commands: every root runs every frame
  static constexpr std::uint8_t kOtherRoots = 32;  // module outputs, or a secondary root
  static constexpr std::uint8_t kSingleRoot = 64;  // commands, no transitions, no other roots
  // A post-calc transition or Fork is among the requests (kTransitionRequested): the frame
  // calculates post-calc transitions only then, as most transitions wait for the next frame.
  static constexpr std::uint8_t kPostRequested = 128;
  static std::uint8_t shape_flags(const Graph& graph);
  bool has(std::uint8_t bit) const { return (flags_ & bit) != 0; }
  void set(std::uint8_t bit, bool on) {
    flags_ = static_cast<std::uint8_t>(on ? flags_ | bit : flags_ & ~bit);
  }
  bool general_paths() const { return has(kGeneralPaths); }
  // The observer takes node events: read on the general paths only.
  bool observed() const { return (marks_ & kNodeEvents) != 0; }
  void choose_paths() { set(kGeneralPaths, observed() || has_forced()); }
  // An observer is attached, for the events other than a node's own (commands, branches,
  // transitions, alerts, blackboard writes, reloads).
  bool attached() const { return (marks_ & kAttached) != 0; }
  void attach(Observer* observer);
  // Bits of marks_.
  static constexpr std::uint8_t kFaultThrown = 1;   // thrown_ is set
  static constexpr std::uint8_t kStateEndKept = 2;  // state_end_ may be non-empty
  static constexpr std::uint8_t kPathFailed = 4;    // a path of the command ended with Failure
  static constexpr std::uint8_t kAttached = 8;      // options_.observer is set
  static constexpr std::uint8_t kBranchBits = 16;   // it reads decisions from branches_
  static constexpr std::uint8_t kNodeEvents = 32;   // options_.observer takes node events
  void keep_state_end(std::string_view name) {
    state_end_ = name;
    marks_ |= kStateEndKept;
  }
  void clear_state_end() {  // a command start's: without reading state_end_'s line, as a rule
    if ((marks_ & kStateEndKept) == 0) return;
    state_end_ = {};
    marks_ &= static_cast<std::uint8_t>(~kStateEndKept);
  }

  // Everything a quiet tick reads of the instance object is in its first cache line (64 bytes,
  // the object is aligned to it): with thousands of actors, the lines of each actor a tick
  // touches are most of its cost (docs/benchmarks.md). The arrays live in the block.
  const Graph* graph_;
  NodeState* nodes_ = nullptr;    // one per node
  ActiveRoot* roots_ = nullptr;   // the active node array: room for Graph::max_active_roots()
  Value* const* bb_ = nullptr;    // blackboard reads: the linked value of each entry
  std::byte* outputs_ = nullptr;  // every output, typed, grouped by type: see output()
  // Frames ticked; in a module's sub-instance, the actor's frame of its start until its first
  // calculation (update_module), then kNotStarting.
  std::uint64_t frame_ = 0;
  static constexpr std::uint64_t kNotStarting = ~std::uint64_t{0};
  // At most Graph::max_active_roots(): the widest Fork's transitions, which a node's plug count
  // (a byte) bounds.
  std::uint16_t root_count_ = 0;
  // Bits a frame tests here, in the first cache line: of what the object keeps beyond it
  // (kFaultThrown, kStateEndKept), and of the command's paths (kPathFailed).
  mutable std::uint8_t marks_ = 0;
  std::int32_t command_ = -1;
  std::int32_t current_root_ = -1;  // the slot being calculated
  CommandState state_ = CommandState::Idle;
  std::uint8_t epoch_ = 1;  // a byte, as NodeState::epoch: next_epoch() handles the wrap
  std::uint8_t flags_ = 0;  // the bits above
  Result last_root_result_ = Result::Success;

  // The second cache line: what command starts and ends, module calls (a sub-instance begins,
  // runs and ends each time its caller is entered and left), large Simultaneous nodes, user
  // class state and expressions read.
  std::string_view state_end_;  // set by Element_StateEnd
  Instance* parent_ = nullptr;
  const ModuleCall* call_ = nullptr;   // the caller's module call (sub-instances)
  std::uint8_t* held_ = nullptr;       // Simultaneous children held (Graph::held_flags)
  std::byte* class_states_ = nullptr;  // user class state blocks
  // Every expression site's static memory (Graph::expression_memory bytes; null without
  // expressions), and the host pointer their frames carry: an evaluation reads no further line
  // of the object. (Evaluating is logically a read: const members write the memory.)
  std::uint8_t* expression_memory_ = nullptr;
  void* host_ = nullptr;  // options_.host

  // The block: owned by a top-level instance (with the arena that carves it at its front),
  // shared with (carved for) its sub-instances.
  Block block_;
  MemoryResource* arena_;
  ArenaVector<Instance*> modules_;  // by Graph::module_calls index
  ForkRequest fork_;
  // The rest: read on observed ticks, Element_RandomSelector, blackboard links and faults.
  std::shared_ptr<const Graph> graph_owner_;  // graph_, kept alive
  InstanceOptions options_;
  // Element_RandomSelector: a 4-byte, exactly specified generator (the same draws on every
  // standard library), seeded per instance.
  std::minstd_rand random_;
  // The blackboard: values by entry index, and for each entry where it lives (this instance's
  // value, or the root's or parent's entry it inherits).
  ArenaVector<Value> blackboard_;
  ArenaVector<std::string> blackboard_strings_;  // String entries' values set by the host
  struct BlackboardLink {
    Instance* owner;
    std::uint32_t entry;
  };
  ArenaVector<BlackboardLink> blackboard_links_;
  // A bit per child plug (GraphArrays::child_plug_count): decisions taken since the instance was
  // made, for an observer without branch events.
  std::uint8_t* branches_ = nullptr;
  // The fault thrown during the current entry point (top-level instance only): a class that
  // catches the runtime's exception (catch (...) around run_child) cannot hide it, as the entry
  // point faults the instance when it returns all the same.
  mutable std::unique_ptr<Fault> thrown_;
  // What few instances ever have, behind one pointer: the object has no room for another
  // without growing a cache line per instance.
  struct Rare {
    std::optional<Fault> fault;  // the instance stopped on it (top-level instances only)
    // Forced results (Instance::force): read by the general Update only, which an instance
    // with any takes (kGeneralPaths).
    std::vector<std::pair<std::uint32_t, Result>> forced;
  };
  std::unique_ptr<Rare> rare_;
  Rare& rare() {
    if (!rare_) rare_ = std::make_unique<Rare>();
    return *rare_;
  }
  bool has_forced() const { return rare_ && !rare_->forced.empty(); }
  const Result* forced_result(std::uint32_t node) const;
};

}  // namespace detail
}  // namespace ainb::runtime
