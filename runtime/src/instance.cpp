// An instance's life cycle: its one block and what is carved from it, the blackboard's links,
// prefetching, and the failure behaviour of docs/robustness.md (the entry points' templates are in
// protocol.hpp).

#include "protocol.hpp"

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
    : Instance(Graph::latest(not_null(std::move(graph))), options, nullptr, nullptr, nullptr) {}

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

void detail::Scheduler::throw_fault(Fault::Source source, std::int64_t node, std::string call,
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
              .frame = self().frame(),
              .call = std::move(call),
              .message = std::move(message)};
  if (const auto& top = top_level(); !top.thrown_) {
    top.thrown_ = std::make_unique<Fault>(fault);
    top.marks_ |= kFaultThrown;
  }
  throw FaultException{std::move(fault)};
}

const Instance& detail::Scheduler::top_level() const {
  const auto* top = &self();
  while (top->parent_ != nullptr)
    top = top->parent_;
  return *top;
}

bool detail::Scheduler::faulting() const {
  return (top_level().marks_ & kFaultThrown) != 0;
}

bool detail::Scheduler::inside_entry() const {
  return top_level().has(kEntered);
}

void detail::Scheduler::forget_thrown() {
  set(kEntered, false);
  thrown_.reset();
  marks_ &= static_cast<std::uint8_t>(~kFaultThrown);
}

void detail::Scheduler::stop_on_fault(Fault& fault) {
  set(kEntered, false);
  rare().fault = std::move(fault);
  forget_thrown();  // (after the move: `fault` may be *thrown_)
  reset_after_fault();
  state_ = CommandState::Faulted;
}

void detail::Scheduler::throw_reentered(const char* call) const {
  throw std::logic_error(fmt::format(
      "{}: {} during a tick or command change; a node class cannot start, stop or tick the "
      "instance that runs it",
      graph_->model().name, call));
}

void detail::Scheduler::reset_after_fault() {
  for (auto& s : node_states())  // (what was entered stays recorded)
    s = NodeState{.bits = static_cast<std::uint8_t>(s.bits & kWasEntered)};
  root_count_ = 0;
  fork_ = {};
  set(kTransitionRequested | kPostRequested | kStateEndRequested, false);
  current_root_ = -1;
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
T* carve(MemoryResource& arena, std::size_t count) {
  static_assert(std::is_trivially_destructible_v<T>);
  auto* objects = static_cast<T*>(arena.allocate(count * sizeof(T), alignof(T)));
  std::uninitialized_value_construct_n(objects, count);
  return objects;
}

// Scheduler::branches_: a bit per child plug.
std::size_t branch_bytes(const Graph& graph) {
  return (detail::arrays(graph).child_plug_count() + 7) / 8;
}

}  // namespace

std::size_t detail::Scheduler::carved_bytes(const Graph& graph) {
  const auto& m = graph.model();
  const auto entries = m.blackboard.entries.size();
  std::size_t bytes =
      room<NodeState>(m.nodes.size()) + room<Value>(entries) + room<BlackboardLink>(entries) +
      room<Value*>(entries) + room<ActiveRoot>(graph.max_active_roots()) +
      room<std::byte>(graph.class_state_bytes()) + room<std::uint8_t>(graph.expression_memory()) +
      room<Instance*>(graph.module_calls().size()) + room<std::uint8_t>(branch_bytes(graph)) +
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
    (sizeof(detail::BlockArena) + kBlockAlignment - 1) / kBlockAlignment * kBlockAlignment;

std::size_t Instance::block_size(const Graph& graph) {
  return kArenaRoom + carved_bytes(graph);
}

detail::Scheduler::Block detail::Scheduler::new_block(const Graph& graph, MemoryResource* memory) {
  const auto carved = carved_bytes(graph);
  auto* block = static_cast<std::byte*>(memory != nullptr
                                            ? memory->allocate(kArenaRoom + carved, kBlockAlignment)
                                            : ::operator new(kArenaRoom + carved));
  new (block) BlockArena(block + kArenaRoom, carved);
  return Block(block, BlockDeleter{memory, kArenaRoom + carved});
}

detail::BlockArena* detail::Scheduler::block_arena(std::byte* block) {
  return std::launder(reinterpret_cast<BlockArena*>(block));
}

void detail::Scheduler::BlockDeleter::operator()(std::byte* block) const {
  block_arena(block)->~BlockArena();
  if (memory != nullptr) {
    memory->deallocate(block, bytes, kBlockAlignment);
  } else {
    ::operator delete(block);
  }
}

// An output slot holds its type's value in its natural size (Graph::output_offset).
Value Instance::output_value(std::uint32_t node, ParamType type, std::uint32_t index) const {
  const auto& nodes = graph_->model().nodes;
  if (node >= nodes.size()) {
    throw std::out_of_range(
        fmt::format("output_value: node {} is past the file's {} nodes", node, nodes.size()));
  }
  const auto t = static_cast<std::size_t>(type);
  const auto range = nodes[node].outputs[t];
  if (index >= range.count) {
    throw std::out_of_range(fmt::format("output_value: node {} has {} outputs of that type, not {}",
                                        node, range.count, index + 1));
  }
  return output(t, range.base + index);
}

Value detail::Scheduler::output(std::size_t t, std::uint32_t index) const {
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
void detail::Scheduler::set_output(std::size_t t, std::uint32_t index, const Value& value) {
  if (value.index() != t) return;
  auto* at = output_at(t, index);
  std::visit([at](const auto& v) { std::memcpy(at, &v, sizeof(v)); }, value);
}

std::uint8_t detail::Scheduler::shape_flags(const Graph& graph) {
  const auto& commands = graph.model().commands;
  const bool secondary = std::any_of(commands.begin(), commands.end(),
                                     [](const auto& c) { return c.secondary_root.has_value(); });
  const bool other_roots = secondary || !graph.module_outputs().empty();
  // No transitions: no Fork, Join or transition request can put a second root in the array.
  const bool single_root = !commands.empty() && !other_roots && !graph.has_transitions();
  return static_cast<std::uint8_t>((commands.empty() ? kLogic : 0) |
                                   (other_roots ? kOtherRoots : 0) |
                                   (single_root ? kSingleRoot : 0));
}

detail::Scheduler::Scheduler(std::shared_ptr<const Graph> graph, const InstanceOptions& options,
                             Instance* parent, const ModuleCall* call, MemoryResource* arena,
                             Block block)
    : graph_(graph.get()),
      flags_(static_cast<std::uint8_t>((parent != nullptr ? kEntered : 0) | shape_flags(*graph_))),
      parent_(parent),
      call_(call),
      host_(options.host),
      block_(arena != nullptr ? nullptr
             : block          ? std::move(block)
                              : new_block(*graph_, options.memory)),
      arena_(arena != nullptr ? arena : block_arena(block_.get())),
      modules_(arena_),
      graph_owner_(std::move(graph)),
      options_(options),
      random_(generator_seed(options.seed)),
      blackboard_(arena_),
      blackboard_strings_(arena_),
      blackboard_links_(arena_) {
  attach(options.observer);
}

void detail::Scheduler::attach(Observer* observer) {
  options_.observer = observer;
  const bool events = observer != nullptr && observer->node_events();
  marks_ = static_cast<std::uint8_t>(events ? marks_ | kNodeEvents : marks_ & ~kNodeEvents);
  choose_paths();
  const bool bits = observer != nullptr && !observer->branch_events();
  marks_ = static_cast<std::uint8_t>(bits ? marks_ | kBranchBits : marks_ & ~kBranchBits);
  marks_ =
      static_cast<std::uint8_t>(observer != nullptr ? marks_ | kAttached : marks_ & ~kAttached);
}

Instance::Instance(std::shared_ptr<const Graph> graph, InstanceOptions options, Instance* parent,
                   const detail::ModuleCall* call, MemoryResource* arena, Carried* carried)
    : detail::Scheduler(std::move(graph), options, parent, call, arena,
                        carried != nullptr ? take_block(*carried) : Block{}) {
  // A quiet tick's fields end within the object's first cache line, a start's and a module call's
  // within the second (detail/scheduler.hpp); Instance adds none. offsetof on a class that is not
  // standard-layout is conditionally supported; GCC and Clang support it.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(alignof(Instance) == 64 && sizeof(Instance) == sizeof(detail::Scheduler) &&
                offsetof(Instance, last_root_result_) + sizeof(last_root_result_) <= 64 &&
                offsetof(Instance, host_) + sizeof(host_) <= 128);
#pragma GCC diagnostic pop
  const auto& m = graph_->model();
  // The active node array just before the node states: a frame reads the entry, then its root's
  // state, which shares the entry's cache line when the root is among the first nodes (in 5 of
  // the corpus's 10 files with commands, a root is one of nodes 0 to 3).
  roots_ = carve<ActiveRoot>(*arena_, graph_->max_active_roots());
  nodes_ = carve<NodeState>(*arena_, m.nodes.size());
  branches_ = carve<std::uint8_t>(*arena_, branch_bytes(*graph_));
  if (graph_->held_flags() != 0) held_ = carve<std::uint8_t>(*arena_, graph_->held_flags());
  // Outputs start at their types' zero; all-zero bytes are that for every type, string views
  // included, which are written as such all the same.
  outputs_ = static_cast<std::byte*>(arena_->allocate(graph_->output_bytes(), 8));
  std::memset(outputs_, 0, graph_->output_bytes());
  for (std::uint32_t i = 0; i < m.outputs[static_cast<std::size_t>(ParamType::String)].size(); ++i)
    set_output(static_cast<std::size_t>(ParamType::String), i, std::string_view{});
  link_blackboard();
  if (carried != nullptr) carry_in(*carried);
  if (graph_->class_state_bytes() != 0) {
    class_states_ = static_cast<std::byte*>(arena_->allocate(graph_->class_state_bytes(), 16));
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
  for (std::size_t k = 0; k < calls.size(); ++k) {
    auto sub = options_;
    sub.seed = options_.seed * 6364136223846793005ull + k + 1;
    auto* place = arena_->allocate(sizeof(Instance), alignof(Instance));
    modules_.push_back(new (place) Instance(calls[k].graph, sub, this, &calls[k], arena_));
  }
  // Logic files: every root is entered when the instance is created (a command-less module's
  // roots are entered when its module node is). A hot reload's move enters them after it told
  // the observer (switch_graph).
  if (m.commands.empty() && parent_ == nullptr && carried == nullptr) enter_logic_roots();
}

void Instance::enter_logic_roots() {
  catching([&] {
    for (const auto root : graph_->logic_roots())
      enter(root);
    for (const auto out : graph_->module_outputs())
      enter(out);
    const bool runs = !graph_->logic_roots().empty() || !graph_->module_outputs().empty();
    state_ = runs ? CommandState::Running : CommandState::Idle;
  });
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
void detail::Scheduler::link_blackboard() {
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
  Instance* const me = &self();
  const Instance* root = me;
  while (root->parent_ != nullptr)
    root = root->parent_;
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    Instance* from = e.inherit == InheritMode::FromRoot     ? const_cast<Instance*>(root)
                     : e.inherit == InheritMode::FromParent ? parent_
                                                            : nullptr;
    BlackboardLink link{me, i};
    if (from != nullptr && from != me) {
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
    bb[i] = link.owner == me ? &blackboard_[link.entry] : link.owner->bb_[link.entry];
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
  prefetch_bytes(roots_, sizeof(ActiveRoot));
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
  std::vector<std::uint32_t> nodes;
  for (const auto& root : roots())
    nodes.push_back(root.node);
  return nodes;
}

bool Instance::branch_taken(std::uint32_t node, std::uint32_t plug) const {
  if (node >= graph_->nodes().size()) return false;
  const auto& children = graph_->nodes()[node].children;
  if (plug >= children.count) return false;
  const auto bit = children.base + plug;
  return (branches_[bit / 8] & (1u << (bit % 8))) != 0;
}

const Instance* Instance::module_instance(std::uint32_t node) const {
  const auto k = graph_->nodes()[node].module;
  return k < 0 ? nullptr : modules_[static_cast<std::size_t>(k)];
}

const Result* detail::Scheduler::forced_result(std::uint32_t node) const {
  if (!rare_) return nullptr;
  for (const auto& [forced, result] : rare_->forced) {
    if (forced == node) return &result;
  }
  return nullptr;
}

void Instance::force(std::uint32_t node, std::optional<Result> result) {
  if (inside_entry()) {
    throw std::logic_error(
        fmt::format("{}: force during a tick or command change; force results between ticks",
                    graph_->model().name));
  }
  if (node >= graph_->nodes().size()) {
    throw std::out_of_range(fmt::format("{}: no node {} (the file has {})", graph_->model().name,
                                        node, graph_->nodes().size()));
  }
  auto& forced = rare().forced;
  std::erase_if(forced, [&](const auto& entry) { return entry.first == node; });
  if (result) forced.emplace_back(node, *result);
  choose_paths();
}

std::size_t Instance::force_in_module(std::string_view module_file, std::uint32_t node,
                                      std::optional<Result> result) {
  std::size_t calls = 0;
  for (auto* module : modules_) {
    if (module->graph().file_name() == module_file) {
      module->force(node, result);
      ++calls;
    }
    calls += module->force_in_module(module_file, node, result);
  }
  return calls;
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
  attach(observer);
  for (auto* module : modules_)
    module->set_observer(observer);
}

}  // namespace ainb::runtime
