#include "ainb/runtime/graph.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace ainb::runtime {

// ---- registry and resolvers -----------------------------------------------------------------

void NodeRegistry::add(std::string name, std::shared_ptr<NodeClass> node_class) {
  if (node_class == nullptr) {
    throw std::invalid_argument(
        fmt::format("NodeRegistry::add(\"{}\"): no class (a null pointer)", name));
  }
  classes_[std::move(name)] = std::move(node_class);
}

std::shared_ptr<NodeClass> NodeRegistry::find(std::string_view name) const {
  const auto it = classes_.find(std::string(name));
  return it == classes_.end() ? nullptr : it->second;
}

std::uint32_t NodeClass::declare(ParamKind kind, ParamType type, std::string name) {
  declared_.push_back({kind, type, std::move(name)});
  return static_cast<std::uint32_t>(declared_.size() - 1);
}

std::string_view result_name(Result result) {
  switch (result) {
    case Result::Running:
      return "Running";
    case Result::Success:
      return "Success";
    case Result::Failure:
      return "Failure";
  }
  return "";
}

DirectoryResolver::DirectoryResolver(std::vector<std::filesystem::path> directories)
    : directories_(std::move(directories)) {}

std::shared_ptr<const Model> DirectoryResolver::find(std::string_view path) const {
  std::lock_guard lock(mutex_);
  if (const auto it = loaded_.find(path); it != loaded_.end()) return it->second;
  for (const auto& directory : directories_) {
    for (const auto& candidate : {directory / path, directory / "AI" / path}) {
      std::error_code error;
      if (!std::filesystem::is_regular_file(candidate, error)) continue;
      auto model = load_file(candidate);
      loaded_.emplace(std::string(path), model);
      return model;
    }
  }
  return nullptr;
}

std::string DirectoryResolver::where() const {
  if (directories_.empty()) return "no module directories were given";
  std::string list;
  for (const auto& d : directories_)
    list += fmt::format("{}{}", list.empty() ? "" : ", ", d.string());
  return "searched " + list;
}

void MemoryResolver::add(std::string path, std::shared_ptr<const Model> model) {
  models_[std::move(path)] = std::move(model);
}

std::shared_ptr<const Model> MemoryResolver::find(std::string_view path) const {
  const auto it = models_.find(path);
  return it == models_.end() ? nullptr : it->second;
}

std::string MemoryResolver::where() const {
  return fmt::format("searched {} module(s) held in memory", models_.size());
}

// ---- graph ----------------------------------------------------------------------------------

namespace {

// The value type a ModuleIF node passes, by node type.
ParamType module_if_type(NodeType type) {
  static constexpr ParamType kByKind[] = {ParamType::Int,    ParamType::Float, ParamType::Vec3f,
                                          ParamType::String, ParamType::Bool,  ParamType::Pointer};
  return kByKind[std::min<std::size_t>(static_cast<std::uint16_t>(type) % 100, 5)];
}

bool is_module_input(NodeType t) {
  return t >= NodeType::ModuleIFInputS32 && t <= NodeType::ModuleIFInputPtr;
}
bool is_module_output(NodeType t) {
  return t >= NodeType::ModuleIFOutputS32 && t <= NodeType::ModuleIFOutputPtr;
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
void check_child_cycles(const Graph& graph, const Model& m) {
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
      if (child == Graph::kNoChild) continue;
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

// The type of a selector's input.
std::size_t selector_input_type(NodeType type) {
  switch (type) {
    case NodeType::BoolSelector:
      return static_cast<std::size_t>(ParamType::Bool);
    case NodeType::F32Selector:
      return static_cast<std::size_t>(ParamType::Float);
    case NodeType::StringSelector:
      return static_cast<std::size_t>(ParamType::String);
    default:
      return static_cast<std::size_t>(ParamType::Int);
  }
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

}  // namespace

struct Graph::Build {
  const GraphOptions& options;
  std::vector<std::string> chain = {};  // the files being built, outermost first
  // Module files already built (null: missing, running as stubs), so a file called from several
  // places is one graph.
  std::map<std::string, std::shared_ptr<const Graph>, std::less<>> done = {};
  Build& self() { return *this; }
};

namespace {
std::shared_ptr<const Model> not_null(std::shared_ptr<const Model> model) {
  if (model == nullptr) throw std::invalid_argument("runtime::Graph: no model (a null pointer)");
  return model;
}
}  // namespace

// The temporary Build lives until the delegated constructor returns.
Graph::Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry,
             const GraphOptions& options)
    : Graph(not_null(std::move(model)), registry, Build{options}.self()) {}

Graph::Graph(std::shared_ptr<const Model> model, const NodeRegistry& registry, Build& build)
    : model_(std::move(model)) {
  const auto& m = *model_;
  file_name_ = m.header.file_name.empty() ? m.name : std::string(m.header.file_name) + ".ainb";
  if (m.expressions) {
    program_ = std::make_unique<exb::Program>(*m.expressions, m.name, build.options.functions);
    // Like a missing module: the game's code the host does not have, said once per file.
    for (const auto& signature : program_->missing_functions())
      spdlog::warn(
          "{}: user function \"{}\" is not registered; expressions that call it give "
          "their stored values",
          m.name, signature);
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
    g.enter_work = g.calls_enter || g.state_size != 0 || g.stub_outputs.count != 0;
  }
}

std::optional<std::size_t> Graph::find_command(std::string_view name) const {
  const auto& commands = model_->commands;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (commands[i].name == name) return i;
  }
  return std::nullopt;
}

// Depth first from each node with queries, without recursion. A query reached again while it is
// on the path (the node itself included) closes a cycle, which the file is refused for.
void Graph::build_query_plans() {
  const auto& m = *model_;
  std::vector<std::uint8_t> on_path(nodes_.size(), 0);
  struct Open {
    std::uint32_t node;
    std::uint32_t first_step;
    std::uint32_t next = 0;  // the next of its queries to unroll
  };
  std::vector<Open> path;
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    auto& range = nodes_[n].query_plan;
    range.base = static_cast<std::uint32_t>(query_plan_.size());
    if (nodes_[n].queries.count == 0) continue;
    on_path[n] = 1;
    path.push_back({n, 0});
    while (!path.empty()) {
      auto& open = path.back();
      const auto inner = queries(open.node);
      if (open.next == inner.size()) {
        if (path.size() > 1) {
          // The query's last step (none for a query without queries: its first step is its
          // only one), and where its first step skips to.
          if (query_plan_.size() - 1 != open.first_step) query_plan_.push_back({open.node, 0});
          query_plan_[open.first_step].end =
              static_cast<std::uint32_t>(query_plan_.size()) - range.base;  // within the window
        }
        on_path[open.node] = 0;
        path.pop_back();
        continue;
      }
      const auto from = open.node;
      const auto q = inner[open.next++];
      if (on_path[q] != 0) {
        throw LoadError(m.name, "nodes", m.nodes[q].entry_offset,
                        fmt::format("node {} is its own query (through node {}): a query cycle "
                                    "has no order to calculate in",
                                    q, from));
      }
      if (query_plan_.size() + 2 > kMaxQuerySteps) {
        throw LoadError(m.name, "nodes", m.nodes[n].entry_offset,
                        fmt::format("node {}: the queries unroll to more than {} steps (the "
                                    "limit, Graph::kMaxQuerySteps): queries shared along many "
                                    "paths or chained thousands deep",
                                    n, kMaxQuerySteps));
      }
      on_path[q] = 1;
      path.push_back({q, static_cast<std::uint32_t>(query_plan_.size())});
      query_plan_.push_back({q, 0});
    }
    range.count = static_cast<std::uint32_t>(query_plan_.size()) - range.base;
  }
}

std::span<const std::uint32_t> Graph::entered_children(std::uint32_t node) const {
  if (nodes_[node].is_stub && !stubs_run_first_child_) return {};
  return children(node);
}

// An instance's node states are numbered in the order a frame reaches them, so a running tree
// reads few cache lines of its actor's state (the actor's own memory, which many actors do not
// keep in cache): from each root down, a node's queries and children get consecutive states
// (a Simultaneous checks all its children every frame, a selector reads its chosen child's,
// queries are calculated before their user), then each child's own are numbered, depth first.
// Roots come first: commands' main and secondary roots, Logic roots, module outputs, transition
// targets; nodes no root reaches last, in file order (reached_states_ counts the others). A stub
// that runs no children reaches none: with such wrappers (an event's Execute classes), the
// states of the commands' roots are together instead of a subtree apart.
void Graph::order_node_states() {
  const auto& m = *model_;
  constexpr auto kUnplaced = std::numeric_limits<std::uint32_t>::max();
  for (auto& g : nodes_)
    g.state_index = kUnplaced;
  std::uint32_t next = 0;
  std::vector<std::uint32_t> to_expand;  // placed nodes whose queries and children are not yet
  const auto place = [&](std::uint32_t node) {
    if (nodes_[node].state_index != kUnplaced) return false;
    nodes_[node].state_index = next++;
    return true;
  };
  const auto expand_from = [&](std::uint32_t root) {
    if (!place(root)) return;
    to_expand.push_back(root);
    while (!to_expand.empty()) {
      const auto node = to_expand.back();
      to_expand.pop_back();
      const auto first = to_expand.size();
      for (const auto list : {queries(node), entered_children(node)}) {
        for (const auto n : list) {
          if (n != kNoChild && place(n)) to_expand.push_back(n);
        }
      }
      std::reverse(to_expand.begin() + static_cast<std::ptrdiff_t>(first), to_expand.end());
    }
  };
  for (const auto& c : m.commands)
    expand_from(c.root);
  for (const auto& c : m.commands) {
    if (c.secondary_root) expand_from(*c.secondary_root);
  }
  for (const auto root : logic_roots_)
    expand_from(root);
  for (const auto out : module_outputs_)
    expand_from(out);
  for (const auto& t : transitions_)
    expand_from(t.target);
  reached_states_ = next;
  for (std::uint32_t n = 0; n < nodes_.size(); ++n)
    expand_from(n);
  for (auto& step : query_plan_)
    step.state = nodes_[step.node].state_index;
  child_states_.reserve(children_.size());
  for (const auto child : children_)
    child_states_.push_back(child == kNoChild ? 0 : nodes_[child].state_index);
}

namespace {
// Sorted windows, with those at most `gap` apart joined (less than a cache line: a prefetch
// reads the lines between them anyway).
std::vector<Range> joined_windows(std::vector<Range> windows, std::uint32_t gap) {
  std::ranges::sort(windows, {}, &Range::base);
  std::vector<Range> joined;
  for (const auto w : windows) {
    if (!joined.empty() && w.base <= joined.back().end() + gap) {
      joined.back().count = std::max(joined.back().end(), w.end()) - joined.back().base;
    } else {
      joined.push_back(w);
    }
  }
  return joined;
}

// The cache lines joined windows of `unit`-byte elements span, counted as if the array began on
// a line.
std::uint64_t lines_spanned(const std::vector<Range>& windows, std::uint32_t unit) {
  std::uint64_t lines = 0;
  for (const auto w : windows) {
    if (w.count != 0)
      lines += (std::uint64_t{w.end()} * unit - 1) / 64 - std::uint64_t{w.base} * unit / 64 + 1;
  }
  return lines;
}
}  // namespace

void Graph::build_footprints() {
  const auto& m = *model_;
  // An instance's node state is 8 bytes (Instance::NodeState).
  constexpr std::uint32_t kStateBytes = 8;
  const auto own_bytes = [&](std::uint32_t node) {
    std::uint64_t bytes = kStateBytes;
    for (std::size_t t = 0; t < kParamTypeCount; ++t)
      bytes += m.nodes[node].outputs[t].count * output_size(t);
    return bytes;
  };
  // What a frame of a running tree reads at most below a node: the node, its queries, and all
  // its children for an Element_Simultaneous (it updates each), else its largest child (the one
  // running). Depth first, without recursion (a long chain would overflow the stack, as in
  // check_child_cycles), each node once; a node reached again while it is on the path adds
  // nothing.
  std::vector<std::uint64_t> running_bytes(nodes_.size(), 0);
  std::vector<std::uint8_t> colour(nodes_.size(), 0);       // 0 unseen, 1 on the path, 2 done
  std::vector<std::pair<std::uint32_t, std::size_t>> path;  // node, next successor
  const auto running = [&](std::uint32_t root) {
    if (colour[root] == 0) {
      colour[root] = 1;
      path.push_back({root, 0});
    }
    while (!path.empty()) {
      const auto node = path.back().first;
      const auto own_queries = queries(node);
      const auto kids = entered_children(node);
      if (const auto k = path.back().second++; k < own_queries.size() + kids.size()) {
        const auto next = k < own_queries.size() ? own_queries[k] : kids[k - own_queries.size()];
        if (next != kNoChild && colour[next] == 0) {
          colour[next] = 1;
          path.push_back({next, 0});
        }
        continue;
      }
      std::uint64_t bytes = own_bytes(node), below = 0;
      for (const auto q : own_queries)
        bytes += running_bytes[q];
      for (const auto child : kids) {
        if (child == kNoChild) continue;
        const auto b = running_bytes[child];
        below = nodes_[node].type == NodeType::Simultaneous ? below + b : std::max(below, b);
      }
      running_bytes[node] = bytes + below;
      colour[node] = 2;
      path.pop_back();
    }
    return running_bytes[root];
  };
  const auto footprint_of = [&](std::vector<std::uint32_t> roots) {
    std::uint64_t every_frame = 0;
    for (const auto root : roots)
      every_frame += running(root);
    std::vector<bool> seen(nodes_.size());
    std::vector<Range> states, outputs, expression_memory;
    bool evaluates = false;
    auto to_visit = std::move(roots);
    while (!to_visit.empty()) {
      const auto node = to_visit.back();
      to_visit.pop_back();
      if (seen[node]) continue;
      seen[node] = true;
      states.push_back({nodes_[node].state_index, 1});
      for (std::size_t t = 0; t < kParamTypeCount; ++t) {
        const auto window = m.nodes[node].outputs[t];
        const auto size = static_cast<std::uint32_t>(output_size(t));
        if (window.count != 0)
          outputs.push_back({output_offset_[t] + window.base * size, window.count * size});
      }
      for (const auto site : sites_of(node)) {
        // A stub reads none of its inputs: their expressions run only a setup block, on Enter.
        const auto& s = sites_[site];
        if (nodes_[node].is_stub && program_->functions()[s.function].setup < 0) continue;
        evaluates = true;
        if (s.static_size != 0) expression_memory.push_back({s.static_offset, s.static_size});
      }
      for (const auto list : {queries(node), entered_children(node)}) {
        for (const auto n : list) {
          if (n != kNoChild) to_visit.push_back(n);
        }
      }
      for (const auto& t : transitions(node))
        to_visit.push_back(t.target);
    }
    // States windows 8 apart share a cache line, outputs windows 64 bytes apart.
    states = joined_windows(std::move(states), 64 / kStateBytes);
    outputs = joined_windows(std::move(outputs), 64);
    if (lines_spanned(states, kStateBytes) + lines_spanned(outputs, 1) < kMinFootprintLines)
      return Footprint{};
    return Footprint{std::move(states), std::move(outputs),
                     joined_windows(std::move(expression_memory), 64), evaluates,
                     every_frame >= kMinRunningBytes};
  };
  for (const auto& c : m.commands) {
    std::vector<std::uint32_t> roots{c.root};
    if (c.secondary_root) roots.push_back(*c.secondary_root);
    roots.insert(roots.end(), module_outputs_.begin(), module_outputs_.end());
    footprints_.push_back(footprint_of(std::move(roots)));
  }
  if (m.commands.empty()) {
    std::vector<std::uint32_t> roots = logic_roots_;
    roots.insert(roots.end(), module_outputs_.begin(), module_outputs_.end());
    footprints_.push_back(footprint_of(std::move(roots)));
  }
  worth_prefetching_ =
      std::ranges::any_of(footprints_, [](const auto& f) { return !f.states.empty(); });
}

// A node's state counts its holders in bytes (NodeState::active, query_users), which keeps an
// actor small. Counted here, conservatively, are the holders a node can have at once: each child
// plug that leads to it, each ModuleIF_Child of a module that enters it for its caller, the slots
// of the active node array that can hold it (its command's root or transition targets: at most
// max_active_roots() at a time), its command's secondary root, and once as a Logic root or module
// output; for a query, each node that lists it. A file over kMaxHolders is refused, not wrapped.
void Graph::check_holders() const {
  const auto& m = *model_;
  std::vector<std::uint32_t> parents(nodes_.size(), 0), users(nodes_.size(), 0);
  std::vector<std::uint32_t> slots(nodes_.size(), 0);
  for (const auto child : children_) {
    if (child != kNoChild) ++parents[child];
  }
  for (const auto query : queries_)
    ++users[query];
  for (const auto& t : transitions_)
    ++slots[t.target];
  std::vector<bool> root(nodes_.size(), false), secondary(nodes_.size(), false);
  for (const auto& c : m.commands) {
    root[c.root] = true;
    if (c.secondary_root) secondary[*c.secondary_root] = true;
  }
  for (const auto n : logic_roots_)
    ++parents[n];
  for (const auto n : module_outputs_)
    ++parents[n];
  for (const auto& call : module_calls_) {
    const auto plugs = children(call.node);
    for (std::size_t j = 0; j < call.links.size(); ++j) {
      const bool child_link = call.graph->model().nodes[j].type == NodeType::ModuleIFChild;
      if (child_link && call.links[j] >= 0)
        ++parents[plugs[static_cast<std::size_t>(call.links[j])]];  // never kNoChild (below)
    }
  }
  for (std::uint32_t n = 0; n < nodes_.size(); ++n) {
    const auto holders = parents[n] + std::min(slots[n] + (root[n] ? 1u : 0u), max_active_roots_) +
                         (secondary[n] ? 1u : 0u);
    if (holders > kMaxHolders) {
      throw LoadError(m.name, "nodes", m.nodes[n].entry_offset,
                      fmt::format("node {} can be entered by {} parents at once (child plugs, "
                                  "commands, transitions, module calls): over the limit of {} "
                                  "(Graph::kMaxHolders)",
                                  n, holders, kMaxHolders));
    }
    if (users[n] > kMaxHolders) {
      throw LoadError(m.name, "nodes", m.nodes[n].entry_offset,
                      fmt::format("node {} is a query of {} nodes: over the limit of {} "
                                  "(Graph::kMaxHolders)",
                                  n, users[n], kMaxHolders));
    }
  }
}

void Graph::build_blackboard(const GraphOptions& options) {
  const auto& entries = model_->blackboard.entries;
  blackboard_defaults_.reserve(entries.size());
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    auto value = entries[i].default_value;
    if (options.blackboard_defaults) {
      if (auto given = options.blackboard_defaults(*model_, i);
          given && given->index() == value.index()) {
        value = *given;
        if (const auto* s = std::get_if<std::string_view>(&value)) {
          value = std::string_view(stub_strings_.emplace_back(*s));
        }
      }
    }
    blackboard_defaults_.push_back(value);
  }
}

// Finds each parameter the node's class declared among the node's own, by kind, type and name.
void Graph::resolve_declared(std::uint32_t node, const NodeClass& node_class) {
  const auto& m = *model_;
  const auto& n = m.nodes[node];
  auto find = [](const auto& params, std::uint32_t base, std::string_view name) {
    for (std::uint32_t k = 0; k < params.size(); ++k) {
      if (params[k].name == name) return base + k;
    }
    return kNoParameter;
  };
  auto& g = nodes_[node];
  g.declared.base = static_cast<std::uint32_t>(declared_slots_.size());
  for (const auto& d : node_class.declared()) {
    const auto t = static_cast<std::size_t>(d.type);
    auto& slot = declared_slots_.emplace_back(DeclaredSlot{kNoParameter, d.kind, d.type});
    switch (d.kind) {
      case ParamKind::Input:
        slot.index = find(m.inputs_of(n, d.type), n.inputs[t].base, d.name);
        break;
      case ParamKind::Property:
        slot.index = find(m.properties_of(n, d.type), n.properties[t].base, d.name);
        break;
      case ParamKind::Output:
        slot.index = find(m.outputs_of(n, d.type), n.outputs[t].base, d.name);
        break;
    }
  }
  g.declared.count = static_cast<std::uint32_t>(declared_slots_.size()) - g.declared.base;
}

std::vector<Graph::UnresolvedParameter> Graph::unresolved_parameters() const {
  std::vector<UnresolvedParameter> unresolved;
  for (std::uint32_t node = 0; node < nodes_.size(); ++node) {
    const auto slots = declared_slots(node);
    for (std::uint32_t k = 0; k < slots.size(); ++k) {
      if (slots[k].index == kNoParameter) unresolved.push_back({node, k});
    }
  }
  return unresolved;
}

std::string Graph::describe(const UnresolvedParameter& parameter) const {
  static constexpr const char* kKinds[] = {"input", "property", "output"};
  const auto& d = nodes_[parameter.node].user_class->declared()[parameter.slot];
  return fmt::format("node {} ({}) has no {} {} \"{}\", which its class declares", parameter.node,
                     model_->nodes[parameter.node].name, param_type_name(d.type),
                     kKinds[static_cast<std::size_t>(d.kind)], d.name);
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
          const std::uint64_t end = std::uint64_t{node_memory_} + ((size + 15u) & ~std::size_t{15});
          if (end > std::numeric_limits<std::uint32_t>::max()) {
            throw std::invalid_argument(
                fmt::format("{}: node {} ({}): the nodes' states exceed 4 GiB", m.name, i, n.name));
          }
          g.state = node_memory_;
          g.state_size = static_cast<std::uint32_t>(size);
          node_memory_ = static_cast<std::uint32_t>(end);
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

void Graph::build_modules(const NodeRegistry& registry, Build& build) {
  const auto& m = *model_;
  const auto& options = build.options;
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (!n.is_module()) continue;
    const auto path = std::string(n.name) + ".ainb";
    auto fail = [&](const std::string& why) {
      throw LoadError(m.name, "nodes", n.entry_offset,
                      fmt::format("node {} calls module \"{}\", {}", i, path, why));
    };
    std::shared_ptr<const Graph> called;
    if (const auto it = build.done.find(path); it != build.done.end()) {
      called = it->second;
    } else {
      std::string chain;  // the files being built, callers first, then this one
      for (const auto& file : build.chain)
        chain += file + " -> ";
      chain += path;
      if (std::find(build.chain.begin(), build.chain.end(), path) != build.chain.end()) {
        fail("which calls itself: " + chain);
      }
      // The chain holds the top-level file and the modules above this call.
      if (build.chain.size() > options.max_module_depth) {
        fail(fmt::format("nested deeper than the limit of {} modules: {}", options.max_module_depth,
                         chain));
      }
      auto model = options.modules ? options.modules->find(path) : nullptr;
      if (!model) {
        const auto where = options.modules ? options.modules->where()
                                           : std::string("no module resolver was given");
        if (options.missing_modules == MissingModulePolicy::Error) {
          fail(fmt::format("which was not found ({})", where));
        }
        spdlog::warn("{}: module \"{}\" not found ({}); node {} runs as a stub", m.name, path,
                     where, i);
        build.done.emplace(path, nullptr);  // warn once per file
      } else {
        build.chain.push_back(path);
        called = std::shared_ptr<const Graph>(new Graph(std::move(model), registry, build));
        build.chain.pop_back();
        build.done.emplace(path, called);
      }
    }
    if (!called) {
      nodes_[i].is_stub = true;
      continue;
    }
    nodes_[i].module = static_cast<std::int32_t>(module_calls_.size());
    ModuleCall call{i, called, std::vector<std::int32_t>(called->nodes().size(), -1), {}};
    const auto& cm = called->model();
    for (std::uint32_t j = 0; j < cm.nodes.size(); ++j) {
      const auto& inner = called->nodes()[j];
      const auto type = inner.value_type;
      auto index_named = [&](auto list) {
        for (std::size_t k = 0; k < list.size(); ++k) {
          if (list[k].name == inner.parameter) return static_cast<std::int32_t>(k);
        }
        return -1;
      };
      if (is_module_input(inner.type)) {
        call.links[j] = index_named(m.inputs_of(n, type));
      } else if (is_module_output(inner.type)) {
        call.links[j] = index_named(m.outputs_of(n, type));
      } else if (inner.type == NodeType::ModuleIFChild) {
        const auto plugs = child_plugs(i);
        const auto kids = children(i);
        for (std::size_t k = 0; k < plugs.size(); ++k) {
          // An empty plug of the caller: the module's ModuleIF_Child runs nothing, as for none.
          if (m.plugs[plugs[k]].name == inner.parameter && kids[k] != kNoChild)
            call.links[j] = static_cast<std::int32_t>(k);
        }
      }
    }
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      if (type == ParamType::Pointer) continue;
      for (std::uint32_t k = n.properties[t].base; k < n.properties[t].end(); ++k) {
        const auto& entries = cm.blackboard.entries;
        for (std::uint32_t e = 0; e < entries.size(); ++e) {
          if (entries[e].type == blackboard_type_for(type, ParamFlags{}) &&
              entries[e].name == m.properties[t][k].name) {
            call.arguments.push_back({type, k, e});
          }
        }
      }
    }
    module_calls_.push_back(std::move(call));
  }
  module_instances_ = 0;
  for (const auto& call : module_calls_)
    module_instances_ += 1 + call.graph->module_instances_;  // each at most the limit: no overflow
  if (module_instances_ > options.max_module_instances) {
    std::string chain;  // from the top-level file down to this one, when it is a module
    if (build.chain.size() > 1) {
      for (const auto& file : build.chain)
        chain += (chain.empty() ? " (the chain: " : " -> ") + file;
    }
    throw LoadError(m.name, "modules", m.header.offsets[header_slot::kModules],
                    fmt::format("an actor of this file would hold {} module instances (one per "
                                "call, in every module called), past the limit of {}{}",
                                module_instances_, options.max_module_instances,
                                chain.empty() ? "" : chain + ")"));
  }
}

void Graph::collect_expression_sites() {
  const auto& m = *model_;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    property_sites_[t].assign(m.properties[t].size(), -1);
    input_bindings_[t].assign(m.inputs[t].size(), InputBinding{});
  }
  node_sites_.assign(m.nodes.size(), -1);
  source_bindings_.assign(m.multi_sources.size(), InputBinding{});
  if (!program_) return;
  auto add = [&](std::uint32_t function, std::uint32_t owner) {
    // A function's static size is at most 0x1000B (the EXB decoder's check); every site has its
    // own copy in each instance, so the sum is bounded too (docs/robustness.md).
    const auto size = (program_->functions()[function].source->static_size + 3u) & ~3u;
    if (size > kMaxExpressionMemory - expression_memory_) {
      throw LoadError(m.name, "EXB", 0,
                      fmt::format("the expressions need more than {} bytes of static memory per "
                                  "instance (the limit, Graph::kMaxExpressionMemory)",
                                  kMaxExpressionMemory));
    }
    sites_.push_back(
        {function, owner, expression_memory_, program_->functions()[function].source->static_size});
    if (program_->functions()[function].setup >= 0) nodes_[owner].runs_setup = true;
    expression_memory_ += size;
    site_order_.push_back(static_cast<std::uint32_t>(sites_.size() - 1));
    return static_cast<std::int32_t>(sites_.size() - 1);
  };
  auto is_expression = [](ParamFlags f) { return f.source() == ParamFlags::Source::Expression; };
  // Sites in node order, so each node's sites are contiguous in site_order_. Input and
  // multi-source sites are parked in their bindings' slots; bind_inputs() completes them.
  for (std::uint32_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    auto& g = nodes_[i];
    g.sites.base = static_cast<std::uint32_t>(site_order_.size());
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      for (std::uint32_t k = n.properties[t].base; k < n.properties[t].end(); ++k) {
        const auto& p = m.properties[t][k];
        if (!is_expression(p.flags)) continue;
        if (n.type == NodeType::Expression && p.name == "ExpressionBase") {
          node_sites_[i] = add(p.flags.index(), i);  // the node's own function
        } else {
          property_sites_[t][k] = add(p.flags.index(), i);
        }
      }
      for (std::uint32_t k = n.inputs[t].base; k < n.inputs[t].end(); ++k) {
        const auto& in = m.inputs[t][k];
        if (in.is_multi_source()) {
          const auto r = in.multi_sources();
          for (std::uint32_t s = r.base; s < r.end(); ++s) {
            if (!is_expression(m.multi_sources[s].flags)) continue;
            source_bindings_[s].kind = InputBinding::Kind::Expression;
            source_bindings_[s].slot =
                static_cast<std::uint32_t>(add(m.multi_sources[s].flags.index(), i));
          }
        } else if (is_expression(in.flags)) {
          input_bindings_[t][k].kind = InputBinding::Kind::Expression;
          input_bindings_[t][k].slot = static_cast<std::uint32_t>(add(in.flags.index(), i));
        }
      }
    }
    g.sites.count = static_cast<std::uint32_t>(site_order_.size()) - g.sites.base;
  }
}

void Graph::bind_inputs() {
  const auto& m = *model_;
  // One source (the input itself or a multi-source entry) of an input of type `type`.
  auto bind = [&](InputBinding& b, ParamType type, std::int16_t node, std::int16_t output,
                  ParamFlags flags) {
    const auto t = static_cast<std::size_t>(type);
    if (b.kind == InputBinding::Kind::Expression) {
      // The function's input is the linked output (of the function's input type), if any.
      if (node < 0) return;
      const auto function = sites_[b.slot].function;
      static constexpr ParamType kByExb[] = {ParamType::Int,    ParamType::Int,  ParamType::Bool,
                                             ParamType::Int,    ParamType::Int,  ParamType::Float,
                                             ParamType::String, ParamType::Vec3f};
      const auto exb_type = program_->functions()[function].source->input_type;
      const auto st = kByExb[static_cast<std::size_t>(exb_type)];
      const auto range =
          m.nodes[static_cast<std::size_t>(node)].outputs[static_cast<std::size_t>(st)];
      if (static_cast<std::uint32_t>(output) < range.count) {
        b.source_type = st;
        b.source_slot = static_cast<std::int32_t>(range.base + static_cast<std::uint32_t>(output));
      }
      return;
    }
    if (node >= 0) {
      const auto range = m.nodes[static_cast<std::size_t>(node)].outputs[t];
      if (static_cast<std::uint32_t>(output) < range.count) {
        b.kind = InputBinding::Kind::Output;
        b.slot = range.base + static_cast<std::uint32_t>(output);
      }
      return;
    }
    if (flags.source() == ParamFlags::Source::Blackboard) {
      const auto component = blackboard_component(type, flags);
      b.kind = component ? InputBinding::Kind::Component : InputBinding::Kind::Blackboard;
      b.component = static_cast<std::uint8_t>(component.value_or(VectorComponent::X));
      b.slot = m.blackboard.first[static_cast<std::size_t>(blackboard_type_for(type, flags))] +
               flags.index();
    }
  };
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    for (std::uint32_t k = 0; k < m.inputs[t].size(); ++k) {
      const auto& in = m.inputs[t][k];
      auto& b = input_bindings_[t][k];
      if (in.is_multi_source()) {
        const auto r = in.multi_sources();
        b.kind = InputBinding::Kind::MultiSource;
        b.slot = r.base;
        b.count = r.count;
        for (std::uint32_t s = r.base; s < r.end(); ++s) {
          const auto& src = m.multi_sources[s];
          bind(source_bindings_[s], type, src.node_index, src.output_index, src.flags);
        }
      } else {
        bind(b, type, in.raw_node_index, in.source_output(), in.flags);
      }
    }
  }
  for (auto& g : nodes_) {
    if (g.selector_input < 0) continue;
    const auto t = selector_input_type(g.type);
    const auto& b = input_bindings_[t][static_cast<std::uint32_t>(g.selector_input)];
    if (b.kind == InputBinding::Kind::Output) {
      g.selector_source = GraphNode::SelectorSource::Output;
      g.selector_at = output_offset_[t] + b.slot * static_cast<std::uint32_t>(output_size(t));
    } else if (b.kind == InputBinding::Kind::Blackboard) {
      g.selector_source = GraphNode::SelectorSource::Blackboard;
      g.selector_at = b.slot;
    } else if (b.kind == InputBinding::Kind::Expression && b.source_slot < 0 &&
               g.type != NodeType::StringSelector) {
      const auto& function = *program_->functions()[sites_[b.slot].function].source;
      if (exb::value_size(function.input_type) == 0 &&
          result_reads_as(function.output_type, static_cast<ParamType>(t))) {
        g.selector_source = GraphNode::SelectorSource::Expression;
        g.selector_at = b.slot;
      }
    }
  }
}

}  // namespace ainb::runtime
