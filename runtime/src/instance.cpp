// The scheduler: Enter, Update and Leave of every node kind, the active node array, module calls
// and parameter reads, as docs/semantics.md specifies.

#include "ainb/runtime/instance.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

namespace ainb::runtime {

namespace {

template <typename T>
T value_or(const Value& v, T fallback) {
  if (const auto* p = std::get_if<T>(&v)) return *p;
  return fallback;
}

// Host code threw (docs/robustness.md): carried from Instance::guarded to the entry point. Not a
// std::exception, so nothing in between mistakes it for an ordinary error.
struct FaultException {
  Fault fault;
};

bool is_module_if(NodeType t) {
  return t >= NodeType::ModuleIFInputS32 && t <= NodeType::ModuleIFChild;
}

// Component 0, 1 or 2 (x, y, z) of a vec3f.
float component_of(const Vec3f& v, std::uint8_t component) {
  return component == 0 ? v.x : component == 1 ? v.y : v.z;
}

}  // namespace

// ---- life cycle -----------------------------------------------------------------------------

namespace {
std::shared_ptr<const Graph> not_null(std::shared_ptr<const Graph> graph) {
  if (graph == nullptr) throw std::invalid_argument("runtime::Instance: no graph (a null pointer)");
  return graph;
}

// The generator's state from all 64 bits of the seed (splitmix64's finaliser), so seeds that
// differ only in their high bits give different runs; minstd's states are 1 .. 2^31 - 2.
std::uint_fast32_t generator_seed(std::uint64_t seed) {
  seed += 0x9E3779B97F4A7C15ull;
  seed = (seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9ull;
  seed = (seed ^ (seed >> 27)) * 0x94D049BB133111EBull;
  seed ^= seed >> 31;
  return static_cast<std::uint_fast32_t>(seed % 2147483646u) + 1u;
}
}  // namespace

Instance::Instance(std::shared_ptr<const Graph> graph, InstanceOptions options)
    : Instance(not_null(std::move(graph)), options, nullptr, nullptr, nullptr) {}

// ---- failure behaviour (docs/robustness.md) ---------------------------------------------------

std::string_view fault_source_name(Fault::Source source) {
  switch (source) {
    case Fault::Source::NodeClass:
      return "user node class";
    case Fault::Source::UserFunction:
      return "user EXB function";
    case Fault::Source::Observer:
      return "observer";
  }
  return "?";
}

std::string Fault::describe() const {
  const auto where = node >= 0 ? fmt::format("node {} ({}): ", node, node_name) : std::string();
  return fmt::format("{}: frame {}: {}{} threw in {}: {}", file, frame, where,
                     fault_source_name(source), call, message);
}

// Inlined: the try costs nothing until something throws, and a call per node update does.
template <typename F>
[[gnu::always_inline]] inline decltype(auto) Instance::guarded(Fault::Source source,
                                                               std::int64_t node, const char* call,
                                                               F&& f) const {
  try {
    return f();
  } catch (const FaultException&) {
    throw;  // already named (an observer called from a class's blackboard write)
  } catch (const std::exception& e) {
    throw_fault(source, node, call, e.what());
  } catch (...) {
    throw_fault(source, node, call, "an exception that is not a std::exception");
  }
}

void Instance::throw_fault(Fault::Source source, std::int64_t node, std::string call,
                           std::string message) const {
  const auto& m = graph_->model();
  std::string name;
  if (node >= 0) {
    name = node_class_name(m.nodes[static_cast<std::size_t>(node)]);
  }
  Fault fault{.source = source,
              .file = m.name,
              .node = node,
              .node_name = std::move(name),
              .frame = frame(),
              .call = std::move(call),
              .message = std::move(message)};
  if (const auto& top = top_level(); !top.thrown_) {
    top.thrown_ = std::make_unique<Fault>(fault);
    top.marks_ |= kFaultThrown;
  }
  throw FaultException{std::move(fault)};
}

const Instance& Instance::top_level() const {
  const auto* top = this;
  while (top->parent_ != nullptr)
    top = top->parent_;
  return *top;
}

bool Instance::faulting() const {
  return (top_level().marks_ & kFaultThrown) != 0;
}

bool Instance::inside_entry() const {
  return top_level().has(kEntered);
}

// The entry points run their work through this: a fault thrown inside stops the instance (state
// Faulted, every node inactive, no class or observer called again). Nested calls (a class
// writing the blackboard during a tick, a module's sub-instance) leave it to the outer one.
template <typename F>
void Instance::catching(F&& f) {
  // (inside_entry() for a top-level instance; hosts never reach a sub-instance's entry points)
  if (has(kEntered)) return f();
  set(kEntered, true);
  try {
    f();
  } catch (FaultException& e) {
    return stop_on_fault(e.fault);
  } catch (...) {
    forget_thrown();
    throw;
  }
  // A fault a class caught and did not rethrow: the first one thrown. (thrown_ is null outside
  // an entry point, so this is the only check a fault-free call makes, of a bit in the object's
  // first cache line.)
  if ((marks_ & kFaultThrown) != 0) [[unlikely]]
    return stop_on_fault(*thrown_);
  set(kEntered, false);
}

void Instance::forget_thrown() {
  set(kEntered, false);
  thrown_.reset();
  marks_ &= static_cast<std::uint8_t>(~kFaultThrown);
}

void Instance::stop_on_fault(Fault& fault) {
  set(kEntered, false);
  fault_ = std::make_unique<Fault>(std::move(fault));
  forget_thrown();  // (after the move: `fault` may be *thrown_)
  reset_after_fault();
  state_ = CommandState::Faulted;
}

// start, stop and tick run the scheduler. Called from inside it (a node class calling them on the
// instance that runs it) they would leave nodes twice, or recurse until the stack overflows, so
// they are refused, as set_observer is: the class's call throws, a fault of its node. (A
// sub-instance is always inside its top-level instance's entry points: kEntered.)
template <typename F>
void Instance::scheduling(const char* call, F&& f) {
  if (has(kEntered)) throw_reentered(call);
  catching(std::forward<F>(f));
}

void Instance::throw_reentered(const char* call) const {
  throw std::logic_error(fmt::format(
      "{}: {} during a tick or command change; a node class cannot start, stop or tick the "
      "instance that runs it",
      graph_->model().name, call));
}

void Instance::reset_after_fault() {
  std::ranges::fill(node_states(), NodeState{});
  slot_count_ = 0;
  fork_ = {};
  set(kTransitionRequested | kPostRequested | kStateEndRequested, false);
  current_slot_ = -1;
  if (state_ == CommandState::Running) state_ = CommandState::Idle;
  for (auto* sub : modules_)
    sub->reset_after_fault();
}

namespace {

// Room for `count` objects of type T in a monotonic arena, with its alignment padding.
template <typename T>
constexpr std::size_t room(std::size_t count) {
  return count * sizeof(T) + std::max(alignof(T), alignof(std::max_align_t));
}

// `count` value-initialised objects of a trivially destructible type T, carved from the arena
// (which never gives memory back: they live as long as the block).
template <typename T>
T* carve(std::pmr::memory_resource& arena, std::size_t count) {
  static_assert(std::is_trivially_destructible_v<T>);
  auto* objects = static_cast<T*>(arena.allocate(count * sizeof(T), alignof(T)));
  std::uninitialized_value_construct_n(objects, count);
  return objects;
}

}  // namespace

std::size_t Instance::carved_bytes(const Graph& graph) {
  const auto& m = graph.model();
  const auto entries = m.blackboard.entries.size();
  std::size_t bytes = room<NodeState>(m.nodes.size()) + room<Value>(entries) +
                      room<BlackboardLink>(entries) + room<Value*>(entries) +
                      room<Slot>(graph.max_active_roots()) + room<std::byte>(graph.node_memory()) +
                      room<std::uint8_t>(graph.expression_memory()) +
                      room<Instance*>(graph.module_calls().size()) +
                      (graph.held_flags() != 0 ? room<std::uint8_t>(graph.held_flags()) : 0);
  bytes += room<std::byte>(graph.output_bytes()) +
           room<std::string>(m.blackboard.count[static_cast<std::size_t>(BlackboardType::String)]);
  for (const auto& call : graph.module_calls())
    bytes += room<Instance>(1) + carved_bytes(*call.graph);
  return bytes;
}

// The arena's resource sits at the block's front (the instance object stays small, and its
// hot fields together); it carves the rest, and nothing beyond: a wrong size is an exception
// here, never a hidden allocation. The block is aligned for any object (as plain operator new
// aligns).
static_assert(alignof(std::max_align_t) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
constexpr std::size_t kBlockAlignment = alignof(std::max_align_t);
constexpr std::size_t kArenaRoom =
    (sizeof(std::pmr::monotonic_buffer_resource) + kBlockAlignment - 1) / kBlockAlignment *
    kBlockAlignment;

std::size_t Instance::block_size(const Graph& graph) {
  return kArenaRoom + carved_bytes(graph);
}

Instance::Block Instance::new_block(const Graph& graph, std::pmr::memory_resource* memory) {
  const auto carved = carved_bytes(graph);
  auto* block = static_cast<std::byte*>(memory != nullptr
                                            ? memory->allocate(kArenaRoom + carved, kBlockAlignment)
                                            : ::operator new(kArenaRoom + carved));
  new (block) std::pmr::monotonic_buffer_resource(block + kArenaRoom, carved,
                                                  std::pmr::null_memory_resource());
  return Block(block, BlockDeleter{memory, kArenaRoom + carved});
}

std::pmr::monotonic_buffer_resource* Instance::block_arena(std::byte* block) {
  return std::launder(reinterpret_cast<std::pmr::monotonic_buffer_resource*>(block));
}

void Instance::BlockDeleter::operator()(std::byte* block) const {
  block_arena(block)->~monotonic_buffer_resource();
  if (memory != nullptr) {
    memory->deallocate(block, bytes, kBlockAlignment);
  } else {
    ::operator delete(block);
  }
}

// An output slot holds its type's value in its natural size (Graph::output_offset).
Value Instance::output(std::size_t t, std::uint32_t index) const {
  const auto* at = output_at(t, index);
  auto load = [at](auto value) -> Value {
    std::memcpy(&value, at, sizeof(value));
    return value;
  };
  switch (static_cast<ParamType>(t)) {
    case ParamType::Int:
      return load(std::int32_t{});
    case ParamType::Bool:
      return load(false);
    case ParamType::Float:
      return load(0.0f);
    case ParamType::String:
      return load(std::string_view{});
    case ParamType::Vec3f:
      return load(Vec3f{});
    case ParamType::Pointer:
      return load(PointerValue{});
  }
  return Value{};
}

// A value of another type than the slot's is not stored (every writer converts first).
void Instance::set_output(std::size_t t, std::uint32_t index, const Value& value) {
  if (value.index() != t) return;
  auto* at = output_at(t, index);
  std::visit([at](const auto& v) { std::memcpy(at, &v, sizeof(v)); }, value);
}

std::uint8_t Instance::shape_flags(const Graph& graph) {
  const auto& commands = graph.model().commands;
  const bool secondary =
      std::ranges::any_of(commands, [](const auto& c) { return c.secondary_root.has_value(); });
  const bool other_roots = secondary || !graph.module_outputs().empty();
  // No transitions: no Fork, Join or transition request can put a second slot in the array.
  const bool single_root = !commands.empty() && !other_roots && !graph.has_transitions();
  return static_cast<std::uint8_t>((commands.empty() ? kLogic : 0) |
                                   (other_roots ? kOtherRoots : 0) |
                                   (single_root ? kSingleRoot : 0));
}

Instance::Instance(std::shared_ptr<const Graph> graph, InstanceOptions options, Instance* parent,
                   const ModuleCall* call, std::pmr::memory_resource* arena)
    : graph_(graph.get()),
      flags_(static_cast<std::uint8_t>((options.observer != nullptr ? kObserved : 0) |
                                       (parent != nullptr ? kEntered : 0) | shape_flags(*graph_))),
      parent_(parent),
      call_(call),
      host_(options.host),
      block_(arena != nullptr ? nullptr : new_block(*graph_, options.memory)),
      arena_(arena != nullptr ? arena : block_arena(block_.get())),
      modules_(arena_),
      graph_owner_(std::move(graph)),
      options_(options),
      random_(generator_seed(options.seed)),
      blackboard_(arena_),
      blackboard_strings_(arena_),
      blackboard_links_(arena_) {
  // A quiet tick's fields end within the object's first cache line, a start's and a module call's
  // within the second (instance.hpp). offsetof on a class that is not standard-layout is
  // conditionally supported; GCC and Clang support it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(alignof(Instance) == 64 &&
                offsetof(Instance, last_root_result_) + sizeof(last_root_result_) <= 64 &&
                offsetof(Instance, host_) + sizeof(host_) <= 128);
#pragma GCC diagnostic pop
  const auto& m = graph_->model();
  // The active node array just before the node states: a frame reads the slot, then its root's
  // state, which shares the slot's cache line when the root is among the first nodes (in 5 of
  // the corpus's 10 files with commands, a root is one of nodes 0 to 3).
  slots_ = carve<Slot>(*arena_, graph_->max_active_roots());
  nodes_ = carve<NodeState>(*arena_, m.nodes.size());
  if (graph_->held_flags() != 0) held_ = carve<std::uint8_t>(*arena_, graph_->held_flags());
  // Outputs start at their types' zero; all-zero bytes are that for every type, string views
  // included, which are written as such all the same.
  outputs_ = static_cast<std::byte*>(arena_->allocate(graph_->output_bytes(), 8));
  std::memset(outputs_, 0, graph_->output_bytes());
  for (std::uint32_t i = 0; i < m.outputs[static_cast<std::size_t>(ParamType::String)].size(); ++i)
    set_output(static_cast<std::size_t>(ParamType::String), i, std::string_view{});
  link_blackboard();
  if (graph_->node_memory() != 0) {
    node_memory_ = static_cast<std::byte*>(arena_->allocate(graph_->node_memory(), 16));
  }
  // Expressions run on the thread's machine for the graph's program (exb/thread_machines.hpp);
  // the instance owns only their static memory. Borrowing it once here makes it, if this thread
  // has none yet, so a host that ticks where it creates its actors allocates in no tick.
  if (graph_->program() != nullptr) {
    expression_memory_ = carve<std::uint8_t>(*arena_, graph_->expression_memory());
    (void)machine();
  }
  // One sub-instance per module call site, each with its own seed, in this block.
  const auto& calls = graph_->module_calls();
  modules_.reserve(calls.size());
  std::pmr::polymorphic_allocator<Instance> allocator(arena_);
  for (std::size_t k = 0; k < calls.size(); ++k) {
    auto sub = options_;
    sub.seed = options_.seed * 6364136223846793005ull + k + 1;
    auto* place = allocator.allocate(1);
    modules_.push_back(new (place) Instance(calls[k].graph, sub, this, &calls[k], arena_));
  }
  // Logic files: every root is entered when the instance is created (a command-less module's
  // roots are entered when its module node is).
  if (m.commands.empty() && parent_ == nullptr) {
    catching([&] {
      for (const auto root : graph_->logic_roots())
        enter(root);
      for (const auto out : graph_->module_outputs())
        enter(out);
      const bool runs = !graph_->logic_roots().empty() || !graph_->module_outputs().empty();
      state_ = runs ? CommandState::Running : CommandState::Idle;
    });
  }
}

Instance::~Instance() {
  try {
    // A top-level instance catches faults; a sub-instance (always inside its top-level
    // instance's entry points) was left with its module node, and leaves what may remain.
    if (parent_ == nullptr) {
      stop();
    } else {
      stop_nodes();
    }
  } catch (...) {
    // nothing can be reported from a destructor: the instance is going anyway
  }
  // Sub-instances live in the block: destroyed here, their memory goes with the block.
  for (auto* sub : modules_)
    sub->~Instance();
}

// An entry that inherits (from the root file, or from the parent file for a module) is the
// entry of the same name and type there; otherwise the instance keeps its own value.
void Instance::link_blackboard() {
  const auto& entries = graph_->model().blackboard.entries;
  blackboard_.reserve(entries.size());
  for (std::uint32_t i = 0; i < entries.size(); ++i)
    blackboard_.push_back(graph_->blackboard_default(i));
  // The read pointers right after the values most of them point to (neighbouring lines), which
  // prefetch() counts on: the arena hands out its bytes in order.
  auto* bb = carve<Value*>(*arena_, entries.size());
  if (!entries.empty() && static_cast<void*>(blackboard_.data() + entries.size()) != bb)
    throw std::logic_error("Instance: the blackboard's read pointers do not follow its values");
  // Host-set strings are kept here, one per String entry (entries are grouped by type).
  blackboard_strings_.resize(
      graph_->model().blackboard.count[static_cast<std::size_t>(BlackboardType::String)]);
  blackboard_links_.reserve(entries.size());
  const Instance* root = this;
  while (root->parent_ != nullptr)
    root = root->parent_;
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    Instance* from = e.inherit == InheritMode::FromRoot     ? const_cast<Instance*>(root)
                     : e.inherit == InheritMode::FromParent ? parent_
                                                            : nullptr;
    BlackboardLink link{this, i};
    if (from != nullptr && from != this) {
      const auto& theirs = from->graph_->model().blackboard.entries;
      for (std::uint32_t j = 0; j < theirs.size(); ++j) {
        if (theirs[j].type == e.type && theirs[j].name == e.name) {
          link = from->blackboard_links_[j];
          break;
        }
      }
    }
    blackboard_links_.push_back(link);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& link = blackboard_links_[i];
    bb[i] = link.owner == this ? &blackboard_[link.entry] : link.owner->bb_[link.entry];
  }
  bb_ = bb;
}

std::size_t Instance::memory_bytes() const {
  std::size_t bytes = parent_ == nullptr ? sizeof(*this) + block_size(*graph_) : 0;
  for (const auto* sub : modules_)
    bytes += sub->memory_bytes();
  return bytes;
}

namespace {
// Asks for the cache lines of `bytes` bytes at `at` (at least one).
void prefetch_bytes(const void* at, std::size_t bytes) {
  const auto* p = static_cast<const char*>(at);
  for (std::size_t o = 0; o < bytes; o += 64)
    __builtin_prefetch(p + o);
  __builtin_prefetch(p + bytes - 1);  // the last line, when `at` is not at a line's start
}
}  // namespace

void Instance::prefetch() const {
  // The last command started: the next tick's, unless the host starts another first.
  const auto& footprint = graph_->footprints()[command_ >= 0 ? command_ : 0];
  // A running command's frame updates its running nodes; one that starts enters the tree.
  if (footprint.states.empty() || (state_ == CommandState::Running && !footprint.every_frame))
    return;
  prefetch_bytes(slots_, sizeof(Slot));
  for (const auto w : footprint.states)
    prefetch_bytes(nodes_ + w.base, w.count * sizeof(NodeState));
  for (const auto w : footprint.outputs)
    prefetch_bytes(outputs_ + w.base, w.count);
  // An evaluation reads the object's second line (expression memory, host) and the sites' static
  // memory; the machine is the thread's, in its caches already.
  if (footprint.evaluates) {
    __builtin_prefetch(reinterpret_cast<const std::byte*>(this) + 64);
    for (const auto w : footprint.expression_memory)
      prefetch_bytes(expression_memory_ + w.base, w.count);
  }
  // The blackboard's values and, right after them, their read pointers (link_blackboard).
  if (const auto n = graph_->model().blackboard.entries.size(); n != 0) {
    prefetch_bytes(reinterpret_cast<const std::byte*>(bb_) - n * sizeof(Value),
                   n * (sizeof(Value) + sizeof(Value*)));
  }
}

std::string_view Instance::command() const {
  return command_ < 0 ? std::string_view{} : graph_->model().commands[command_].name;
}

std::vector<std::uint32_t> Instance::active_roots() const {
  std::vector<std::uint32_t> roots;
  for (const auto& s : slots())
    roots.push_back(s.node);
  return roots;
}

const Instance* Instance::module_instance(std::uint32_t node) const {
  const auto k = graph_->nodes()[node].module;
  return k < 0 ? nullptr : modules_[static_cast<std::size_t>(k)];
}

// ---- commands and the frame -------------------------------------------------------------------

void Instance::start(std::string_view name) {
  if (const auto index = graph_->find_command(name)) return start(*index);
  std::string known;
  for (const auto& c : graph_->model().commands)
    known += fmt::format("{}\"{}\"", known.empty() ? "" : ", ", c.name);
  throw std::invalid_argument(fmt::format("{} has no command \"{}\" (it has: {})",
                                          graph_->model().name, name,
                                          known.empty() ? "none" : known));
}

void Instance::start(std::size_t index) {
  if (index >= graph_->model().commands.size()) throw_no_command(index);
  scheduling("start", [&] {
    // Only a faulted instance has a fault record (and stays Faulted until this start): the test
    // spares a restart the record's cache line.
    if (state_ == CommandState::Faulted) forget_fault();
    start_command(index);
  });
}

// Out of line, as are the rare paths below: a restart every frame pays for the registers and
// stack that start() would otherwise set up for them.
void Instance::throw_no_command(std::size_t index) const {
  const auto count = graph_->model().commands.size();
  throw std::out_of_range(
      fmt::format("{} has no command {} (it has {})", graph_->model().name, index, count));
}

void Instance::forget_fault() {
  fault_.reset();
}

void Instance::start_command(std::size_t index) {
  // A command that ended by itself left its roots already (end_command): the common restart.
  if (has_roots() || has(kOtherRoots)) stop_nodes();
  next_epoch();
  command_ = static_cast<std::int32_t>(index);
  state_ = CommandState::Running;
  marks_ &= static_cast<std::uint8_t>(~kPathFailed);
  clear_state_end();
  const auto& c = graph_->model().commands[index];
  if (observed()) notify_command(c.name);
  // The array is empty here (stopped above, or emptied by the command's end), and has room for
  // one slot in every file.
  slots_[0] = Slot{.node = c.root};
  slot_count_ = 1;
  enter(c.root);
  if (!has(kOtherRoots)) return;
  if (c.secondary_root) enter(*c.secondary_root);
  for (const auto out : graph_->module_outputs())
    enter(out);
}

// Out of line: its exception handling would give every start a stack frame.
void Instance::notify_command(std::string_view name) {
  guarded(Fault::Source::Observer, -1, "on_command",
          [&] { options_.observer->on_command(*this, name); });
}

void Instance::leave_roots() {
  // Later slots first, like the children of a node.
  for (auto k = slot_count_; k-- > 0;) {
    if (!slots_[k].dormant && !slots_[k].done) leave(slots_[k].node);
  }
  slot_count_ = 0;
  // A waiting Fork keeps kTransitionRequested set (apply_transitions), so a command start that
  // leaves roots without one does not touch fork_'s line of the object.
  if (has(kTransitionRequested)) fork_ = {};
  set(kTransitionRequested | kPostRequested, false);
}

inline Instance::Slot& Instance::push_slot(Slot slot) {
  // Graph::max_active_roots() bounds the array (a command's root, or a Fork's paths).
  if (slot_count_ == graph_->max_active_roots()) throw_array_full();
  return slots_[slot_count_++] = slot;
}

void Instance::throw_array_full() const {
  throw std::logic_error(fmt::format("{}: the active node array is full ({} slots)",
                                     graph_->model().name, slot_count_));
}

void Instance::stop() {
  scheduling("stop", [&] { stop_nodes(); });
}

void Instance::stop_nodes() {
  if (has(kOtherRoots)) leave_secondary_root();
  leave_roots();
  if (has(kLogic)) {
    for (const auto root : graph_->logic_roots()) {
      if (is_active(root)) leave(root);
    }
  }
  if (has(kOtherRoots)) {
    for (const auto out : graph_->module_outputs()) {
      if (is_active(out)) leave(out);
    }
  }
  if (state_ == CommandState::Running) state_ = CommandState::Idle;
}

// next_epoch() wrapped the byte (NodeState::epoch is a byte too): every node updated at some
// earlier epoch is marked as updated at epoch 1 and the count goes on from 2. `epoch == epoch_`
// still means "updated in this epoch" (no node is, yet) and `epoch != 0` "updated since it was
// entered". The sweep is one pass every 254 epochs over the states a frame can reach (the
// others are never entered, so never updated): with thousands of actors, a pass over all of
// them read more lines than the frames of a tree of a few visits
// (docs/benchmarks-runtime-history.md, "Reached states first").
void Instance::sweep_epochs() {
  for (auto& s : node_states().first(graph_->reached_states())) {
    if (s.epoch != 0) s.epoch = 1;
  }
  epoch_ = 2;
}

// (Called when kOtherRoots is set, as update_secondary_root is: most files have no secondary
// root, and the test at the call spares them the call.)
void Instance::leave_secondary_root() {
  if (command_ < 0) return;
  const auto& c = graph_->model().commands[command_];
  if (c.secondary_root && is_active(*c.secondary_root)) leave(*c.secondary_root);
}

// Inlined: a tree restarted every frame ends its command every frame.
[[gnu::always_inline]] inline void Instance::end_command(Result result) {
  if (has(kOtherRoots)) leave_secondary_root();
  // After a frame's last root finished, nothing is left to leave (the common end).
  if (has_roots()) leave_roots();
  state_ = ended(result);
}

void Instance::tick() {
  if (state_ == CommandState::Faulted) return;  // stopped until a command is started again
  scheduling("tick", [&] { tick_frame(); });
}

void Instance::tick_frame() {
  ++frame_;
  next_epoch();
  calculate_frame();
}

// A frame's calculation in the current epoch: a top-level tick's, or a module call's.
inline void Instance::calculate_frame() {
  if (has(kLogic)) return tick_logic();
  if (state_ != CommandState::Running) return;
  if (has(kSingleRoot)) return calculate_root();
  tick_command();
}

// A frame of a running command (Logic files take tick_logic): a function of its own, so the
// registers its calculation needs are not saved for the other frames.
void Instance::tick_command() {
  // Requested last frame: applied "before the next calculation".
  if (has(kTransitionRequested)) apply_transitions(false);
  calculate_slots(false);
  // The common frame tests the flags once: no transition, StateEnd or other roots.
  if (has(kTransitionRequested | kStateEndRequested | kOtherRoots)) return finish_frame();
  end_if_done();
}

// The frame of a file with commands and no transitions or other roots (kSingleRoot): the array
// holds the command's root, and nothing can add a slot, so the root's Update is the frame. (Its
// own function, as a restarted tree's frame is little more than this:
// docs/benchmarks-runtime-history.md, "The single-root frame".)
void Instance::calculate_root() {
  const auto node = slots_[0].node;
  const auto& g = graph_->nodes()[node];
  auto& s = nodes_[g.state_index];
  const bool quiet = !observed();
  const auto result = update_child(node, g, s, quiet);
  if (result != Result::Running) {
    leave_child(node, g, s, quiet);
    slot_count_ = 0;
  }
  if (has(kStateEndRequested)) return finish_state_end();
  // The command's end, with nothing left to leave. (It is still running: a class cannot start or
  // stop it from inside the frame.)
  if (result != Result::Running) state_ = ended(result);
}

// The rest of a frame after the active node array's calculation: the secondary root, post-calc
// transitions, module outputs, a StateEnd, or the command's end.
void Instance::finish_frame() {
  if (has(kOtherRoots)) update_secondary_root();
  if (has(kPostRequested)) calculate_post_transitions();
  if (has(kOtherRoots)) update_module_outputs();
  if (has(kStateEndRequested)) return finish_state_end();
  end_if_done();
}

// A frame of a file without commands: its roots are rarely plain nodes, so they take the
// general Update (which is right for any node) without testing for the short paths.
void Instance::tick_logic() {
  const auto* nodes = graph_->nodes().data();
  for (const auto root : graph_->logic_roots()) {
    const auto& g = nodes[root];
    if (auto& s = nodes_[g.state_index]; s.active != 0) update_node(root, g, s);
  }
  update_module_outputs();
  if (has(kStateEndRequested)) finish_state_end();
}

void Instance::update_secondary_root() {
  const auto& c = graph_->model().commands[command_];
  if (c.secondary_root && is_active(*c.secondary_root)) update(*c.secondary_root);
}

// Post-calc transitions: their targets are entered and calculated in this frame. A chain of them
// is bounded, so a cycle of post-calc transitions cannot hang a frame.
void Instance::calculate_post_transitions() {
  const auto rounds = graph_->nodes().size();
  for (std::size_t round = 0; round <= rounds && has(kPostRequested); ++round) {
    apply_transitions(true);
    calculate_slots(true);
  }
}

// ---- the active node array --------------------------------------------------------------------

// Inlined into the frame (one copy more for post-calc transitions), as it runs every frame.
[[gnu::always_inline]] inline void Instance::calculate_slots(bool only_fresh) {
  const auto* nodes = graph_->nodes().data();
  const bool quiet = !observed();  // fixed during a tick (set_observer)
  bool removed = false;
  for (std::uint32_t i = 0; i < slot_count_; ++i) {
    auto& slot = slots_[i];
    if (slot.done || (only_fresh && !slot.fresh)) continue;
    slot.fresh = false;
    if (slot.dormant) {
      if (!wake_join(i)) continue;
      removed = true;  // its other copies may have left the array
    }
    const auto node = slot.node;
    current_slot_ = static_cast<std::int32_t>(i);
    const auto& g = nodes[node];
    const auto result = update_child(node, g, nodes_[g.state_index], quiet);
    current_slot_ = -1;
    if (result == Result::Running) continue;
    // A path that ends (no transition) with Failure fails the command, whatever the others do
    // (a Fork's paths, as a Simultaneous's children: docs/semantics.md).
    if (slot.next < 0 && result == Result::Failure) marks_ |= kPathFailed;
    last_root_result_ = (marks_ & kPathFailed) != 0 ? Result::Failure : result;
    leave_child(node, g, nodes_[g.state_index], quiet);
    slot.done = true;
    if (slot.next < 0) removed = true;
  }
  // Only a slot this loop finished, or a Join copy a woken Join dropped, leaves the array.
  if (!removed) return;
  // The common removal, a single root that finished (a tree restarted every frame), without the
  // loop.
  if (slot_count_ == 1 && slots_[0].leaves_array()) {
    slot_count_ = 0;
  } else {
    remove_finished_slots();
  }
}

// A Join runs once InFlowNum copies of it are in the array; the guard: the copy being
// calculated runs (the first, unless it is the post-calc pass's fresh one), the others leave the
// array. Out of line, as the frame's loop above runs every frame and this rarely.
bool Instance::wake_join(std::uint32_t i) {
  const auto node = slots_[i].node;
  std::uint32_t copies = 0;
  for (const auto& s : slots())
    copies += s.node == node && s.dormant && !s.done ? 1u : 0u;
  if (copies < graph_->nodes()[node].in_flow) return false;
  // Every other copy, before it in the array too: in the post-calc pass only the fresh copy at
  // the end is looked at, and an older copy left dormant would keep the command running.
  for (std::uint32_t j = 0; j < slot_count_; ++j) {
    if (j != i && slots_[j].node == node && slots_[j].dormant) slots_[j].done = true;
  }
  slots_[i].dormant = false;
  enter(node);
  return true;
}

// A plain loop: the array has one or a few slots, where std::remove_if's unrolled search costs
// more than the copies (a tree restarted every frame removes its root's slot every frame).
void Instance::remove_finished_slots() {
  std::uint16_t kept = 0;
  for (std::uint32_t i = 0; i < slot_count_; ++i) {
    if (!slots_[i].leaves_array()) slots_[kept++] = slots_[i];
  }
  slot_count_ = kept;
}

// After a frame's calculation (post true) the post-calc requests are due; at a frame's start
// (post false) every pending one is: a post-calc request still pending then was carried over from
// a chain cut at its limit (calculate_post_transitions), and its slot's root has finished.
void Instance::apply_transitions(bool post) {
  const auto due = [post](bool post_calc) { return !post || post_calc; };
  const auto& nodes = graph_->nodes();
  // Set again below for requests of the other timing; every post-calc request is due here.
  set(kTransitionRequested | kPostRequested, false);
  auto place = [&](Slot& slot, std::uint32_t from, std::uint32_t target) {
    if (observed()) {
      guarded(Fault::Source::Observer, from, "on_transition",
              [&] { options_.observer->on_transition(*this, from, target); });
    }
    slot = Slot{.node = target, .dormant = nodes[target].type == NodeType::Join, .fresh = true};
    if (!slot.dormant) enter(target);
  };
  if (fork_.node >= 0 && due(fork_.post)) {
    // A Fork replaces the whole array with its paths.
    const auto fork = static_cast<std::uint32_t>(fork_.node);
    fork_ = {};
    leave_roots();
    // Nothing is requested now: paths that all finish in this calculation end the command in
    // this frame (their Join copies are counted as the array is calculated).
    for (const auto& t : graph_->transitions(fork)) {
      place(push_slot({}), fork, t.target);
    }
    return;
  }
  if (fork_.node >= 0) set(kTransitionRequested, true);
  for (auto& slot : slots()) {
    if (slot.next >= 0 && !due(slot.next_post)) set(kTransitionRequested, true);
    if (slot.next < 0 || !due(slot.next_post)) continue;
    if (!slot.dormant && !slot.done) leave(slot.node);  // a root that finished was left then
    place(slot, slot.next_from, static_cast<std::uint32_t>(slot.next));
  }
}

bool Instance::request_transition(std::uint32_t node, std::uint32_t k) {
  const auto transitions = graph_->transitions(node);
  if (k >= transitions.size()) return false;
  if (current_slot_ < 0) return false;  // not inside the calculation of an active root
  auto& slot = slots_[static_cast<std::size_t>(current_slot_)];
  if (slot.next >= 0) return true;  // the first request of a frame wins
  slot.next = static_cast<std::int32_t>(transitions[k].target);
  slot.next_from = node;
  slot.next_post = transitions[k].post_calc;
  set(kTransitionRequested, true);
  if (slot.next_post) set(kPostRequested, true);
  return true;
}

// Element_StateEnd was calculated: a module returns to its caller, which continues on the
// transition named by TransitionCommand; a top-level file switches to the command of that name,
// or ends its command.
void Instance::finish_state_end() {
  set(kStateEndRequested, false);
  const auto name = state_end_;
  const auto& commands = graph_->model().commands;
  if (parent_ == nullptr) {
    for (std::size_t i = 0; i < commands.size(); ++i) {
      if (commands[i].name == name) {
        start_command(i);
        keep_state_end(name);
        return;
      }
    }
  }
  if (!commands.empty() && command_ >= 0) {
    end_command(Result::Success);
  } else {
    for (const auto root : graph_->logic_roots()) {
      if (is_active(root)) leave(root);
    }
    state_ = CommandState::Succeeded;
  }
  keep_state_end(name);
}

// ---- queries --------------------------------------------------------------------------------

void Instance::enter_own(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  for (const auto& out : graph_->stub_outputs(node))
    set_output(static_cast<std::size_t>(out.type), out.slot, out.value);
  if (g.module >= 0) return modules_[static_cast<std::size_t>(g.module)]->begin_module(frame());
  if (g.state_size != 0) std::memset(node_memory_ + g.state, 0, g.state_size);
  if (g.calls_enter) {
    NodeContext context(*this, node, class_state(g), g.state_size);
    guarded(Fault::Source::NodeClass, node, "enter", [&] { g.user_class->enter(context); });
  }
}

// A registered class's update: inlined into the short path (update_plain), out of line for the
// other callers, whose own code stays lean without its exception handling.
[[gnu::always_inline]] inline Result Instance::call_update(std::uint32_t node, const GraphNode& g) {
  NodeContext context(*this, node, class_state(g), g.state_size);
  return guarded(Fault::Source::NodeClass, node, "update",
                 [&] { return g.user_class->update(context); });
}

Result Instance::call_update_outlined(std::uint32_t node, const GraphNode& g) {
  return call_update(node, g);
}

void Instance::leave_own(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  if (g.module >= 0) return modules_[static_cast<std::size_t>(g.module)]->end_module();
  if (g.calls_leave) {
    NodeContext context(*this, node, class_state(g), g.state_size);
    guarded(Fault::Source::NodeClass, node, "leave", [&] { g.user_class->leave(context); });
  }
}

// A node's queries, calculated before it is entered and before each of its updates: the
// unrolled walk of Graph::query_plan. A query is entered the first time one of its users needs
// it, and calculated after its own queries (real files chain them: an add of a multiply of two
// reads). One that is calculating already (reached again through a module's child plug while
// its module call runs) is skipped with its own queries.
void Instance::calculate_queries(std::uint32_t node) {
  const auto plan = graph_->query_plan(node);
  for (std::size_t i = 0; i < plan.size();) {
    const auto q = plan[i].node, end = plan[i].end;  // (clang 14 cannot capture bindings)
    auto& s = nodes_[plan[i].state];
    if (end != 0) {  // the first step
      if (s.calculating) {
        i = end;
        continue;
      }
      if (s.active == 0) enter_query(q, s);
      s.calculating = true;
      if (end != i + 1) {  // its own queries come first
        ++i;
        continue;
      }
    }
    // The last step (or a query's only one): its own queries are done.
    const auto& g = graph_->nodes()[q];
    const auto result = g.is_stub ? update_stub(s) : calculate(q);
    s.calculating = false;
    if (observed()) {
      guarded(Fault::Source::Observer, q, "on_update",
              [&] { options_.observer->on_update(*this, q, result); });
    }
    ++i;
  }
}

void Instance::enter_query(std::uint32_t q, NodeState& s) {
  s.active = 1;
  for (const auto inner : graph_->queries(q))
    ++state_of(inner).query_users;
  const auto& g = graph_->nodes()[q];
  if (g.runs_setup) run_setup_blocks(q);  // as enter_node does, before the observer hears of it
  if (observed()) {
    guarded(Fault::Source::Observer, q, "on_enter", [&] { options_.observer->on_enter(*this, q); });
  }
  if (g.enter_work || g.module >= 0) enter_own(q);
}

// The same walk: a query its last user leaves is left, then its own queries; one still in use
// (or not active) is skipped with them.
void Instance::leave_queries(std::uint32_t node) {
  const auto plan = graph_->query_plan(node);
  for (std::size_t i = 0; i < plan.size();) {
    const auto q = plan[i].node, end = plan[i].end;  // (clang 14 cannot capture bindings)
    if (end == 0) {
      ++i;
      continue;
    }
    auto& s = nodes_[plan[i].state];
    if (s.active != 0 && s.query_users > 0) --s.query_users;
    if (s.active == 0 || s.query_users > 0) {
      i = end;
      continue;
    }
    if (const auto& g = graph_->nodes()[q]; g.calls_leave || g.module >= 0) leave_own(q);
    s.active = 0;
    if (observed()) {
      guarded(Fault::Source::Observer, q, "on_leave",
              [&] { options_.observer->on_leave(*this, q); });
    }
    ++i;
  }
}

// The calculation of a node that has no children protocol: a user class's update, a stub, an
// expression, a ModuleIF node. Queries are calculated this way.
Result Instance::calculate(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  switch (g.type) {
    case NodeType::UserDefined:
      if (g.user_class) return call_update_outlined(node, g);
      if (g.module >= 0) return update_module_call(node);
      return update_stub(nodes_[g.state_index]);
    case NodeType::Expression:
      return update_expression(node);
    default:
      if (is_module_if(g.type)) return calculate_module_if(node);
      return Result::Success;
  }
}

// ---- enter / update / leave -----------------------------------------------------------------

// A user node's children (NodeContext::run_child): held from the Enter run_child gives them
// until they finish or the node leaves them.
Result Instance::run_user_child(std::uint32_t node, std::size_t k) {
  const auto& g = graph_->nodes()[node];
  const auto children = graph_->children(node);
  if (k >= children.size() || children[k] == Graph::kNoChild) return Result::Success;
  if (faulting()) return Result::Failure;  // a child's fault the class caught: run no more
  const auto held = held_children(g, state_of(node));
  if (!held.holds(k)) {
    held.set(k, true);
    enter(children[k]);
  }
  const auto result = update(children[k]);
  if (result != Result::Running) leave_user_child(node, k);
  return result;
}

void Instance::leave_user_child(std::uint32_t node, std::size_t k) {
  const auto& g = graph_->nodes()[node];
  const auto children = graph_->children(node);
  if (k >= children.size()) return;
  const auto held = held_children(g, state_of(node));
  if (!held.holds(k) || faulting()) return;  // after a fault nothing is left (robustness.md)
  held.set(k, false);
  leave(children[k]);
}

// A stub: Running for the configured updates, then Success.
inline Result Instance::update_stub(NodeState& s) const {
  if (s.counter >= graph_->stub_running_updates()) return Result::Success;
  ++s.counter;  // stops at the setting, which fits the 16-bit counter (Graph::kMaxStubUpdates)
  return Result::Running;
}

// The short paths: what enter, update and leave below do for a plain node (a registered class
// or a stub) with no observer attached, the common case of real trees. Sequential and
// Simultaneous call them directly, so they are inlined; the node's own work stays out of line.
[[gnu::always_inline]] inline void Instance::enter_plain(std::uint32_t node, const GraphNode& g,
                                                         NodeState& s) {
  if (s.active != 0) {
    ++s.active;
    return;
  }
  s = NodeState{};
  s.active = 1;
  if (g.enter_work) enter_own(node);
}

[[gnu::always_inline]] inline Result Instance::update_plain(std::uint32_t node, const GraphNode& g,
                                                            NodeState& s) {
  if (s.epoch == epoch_) return s.last;
  const auto result = g.user_class != nullptr ? call_update(node, g) : update_stub(s);
  s.epoch = epoch_;
  s.last = result;
  return result;
}

[[gnu::always_inline]] inline void Instance::leave_plain(std::uint32_t node, const GraphNode& g,
                                                         NodeState& s) {
  if (s.active != 1) {
    if (s.active > 1) --s.active;
    return;
  }
  if (g.calls_leave) leave_own(node);
  s.active = 0;
}

// A parent's loop over its children (and the active node array over its roots): the short path
// when it applies. `quiet`: no observer.
[[gnu::always_inline]] inline void Instance::enter_child(std::uint32_t node, const GraphNode& g,
                                                         NodeState& s, bool quiet) {
  if (quiet) {
    if (g.plain) return enter_plain(node, g, s);
    if (g.plain_composite) return enter_composite(node, g, s);
  }
  enter_node(node, g, s);
}
[[gnu::always_inline]] inline Result Instance::update_child(std::uint32_t node, const GraphNode& g,
                                                            NodeState& s, bool quiet) {
  if (quiet) {
    if (g.plain_update) return update_plain(node, g, s);
    if (g.plain_composite) return update_composite(node, g.type, s);
    if (g.plain) return update_plain_transition(node, g, s);
  }
  return update_node(node, g, s);
}

// Enter, Update and Leave of one node: the short path when it applies, else the general one.
[[gnu::always_inline]] inline void Instance::enter(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  enter_child(node, g, nodes_[g.state_index], !observed());
}
[[gnu::always_inline]] inline Result Instance::update(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  return update_child(node, g, nodes_[g.state_index], !observed());
}
[[gnu::always_inline]] inline void Instance::leave(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  leave_child(node, g, nodes_[g.state_index], !observed());
}

// The loop of a composite: Sequential, Simultaneous or a selector.
[[gnu::always_inline]] inline Result Instance::composite_loop(std::uint32_t node, NodeType type,
                                                              NodeState& s) {
  switch (type) {
    case NodeType::Sequential:
      return update_sequential(node, s);
    case NodeType::Simultaneous:
      return update_simultaneous(node, s);
    default:
      return update_selector(node, s);
  }
}

// What update() does for a plain composite with no observer: a small function, so a composite
// child does not pay for the general path's registers.
Result Instance::update_composite(std::uint32_t node, NodeType type, NodeState& s) {
  if (s.epoch == epoch_) return s.last;  // a second parent in the same frame
  const auto result = composite_loop(node, type, s);
  s.epoch = epoch_;
  s.last = result;
  return result;
}
[[gnu::always_inline]] inline void Instance::leave_child(std::uint32_t node, const GraphNode& g,
                                                         NodeState& s, bool quiet) {
  if (quiet) {
    if (g.plain) return leave_plain(node, g, s);
    if (g.plain_composite) return leave_composite(node, s);
  }
  leave_node(node, g, s);
}

// What enter() and enter_builtin() do for a plain composite with no observer: no queries,
// setup blocks or events, so its Enter is its state and the children its kind enters.
void Instance::enter_composite(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (s.active != 0) {  // already entered by another parent
    ++s.active;
    return;
  }
  s = NodeState{};
  s.active = 1;
  const auto children = graph_->children(node);
  if (children.empty()) return;
  const auto* states = graph_->child_states(node).data();
  const auto* graph_nodes = graph_->nodes().data();
  auto enter_at = [&](std::size_t k) {
    enter_child(children[k], graph_nodes[children[k]], nodes_[states[k]], true);
  };
  switch (g.type) {
    case NodeType::Sequential:
      return enter_at(0);
    case NodeType::Simultaneous: {
      const auto held = held_children(g, s);
      for (std::size_t k = 0; k < children.size(); ++k) {
        held.set(k, true);
        enter_at(k);
      }
      return;
    }
    default:  // a selector
      s.cursor = choose(node);
      if (s.cursor < children.size()) enter_at(s.cursor);
      return;
  }
}

// The children a composite holds, left last first: a Sequential's current child (none once the
// sequence finished), a selector's chosen one, a Simultaneous's unfinished ones. Only these: a
// child it does not hold may be active for another parent (a shared node), and stays so.
[[gnu::always_inline]] inline void Instance::leave_held_children(std::uint32_t node, NodeState& s,
                                                                 bool quiet) {
  const auto children = graph_->children(node);
  const auto* states = graph_->child_states(node).data();
  const auto* graph_nodes = graph_->nodes().data();
  auto leave_at = [&](std::size_t k) {
    leave_child(children[k], graph_nodes[children[k]], nodes_[states[k]], quiet);
  };
  const auto& g = graph_nodes[node];
  if (g.type != NodeType::Simultaneous) {  // Sequential past its end, selector without plugs: none
    if (s.cursor < children.size()) leave_at(s.cursor);
    return;
  }
  const auto held = held_children(g, s);
  for (auto k = children.size(); k-- > 0;) {
    if (!held.holds(k)) continue;
    held.set(k, false);
    leave_at(k);
  }
}

// What leave() and leave_builtin() do for a plain composite with no observer.
void Instance::leave_composite(std::uint32_t node, NodeState& s) {
  if (s.active != 1) {
    if (s.active > 1) --s.active;  // another parent still uses it
    return;
  }
  leave_held_children(node, s, true);
  s.active = 0;
}

// The general Enter: any node, observed or not. What the common nodes with queries need is
// here; setup blocks and events out of line, so their registers are not saved on every Enter.
void Instance::enter_node(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (s.active != 0) {  // already entered by another parent: it stays active for both
    ++s.active;
    return;
  }
  s = NodeState{};
  s.active = 1;
  if (g.queries.count != 0) {
    for (const auto q : graph_->queries(node))
      ++state_of(q).query_users;
    calculate_queries(node);
  }
  if (g.runs_setup || observed()) enter_setup_and_events(node, g);
  if (g.type == NodeType::UserDefined) {
    // The children it holds: none yet (the bits are in the state cleared above).
    if (g.held != GraphNode::kHeldInState) std::memset(held_bytes(g), 0, g.children.count);
    return enter_own(node);
  }
  enter_builtin(node);
}

// Element_Expression's memory: its inputs and outputs are the function's user slots, numbered
// per type, at most kSlots of each (a function reading more fails with BadFrame).
struct Instance::ExpressionSlots {
  static constexpr std::size_t kSlots = 16;
  std::array<std::array<std::uint8_t, kSlots * 12>, 12> bytes{};
};

// The setup blocks of the expressions a node owns: run once per Enter, of a node or a query.
void Instance::run_setup_blocks(std::uint32_t node) {
  for (const auto site : graph_->sites_of(node)) {
    const auto function = graph_->expression_sites()[site].function;
    if (graph_->program()->functions()[function].setup < 0) continue;
    const auto run = [&](auto& frame) {
      guarded(Fault::Source::UserFunction, node, "an expression's setup block",
              [&] { return machine()->run_setup(function, frame); });
    };
    if (static_cast<std::int32_t>(site) == graph_->node_site(node)) {
      // An Element_Expression's own function may use its user slots in either block.
      ExpressionSlots slots;
      auto frame = expression_frame(node, site, slots);
      run(frame);
    } else {
      auto frame = site_frame(site);
      run(frame);
    }
  }
}

// The setup blocks of a node's expressions, then its Enter events.
void Instance::enter_setup_and_events(std::uint32_t node, const GraphNode& g) {
  if (g.runs_setup) run_setup_blocks(node);
  if (!observed()) return;
  guarded(Fault::Source::Observer, node, "on_enter",
          [&] { options_.observer->on_enter(*this, node); });
  if (!g.has_xlink) return;
  for (const auto& action : graph_->model().xlink_actions) {
    if (action.node_index == node) {
      guarded(Fault::Source::Observer, node, "on_xlink",
              [&] { options_.observer->on_xlink(*this, node, action.slot, action.action); });
    }
  }
}

// The Enter of a built-in node: its children, as its kind says.
void Instance::enter_builtin(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  auto& s = nodes_[g.state_index];
  const auto children = graph_->children(node);
  switch (g.type) {
    case NodeType::Sequential:
      if (!children.empty()) enter(children[0]);
      break;
    case NodeType::Simultaneous: {
      const auto held = held_children(g, s);
      for (std::size_t k = 0; k < children.size(); ++k) {
        held.set(k, true);
        enter(children[k]);
      }
      break;
    }
    case NodeType::S32Selector:
    case NodeType::F32Selector:
    case NodeType::StringSelector:
    case NodeType::BoolSelector:
    case NodeType::RandomSelector:
      if (!children.empty()) {
        s.cursor = choose(node);
        if (s.cursor < children.size()) enter(children[s.cursor]);
      }
      break;
    case NodeType::SplitTiming: {
      if (const auto on_enter = g.named_plugs[0]; on_enter >= 0) {
        enter(children[on_enter]);
        update(children[on_enter]);
        leave(children[on_enter]);
      }
      if (const auto on_update = g.named_plugs[1]; on_update >= 0) {
        enter(children[on_update]);
      }
      break;
    }
    case NodeType::ModuleIFChild:
      if (parent_ && call_->links[node] >= 0) {
        parent_->enter(parent_->graph_->children(call_->node)[call_->links[node]]);
      }
      break;
    default:
      break;
  }
}

// The Update of every other node: built-ins, stubs, module calls, ModuleIF nodes.
[[gnu::always_inline]] inline Result Instance::update_builtin(std::uint32_t node, NodeState& s) {
  const auto& g = graph_->nodes()[node];
  if (is_composite(g.type)) return composite_loop(node, g.type, s);
  Result result = Result::Success;
  switch (g.type) {
    case NodeType::SplitTiming:
      result = update_split_timing(node);
      break;
    case NodeType::Alert:
      result = update_alert(node);
      break;
    case NodeType::Fork:
      // Its paths replace the whole active array (timed by its first transition's flag).
      if (g.transitions.count == 0) break;
      if (fork_.node < 0 && current_slot_ >= 0) {
        fork_ = {static_cast<std::int32_t>(node), graph_->transitions(node)[0].post_calc};
        set(kTransitionRequested, true);
        if (fork_.post) set(kPostRequested, true);
      }
      result = Result::Running;
      break;
    case NodeType::StateEnd:
      if (!has(kStateEndRequested)) {
        set(kStateEndRequested, true);
        keep_state_end(g.parameter);
      }
      break;
    case NodeType::ModuleIFChild:
      if (parent_ && call_->links[node] >= 0) {
        result = parent_->update(parent_->graph_->children(call_->node)[call_->links[node]]);
      }
      break;
    default:  // user classes, stubs, module calls, Element_Expression, ModuleIF in/out, Join
      result = calculate(node);
      break;
  }
  return result;
}

// A node that finishes takes its first ordinary transition, unless one was requested already
// (request_transition: the first request of a frame wins).
[[gnu::always_inline]] inline void Instance::take_first_transition(std::uint32_t node,
                                                                   const GraphNode& g,
                                                                   Result result) {
  if (result != Result::Running && g.first_transition >= 0) {
    request_transition(node, static_cast<std::uint32_t>(g.first_transition));
  }
}

// The general Update.
Result Instance::update_node(std::uint32_t node, const GraphNode& g, NodeState& state) {
  if (state.epoch == epoch_) return state.last;  // a second parent in the same frame
  if (g.queries.count != 0) calculate_queries(node);
  // User classes and stubs are the common case: handled here, the rest out of line.
  Result result;
  if (g.user_class != nullptr) {
    result = call_update_outlined(node, g);
  } else if (g.is_stub) {
    result = g.named_plugs[0] >= 0
                 ? run_user_child(node, static_cast<std::size_t>(g.named_plugs[0]))
                 : update_stub(state);
  } else {
    result = update_builtin(node, state);
  }
  if (observed()) {
    guarded(Fault::Source::Observer, node, "on_update",
            [&] { options_.observer->on_update(*this, node, result); });
  }
  state.epoch = epoch_;
  state.last = result;
  take_first_transition(node, g, result);
  return result;
}

// What update() does for a plain node with transitions and no observer: the short Update, and
// the transition when it finishes. Out of line: most plain nodes have no transitions.
Result Instance::update_plain_transition(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (s.epoch == epoch_) return s.last;  // updated this frame: its transition was requested then
  const auto result = update_plain(node, g, s);
  take_first_transition(node, g, result);
  return result;
}

// The general Leave.
void Instance::leave_node(std::uint32_t node, const GraphNode& g, NodeState& s) {
  if (s.active == 0) return;
  if (s.active > 1) {  // another parent still uses it
    --s.active;
    return;
  }
  if (g.type == NodeType::UserDefined) {
    auto leave_children = [&] {
      for (auto k = g.children.count; k-- > 0;)
        leave_user_child(node, k);
    };
    leave_children();  // the children it runs, before its own Leave
    leave_own(node);
    leave_children();  // any its leave() ran, so every Enter below it is matched
  } else {
    leave_builtin(node);
  }
  s.active = 0;
  if (observed()) {
    guarded(Fault::Source::Observer, node, "on_leave",
            [&] { options_.observer->on_leave(*this, node); });
  }
  if (g.queries.count != 0) leave_queries(node);
}

// The Leave of a built-in node: its children first, so a child never runs outside its parent.
void Instance::leave_builtin(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  if (is_composite(g.type)) return leave_held_children(node, nodes_[g.state_index], !observed());
  const auto children = graph_->children(node);
  switch (g.type) {
    case NodeType::SplitTiming: {
      if (const auto on_update = g.named_plugs[1]; on_update >= 0) {
        leave(children[on_update]);
      }
      if (const auto on_leave = g.named_plugs[2]; on_leave >= 0) {
        enter(children[on_leave]);
        update(children[on_leave]);
        leave(children[on_leave]);
      }
      break;
    }
    case NodeType::ModuleIFChild:
      if (parent_ && call_->links[node] >= 0) {
        parent_->leave(parent_->graph_->children(call_->node)[call_->links[node]]);
      }
      break;
    default:
      break;
  }
}

// ---- module calls ---------------------------------------------------------------------------

// The caller's side: the module node runs the called file for one frame; when that file ended
// with an Element_StateEnd, the node finishes and continues on the transition the StateEnd named.
Result Instance::update_module_call(std::uint32_t node) {
  auto& sub = *modules_[static_cast<std::size_t>(graph_->nodes()[node].module)];
  const auto result = sub.update_module(frame());
  if (result != Result::Running && !sub.state_end_.empty()) {
    const auto transitions = graph_->transitions(node);
    for (std::uint32_t k = 0; k < transitions.size(); ++k) {
      if (transitions[k].state_end && transitions[k].command == sub.state_end_) {
        request_transition(node, k);
        break;
      }
    }
  }
  return result;
}

// A file's ModuleIF_Output nodes are calculated after each of its frames, so a caller reads this
// frame's values.
void Instance::update_module_outputs() {
  for (const auto out : graph_->module_outputs()) {
    if (is_active(out)) update(out);
  }
}

// (The caller passes the actor's frame: a sub-instance's frame() would read its parent_, a cache
// line a frame does not touch otherwise.)
void Instance::begin_module(std::uint64_t actor_frame) {
  const auto& m = graph_->model();
  clear_state_end();
  frame_ = actor_frame;  // the frame of this start's epoch (update_module)
  for (const auto& a : call_->arguments) {
    const auto& caller = parent_->graph_->model();
    *bb_[a.entry] =
        parent_->property_value(caller.properties[static_cast<std::size_t>(a.type)][a.property]);
  }
  if (!m.commands.empty()) {
    start_command(0);  // a module file runs its first command
  } else {
    next_epoch();
    for (const auto root : graph_->logic_roots())
      enter(root);
    for (const auto out : graph_->module_outputs())
      enter(out);
    state_ = CommandState::Running;
  }
}

Result Instance::update_module(std::uint64_t actor_frame) {
  if (state_ == CommandState::Running) {
    // Each calculation is an epoch of its own (a module used as a query is calculated before
    // each calculation of its user), except the first after a start in the same frame of the
    // actor: it goes on in the start's epoch, so a node the start updated (an
    // Element_SplitTiming's Enter plug) is not updated twice in the frame.
    if (frame_ != actor_frame) next_epoch();
    frame_ = kNotStarting;
    calculate_frame();
  }
  switch (state_) {
    case CommandState::Running:
      return graph_->model().commands.empty() ? Result::Success : Result::Running;
    case CommandState::Failed:
      return Result::Failure;
    default:
      return Result::Success;
  }
}

void Instance::end_module() {
  stop_nodes();
}

// The called file's side: ModuleIF_Input reads the caller's input of its Name, ModuleIF_Output
// writes the caller's output of its Name.
Result Instance::calculate_module_if(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  if (g.type == NodeType::ModuleIFChild) return Result::Success;  // runs through update()
  const auto type = g.value_type;
  const auto t = static_cast<std::size_t>(type);
  const auto& m = graph_->model();
  const auto& n = m.nodes[node];
  const auto link = parent_ != nullptr ? call_->links[node] : -1;
  const auto& caller = parent_ != nullptr ? parent_->graph_->model().nodes[call_->node] : n;
  if (g.type < NodeType::ModuleIFOutputS32) {
    if (link >= 0 && n.outputs[t].count != 0) {
      const auto& in = parent_->graph_->model().inputs_of(caller, type)[link];
      set_output(t, n.outputs[t].base, parent_->input_value(in));
    }
  } else {
    const auto inputs = m.inputs_of(n, type);
    if (link >= 0 && !inputs.empty()) {
      parent_->set_output(t, caller.outputs[t].base + static_cast<std::uint32_t>(link),
                          input_value(inputs[0]));
    }
  }
  return Result::Success;
}
// ---- built-in composites --------------------------------------------------------------------

Result Instance::update_sequential(std::uint32_t node, NodeState& s) {
  const auto children = graph_->children(node);
  if (children.empty()) return Result::Success;
  const auto* states = graph_->child_states(node).data();
  const auto* graph_nodes = graph_->nodes().data();
  const auto& g = graph_nodes[node];
  const bool next_in_frame = g.update_next_in_frame;
  const bool loop = g.loop;
  const auto loops = g.loop_count;
  const bool quiet = !observed();  // fixed during a tick (set_observer)
  // Finished, and updated again without a new Enter (a Logic file's root, which is never left):
  // it holds no child and keeps its result.
  if (s.cursor >= children.size()) return s.last;
  // An endless loop runs each child at most once per update: when it comes back to the child it
  // started this update with, that child is entered and updated next frame. Otherwise a loop
  // whose children all finish at once, with IsUpdateNextInFrame, would never end the frame.
  const auto first = s.cursor;
  bool wrapped = false;
  for (;;) {
    const auto child = children[s.cursor];
    const auto& c = graph_nodes[child];
    auto& cs = nodes_[states[s.cursor]];
    const auto result = update_child(child, c, cs, quiet);
    if (result == Result::Running) return Result::Running;
    leave_child(child, c, cs, quiet);
    if (result == Result::Failure) {
      s.cursor = static_cast<std::uint8_t>(children.size());  // it holds no child now
      return Result::Failure;
    }
    if (++s.cursor == children.size()) {
      if (!loop || (loops > 0 && ++s.counter >= loops)) {
        return result;
      }
      s.cursor = 0;
      wrapped = true;
    }
    const auto next = children[s.cursor];
    enter_child(next, graph_nodes[next], nodes_[states[s.cursor]], quiet);
    if (!next_in_frame || (wrapped && loops == 0 && s.cursor == first)) return Result::Running;
  }
}

Result Instance::update_simultaneous(std::uint32_t node, NodeState& s) {
  bool running = false;
  const auto* graph_nodes = graph_->nodes().data();
  const bool quiet = !observed();  // fixed during a tick (set_observer)
  const auto children = graph_->children(node);
  const auto* states = graph_->child_states(node).data();
  const auto held = held_children(graph_nodes[node], s);
  for (std::size_t k = 0; k < children.size(); ++k) {
    if (!held.holds(k)) continue;  // finished (and left) earlier
    auto& cs = nodes_[states[k]];
    const auto child = children[k];
    const auto& c = graph_nodes[child];
    const auto result = update_child(child, c, cs, quiet);
    if (result == Result::Running) {
      running = true;
      continue;
    }
    held.set(k, false);
    leave_child(child, c, cs, quiet);
    if (result == Result::Failure) ++s.counter;
    if (graph_nodes[node].ends_with_first_child) {
      // The first to finish ends the node: the others are left, last first.
      for (auto j = children.size(); j-- > 0;) {
        if (!held.holds(j)) continue;
        held.set(j, false);
        leave_child(children[j], graph_nodes[children[j]], nodes_[states[j]], quiet);
      }
      return result;
    }
  }
  if (running) return Result::Running;
  return s.counter == 0 ? Result::Success : Result::Failure;
}

Result Instance::update_selector(std::uint32_t node, NodeState& s) {
  const auto children = graph_->children(node);
  if (children.empty()) return Result::Success;
  // Re-evaluated at every update; a changed choice leaves the old child and enters the new one.
  // IsNoSelectWhenChildBusy keeps the current child while its last update said Running.
  // A cursor past the plugs: the chosen plug is empty, so it holds no child and succeeds.
  const auto target = [&](std::uint8_t k) {
    return k < children.size() ? children[k] : Graph::kNoChild;
  };
  const auto& g = graph_->nodes()[node];
  const bool holds = s.cursor < children.size();
  const bool busy = holds && [&] {
    const auto& current = nodes_[graph_->child_states(node)[s.cursor]];
    return current.epoch != 0 && current.last == Result::Running;
  }();
  if (g.type != NodeType::RandomSelector && !(g.no_select_when_busy && busy)) {
    const auto choice = choose(node);
    if (target(choice) != target(s.cursor)) {  // two plugs may lead to the same node
      if (holds) leave(children[s.cursor]);
      if (choice < children.size()) enter(children[choice]);
    }
    s.cursor = choice;
  }
  return s.cursor < children.size() ? update(children[s.cursor]) : Result::Success;
}

Result Instance::update_split_timing(std::uint32_t node) {
  const auto on_update = graph_->nodes()[node].named_plugs[1];
  if (on_update < 0) return Result::Success;
  return update(graph_->children(node)[on_update]);
}

// Element_Alert: a debug message, an event for the observer (a trace shows it); its `Result`
// property (the game's result enum: 0 None, 1 Busy, 2 Success, 3 Failure) says what it returns.
Result Instance::update_alert(std::uint32_t node) {
  NodeContext context(*this, node, nullptr, 0);
  auto message = context.input_string("Message");
  if (message.empty()) message = context.property_string("Message");
  if (observed()) {
    guarded(Fault::Source::Observer, node, "on_alert",
            [&] { options_.observer->on_alert(*this, node, message); });
  }
  switch (context.property_int("Result")) {
    case 1:
      return Result::Running;
    case 3:
      return Result::Failure;
    default:
      return Result::Success;
  }
}

// The main block of a site's function, on its frame; what it throws is a fault of the site's
// owner.
template <typename F>
[[gnu::always_inline]] inline exb::Status Instance::run_main_of(std::uint32_t site,
                                                                F& frame) const {
  const auto& s = graph_->expression_sites()[site];
  return guarded(Fault::Source::UserFunction, s.owner, "an expression",
                 [&] { return machine()->run_main(s.function, frame); });
}

// A selector's input, typed: read straight from the output or blackboard entry it is bound to
// (the common sources), through its binding otherwise.
template <typename T>
[[gnu::always_inline]] inline T Instance::selector_input(const GraphNode& g, ParamType type) const {
  switch (g.selector_source) {
    case GraphNode::SelectorSource::Output: {
      static_assert(std::is_trivially_copyable_v<T>);
      T value;
      std::memcpy(&value, outputs_ + g.selector_at, sizeof(T));
      return value;
    }
    case GraphNode::SelectorSource::Blackboard:
      return value_or(*bb_[g.selector_at], T{});
    default:  // (Expression tested here: a third case slows the two above)
      if constexpr (std::is_arithmetic_v<T>) {
        if (g.selector_source == GraphNode::SelectorSource::Expression)
          return evaluated_selector_input<T>(g, type);
      }
      return bound_selector_input<T>(g, type);
  }
}

// What evaluate() does for a selector's expression, without the Value conversions: the function
// takes no input (Graph::bind_inputs checked) and its output is read as the selector's type. A
// failed run gives the input's stored value, as evaluate() does. (An expression source means the
// file has a program, so there is a machine to run it.)
template <typename T>
T Instance::evaluated_selector_input(const GraphNode& g, ParamType type) const {
  auto frame = site_frame(g.selector_at);
  if (run_main_of(g.selector_at, frame) != exb::Status::Ok) {
    const auto index = static_cast<std::uint32_t>(g.selector_input);
    return value_or(graph_->model().inputs[static_cast<std::size_t>(type)][index].default_value,
                    T{});
  }
  return exb::detail::load<T>(frame.output.data());
}

template <typename T>
T Instance::bound_selector_input(const GraphNode& g, ParamType type) const {
  if (g.selector_input < 0) return T{};
  const auto index = static_cast<std::uint32_t>(g.selector_input);
  const auto& input = graph_->model().inputs[static_cast<std::size_t>(type)][index];
  return value_or(bound_value(graph_->input_binding(type, index), type, input.default_value), T{});
}

// An operand of a selector plug's condition: the blackboard entry when the plug names one (its
// SelectorCase index), else the constant.
template <typename T>
T Instance::plug_operand(std::int32_t entry, T constant) const {
  return entry < 0 ? constant : value_or(*bb_[static_cast<std::size_t>(entry)], constant);
}

// A selector's choice as its cursor: past its plugs when the chosen plug is empty (it holds no
// child then, docs/semantics.md "Empty plugs").
std::uint8_t Instance::choose(std::uint32_t node) {
  const auto k = choose_plug(node);
  const auto children = graph_->children(node);
  // (A BoolSelector without the plug its input names chooses past its plugs.)
  return k >= children.size() || children[k] == Graph::kNoChild
             ? static_cast<std::uint8_t>(children.size())
             : k;
}

// The plug a selector chooses: the first whose condition holds, else the last (default) plug.
// The conditions were read into Graph::selector_cases when the graph was built. Bool and S32
// selectors, most of those in real files, are chosen here; the others out of line, so these
// do not pay for their registers.
std::uint8_t Instance::choose_plug(std::uint32_t node) {
  const auto& g = graph_->nodes()[node];
  const auto cases = graph_->selector_cases(node);
  const auto last = static_cast<std::uint8_t>(cases.size() - 1);
  switch (g.type) {
    case NodeType::BoolSelector: {
      const auto k = g.named_plugs[selector_input<bool>(g, ParamType::Bool) ? 0 : 1];
      return k >= 0 ? static_cast<std::uint8_t>(k) : static_cast<std::uint8_t>(cases.size());
    }
    case NodeType::S32Selector: {
      const auto x = selector_input<std::int32_t>(g, ParamType::Int);
      for (std::uint8_t i = 0; i < last; ++i) {
        if (x == plug_operand(cases[i].entry, cases[i].value)) return i;
      }
      return last;
    }
    default:
      return choose_other(g, cases);
  }
}

std::uint8_t Instance::choose_other(const GraphNode& g, std::span<const SelectorCase> cases) {
  const auto last = static_cast<std::uint8_t>(cases.size() - 1);
  switch (g.type) {
    case NodeType::F32Selector: {
      const auto x = selector_input<float>(g, ParamType::Float);
      for (std::uint8_t i = 0; i < last; ++i) {
        const auto& c = cases[i];
        if (plug_operand(c.entry, c.min) <= x && x <= plug_operand(c.max_entry, c.max)) return i;
      }
      return last;
    }
    case NodeType::StringSelector: {
      const auto x = selector_input<std::string_view>(g, ParamType::String);
      for (std::uint8_t i = 0; i < last; ++i) {
        if (x == plug_operand(cases[i].entry, cases[i].text)) return i;
      }
      return last;
    }
    case NodeType::RandomSelector:
      return choose_random(cases);
    default:
      return 0;
  }
}

// Element_RandomSelector: a plug drawn with the weights of the plugs (a negative weight counts as
// 0; no weight at all picks the first plug).
std::uint8_t Instance::choose_random(std::span<const SelectorCase> cases) {
  auto weight = [&](const SelectorCase& c) { return std::max(0.0f, plug_operand(c.entry, c.min)); };
  float total = 0;
  for (const auto& c : cases)
    total += weight(c);
  if (total <= 0) return 0;
  // Mapped by hand: std::uniform_real_distribution differs between standard libraries.
  const auto unit = static_cast<double>(random_() - std::minstd_rand::min()) /
                    static_cast<double>(std::minstd_rand::max() - std::minstd_rand::min() + 1);
  const auto pick = static_cast<float>(unit * total);
  float sum = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    sum += weight(cases[i]);
    if (pick < sum) return static_cast<std::uint8_t>(i);
  }
  return static_cast<std::uint8_t>(cases.size() - 1);
}

// ---- values ---------------------------------------------------------------------------------

Value Instance::blackboard_value(ParamType type, ParamFlags flags) const {
  const auto& m = graph_->model();
  const auto t = static_cast<std::size_t>(blackboard_type_for(type, flags));
  const auto& v = *bb_[m.blackboard.first[t] + flags.index()];
  const auto component = blackboard_component(type, flags);
  return component ? component_of(std::get<Vec3f>(v), static_cast<std::uint8_t>(*component)) : v;
}

Value Instance::property_value(const Property& p) const {
  switch (p.flags.source()) {
    case ParamFlags::Source::Blackboard:
      return blackboard_value(p.type, p.flags);
    case ParamFlags::Source::Expression: {
      const auto& m = graph_->model();
      const auto t = static_cast<std::size_t>(p.type);
      const auto index = static_cast<std::uint32_t>(&p - m.properties[t].data());
      return evaluate(graph_->property_site(p.type, index), p.type, p.value, p.value);
    }
    default:
      return p.value;
  }
}

Value Instance::bound_value(const InputBinding& b, ParamType type, const Value& fallback) const {
  const auto t = static_cast<std::size_t>(type);
  switch (b.kind) {
    case InputBinding::Kind::Default:
      return fallback;
    case InputBinding::Kind::Output:
      return output(t, b.slot);
    case InputBinding::Kind::Blackboard:
      return *bb_[b.slot];
    case InputBinding::Kind::Component:
      return component_of(std::get<Vec3f>(*bb_[b.slot]), b.component);
    case InputBinding::Kind::Expression: {
      // The function's input is the linked output, else the stored value.
      const auto source = b.source_slot >= 0 ? output(static_cast<std::size_t>(b.source_type),
                                                      static_cast<std::uint32_t>(b.source_slot))
                                             : fallback;
      return evaluate(static_cast<std::int32_t>(b.slot), type, source, fallback);
    }
    case InputBinding::Kind::MultiSource:
      // An ordinary read of a multi-source input gives its first source.
      if (b.count == 0) return fallback;
      return bound_value(graph_->source_bindings(b)[0], type, fallback);
  }
  return fallback;
}

Value Instance::input_value(const Input& in) const {
  const auto t = static_cast<std::size_t>(in.type);
  const auto index = static_cast<std::uint32_t>(&in - graph_->model().inputs[t].data());
  return bound_value(graph_->input_binding(in.type, index), in.type, in.default_value);
}

Value Instance::input_source(const Input& in, std::size_t source) const {
  const auto t = static_cast<std::size_t>(in.type);
  const auto index = static_cast<std::uint32_t>(&in - graph_->model().inputs[t].data());
  const auto& b = graph_->input_binding(in.type, index);
  if (b.kind != InputBinding::Kind::MultiSource) {
    return source == 0 ? bound_value(b, in.type, in.default_value) : in.default_value;
  }
  const auto sources = graph_->source_bindings(b);
  return source < sources.size() ? bound_value(sources[source], in.type, in.default_value)
                                 : in.default_value;
}

// ---- expressions ----------------------------------------------------------------------------

namespace {

exb::Value to_exb(const Value& v) {
  return std::visit(
      [](const auto& x) -> exb::Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Vec3f>) {
          return exb::Vec3{x.x, x.y, x.z};
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          return x.data();  // model strings are NUL-terminated views into the file
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return std::monostate{};
        } else {
          return x;
        }
      },
      v);
}

Value from_exb(const exb::Value& v, const Value& fallback) {
  return std::visit(
      [&](const auto& x) -> Value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, exb::Vec3>) {
          return Vec3f{x.x, x.y, x.z};
        } else if constexpr (std::is_same_v<T, const char*>) {
          return std::string_view(x != nullptr ? x : "");
        } else if constexpr (std::is_same_v<T, std::monostate>) {
          return fallback;
        } else {
          return x;
        }
      },
      v);
}

exb::DataType exb_type(ParamType type) {
  switch (type) {
    case ParamType::Int:
      return exb::DataType::Int;
    case ParamType::Bool:
      return exb::DataType::Bool;
    case ParamType::Float:
      return exb::DataType::Float;
    case ParamType::String:
      return exb::DataType::String;
    case ParamType::Vec3f:
      return exb::DataType::Vec3f;
    default:
      return exb::DataType::None;
  }
}

// UserIn/UserOut slot space (index from Space::UserInBool) of a parameter type.
std::int32_t slot_space(ParamType type) {
  switch (type) {
    case ParamType::Bool:
      return 0;
    case ParamType::Int:
      return 1;
    case ParamType::Float:
      return 3;
    case ParamType::String:
      return 4;
    case ParamType::Vec3f:
      return 5;
    default:
      return -1;
  }
}

}  // namespace

exb::BasicFrame Instance::site_frame(std::uint32_t site) const {
  const auto& s = graph_->expression_sites()[site];
  exb::BasicFrame frame;
  frame.static_memory = {expression_memory_ + s.static_offset, s.static_size};
  frame.host = host_;
  return frame;
}

void Instance::prepare_thread() const {
  if (graph_->program() != nullptr) (void)machine();
  for (const auto* sub : modules_)
    sub->prepare_thread();
}

exb::MachineLease Instance::machine() const {
  return exb::thread_machine(*graph_->program());
}

Value Instance::evaluate(std::int32_t site, ParamType type, const Value& input,
                         const Value& fallback) const {
  if (site < 0) return fallback;
  const auto function = graph_->expression_sites()[site].function;
  const auto& source = *graph_->program()->functions()[function].source;
  auto frame = site_frame(static_cast<std::uint32_t>(site));
  if (exb::value_size(source.input_type) != 0) exb::write_value(to_exb(input), frame.input);
  if (run_main_of(static_cast<std::uint32_t>(site), frame) != exb::Status::Ok) return fallback;
  // (A mismatch the loader allows only for Element_Expression's own function.)
  if (!result_reads_as(source.output_type, type)) return fallback;
  return from_exb(exb::read_value(exb_type(type), frame.output.data()), fallback);
}

// The frame of Element_Expression `node`'s own function (`site`): its inputs' values in the user
// slots, room for its outputs.
exb::Frame Instance::expression_frame(std::uint32_t node, std::uint32_t site,
                                      ExpressionSlots& slots) const {
  exb::Frame frame;
  static_cast<exb::BasicFrame&>(frame) = site_frame(site);
  const auto& m = graph_->model();
  const auto& n = m.nodes[node];
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto k = slot_space(type);
    if (k < 0) continue;
    const auto width = exb::value_size(exb_type(type));
    const auto inputs = m.inputs_of(n, type);
    const auto outputs = m.outputs_of(n, type);
    frame.user[k] = slots.bytes[k].data();
    frame.user_slots[k] = static_cast<std::uint32_t>(std::min(inputs.size(), slots.kSlots));
    frame.user[k + 6] = slots.bytes[k + 6].data();
    frame.user_slots[k + 6] = static_cast<std::uint32_t>(std::min(outputs.size(), slots.kSlots));
    for (std::size_t i = 0; i < frame.user_slots[k]; ++i) {
      std::array<std::uint8_t, 12> bytes{};
      exb::write_value(to_exb(input_value(inputs[i])), bytes);
      std::memcpy(slots.bytes[k].data() + i * width, bytes.data(), width);
    }
  }
  return frame;
}

Result Instance::update_expression(std::uint32_t node) {
  const auto site = graph_->node_site(node);
  if (site < 0) return Result::Success;
  ExpressionSlots slots;
  auto frame = expression_frame(node, static_cast<std::uint32_t>(site), slots);
  if (run_main_of(static_cast<std::uint32_t>(site), frame) != exb::Status::Ok) {
    return Result::Failure;
  }
  const auto& n = graph_->model().nodes[node];
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto k = slot_space(type);
    if (k < 0) continue;
    const auto width = exb::value_size(exb_type(type));
    for (std::size_t i = 0; i < frame.user_slots[k + 6]; ++i) {
      const auto index = n.outputs[t].base + static_cast<std::uint32_t>(i);
      set_output(t, index,
                 from_exb(exb::read_value(exb_type(type), slots.bytes[k + 6].data() + i * width),
                          output(t, index)));
    }
  }
  return Result::Success;
}

bool Instance::write_output(std::uint32_t node, ParamType type, std::string_view name,
                            const Value& value) {
  const auto& m = graph_->model();
  const auto t = static_cast<std::size_t>(type);
  const auto outputs = m.outputs_of(m.nodes[node], type);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].name == name) {
      set_output(t, m.nodes[node].outputs[t].base + static_cast<std::uint32_t>(i), value);
      return true;
    }
  }
  return false;
}

// The common sources of an input (another node's output, a blackboard entry, the stored value)
// and a constant property are read where they are, in the parameter's own type; others through
// the binding. (Inlined into NodeContext's calls below: a class's read is one call.)
template <ParamKind Kind, ParamValue T>
[[gnu::always_inline]] inline T Instance::read_declared(std::uint32_t node,
                                                        std::uint32_t slot) const {
  constexpr auto type = param_type_for<T>();
  constexpr auto t = static_cast<std::size_t>(type);
  const auto* d = graph_->declared_slot(node, slot, Kind, type);
  if (d == nullptr) return T{};
  const auto& m = graph_->model();
  if constexpr (Kind == ParamKind::Property) {
    const auto& p = m.properties[t][d->index];
    if (p.flags.source() == ParamFlags::Source::Constant) return value_or(p.value, T{});
    return value_or(property_value(p), T{});
  } else {
    const auto& b = graph_->input_binding(type, d->index);
    switch (b.kind) {
      case InputBinding::Kind::Output: {
        T value;
        std::memcpy(&value, output_at(t, b.slot), sizeof value);
        return value;
      }
      case InputBinding::Kind::Blackboard:
        return value_or(*bb_[b.slot], T{});
      case InputBinding::Kind::Default:
        return value_or(m.inputs[t][d->index].default_value, T{});
      default:
        return value_or(bound_value(b, type, m.inputs[t][d->index].default_value), T{});
    }
  }
}

template <ParamValue T>
[[gnu::always_inline]] inline bool Instance::write_declared(std::uint32_t node, std::uint32_t slot,
                                                            T value) {
  constexpr auto type = param_type_for<T>();
  const auto* d = graph_->declared_slot(node, slot, ParamKind::Output, type);
  if (d == nullptr) return false;
  std::memcpy(output_at(static_cast<std::size_t>(type), d->index), &value, sizeof value);
  return true;
}

template <ParamKind Kind, ParamValue T>
T NodeContext::read_declared(std::uint32_t slot) const {
  return instance_.read_declared<Kind, T>(node_, slot);
}
template <ParamValue T>
bool NodeContext::write_declared(std::uint32_t slot, T value) {
  return instance_.write_declared<T>(node_, slot, value);
}

// The five parameter types, instantiated here (the headers declare the templates only).
#define AINB_DECLARED_PARAMETER(T)                                                    \
  template T NodeContext::read_declared<ParamKind::Input, T>(std::uint32_t) const;    \
  template T NodeContext::read_declared<ParamKind::Property, T>(std::uint32_t) const; \
  template bool NodeContext::write_declared<T>(std::uint32_t, T);
AINB_DECLARED_PARAMETER(std::int32_t)
AINB_DECLARED_PARAMETER(bool)
AINB_DECLARED_PARAMETER(float)
AINB_DECLARED_PARAMETER(std::string_view)
AINB_DECLARED_PARAMETER(Vec3f)
#undef AINB_DECLARED_PARAMETER

bool Instance::set_blackboard(std::string_view name, BlackboardType type, Value value) {
  bool found = false;
  catching([&] { write_blackboard(name, type, value, found); });
  return found;
}

// `found` is set before the observer is told, so a write whose observer throws still counts.
void Instance::write_blackboard(std::string_view name, BlackboardType type, Value value,
                                bool& found) {
  const auto& entries = graph_->model().blackboard.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].type != type || entries[i].name != name) continue;
    // Written where the entry lives: this instance, or the file it inherits the entry from.
    auto* const owner = blackboard_links_[i].owner;
    const auto entry = blackboard_links_[i].entry;
    if (const auto* text = std::get_if<std::string_view>(&value)) {
      const auto first = owner->graph_->model().blackboard.first[static_cast<std::size_t>(type)];
      value = std::string_view(owner->blackboard_strings_[entry - first].assign(*text));
    }
    owner->blackboard_[entry] = value;
    found = true;
    if (observed()) {
      guarded(Fault::Source::Observer, -1, "on_blackboard",
              [&] { options_.observer->on_blackboard(*owner, entry); });
    }
    return;
  }
}

bool Instance::set_bool(std::string_view name, bool v) {
  return set_blackboard(name, BlackboardType::Bool, v);
}
bool Instance::set_int(std::string_view name, std::int32_t v) {
  return set_blackboard(name, BlackboardType::S32, v);
}
bool Instance::set_float(std::string_view name, float v) {
  return set_blackboard(name, BlackboardType::F32, v);
}
bool Instance::set_string(std::string_view name, std::string_view v) {
  return set_blackboard(name, BlackboardType::String, v);
}
bool Instance::set_vec3f(std::string_view name, Vec3f v) {
  return set_blackboard(name, BlackboardType::Vec3f, v);
}

void Instance::set_observer(Observer* observer) {
  // Between ticks only: the scheduler decides once per loop whether anyone watches, and a trace
  // that began mid-tick would show Leaves without their Enters.
  if (inside_entry()) {
    throw std::logic_error(fmt::format(
        "{}: set_observer during a tick or command change; attach or detach observers between "
        "ticks",
        graph_->model().name));
  }
  options_.observer = observer;
  set(kObserved, observer != nullptr);
  for (auto* module : modules_)
    module->set_observer(observer);
}

const Value* Instance::blackboard(std::string_view name) const {
  const auto& entries = graph_->model().blackboard.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].name == name) return bb_[i];
  }
  return nullptr;
}

// ---- NodeContext ----------------------------------------------------------------------------

const Node& NodeContext::node() const {
  return instance_.graph().model().nodes[node_];
}

std::span<const std::uint32_t> NodeContext::attachments() const {
  return instance_.graph().attachments(node_);
}
bool NodeContext::transition(std::uint32_t k) {
  return instance_.request_transition(node_, k);
}
std::size_t NodeContext::child_count() const {
  return instance_.graph().children(node_).size();
}
std::string_view NodeContext::child_name(std::size_t k) const {
  const auto& g = instance_.graph();
  const auto plugs = g.child_plugs(node_);
  return k < plugs.size() ? std::string_view(g.model().plugs[plugs[k]].name) : std::string_view();
}
std::optional<std::uint32_t> NodeContext::child_enum(std::size_t k) const {
  const auto& g = instance_.graph();
  const auto plugs = g.child_plugs(node_);
  if (k >= plugs.size()) return std::nullopt;
  const auto& plug = g.model().plugs[plugs[k]];
  const auto* e = std::get_if<EnumCondition>(&plug.data);
  if (e == nullptr || plug.name == kChildEnumDefault) return std::nullopt;  // the default: no case
  return e->value;
}
Result NodeContext::run_child(std::size_t k) {
  return instance_.run_user_child(node_, k);
}
void NodeContext::leave_child(std::size_t k) {
  instance_.leave_user_child(node_, k);
}
void NodeContext::throw_state_too_large(std::size_t size) const {
  // The fault that catches this names the file and node.
  throw std::logic_error(
      fmt::format("state<T>() asks for {} bytes of state, but the class's state_size() is {}", size,
                  state_size_));
}
const Attachment& NodeContext::attachment(std::uint32_t index) const {
  return model().attachments[attachments()[index]];
}
float NodeContext::attachment_float(std::uint32_t index, std::string_view name) const {
  for (const auto& p : model().properties_of(attachment(index), ParamType::Float)) {
    if (p.name == name) return value_or(instance_.property_value(p), 0.0f);
  }
  return 0.0f;
}
std::int32_t NodeContext::attachment_int(std::uint32_t index, std::string_view name) const {
  for (const auto& p : model().properties_of(attachment(index), ParamType::Int)) {
    if (p.name == name) return value_or(instance_.property_value(p), std::int32_t{0});
  }
  return 0;
}
bool NodeContext::attachment_bool(std::uint32_t index, std::string_view name) const {
  for (const auto& p : model().properties_of(attachment(index), ParamType::Bool)) {
    if (p.name == name) return value_or(instance_.property_value(p), false);
  }
  return false;
}
const NodeClass& NodeContext::node_class() const {
  return *instance_.graph().nodes()[node_].user_class;
}
const Model& NodeContext::model() const {
  return instance_.graph().model();
}
void* NodeContext::host() const {
  return instance_.host();
}

namespace {

template <typename T>
T property_of(const NodeContext& c, const Instance& instance, ParamType type,
              std::string_view name) {
  for (const auto& p : c.model().properties_of(c.node(), type)) {
    if (p.name == name) return value_or(instance.property_value(p), T{});
  }
  return T{};
}

template <typename T>
T input_of(const NodeContext& c, const Instance& instance, ParamType type, std::string_view name) {
  for (const auto& in : c.model().inputs_of(c.node(), type)) {
    if (in.name == name) return value_or(instance.input_value(in), T{});
  }
  return T{};
}

template <typename T>
T input_source_of(const NodeContext& c, const Instance& instance, ParamType type,
                  std::string_view name, std::size_t source) {
  for (const auto& in : c.model().inputs_of(c.node(), type)) {
    if (in.name == name) return value_or(instance.input_source(in, source), T{});
  }
  return T{};
}

}  // namespace

std::size_t NodeContext::input_source_count(ParamType type, std::string_view name) const {
  for (const auto& in : model().inputs_of(node(), type)) {
    if (in.name == name) return in.is_multi_source() ? in.multi_sources().count : 1;
  }
  return 0;
}
std::int32_t NodeContext::input_int(std::string_view n, std::size_t k) const {
  return input_source_of<std::int32_t>(*this, instance_, ParamType::Int, n, k);
}
bool NodeContext::input_bool(std::string_view n, std::size_t k) const {
  return input_source_of<bool>(*this, instance_, ParamType::Bool, n, k);
}
float NodeContext::input_float(std::string_view n, std::size_t k) const {
  return input_source_of<float>(*this, instance_, ParamType::Float, n, k);
}
std::int32_t NodeContext::property_int(std::string_view n) const {
  return property_of<std::int32_t>(*this, instance_, ParamType::Int, n);
}
bool NodeContext::property_bool(std::string_view n) const {
  return property_of<bool>(*this, instance_, ParamType::Bool, n);
}
float NodeContext::property_float(std::string_view n) const {
  return property_of<float>(*this, instance_, ParamType::Float, n);
}
std::string_view NodeContext::property_string(std::string_view n) const {
  return property_of<std::string_view>(*this, instance_, ParamType::String, n);
}
Vec3f NodeContext::property_vec3f(std::string_view n) const {
  return property_of<Vec3f>(*this, instance_, ParamType::Vec3f, n);
}
std::int32_t NodeContext::input_int(std::string_view n) const {
  return input_of<std::int32_t>(*this, instance_, ParamType::Int, n);
}
bool NodeContext::input_bool(std::string_view n) const {
  return input_of<bool>(*this, instance_, ParamType::Bool, n);
}
float NodeContext::input_float(std::string_view n) const {
  return input_of<float>(*this, instance_, ParamType::Float, n);
}
std::string_view NodeContext::input_string(std::string_view n) const {
  return input_of<std::string_view>(*this, instance_, ParamType::String, n);
}
Vec3f NodeContext::input_vec3f(std::string_view n) const {
  return input_of<Vec3f>(*this, instance_, ParamType::Vec3f, n);
}
bool NodeContext::write_int(std::string_view n, std::int32_t v) {
  return instance_.write_output(node_, ParamType::Int, n, v);
}
bool NodeContext::write_bool(std::string_view n, bool v) {
  return instance_.write_output(node_, ParamType::Bool, n, v);
}
bool NodeContext::write_float(std::string_view n, float v) {
  return instance_.write_output(node_, ParamType::Float, n, v);
}
bool NodeContext::write_string(std::string_view n, std::string_view v) {
  return instance_.write_output(node_, ParamType::String, n, v);
}
bool NodeContext::write_vec3f(std::string_view n, Vec3f v) {
  return instance_.write_output(node_, ParamType::Vec3f, n, v);
}

}  // namespace ainb::runtime
