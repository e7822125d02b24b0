// Hot reload (docs/embedding.md, "Hot reload"): a graph's successor, an instance's move to the
// newest graph of its file, and Runtime::reload. Outside the scheduler's unity group: a start
// pays one test of its graph's successor and calls here only after a reload.

#include <atomic>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ainb/exb/thread_machines.hpp"
#include "ainb/runtime/runtime.hpp"
#include "protocol.hpp"  // guarded, catching

namespace ainb::runtime {

// ---- the graph's side ---------------------------------------------------------------------------

std::shared_ptr<const Graph> Graph::successor() const {
  // successor_owner_ is written before successor_ is published, and never after.
  return successor_.load(std::memory_order_acquire) != nullptr ? successor_owner_ : nullptr;
}

std::shared_ptr<const Graph> Graph::latest(std::shared_ptr<const Graph> graph) {
  while (graph != nullptr && graph->has_successor())
    graph = graph->successor();
  return graph;
}

// Called by one Runtime::reload at a time, on the newest graph of a file (which has none yet).
void Graph::set_successor(std::shared_ptr<const Graph> next) const {
  if (has_successor()) throw std::logic_error("Graph: a graph's successor is set once");
  successor_owner_ = std::move(next);
  successor_.store(successor_owner_.get(), std::memory_order_release);
}

// ---- the instance's side ------------------------------------------------------------------------

// The values the actor's own blackboard entries (not a module's) were given since they started
// (those that differ from the file's default), by name and type, and the actor's frame count:
// what the actor knows is kept, and a default the edit changed takes effect.
struct Instance::Carried {
  Block block;  // the new graph's, allocated before the old state goes
  std::uint64_t frame = 0;
  struct Entry {
    std::string name;
    BlackboardType type;
    Value value;
    std::string text;  // a String entry's value, which may live in the old graph or block
  };
  std::vector<Entry> blackboard;
};

detail::Scheduler::Block Instance::take_block(Carried& carried) {
  return std::move(carried.block);
}

namespace {

// The calling thread's EXB machines for the graph's programs, made now so that constructing an
// instance of it cannot fail for want of memory.
void prepare_machines(const Graph& graph) {
  const auto& arrays = detail::arrays(graph);
  if (arrays.program() != nullptr) (void)exb::thread_machine(*arrays.program());
  for (const auto& call : arrays.module_calls())
    prepare_machines(*call.graph);
}

}  // namespace

void Instance::carry_in(const Carried& carried) {
  frame_ = carried.frame;
  const auto& m = graph_->model();
  const auto& entries = m.blackboard.entries;
  for (const auto& e : carried.blackboard) {
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
      if (entries[i].type != e.type || entries[i].name != e.name) continue;
      auto value = e.value;
      if (e.type == BlackboardType::String) {
        const auto first = m.blackboard.first[static_cast<std::size_t>(BlackboardType::String)];
        value = std::string_view(blackboard_strings_[i - first].assign(e.text));
      }
      blackboard_[i] = value;
      break;
    }
  }
}

void Instance::switch_graph(std::shared_ptr<const Graph> next) {
  // What can fail comes first, while the instance still runs its old graph.
  Carried carried{.block = new_block(*next, options_.memory), .frame = frame_, .blackboard = {}};
  const auto& entries = graph_->model().blackboard.entries;
  carried.blackboard.reserve(entries.size());
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    const auto& value = blackboard_[i];
    if (blackboard_links_[i].owner != this || value == graph_->blackboard_default(i)) continue;
    const auto* text = std::get_if<std::string_view>(&value);
    carried.blackboard.push_back({.name = std::string(entries[i].name),
                                  .type = entries[i].type,
                                  .value = value,
                                  .text = text != nullptr ? std::string(*text) : std::string()});
  }
  prepare_machines(*next);
  const auto options = options_;
  // The destructor leaves what the command had entered (classes and observer see it on the old
  // graph); the new instance takes the same place, so the host's pointer stays valid.
  [&]() noexcept {
    this->~Instance();
    new (this) Instance(std::move(next), options, nullptr, nullptr, nullptr, &carried);
  }();
  if (attached()) {
    catching([&] {
      guarded(Fault::Source::Observer, -1, "on_reload",
              [&] { options_.observer->on_reload(*this); });
    });
  }
  if (graph_->model().commands.empty() && state_ != CommandState::Faulted) enter_logic_roots();
}

std::size_t Instance::switch_for_start(std::size_t index) {
  if (inside_entry()) throw_reentered("start");
  const std::string name(graph_->model().commands[index].name);
  switch_graph(Graph::latest(graph_owner_));
  if (const auto found = graph_->find_command(name)) return *found;
  throw_no_command(name);
}

bool Instance::switch_to_latest() {
  if (inside_entry()) throw_reentered("switch_to_latest");
  if (parent_ != nullptr || !graph_->has_successor()) return false;
  const bool running = state_ == CommandState::Running && command_ >= 0;
  const std::string command(this->command());
  switch_graph(Graph::latest(graph_owner_));
  if (running) {
    if (const auto index = graph_->find_command(command)) start(*index);
  }
  return true;
}

// ---- the runtime's side -------------------------------------------------------------------------

Runtime::Reload Runtime::reload(std::string_view spec) {
  return replace(std::string(spec), [&] { return load(spec); });
}

Runtime::Reload Runtime::reload(std::span<const std::uint8_t> bytes, std::string name) {
  auto key = name;
  return replace(std::move(key), [&] { return load(bytes, std::move(name)); });
}

Runtime::Reload Runtime::replace(std::string key,
                                 const std::function<std::shared_ptr<const Graph>()>& load) {
  // The graph the actors run: the one the last load or reload of this file returned.
  std::shared_ptr<const Graph> previous;
  if (const auto it = loaded_.find(key); it != loaded_.end()) previous = it->second.lock();
  Reload result;
  try {
    result.graph = load();  // records itself as the file's newest graph
  } catch (const std::exception& e) {
    result.error = e.what();
    return result;
  }
  if (previous != nullptr) Graph::latest(std::move(previous))->set_successor(result.graph);
  return result;
}

}  // namespace ainb::runtime
