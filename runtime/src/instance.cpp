// The scheduler: Enter, Update and Leave of every node kind, as docs/semantics.md specifies.

#include "ainb/runtime/instance.hpp"

#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace ainb::runtime {

namespace {

Value zero_of(ParamType type) {
  switch (type) {
    case ParamType::Int:
      return std::int32_t{0};
    case ParamType::Bool:
      return false;
    case ParamType::Float:
      return 0.0f;
    case ParamType::String:
      return std::string_view{};
    case ParamType::Vec3f:
      return Vec3f{};
    case ParamType::Pointer:
      return PointerValue{};
  }
  return std::int32_t{0};
}

template <typename T>
T value_or(const Value& v, T fallback) {
  if (const auto* p = std::get_if<T>(&v)) return *p;
  return fallback;
}

}  // namespace

Instance::Instance(std::shared_ptr<const Graph> graph, InstanceOptions options)
    : graph_(std::move(graph)),
      options_(options),
      random_(static_cast<std::uint_fast32_t>(options.seed % 2147483647u) + 1u) {
  const auto& m = graph_->model();
  nodes_.resize(m.nodes.size());
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    outputs_[t].assign(m.outputs[t].size(), zero_of(static_cast<ParamType>(t)));
  }
  blackboard_.reserve(m.blackboard.entries.size());
  for (const auto& e : m.blackboard.entries)
    blackboard_.push_back(e.default_value);
  if (const auto* program = graph_->program()) {
    exb::MachineOptions machine_options;
    machine_options.missing_functions = options_.missing_functions;
    machine_ = std::make_unique<exb::Machine>(*program, machine_options);
    expression_memory_.assign(graph_->expression_memory(), 0);
  }
  // Logic files: every root is entered when the instance is created.
  if (m.commands.empty()) {
    for (const auto root : graph_->logic_roots())
      enter(root);
    state_ = graph_->logic_roots().empty() ? CommandState::Idle : CommandState::Running;
  }
}

Instance::~Instance() {
  stop();
}

std::size_t Instance::memory_bytes() const {
  std::size_t bytes = sizeof(*this) + nodes_.capacity() * sizeof(NodeState) +
                      blackboard_.capacity() * sizeof(Value);
  for (const auto& list : outputs_)
    bytes += list.capacity() * sizeof(Value);
  return bytes;
}

std::string_view Instance::command() const {
  return command_ < 0 ? std::string_view{} : graph_->model().commands[command_].name;
}

void Instance::start(std::string_view name) {
  const auto& commands = graph_->model().commands;
  std::int32_t found = -1;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (commands[i].name == name) found = static_cast<std::int32_t>(i);
  }
  if (found < 0) {
    std::string known;
    for (const auto& c : commands)
      known += fmt::format("{}\"{}\"", known.empty() ? "" : ", ", c.name);
    throw std::invalid_argument(fmt::format("{} has no command \"{}\" (it has: {})",
                                            graph_->model().name, name,
                                            known.empty() ? "none" : known));
  }
  stop();
  ++epoch_;
  command_ = found;
  state_ = CommandState::Running;
  if (options_.observer) options_.observer->on_command(name);
  const auto& c = commands[found];
  enter(c.root);
  if (c.secondary_root) enter(*c.secondary_root);
}

void Instance::stop() {
  const auto& m = graph_->model();
  if (command_ >= 0) {
    const auto& c = m.commands[command_];
    if (c.secondary_root && is_active(*c.secondary_root)) leave(*c.secondary_root);
    if (is_active(c.root)) leave(c.root);
  }
  for (const auto root : graph_->logic_roots()) {
    if (is_active(root)) leave(root);
  }
  if (state_ == CommandState::Running) state_ = CommandState::Idle;
}

void Instance::tick() {
  ++frame_;
  ++epoch_;
  const auto& m = graph_->model();
  if (m.commands.empty()) {
    for (const auto root : graph_->logic_roots()) {
      if (is_active(root)) update(root);
    }
    return;
  }
  if (state_ != CommandState::Running || command_ < 0) return;
  const auto& c = m.commands[command_];
  const auto result = update(c.root);
  if (c.secondary_root && is_active(*c.secondary_root)) update(*c.secondary_root);
  if (result != Result::Running) end_command(result);
}

void Instance::end_command(Result result) {
  const auto& c = graph_->model().commands[command_];
  if (c.secondary_root && is_active(*c.secondary_root)) leave(*c.secondary_root);
  if (is_active(c.root)) leave(c.root);
  state_ = result == Result::Success ? CommandState::Succeeded : CommandState::Failed;
}

// ---- queries --------------------------------------------------------------------------------

void Instance::calculate_queries(std::uint32_t node) {
  for (const auto q : graph_->queries(node)) {
    auto& s = nodes_[q];
    if (s.active == 0) {
      s.active = 1;
      if (options_.observer) options_.observer->on_enter(q);
      if (auto* cls = graph_->nodes()[q].user_class) {
        NodeContext context(*this, q);
        cls->enter(context);
      }
    }
    // A query is a calculation: a user class's update, or an Element_Expression (every one in
    // the corpus is a query node of the node that reads its outputs).
    Result result = Result::Success;
    if (graph_->nodes()[q].type == NodeType::Expression) {
      result = update_expression(q);
    } else if (auto* cls = graph_->nodes()[q].user_class) {
      NodeContext context(*this, q);
      result = cls->update(context);
    }
    if (options_.observer) options_.observer->on_update(q, result);
  }
}

void Instance::leave_queries(std::uint32_t node) {
  for (const auto q : graph_->queries(node)) {
    auto& s = nodes_[q];
    if (s.active == 0) continue;
    if (s.query_users > 0) --s.query_users;
    if (s.query_users > 0) continue;
    if (auto* cls = graph_->nodes()[q].user_class) {
      NodeContext context(*this, q);
      cls->leave(context);
    }
    s.active = 0;
    if (options_.observer) options_.observer->on_leave(q);
  }
}

// ---- enter / update / leave -----------------------------------------------------------------

void Instance::enter(std::uint32_t node) {
  auto& s = nodes_[node];
  if (s.active != 0) {  // already entered by another parent: it stays active for both
    ++s.active;
    return;
  }
  s = NodeState{};
  s.active = 1;
  for (const auto q : graph_->queries(node))
    ++nodes_[q].query_users;
  if (graph_->nodes()[node].queries.count != 0) calculate_queries(node);
  if (machine_) {  // the setup blocks of the expressions this node owns run once per Enter
    for (const auto site : graph_->sites_of(node)) {
      auto frame = site_frame(site);
      machine_->run_setup(graph_->expression_sites()[site].function, frame);
    }
  }
  if (options_.observer) options_.observer->on_enter(node);
  const auto& g = graph_->nodes()[node];
  if (g.has_xlink && options_.observer) {
    for (const auto& action : graph_->model().xlink_actions) {
      if (action.node_index == node) options_.observer->on_xlink(node, action.slot, action.action);
    }
  }
  const auto children = graph_->children(node);
  switch (g.type) {
    case NodeType::UserDefined:
      if (g.user_class) {
        NodeContext context(*this, node);
        g.user_class->enter(context);
      }
      break;
    case NodeType::Sequential:
      if (!children.empty()) enter(children[0]);
      break;
    case NodeType::Simultaneous:
      for (const auto child : children)
        enter(child);
      break;
    case NodeType::S32Selector:
    case NodeType::F32Selector:
    case NodeType::StringSelector:
    case NodeType::BoolSelector:
    case NodeType::RandomSelector:
      if (!children.empty()) {
        s.cursor = choose(node);
        enter(children[s.cursor]);
      }
      break;
    case NodeType::SplitTiming: {
      if (const auto on_enter = plug_named(node, "Enter"); on_enter >= 0) {
        enter(children[on_enter]);
        update(children[on_enter]);
        leave(children[on_enter]);
      }
      if (const auto on_update = plug_named(node, "Update"); on_update >= 0) {
        enter(children[on_update]);
      }
      break;
    }
    default:
      break;  // the other built-ins are planned (docs/semantics.md)
  }
}

Result Instance::update(std::uint32_t node) {
  auto& state = nodes_[node];
  if (state.epoch == epoch_) return state.last;  // a second parent in the same frame
  if (graph_->nodes()[node].queries.count != 0) calculate_queries(node);
  const auto& g = graph_->nodes()[node];
  Result result = Result::Success;
  switch (g.type) {
    case NodeType::UserDefined:
      if (g.user_class) {
        NodeContext context(*this, node);
        result = g.user_class->update(context);
      } else if (nodes_[node].counter++ < graph_->stub_running_updates()) {
        result = Result::Running;  // a stub: Running for the configured updates, then Success
      }
      break;
    case NodeType::Sequential:
      result = update_sequential(node);
      break;
    case NodeType::Simultaneous:
      result = update_simultaneous(node);
      break;
    case NodeType::S32Selector:
    case NodeType::F32Selector:
    case NodeType::StringSelector:
    case NodeType::BoolSelector:
    case NodeType::RandomSelector:
      result = update_selector(node);
      break;
    case NodeType::SplitTiming:
      result = update_split_timing(node);
      break;
    case NodeType::Alert:
      result = update_alert(node);
      break;
    case NodeType::Expression:
      result = update_expression(node);
      break;
    default:
      break;
  }
  if (options_.observer) options_.observer->on_update(node, result);
  nodes_[node].epoch = epoch_;
  nodes_[node].last = result;
  return result;
}

void Instance::leave(std::uint32_t node) {
  auto& s = nodes_[node];
  if (s.active == 0) return;
  if (s.active > 1) {  // another parent still uses it
    --s.active;
    return;
  }
  const auto& g = graph_->nodes()[node];
  const auto children = graph_->children(node);
  // Children first, so a child never runs outside its parent.
  for (auto it = children.rbegin(); it != children.rend(); ++it) {
    if (g.type == NodeType::SplitTiming) break;  // handled below, in its order
    if (nodes_[*it].active != 0) leave(*it);
  }
  switch (g.type) {
    case NodeType::UserDefined:
      if (g.user_class) {
        NodeContext context(*this, node);
        g.user_class->leave(context);
      }
      break;
    case NodeType::SplitTiming: {
      if (const auto on_update = plug_named(node, "Update"); on_update >= 0) {
        leave(children[on_update]);
      }
      if (const auto on_leave = plug_named(node, "Leave"); on_leave >= 0) {
        enter(children[on_leave]);
        update(children[on_leave]);
        leave(children[on_leave]);
      }
      break;
    }
    default:
      break;
  }
  s.active = 0;
  if (options_.observer) options_.observer->on_leave(node);
  if (graph_->nodes()[node].queries.count != 0) leave_queries(node);
}

// ---- built-in composites --------------------------------------------------------------------

std::int32_t Instance::plug_named(std::uint32_t node, std::string_view name) const {
  const auto& m = graph_->model();
  const auto plugs = m.plugs_of(m.nodes[node], PlugKind::Child);
  for (std::size_t i = 0; i < plugs.size(); ++i) {
    if (plugs[i].name == name) return static_cast<std::int32_t>(i);
  }
  return -1;
}

Result Instance::update_sequential(std::uint32_t node) {
  const auto children = graph_->children(node);
  if (children.empty()) return Result::Success;
  auto& s = nodes_[node];
  const auto& m = graph_->model();
  const auto& g = graph_->nodes()[node];
  const bool next_in_frame = g.update_next_in_frame;
  const bool loop = g.loop;
  const auto loops = g.loop_count;
  (void)m;
  for (;;) {
    const auto child = children[s.cursor];
    const auto result = update(child);
    if (result == Result::Running) return Result::Running;
    leave(child);
    if (result == Result::Failure) return Result::Failure;
    if (++s.cursor == children.size()) {
      if (!loop || (loops > 0 && ++s.counter >= static_cast<std::uint32_t>(loops))) {
        return result;
      }
      s.cursor = 0;
    }
    enter(children[s.cursor]);
    if (!next_in_frame) return Result::Running;
  }
}

Result Instance::update_simultaneous(std::uint32_t node) {
  auto& s = nodes_[node];
  bool running = false;
  for (const auto child : graph_->children(node)) {
    if (nodes_[child].active == 0) continue;
    const auto result = update(child);
    if (result == Result::Running) {
      running = true;
      continue;
    }
    leave(child);
    if (result == Result::Failure) ++s.counter;
  }
  if (running) return Result::Running;
  return s.counter == 0 ? Result::Success : Result::Failure;
}

Result Instance::update_selector(std::uint32_t node) {
  const auto children = graph_->children(node);
  if (children.empty()) return Result::Success;
  auto& s = nodes_[node];
  // Re-evaluated at every update; a changed choice leaves the old child and enters the new one.
  if (graph_->nodes()[node].type != NodeType::RandomSelector) {
    const auto choice = choose(node);
    if (children[choice] != children[s.cursor]) {  // two plugs may lead to the same node
      leave(children[s.cursor]);
      enter(children[choice]);
    }
    s.cursor = choice;
  }
  return update(children[s.cursor]);
}

Result Instance::update_split_timing(std::uint32_t node) {
  const auto on_update = plug_named(node, "Update");
  if (on_update < 0) return Result::Success;
  return update(graph_->children(node)[on_update]);
}

// Element_Alert: a debug message. It is logged and traced; its `Result` property (the game's
// result enum: 0 None, 1 Busy, 2 Success, 3 Failure) says what the node returns.
Result Instance::update_alert(std::uint32_t node) {
  NodeContext context(*this, node);
  auto message = context.input_string("Message");
  if (message.empty()) message = context.property_string("Message");
  spdlog::warn("{}: alert from node {}: {}", graph_->model().name, node, message);
  if (options_.observer) options_.observer->on_alert(node, message);
  switch (context.property_int("Result")) {
    case 1:
      return Result::Running;
    case 3:
      return Result::Failure;
    default:
      return Result::Success;
  }
}

std::uint16_t Instance::choose(std::uint32_t node) {
  const auto& m = graph_->model();
  const auto& n = m.nodes[node];
  const auto plugs = m.plugs_of(n, PlugKind::Child);
  const auto last = static_cast<std::uint16_t>(plugs.size() - 1);
  // A selector has one input ("Input"): read it by position, not by name.
  auto selector_input = [&](ParamType type) -> Value {
    const auto inputs = m.inputs_of(n, type);
    return inputs.empty() ? Value{} : input_value(inputs[0]);
  };
  auto bb = [&](const PlugBlackboard& ref, BlackboardType type, Value fallback) -> Value {
    if (!ref.used) return fallback;
    return blackboard_[m.blackboard.first[static_cast<std::size_t>(type)] + ref.index];
  };
  switch (n.type) {
    case NodeType::BoolSelector: {
      const auto wanted = value_or(selector_input(ParamType::Bool), false) ? "True" : "False";
      for (std::uint16_t i = 0; i < plugs.size(); ++i) {
        if (plugs[i].name == wanted) return i;
      }
      return last;
    }
    case NodeType::S32Selector: {
      const auto x = value_or(selector_input(ParamType::Int), std::int32_t{0});
      for (std::uint16_t i = 0; i < last; ++i) {
        const auto& c = std::get<S32Condition>(plugs[i].data);
        if (x == value_or(bb(c.blackboard, BlackboardType::S32, c.value), c.value)) return i;
      }
      return last;
    }
    case NodeType::F32Selector: {
      const auto x = value_or(selector_input(ParamType::Float), 0.0f);
      for (std::uint16_t i = 0; i < last; ++i) {
        const auto& c = std::get<F32Condition>(plugs[i].data);
        const auto lo =
            value_or(bb(c.min.blackboard, BlackboardType::F32, c.min.value), c.min.value);
        const auto hi =
            value_or(bb(c.max.blackboard, BlackboardType::F32, c.max.value), c.max.value);
        if (lo <= x && x <= hi) return i;
      }
      return last;
    }
    case NodeType::StringSelector: {
      const auto x = value_or(selector_input(ParamType::String), std::string_view{});
      for (std::uint16_t i = 0; i < last; ++i) {
        const auto& c = std::get<StringCondition>(plugs[i].data);
        if (x == value_or(bb(c.blackboard, BlackboardType::String, c.value), c.value)) return i;
      }
      return last;
    }
    case NodeType::RandomSelector: {
      float total = 0;
      for (const auto& p : plugs) {
        const auto& w = std::get<RandomWeight>(p.data);
        total +=
            std::max(0.0f, value_or(bb(w.blackboard, BlackboardType::F32, w.weight), w.weight));
      }
      if (total <= 0) return 0;
      // Mapped by hand: std::uniform_real_distribution differs between standard libraries.
      const auto unit = static_cast<double>(random_() - std::minstd_rand::min()) /
                        static_cast<double>(std::minstd_rand::max() - std::minstd_rand::min() + 1);
      const auto pick = static_cast<float>(unit * total);
      float sum = 0;
      for (std::uint16_t i = 0; i < plugs.size(); ++i) {
        const auto& w = std::get<RandomWeight>(plugs[i].data);
        sum += std::max(0.0f, value_or(bb(w.blackboard, BlackboardType::F32, w.weight), w.weight));
        if (pick < sum) return i;
      }
      return last;
    }
    default:
      return 0;
  }
}

// ---- values ---------------------------------------------------------------------------------

Value Instance::property_value(const Property& p) const {
  if (p.flags.source() == ParamFlags::Source::Blackboard) {
    Input as_input;
    as_input.type = p.type;
    as_input.flags = p.flags;
    as_input.default_value = p.value;
    return input_value(as_input);
  }
  if (p.flags.source() == ParamFlags::Source::Expression) {
    const auto& m = graph_->model();
    const auto t = static_cast<std::size_t>(p.type);
    const auto index = static_cast<std::uint32_t>(&p - m.properties[t].data());
    return evaluate(graph_->property_site(p.type, index), p.type, p.value, p.value);
  }
  return p.value;
}

Value Instance::input_value(const Input& in) const {
  const auto& m = graph_->model();
  const auto t = static_cast<std::size_t>(in.type);
  std::int16_t source_node = in.raw_node_index;
  std::int16_t source_output = in.source_output();
  ParamFlags flags = in.flags;
  if (in.is_multi_source()) {  // the first source (multi-source combination: planned)
    const auto sources = m.sources_of(in);
    if (sources.empty()) return in.default_value;
    source_node = sources[0].node_index;
    source_output = sources[0].output_index;
    flags = sources[0].flags;
  }
  if (flags.source() == ParamFlags::Source::Expression && !in.is_multi_source() &&
      graph_->program() != nullptr) {
    // The expression's input is the source value: the linked output (of the function's input
    // type), else the stored default.
    const auto index = static_cast<std::uint32_t>(&in - m.inputs[t].data());
    const auto site = graph_->input_site(in.type, index);
    Value source = in.default_value;
    if (source_node >= 0 && site >= 0) {
      const auto function = graph_->expression_sites()[site].function;
      const auto source_type = graph_->program()->functions()[function].source->input_type;
      static constexpr ParamType kByExb[] = {ParamType::Int,    ParamType::Int,  ParamType::Bool,
                                             ParamType::Int,    ParamType::Int,  ParamType::Float,
                                             ParamType::String, ParamType::Vec3f};
      const auto st = static_cast<std::size_t>(kByExb[static_cast<std::size_t>(source_type)]);
      const auto& node = m.nodes[static_cast<std::size_t>(source_node)];
      if (static_cast<std::uint32_t>(source_output) < node.outputs[st].count) {
        source = outputs_[st][node.outputs[st].base + static_cast<std::uint32_t>(source_output)];
      }
    }
    return evaluate(site, in.type, source, in.default_value);
  }
  if (source_node >= 0 && flags.source() != ParamFlags::Source::Expression) {
    const auto& node = m.nodes[static_cast<std::size_t>(source_node)];
    return outputs_[t][node.outputs[t].base + static_cast<std::uint32_t>(source_output)];
  }
  if (flags.source() == ParamFlags::Source::Blackboard) {
    if (const auto component = flags.component()) {
      const auto& v = std::get<Vec3f>(
          blackboard_[m.blackboard.first[static_cast<std::size_t>(BlackboardType::Vec3f)] +
                      flags.index()]);
      return *component == VectorComponent::X ? v.x : *component == VectorComponent::Y ? v.y : v.z;
    }
    static constexpr BlackboardType kTypes[] = {BlackboardType::S32,   BlackboardType::Bool,
                                                BlackboardType::F32,   BlackboardType::String,
                                                BlackboardType::Vec3f, BlackboardType::Pointer};
    return blackboard_[m.blackboard.first[static_cast<std::size_t>(kTypes[t])] + flags.index()];
  }
  return in.default_value;
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

exb::Frame Instance::site_frame(std::uint32_t site) const {
  const auto& s = graph_->expression_sites()[site];
  const auto size = graph_->program()->functions()[s.function].source->static_size;
  exb::Frame frame;
  frame.static_memory = std::span(expression_memory_).subspan(s.static_offset, size);
  frame.host = options_.host;
  return frame;
}

Value Instance::evaluate(std::int32_t site, ParamType type, const Value& input,
                         const Value& fallback) const {
  if (site < 0 || !machine_) return fallback;
  const auto function = graph_->expression_sites()[site].function;
  const auto& source = *graph_->program()->functions()[function].source;
  auto frame = site_frame(static_cast<std::uint32_t>(site));
  if (exb::value_size(source.input_type) != 0) exb::write_value(to_exb(input), frame.input);
  if (machine_->run_main(function, frame) != exb::Status::Ok) return fallback;
  const auto out_type =
      exb::value_size(source.output_type) != 0 ? source.output_type : exb_type(type);
  return from_exb(exb::read_value(out_type, frame.output.data()), fallback);
}

// Element_Expression: its inputs and outputs are the function's user slots, numbered per type.
Result Instance::update_expression(std::uint32_t node) {
  const auto site = graph_->node_site(node);
  if (site < 0 || !machine_) return Result::Success;
  constexpr std::size_t kSlots = 16;  // per type; a function reading more fails (BadFrame)
  std::array<std::array<std::uint8_t, kSlots * 12>, 12> slots{};
  auto frame = site_frame(static_cast<std::uint32_t>(site));
  const auto& m = graph_->model();
  const auto& n = m.nodes[node];
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto k = slot_space(type);
    if (k < 0) continue;
    const auto width = exb::value_size(exb_type(type));
    const auto inputs = m.inputs_of(n, type);
    const auto outputs = m.outputs_of(n, type);
    frame.user[k] = slots[k].data();
    frame.user_slots[k] = static_cast<std::uint16_t>(std::min(inputs.size(), kSlots));
    frame.user[k + 6] = slots[k + 6].data();
    frame.user_slots[k + 6] = static_cast<std::uint16_t>(std::min(outputs.size(), kSlots));
    for (std::size_t i = 0; i < frame.user_slots[k]; ++i) {
      std::array<std::uint8_t, 12> bytes{};
      exb::write_value(to_exb(input_value(inputs[i])), bytes);
      std::memcpy(slots[k].data() + i * width, bytes.data(), width);
    }
  }
  const auto function = graph_->expression_sites()[site].function;
  if (machine_->run_main(function, frame) != exb::Status::Ok) return Result::Failure;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto k = slot_space(type);
    if (k < 0) continue;
    const auto width = exb::value_size(exb_type(type));
    for (std::size_t i = 0; i < frame.user_slots[k + 6]; ++i) {
      auto& slot = outputs_[t][n.outputs[t].base + i];
      slot = from_exb(exb::read_value(exb_type(type), slots[k + 6].data() + i * width), slot);
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
      outputs_[t][m.nodes[node].outputs[t].base + i] = value;
      return true;
    }
  }
  return false;
}

bool Instance::set_blackboard(std::string_view name, BlackboardType type, Value value) {
  const auto& entries = graph_->model().blackboard.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].type == type && entries[i].name == name) {
      blackboard_[i] = value;
      if (options_.observer) options_.observer->on_blackboard(i);
      return true;
    }
  }
  return false;
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

const Value* Instance::blackboard(std::string_view name) const {
  const auto& entries = graph_->model().blackboard.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].name == name) return &blackboard_[i];
  }
  return nullptr;
}

// ---- NodeContext ----------------------------------------------------------------------------

const Node& NodeContext::node() const {
  return instance_.graph().model().nodes[node_];
}

std::span<const std::uint32_t> NodeContext::attachments() const {
  return model().attachments_of(node());
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

}  // namespace

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
