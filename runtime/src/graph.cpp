// A file's executable graph: its nodes as the registry resolves them, their children and
// transitions, with the checks that refuse a graph the scheduler could not run. The other build
// steps: graph_modules.cpp, graph_parameters.cpp, graph_layout.cpp.

#include "graph_build.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace ainb::runtime {

namespace {

// The value type a ModuleIF node passes, by node type.
ParamType module_if_type(NodeType type) {
  static constexpr ParamType kByKind[] = {ParamType::Int,    ParamType::Float, ParamType::Vec3f,
                                          ParamType::String, ParamType::Bool,  ParamType::Pointer};
  return kByKind[std::min<std::size_t>(static_cast<std::uint16_t>(type) % 100, 5)];
}

std::string_view string_property(const Model& m, const Node& n, std::string_view name) {
  for (const auto& p : m.properties_of(n, ParamType::String)) {
    if (p.name == name) return std::get<std::string_view>(p.value);
  }
  return {};
}

// A node reached again through child plugs while one of its own updates runs would recurse
// without end (a fuzz finding: a stack overflow); real files are DAGs. Depth-first over child
// plugs, without recursion, from every node.
void check_child_cycles(const detail::GraphArrays& graph, const Model& m) {
  std::vector<std::uint8_t> colour(m.nodes.size(), 0);  // 0 unseen, 1 on the path, 2 done
  std::vector<std::pair<std::uint32_t, std::size_t>> path;
  for (std::uint32_t start = 0; start < m.nodes.size(); ++start) {
    if (colour[start] != 0) continue;
    colour[start] = 1;
    path.push_back({start, 0});
    while (!path.empty()) {
      const auto node = path.back().first;
      const auto kids = graph.children(node);
      if (path.back().second == kids.size()) {
        colour[node] = 2;
        path.pop_back();
        continue;
      }
      const auto child = kids[path.back().second++];
      if (child == detail::GraphArrays::kNoChild) continue;
      if (colour[child] == 1) {
        throw LoadError(m.name, "nodes", m.nodes[child].entry_offset,
                        fmt::format("node {} is its own descendant through child plugs (from "
                                    "node {}): a cycle would never finish",
                                    child, node));
      }
      if (colour[child] == 0) {
        colour[child] = 1;
        path.push_back({child, 0});
      }
    }
  }
}

// Whether a node's empty child plugs keep their position in Graph::children (as kNoChild): a
// selector's plug is a case (choosing it must not fall through to another), a user class
// finds its plugs by index and name. Other kinds just run nothing for them.
bool keeps_empty_plugs(NodeType type) {
  return type == NodeType::UserDefined ||
         (is_composite(type) && type != NodeType::Sequential && type != NodeType::Simultaneous);
}

// A selector plug's condition (Graph::selector_cases), its blackboard operands as indices into
// the instance's blackboard.
SelectorCase selector_case(const Model& m, const Plug& plug) {
  auto entry = [&](const PlugBlackboard& ref, BlackboardType type) {
    return ref.used ? m.blackboard.first[static_cast<std::size_t>(type)] + ref.index : -1;
  };
  SelectorCase c;
  if (const auto* s32 = std::get_if<S32Condition>(&plug.data)) {
    c.value = s32->value;
    c.entry = entry(s32->blackboard, BlackboardType::S32);
  } else if (const auto* f32 = std::get_if<F32Condition>(&plug.data)) {
    c.min = f32->min.value;
    c.max = f32->max.value;
    c.entry = entry(f32->min.blackboard, BlackboardType::F32);
    c.max_entry = entry(f32->max.blackboard, BlackboardType::F32);
  } else if (const auto* text = std::get_if<StringCondition>(&plug.data)) {
    c.text = text->value;
    c.entry = entry(text->blackboard, BlackboardType::String);
  } else if (const auto* weight = std::get_if<RandomWeight>(&plug.data)) {
    c.min = weight->weight;
    c.entry = entry(weight->blackboard, BlackboardType::F32);
  }
  return c;
}

// The child plugs a built-in node finds by name (Element_BoolSelector, Element_SplitTiming), in
// the order of GraphNode::named_plugs; empty for every other type.
std::span<const std::string_view> named_child_plugs(NodeType type) {
  static constexpr std::array<std::string_view, 2> kBool{"True", "False"};
  static constexpr std::array<std::string_view, 3> kSplit{"Enter", "Update", "Leave"};
  if (type == NodeType::BoolSelector) return kBool;
  if (type == NodeType::SplitTiming) return kSplit;
  return {};
}

std::string quoted_list(std::span<const std::string_view> names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    out += fmt::format("{}\"{}\"", k == 0 ? "" : k + 1 == names.size() ? " and " : ", ", names[k]);
  return out;
}

// A plug of another name would never be chosen, and a second plug of one name would hide the
// first: refused, as a silent misreading (docs/semantics.md, "Built-in plugs and inputs"). A
// name may be absent: that case selects, or that phase runs, nothing.
void check_named_plugs(const Model& m, std::uint32_t i, std::span<const std::string_view> names) {
  if (names.empty()) return;
  const auto& n = m.nodes[i];
  const auto plugs = m.plugs_of(n, PlugKind::Child);
  for (std::uint32_t k = 0; k < plugs.size(); ++k) {
    const auto fail = [&](std::string_view problem) {
      throw LoadError(m.name, "nodes", n.entry_offset,
                      fmt::format("node {} ({}): child plug {} {}; its plugs are {}", i,
                                  node_type_name(n.type), k, problem, quoted_list(names)));
    };
    if (std::find(names.begin(), names.end(), plugs[k].name) == names.end())
      fail(fmt::format("is named \"{}\"", plugs[k].name));
    for (std::uint32_t j = 0; j < k; ++j) {
      if (plugs[j].name == plugs[k].name)
        fail(fmt::format("is named \"{}\" as plug {} is", plugs[k].name, j));
    }
  }
}

// A selector reads one input, of its type, named "Input" (as every selector of the real files);
// without it the choice would rest on a zero nobody wrote, and an input of another name would be
// read as if it were this one.
void check_selector_input(const Model& m, std::uint32_t i) {
  const auto& n = m.nodes[i];
  const auto type = static_cast<ParamType>(selector_input_type(n.type));
  const auto fail = [&](const std::string& problem) {
    throw LoadError(m.name, "nodes", n.entry_offset,
                    fmt::format("node {} ({}): {}; a selector reads one {} input named \"Input\"",
                                i, node_type_name(n.type), problem, param_type_name(type)));
  };
  bool found = false;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    for (const auto& input : m.inputs_of(n, static_cast<ParamType>(t))) {
      if (static_cast<ParamType>(t) != type || input.name != "Input") {
        fail(fmt::format("it has a {} input \"{}\"", param_type_name(static_cast<ParamType>(t)),
                         input.name));
      }
      if (found) fail(fmt::format("it has two {} inputs \"Input\"", param_type_name(type)));
      found = true;
    }
  }
  if (!found) fail("it has no input");
}

std::shared_ptr<const Model> not_null(std::shared_ptr<const Model> model) {
  if (model == nullptr) throw std::invalid_argument("runtime::Graph: no model (a null pointer)");
  return model;
}

}  // namespace

detail::GraphArrays::~GraphArrays() = default;

// The temporary Build lives until the delegated constructor returns.
Graph::Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry,
             const GraphOptions& options)
    : Graph(not_null(std::move(model)), registry, Build{options}.self()) {}

Graph::Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry, Build& build) {
  model_ = std::move(model);
  const auto& m = *model_;
  file_name_ = m.header.file_name.empty() ? m.name : std::string(m.header.file_name) + ".ainb";
  if (m.expressions) {
    program_ = std::make_unique<exb::Program>(*m.expressions, m.name, build.options.functions);
    // Like a missing module: the game's code the host does not have, said once per file.
    if (const auto* log = build.options.log; listening(log)) {
      for (const auto& signature : program_->missing_functions()) {
        const auto message = fmt::format(
            "user function \"{}\" is not registered; expressions that call it give their "
            "stored values",
            signature);
        (*log)(LogEvent{.level = LogLevel::Warning,
                        .kind = LogKind::MissingFunction,
                        .file = m.name,
                        .subject = signature,
                        .message = message});
      }
    }
  }
  if (registry.stub_running_updates > kMaxStubUpdates) {
    throw std::invalid_argument(
        fmt::format("NodeRegistry::stub_running_updates is {}, over the limit of {} "
                    "(Graph::kMaxStubUpdates)",
                    registry.stub_running_updates, kMaxStubUpdates));
  }
  stub_running_updates_ = static_cast<std::uint16_t>(registry.stub_running_updates);
  stubs_run_first_child_ = registry.stub_runs_first_child;
  build_blackboard(build.options);
  for (const auto type : {ParamType::String, ParamType::Vec3f, ParamType::Int, ParamType::Float,
                          ParamType::Pointer, ParamType::Bool}) {
    const auto t = static_cast<std::size_t>(type);
    output_offset_[t] = output_bytes_;
    output_bytes_ += static_cast<std::uint32_t>(m.outputs[t].size() * output_size(t));
  }
  build_nodes(registry, build.options);
  build_control_flow();
  build_query_plans();
  check_child_cycles(*this, *model_);
  // The chain holds the paths modules were asked for (a copy of a module saved under another
  // name keeps its internal name), and the root file's name.
  const bool root = build.chain.empty();
  if (root) build.chain.push_back(file_name_);
  build_modules(registry, build);
  if (root) build.chain.pop_back();
  check_holders();
  order_node_states();  // once every stub is known, missing modules' too
  collect_expression_sites();
  build_footprints();
  bind_inputs();
  for (auto& g : nodes_) {
    g.plain_composite =
        is_composite(g.type) && g.queries.count == 0 && g.transitions.count == 0 && !g.runs_setup;
    if (g.user_class != nullptr) {
      g.calls_enter = (g.user_class->hooks() & NodeClass::kEnter) != 0;
      g.calls_leave = (g.user_class->hooks() & NodeClass::kLeave) != 0;
    } else if (!g.is_stub) {
      continue;
    }
    if (g.is_stub && stubs_run_first_child_ && g.children.count != 0) g.named_plugs[0] = 0;
    // A node that may hold children (a class that can call NodeContext::run_child, a stub that
    // passes through) leaves them on the general path; a stub that runs none stays plain.
    const bool may_hold_children =
        g.children.count != 0 && (g.user_class != nullptr || g.named_plugs[0] >= 0);
    g.plain =
        g.module < 0 && g.queries.count == 0 && !g.runs_setup && !g.has_xlink && !may_hold_children;
    g.plain_update = g.plain && g.transitions.count == 0;
    g.enter_work = g.calls_enter || g.class_state_size != 0 || g.stub_outputs.count != 0;
  }
}

std::optional<std::size_t> Graph::find_command(std::string_view name) const {
  const auto& commands = model_->commands;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (commands[i].name == name) return i;
  }
  return std::nullopt;
}

void Graph::build_nodes(const NodeRegistry& registry, const GraphOptions& options) {
  const auto& m = *model_;
  nodes_.resize(m.nodes.size());
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    auto& g = nodes_[i];
    g.type = n.type;
    if (n.type == NodeType::UserDefined && !n.is_module()) {
      if (auto found = registry.find(n.name)) {
        g.user_class = found.get();
        if (const auto size = found->state_size(); size != 0) {
          if (size > kMaxNodeState) {
            throw std::invalid_argument(fmt::format(
                "{}: node {} ({}): its class's state_size() is {} bytes, over the limit of {} "
                "(Graph::kMaxNodeState)",
                m.name, i, n.name, size, kMaxNodeState));
          }
          const std::uint64_t end =
              std::uint64_t{class_state_bytes_} + ((size + 15u) & ~std::size_t{15});
          if (end > std::numeric_limits<std::uint32_t>::max()) {
            throw std::invalid_argument(
                fmt::format("{}: node {} ({}): the nodes' states exceed 4 GiB", m.name, i, n.name));
          }
          g.class_state = class_state_bytes_;
          g.class_state_size = static_cast<std::uint32_t>(size);
          class_state_bytes_ = static_cast<std::uint32_t>(end);
        }
        resolve_declared(i, *found);
        if (std::find(classes_.begin(), classes_.end(), found) == classes_.end()) {
          classes_.push_back(std::move(found));
        }
      } else if (registry.unknown_classes == UnknownClassPolicy::Strict) {
        throw LoadError(m.name, "nodes", n.entry_offset,
                        fmt::format("node {} uses class \"{}\", which no node class is registered "
                                    "for (strict policy)",
                                    i, n.name));
      } else {
        g.is_stub = true;
      }
    }
    if (g.is_stub && registry.stub_outputs) {
      g.stub_outputs.base = static_cast<std::uint32_t>(stub_outputs_.size());
      for (std::size_t t = 0; t < kParamTypeCount; ++t) {
        const auto type = static_cast<ParamType>(t);
        const auto outputs = m.outputs_of(n, type);
        for (std::uint32_t k = 0; k < outputs.size(); ++k) {
          auto value = registry.stub_outputs(n.name, outputs[k]);
          if (!value || value->index() != t) continue;  // nothing, or not the output's type
          if (const auto* s = std::get_if<std::string_view>(&*value)) {
            *value = std::string_view(stub_strings_.emplace_back(*s));
          }
          stub_outputs_.push_back({type, n.outputs[t].base + k, *value});
        }
      }
      g.stub_outputs.count = static_cast<std::uint32_t>(stub_outputs_.size()) - g.stub_outputs.base;
    }
    switch (n.type) {
      case NodeType::Sequential:
        for (const auto& p : m.properties_of(n, ParamType::Bool)) {
          if (p.name == "IsUpdateNextInFrame") g.update_next_in_frame = std::get<bool>(p.value);
          if (p.name == "IsLoop") g.loop = std::get<bool>(p.value);
        }
        for (const auto& p : m.properties_of(n, ParamType::Int)) {
          if (p.name != "NumLoop") continue;
          // A negative count loops for ever, as 0 does (docs/semantics.md): read as a count
          // it would never be reached.
          g.loop_count = std::max(0, std::get<std::int32_t>(p.value));
          if (g.loop && g.loop_count > static_cast<std::int32_t>(kMaxLoops)) {
            throw LoadError(m.name, "nodes", n.entry_offset,
                            fmt::format("node {} (Element_Sequential): NumLoop {} is over the "
                                        "limit of {} loops (Graph::kMaxLoops)",
                                        i, g.loop_count, kMaxLoops));
          }
        }
        break;
      case NodeType::Simultaneous:
        for (const auto& p : m.properties_of(n, ParamType::Int)) {
          if (p.name == "ResultPolicy" && std::get<std::int32_t>(p.value) == 1)
            g.ends_with_first_child = options.simultaneous_ends_first;
        }
        break;
      case NodeType::S32Selector:
      case NodeType::F32Selector:
      case NodeType::StringSelector:
      case NodeType::BoolSelector:
        for (const auto& p : m.properties_of(n, ParamType::Bool)) {
          if (p.name == "IsNoSelectWhenChildBusy") g.no_select_when_busy = std::get<bool>(p.value);
        }
        check_selector_input(m, i);
        g.selector_input = static_cast<std::int32_t>(n.inputs[selector_input_type(n.type)].base);
        break;
      case NodeType::Join:
        for (const auto& p : m.properties_of(n, ParamType::Int)) {
          if (p.name == "InFlowNum") {
            g.in_flow = static_cast<std::uint32_t>(std::max(1, std::get<std::int32_t>(p.value)));
          }
        }
        break;
      case NodeType::StateEnd:
        g.parameter = string_property(m, n, "TransitionCommand");
        break;
      default:
        if (n.type >= NodeType::ModuleIFInputS32 && n.type <= NodeType::ModuleIFChild) {
          g.parameter = string_property(m, n, "Name");
          g.value_type = module_if_type(n.type);
        }
        break;
    }
  }
  for (const auto& action : m.xlink_actions)
    nodes_[action.node_index].has_xlink = true;
}

void Graph::build_control_flow() {
  const auto& m = *model_;
  // The child replacement table is applied once, here, unless the file says it already was.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> removed_children, removed_attachments;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> replaced_children;
  if (m.replacements && !m.replacements->applied) {
    for (const auto& r : m.replacements->entries) {
      const std::pair<std::uint32_t, std::uint32_t> key{r.node_index, r.target};
      switch (r.type) {
        case ReplacementType::RemoveChild:
          removed_children.push_back(key);
          break;
        case ReplacementType::ReplaceChild:
          replaced_children[key] = r.replacement_node;
          break;
        case ReplacementType::RemoveAttachment:
          removed_attachments.push_back(key);
          break;
      }
    }
  }
  auto contains = [](const auto& list, std::pair<std::uint32_t, std::uint32_t> key) {
    return std::find(list.begin(), list.end(), key) != list.end();
  };

  std::vector<bool> is_target(m.nodes.size(), false);
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    auto& g = nodes_[i];
    g.children.base = static_cast<std::uint32_t>(children_.size());
    const auto first_plug = n.plugs[static_cast<std::size_t>(PlugKind::Child)].base;
    const auto plugs = m.plugs_of(n, PlugKind::Child);
    for (std::uint32_t k = 0; k < plugs.size(); ++k) {
      if (contains(removed_children, {i, k})) continue;
      const auto it = replaced_children.find({i, k});
      const auto target =
          it != replaced_children.end() ? std::optional(it->second) : plugs[k].target;
      if (!target && !keeps_empty_plugs(n.type)) continue;
      children_.push_back(target.value_or(kNoChild));
      child_plugs_.push_back(first_plug + k);
      selector_cases_.push_back(selector_case(m, plugs[k]));
      if (target) is_target[*target] = true;
    }
    g.children.count = static_cast<std::uint32_t>(children_.size()) - g.children.base;
    if ((n.type == NodeType::Simultaneous || n.type == NodeType::UserDefined) &&
        g.children.count > GraphNode::kInlineHeld) {
      g.held = held_flags_;
      held_flags_ += g.children.count;
    }
    const auto names = named_child_plugs(n.type);
    check_named_plugs(m, i, names);
    for (std::size_t k = 0; k < names.size(); ++k) {
      for (std::uint32_t c = 0; c < g.children.count; ++c) {
        if (m.plugs[child_plugs_[g.children.base + c]].name == names[k]) {
          g.named_plugs[k] = static_cast<std::int16_t>(c);
          break;
        }
      }
    }

    g.queries.base = static_cast<std::uint32_t>(queries_.size());
    for (const auto q : m.queries_of(n)) {
      queries_.push_back(q);
      is_target[q] = true;  // calculated by its user
    }
    g.queries.count = static_cast<std::uint32_t>(queries_.size()) - g.queries.base;

    g.attachments.base = static_cast<std::uint32_t>(attachments_.size());
    const auto attached = m.attachments_of(n);
    for (std::uint32_t k = 0; k < attached.size(); ++k) {
      if (!contains(removed_attachments, {i, k})) attachments_.push_back(attached[k]);
    }
    g.attachments.count = static_cast<std::uint32_t>(attachments_.size()) - g.attachments.base;

    // Transitions are control flow too; generic, string and int plugs are data links (an
    // output feeding a consumer) and make nobody a child.
    g.transitions.base = static_cast<std::uint32_t>(transitions_.size());
    for (const auto& plug : m.plugs_of(n, PlugKind::Transition)) {
      if (!plug.target) continue;  // an empty transition leads nowhere: nothing is pushed
      const auto& t = m.transitions[plug.transition_index];
      transitions_.push_back(
          {*plug.target, t.post_calc() || n.type == NodeType::Join, t.type() == 0, t.command});
      is_target[*plug.target] = true;
    }
    g.transitions.count = static_cast<std::uint32_t>(transitions_.size()) - g.transitions.base;
    for (std::uint32_t k = 0; n.type != NodeType::Fork && k < g.transitions.count; ++k) {
      if (!transitions_[g.transitions.base + k].state_end) {
        g.first_transition = static_cast<std::int16_t>(k);  // at most 255 plugs of a kind
        break;
      }
    }
    if (n.type == NodeType::Fork)
      max_active_roots_ = std::max(max_active_roots_, g.transitions.count);
    if (is_module_output(n.type)) module_outputs_.push_back(i);
  }
  if (m.commands.empty()) {
    for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
      if (!is_target[i] && !is_module_output(m.nodes[i].type)) logic_roots_.push_back(i);
    }
  }
}

}  // namespace ainb::runtime
