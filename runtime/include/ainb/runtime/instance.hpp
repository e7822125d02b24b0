#pragma once

// One actor (AI file), AI group (Logic file) or scene (Sequence file) running a shared Graph.
// The instance owns all mutable state in one block allocated when it is created: node states,
// outputs, blackboard, active node array, user class state, EXB static memory and one
// sub-instance per module call site (laid out in the same block). A tick allocates nothing.
// Semantics: docs/semantics.md.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ainb/runtime/graph.hpp"
#include "ainb/runtime/log.hpp"
#include "ainb/runtime/memory.hpp"
#include "ainb/runtime/observer.hpp"

namespace ainb::runtime {

struct InstanceOptions {
  std::uint64_t seed = 0;  // Element_RandomSelector draws from a generator seeded with this
  void* host = nullptr;    // handed to node classes (NodeContext::host)
  Observer* observer = nullptr;
  // Where the instance's one block comes from (node states, outputs, blackboard, class state,
  // module sub-instances: Instance::block_size(graph) bytes, aligned for any object), and where
  // it goes back when the instance is destroyed: a host's arena, pool or huge-page region, which
  // must outlive the instance. nullptr: operator new. (docs/embedding.md, "Many actors".)
  MemoryResource* memory = nullptr;
  // Where Element_Alert's messages go besides the observer (a LogKind::Alert event), for this
  // instance and its module calls; null: nowhere. A pointer (the host's sink, which must outlive
  // the instance), so that a tick with none set tests one pointer and copies nothing.
  const LogSink* log = nullptr;
};

// Faulted: host code the instance called threw (see Fault); nothing of the instance runs until
// the host starts a command again.
enum class CommandState : std::uint8_t { Idle, Running, Succeeded, Failed, Faulted };

// An exception thrown by host code an instance called: a user node class (enter, update, leave),
// a user EXB function (through an expression) or an observer. It is caught at the instance's
// entry point (constructor, start, stop, tick, the blackboard setters), which then leaves the
// instance Faulted: every node inactive, without calling any class or observer again; blackboard
// and outputs keep their values. Other instances are unaffected. docs/robustness.md.
struct Fault {
  enum class Source : std::uint8_t { NodeClass, UserFunction, Observer };
  Source source = Source::NodeClass;
  std::string file;        // the file of the node (a module's, inside a module call)
  std::int64_t node = -1;  // the node's index in that file; -1 for an event of no node
  std::string node_name;   // the user class or built-in type name
  std::uint64_t frame = 0;
  std::string call;     // "update", "on_enter", "EXB function 2", ...
  std::string message;  // what() of the exception
  // One line: "<file>: frame <f>: node <n> (<name>): <source> threw in <call>: <message>".
  std::string describe() const;
};
std::string_view fault_source_name(Fault::Source source);

}  // namespace ainb::runtime

// The instance's layout and the scheduler's steps (its private base), which use the types above.
#include "ainb/runtime/detail/scheduler.hpp"

namespace ainb::runtime {

// Cache-line aligned: the fields a quiet tick reads share one line (detail/scheduler.hpp).
class alignas(64) Instance : private detail::Scheduler {
 public:
  // Runs Graph::latest(graph): after a hot reload, new actors run the newest graph of the file.
  explicit Instance(std::shared_ptr<const Graph> graph, InstanceOptions options = {});
  ~Instance();  // leaves every active node
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  // Starts a command by name, leaving the running one first. Throws std::invalid_argument when
  // the file has no such command (the message lists the ones it has).
  void start(std::string_view command);
  // The same by the command's index in graph().model().commands (Graph::find_command gives it),
  // without the lookup by name: for hosts that restart commands as they end. Throws
  // std::out_of_range for an index past the last command.
  void start(std::size_t command);
  // Leaves every active node; the instance is idle afterwards.
  void stop();
  // Advances one frame.
  void tick();
  // Ticks until the command is no longer Running, for at most `max_frames` frames (a command
  // that loops, or a Logic file, runs them all); returns state(). For tools, tests and
  // examples: a game ticks each actor once per frame.
  CommandState tick_while_running(std::uint64_t max_frames);
  // (start, stop and tick are the host's, between frames: called from a node class during a tick
  // or command change, they throw std::logic_error, a fault of that node.)

  // Hot reload (Runtime::reload; docs/embedding.md, "Hot reload"): moves the instance to the
  // newest graph of its file now, rather than at its next start (which moves it by itself); true
  // if it moved. The running command's nodes are left, the blackboard values written since the
  // start (those unlike the file's default) carry over to the entries of the same name and type,
  // and that command starts again on the new graph if it has one of that name. Allocates the
  // new graph's block; pointers to module sub-instances go. Between ticks only, as start.
  bool switch_to_latest();

  // Forces node `node`'s result (a debugger's intervention, docs/semantics.md "Forced results"):
  // from the next tick, each of its updates returns `result` without running the node's own
  // update (nor, for a composite, its children's); its Enter and Leave are its own. nullopt
  // ends it. While any node is forced, the instance takes the general paths an observer takes.
  // Between ticks only, as set_observer; throws std::out_of_range for a node the file does not
  // have. A move to a newer graph (hot reload) keeps no forced results.
  void force(std::uint32_t node, std::optional<Result> result);
  // The same for node `node` of module file `module_file`, in each of its calls (at any depth);
  // returns how many calls there are.
  std::size_t force_in_module(std::string_view module_file, std::uint32_t node,
                              std::optional<Result> result);

  // Attaches (or, with null, detaches) an observer, for this instance and its module calls.
  // Between ticks only: called from a node class during a tick it throws std::logic_error.
  void set_observer(Observer* observer);

  CommandState state() const { return state_; }
  // Why the instance is Faulted (null otherwise). Starting a command clears it.
  const Fault* fault() const { return rare_ && rare_->fault ? &*rare_->fault : nullptr; }
  std::string_view command() const;
  // The TransitionCommand of the Element_StateEnd that ended the last command, if one did.
  std::string_view state_end() const { return state_end_; }
  // Frames ticked by the actor (a module's sub-instance reports its caller's frame).
  std::uint64_t frame() const { return parent_ != nullptr ? parent_->frame() : frame_; }
  bool is_active(std::uint32_t node) const { return state_of(node).active != 0; }
  // Whether the node was entered since the instance was made (or moved to a newer graph), a
  // fault's reset included: what coverage reads when its observer takes no node events.
  bool was_entered(std::uint32_t node) const { return (state_of(node).bits & kWasEntered) != 0; }
  // Whether the node took child plug `plug` (a decision, Observer::on_branch) since the instance
  // was made, while an observer without branch events (Observer::branch_events) was attached.
  bool branch_taken(std::uint32_t node, std::uint32_t plug) const;
  // The active root nodes, in array order (a Join waiting for its InFlowNum included).
  std::vector<std::uint32_t> active_roots() const;

  // Module calls: the caller (null at the top), the caller's module node, and the sub-instance
  // of one of this instance's module nodes (null for other nodes).
  const Instance* parent() const { return parent_; }
  std::uint32_t caller_node() const { return call_ != nullptr ? call_->node : 0; }
  const Instance* module_instance(std::uint32_t node) const;

  // The blackboard, by name; set_* return false when the file has no such entry of that type.
  // An entry that inherits from the root or the parent file (a module's) is that file's entry.
  bool set_bool(std::string_view name, bool value);
  bool set_int(std::string_view name, std::int32_t value);
  bool set_float(std::string_view name, float value);
  bool set_string(std::string_view name, std::string_view value);
  bool set_vec3f(std::string_view name, Vec3f value);
  // The same in every call of module file `module_file` (its sub-instances at any depth): what
  // stands for the module's own nodes writing its own entries, which no file above it has. The
  // value holds the type's alternative (model.hpp); it is written where the entry lives (an
  // inherited one in the file it inherits from). A caller's argument for the entry overwrites it
  // when the module begins again. False when no call has such an entry.
  bool set_module_value(std::string_view module_file, std::string_view name, BlackboardType type,
                        const Value& value);
  const Value* blackboard(std::string_view name) const;
  // What node `node`'s output `index` (among its outputs of `type`, in the file's order) holds
  // now: for tools that show a run (a report page, a debugger), not for a tick's hot path.
  // Throws std::out_of_range for a node or output the file does not have.
  Value output_value(std::uint32_t node, ParamType type, std::uint32_t index) const;

  // For hosts that tick thousands of actors in turn, whose state no cache holds: each tick then
  // waits for its actor's memory line by line. prefetch() asks the processor to start reading
  // what the next tick reads (its command's footprint, which the graph works out, and the
  // blackboard) and returns at once; prefetch_object() the same for this object, which
  // prefetch() reads. In a loop, one actor ahead for the first and two for the second
  // (docs/embedding.md, "Many actors"), when the graph is Graph::worth_prefetching():
  //   if (i + 2 < n) actors[i + 2]->prefetch_object();
  //   if (i + 1 < n) actors[i + 1]->prefetch();
  //   actors[i]->tick();
  // Neither changes what the instance does. prefetch() does nothing for a command whose frames
  // read little (an empty footprint), or while it runs unless its frames re-read much of it: a
  // frame that starts a command enters its tree.
  void prefetch() const;
  void prefetch_object() const { __builtin_prefetch(this); }

  // Makes the calling thread's EXB machines for this instance's programs (its graph's and its
  // modules'), if the thread has none yet: expressions run on machines each thread keeps per
  // program (exb/thread_machines.hpp), made at a thread's first evaluation. Creating an instance
  // does this for the creating thread; a worker thread that will tick actors calls it once for
  // an actor of each graph, so that none of its ticks allocates.
  void prepare_thread() const;

  const Graph& graph() const { return *graph_; }
  // Bytes this instance owns (itself and its block with the module sub-instances): what each
  // actor costs besides the graph. (Expressions run on machines each thread keeps per program:
  // exb/thread_machines.hpp.)
  std::size_t memory_bytes() const;
  // The size of the block an instance of `graph` allocates (an upper bound of what it uses).
  static std::size_t block_size(const Graph& graph);
  void* host() const { return host_; }

 private:
  friend class detail::Scheduler;  // its steps reach the instance's callers and module calls
  friend class NodeContext;        // a node class's reads and writes are the scheduler's
  // What a hot reload carries to the new graph (reload.cpp).
  struct Carried;
  // A module's sub-instance, carved from its caller's block (`arena`); or, with `carried`, a
  // top-level instance moving to a newer graph.
  Instance(std::shared_ptr<const Graph> graph, InstanceOptions options, Instance* parent,
           const detail::ModuleCall* call, MemoryResource* arena, Carried* carried = nullptr);
  // Moves a top-level instance to `next` (reload.cpp); the start that asks for it gets the
  // index of command `index`'s name in the new graph.
  void switch_graph(std::shared_ptr<const Graph> next);
  [[gnu::cold, gnu::noinline]] std::size_t switch_for_start(std::size_t index);
  void carry_in(const Carried& carried);
  void enter_logic_roots();  // a Logic file's, at its creation or move
  static Block take_block(Carried& carried);
};

}  // namespace ainb::runtime
