// Module calls (docs/semantics.md, "Modules"): the caller's module node runs the called file's
// sub-instance; the called file's ModuleIF nodes read the caller's inputs, write its outputs and
// run its child plugs.

#include "protocol.hpp"

namespace ainb::runtime {

// The caller's side: the module node runs the called file for one frame; when that file ended
// with an Element_StateEnd, the node finishes and continues on the transition the StateEnd named.
Result detail::Scheduler::update_module_call(std::uint32_t node) {
  auto& sub = *modules_[static_cast<std::size_t>(graph_->nodes()[node].module)];
  const auto result = sub.update_module(self().frame());
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
void detail::Scheduler::update_module_outputs() {
  for (const auto out : graph_->module_outputs()) {
    if (self().is_active(out)) update(out);
  }
}

// (The caller passes the actor's frame: a sub-instance's frame() would read its parent_, a cache
// line a frame does not touch otherwise.)
void detail::Scheduler::begin_module(std::uint64_t actor_frame) {
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

Result detail::Scheduler::update_module(std::uint64_t actor_frame) {
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

void detail::Scheduler::end_module() {
  stop_nodes();
}

// The called file's side: ModuleIF_Input reads the caller's input of its Name, ModuleIF_Output
// writes the caller's output of its Name.
Result detail::Scheduler::calculate_module_if(std::uint32_t node) {
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

// ModuleIF_Child stands for the caller's child on the module node's plug of its link: entered,
// updated and left with it. Without a caller (the file run alone) or a link, it does nothing.
const std::uint32_t* detail::Scheduler::caller_child(std::uint32_t node) const {
  if (parent_ == nullptr || call_->links[node] < 0) return nullptr;
  return &parent_->graph_->children(call_->node)[static_cast<std::size_t>(call_->links[node])];
}

void detail::Scheduler::enter_module_child(std::uint32_t node) {
  const auto* child = caller_child(node);
  if (child == nullptr) return;
  // The module chose one of its caller's child plugs: a decision of the caller's module node.
  if (parent_->attached())
    parent_->observe_branch(call_->node, static_cast<std::uint32_t>(call_->links[node]));
  parent_->enter(*child);
}

Result detail::Scheduler::update_module_child(std::uint32_t node) {
  const auto* child = caller_child(node);
  return child != nullptr ? parent_->update(*child) : Result::Success;
}

void detail::Scheduler::leave_module_child(std::uint32_t node) {
  if (const auto* child = caller_child(node)) parent_->leave(*child);
}

}  // namespace ainb::runtime
