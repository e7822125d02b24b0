// Commands and the frame: starting and stopping a command, a tick, the frame of each shape of
// file (Logic, single root, the general one through the active node array in active_array.cpp),
// and the epochs that make an update once per frame.

#include "protocol.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

void Instance::start(std::string_view name) {
  if (const auto index = graph_->find_command(name)) return start(*index);
  // A command the reloaded file added.
  if (graph_->has_successor() && !inside_entry()) {
    switch_graph(Graph::latest(graph_owner_));
    if (const auto index = graph_->find_command(name)) return start(*index);
  }
  throw_no_command(name);
}

void detail::Scheduler::throw_no_command(std::string_view name) const {
  std::string known;
  for (const auto& c : graph_->model().commands)
    known += fmt::format("{}\"{}\"", known.empty() ? "" : ", ", c.name);
  throw std::invalid_argument(fmt::format("{} has no command \"{}\" (it has: {})",
                                          graph_->model().name, name,
                                          known.empty() ? "none" : known));
}

void Instance::start(std::size_t index) {
  if (index >= graph_->model().commands.size()) throw_no_command(index);
  if (graph_->has_successor()) [[unlikely]]
    index = switch_for_start(index);
  scheduling("start", [&] {
    // Only a faulted instance has a fault record (and stays Faulted until this start): the test
    // spares a restart the record's cache line.
    if (state_ == CommandState::Faulted) forget_fault();
    start_command(index);
  });
}

// Out of line, as are the rare paths below: a restart every frame pays for the registers and
// stack that start() would otherwise set up for them.
void detail::Scheduler::throw_no_command(std::size_t index) const {
  const auto count = graph_->model().commands.size();
  throw std::out_of_range(
      fmt::format("{} has no command {} (it has {})", graph_->model().name, index, count));
}

void detail::Scheduler::forget_fault() {
  if (rare_) rare_->fault.reset();
}

void detail::Scheduler::start_command(std::size_t index) {
  // A command that ended by itself left its roots already (end_command): the common restart.
  if (has_roots() || has(kOtherRoots)) stop_nodes();
  next_epoch();
  command_ = static_cast<std::int32_t>(index);
  state_ = CommandState::Running;
  marks_ &= static_cast<std::uint8_t>(~kPathFailed);
  clear_state_end();
  const auto& c = graph_->model().commands[index];
  if (attached()) notify_command(c.name);
  // The array is empty here (stopped above, or emptied by the command's end), and has room for
  // one root in every file.
  roots_[0] = ActiveRoot{.node = c.root};
  root_count_ = 1;
  enter(c.root);
  if (!has(kOtherRoots)) return;
  if (c.secondary_root) enter(*c.secondary_root);
  for (const auto out : graph_->module_outputs())
    enter(out);
}

// Out of line: its exception handling would give every start a stack frame.
void detail::Scheduler::notify_command(std::string_view name) {
  guarded(Fault::Source::Observer, -1, "on_command",
          [&] { options_.observer->on_command(self(), name); });
}

void Instance::stop() {
  scheduling("stop", [&] { stop_nodes(); });
}

void detail::Scheduler::stop_nodes() {
  if (has(kOtherRoots)) leave_secondary_root();
  leave_roots();
  if (has(kLogic)) {
    for (const auto root : graph_->logic_roots()) {
      if (self().is_active(root)) leave(root);
    }
  }
  if (has(kOtherRoots)) {
    for (const auto out : graph_->module_outputs()) {
      if (self().is_active(out)) leave(out);
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
void detail::Scheduler::sweep_epochs() {
  for (auto& s : node_states().first(graph_->reached_states())) {
    if (s.epoch != 0) s.epoch = 1;
  }
  epoch_ = 2;
}

// (Called when kOtherRoots is set, as update_secondary_root is: most files have no secondary
// root, and the test at the call spares them the call.)
void detail::Scheduler::leave_secondary_root() {
  if (command_ < 0) return;
  const auto& c = graph_->model().commands[command_];
  if (c.secondary_root && self().is_active(*c.secondary_root)) leave(*c.secondary_root);
}

void Instance::tick() {
  if (state_ == CommandState::Faulted) return;  // stopped until a command is started again
  scheduling("tick", [&] { tick_frame(); });
}

void detail::Scheduler::tick_frame() {
  ++frame_;
  next_epoch();
  calculate_frame();
}

// The frame of a file with commands and no transitions or other roots (kSingleRoot): the array
// holds the command's root, and nothing can add a root, so the root's Update is the frame. (Its
// own function, as a restarted tree's frame is little more than this:
// docs/benchmarks-runtime-history.md, "The single-root frame".)
void detail::Scheduler::calculate_root() {
  const auto node = roots_[0].node;
  const auto& g = graph_->nodes()[node];
  auto& s = nodes_[g.state_index];
  const bool quiet = !general_paths();
  const auto result = update_child(node, g, s, quiet);
  if (result != Result::Running) {
    leave_child(node, g, s, quiet);
    root_count_ = 0;
  }
  if (has(kStateEndRequested)) return finish_state_end();
  // The command's end, with nothing left to leave. (It is still running: a class cannot start or
  // stop it from inside the frame.)
  if (result != Result::Running) state_ = ended(result);
}

// The rest of a frame after the active node array's calculation: the secondary root, post-calc
// transitions, module outputs, a StateEnd, or the command's end.
void detail::Scheduler::finish_frame() {
  if (has(kOtherRoots)) update_secondary_root();
  if (has(kPostRequested)) calculate_post_transitions();
  if (has(kOtherRoots)) update_module_outputs();
  if (has(kStateEndRequested)) return finish_state_end();
  end_if_done();
}

// A frame of a file without commands: its roots are rarely plain nodes, so they take the
// general Update (which is right for any node) without testing for the short paths.
void detail::Scheduler::tick_logic() {
  const auto* nodes = graph_->nodes().data();
  for (const auto root : graph_->logic_roots()) {
    const auto& g = nodes[root];
    if (auto& s = nodes_[g.state_index]; s.active != 0) update_node(root, g, s);
  }
  update_module_outputs();
  if (has(kStateEndRequested)) finish_state_end();
}

void detail::Scheduler::update_secondary_root() {
  const auto& c = graph_->model().commands[command_];
  if (c.secondary_root && self().is_active(*c.secondary_root)) update(*c.secondary_root);
}

}  // namespace ainb::runtime
