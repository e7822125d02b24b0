#include "ainb/simulation/tracer.hpp"

#include <algorithm>

#include <fmt/format.h>

// The graph's structure as the scheduler runs it (children after replacement, queries), which
// places each event in the text trace's nesting.
#include "ainb/runtime/graph_view.hpp"
#include "ainb/runtime/instance.hpp"

namespace ainb::simulation {

using runtime::Instance;
using runtime::Result;

std::string format_value(const Value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          return fmt::format("\"{}\"", x);
        } else if constexpr (std::is_same_v<T, Vec3f>) {
          return fmt::format("[{}, {}, {}]", x.x, x.y, x.z);
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return "null";
        } else {
          return fmt::format("{}", x);
        }
      },
      v);
}

void Tracer::on_command(const Instance& i, std::string_view name) {
  if (coverage != nullptr) coverage->commanded(i.graph(), name);
  if (sink_ == nullptr) return;
  auto e = event(i, "command");
  e.detail = name;
  send(e);
}

void Tracer::on_enter(const Instance& i, std::uint32_t node) {
  if (coverage != nullptr) coverage->entered(i.graph(), node);
  if (sink_ == nullptr) return;
  placed_[{&i, node}] = Placed{.depth = expected_depth(i, node, 0), .order = ++entered_};
  send(event(i, "enter", node));
}

void Tracer::on_update(const Instance& i, std::uint32_t node, Result result) {
  ++summary_.visits;
  auto& counted = updates_[{&i.graph(), node}];
  ++counted.updates;
  counted.last = result;
  if (sink_ == nullptr) return;
  auto e = event(i, "update", node);
  e.result = runtime::result_name(result);
  send(e);
  if (!sink_->takes_outputs()) return;
  const auto& model = i.graph().model();
  std::vector<std::pair<std::string_view, std::string>> values;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    const auto outputs = model.outputs_of(model.nodes[node], type);
    for (std::uint32_t k = 0; k < outputs.size(); ++k)
      values.emplace_back(outputs[k].name, format_value(i.output_value(node, type, k)));
  }
  if (!values.empty()) sink_->outputs(e, values);
}

void Tracer::finish_summary() {
  std::map<std::pair<std::string_view, std::uint32_t>, std::pair<std::string, Result>> ordered;
  for (const auto& [key, counted] : updates_) {
    const auto& [graph, node] = key;
    const std::string type(node_class_name(graph->model().nodes[node]));
    summary_.updates_by_class[type] += counted.updates;
    ordered[{graph->file_name(), node}] = {fmt::format("{} #{} {}", graph->file_name(), node, type),
                                           counted.last};
  }
  for (const auto& [key, last] : ordered)
    summary_.last_results.emplace_back(last.first, runtime::result_name(last.second));
}

void Tracer::on_leave(const Instance& i, std::uint32_t node) {
  if (sink_ == nullptr) return;
  send(event(i, "leave", node));
  if (const auto it = placed_.find({&i, node}); it != placed_.end()) it->second.open = false;
}

void Tracer::on_transition(const Instance& i, std::uint32_t from, std::uint32_t to) {
  if (coverage != nullptr) coverage->transitioned(i.graph(), from, to);
  if (sink_ == nullptr) return;
  auto e = event(i, "transition", from);
  e.to = to;
  send(e);
}

void Tracer::on_branch(const Instance& i, std::uint32_t node, std::uint32_t plug) {
  if (coverage != nullptr) coverage->branched(i.graph(), node, plug);
}

void Tracer::on_alert(const Instance& i, std::uint32_t node, std::string_view message) {
  const auto file = i.graph().file_name();
  const auto said = std::find_if(summary_.alerts.begin(), summary_.alerts.end(), [&](auto& a) {
    return a.node == node && a.file == file && a.message == message;
  });
  if (said != summary_.alerts.end()) {
    ++said->count;
  } else {
    summary_.alerts.push_back({std::string(file), node, std::string(message), frame, 1});
  }
  if (sink_ == nullptr) return;
  auto e = event(i, "alert", node);
  e.detail = message;
  send(e);
}

void Tracer::on_xlink(const Instance& i, std::uint32_t node, std::string_view slot,
                      std::string_view action) {
  if (sink_ == nullptr) return;
  auto e = event(i, "xlink", node);
  e.detail = fmt::format("{}={}", slot, action);
  send(e);
}

void Tracer::on_blackboard(const Instance& i, std::size_t entry) {
  if (sink_ == nullptr) return;
  const auto& bb = i.graph().model().blackboard.entries[entry];
  const auto* v = i.blackboard(bb.name);
  auto e = event(i, "blackboard");
  e.detail = fmt::format("{}={}", bb.name, v ? format_value(*v) : "?");
  send(e);
}

// Nesting of an instance: its module node's depth in the caller, plus one.
std::uint32_t Tracer::depth(const Instance& i) {
  if (i.parent() == nullptr) return 0;
  const auto it = placed_.find({i.parent(), i.caller_node()});
  return it == placed_.end() ? 0 : it->second.depth + 1;
}

// The text trace nests a node under the node that entered it, not under whatever was entered
// last: a Simultaneous's children are siblings although all are open at once. The observer is
// not told who entered a node, so the graph says:
// - a node goes one deeper than its parent (a node with a child plug to it) that is open and
//   was entered last;
// - a query one deeper than its user: the open one entered last, else (a query is entered
//   just before the node that needs it) where its first user would go;
// - anything else (a command's root, a transition's target, a Logic root) at its instance's
//   depth.
// `hops` bounds the walk through users (graphs refuse cycles of plugs and of queries, not
// of both mixed).
std::uint32_t Tracer::expected_depth(const Instance& i, std::uint32_t node, int hops) {
  constexpr int kMaxHops = 64;
  if (const auto it = placed_.find({&i, node}); it != placed_.end() && it->second.open)
    return it->second.depth;
  const auto& links = links_of(i.graph());
  if (const auto* parent = latest_open(i, links.parents[node])) return parent->depth + 1;
  if (const auto* user = latest_open(i, links.users[node])) return user->depth + 1;
  if (hops < kMaxHops && !links.users[node].empty())
    return expected_depth(i, links.users[node].front(), hops + 1) + 1;
  return depth(i);
}

const Tracer::Placed* Tracer::latest_open(const Instance& i,
                                          std::span<const std::uint32_t> nodes) const {
  const Placed* latest = nullptr;
  for (const auto n : nodes) {
    const auto it = placed_.find({&i, n});
    if (it != placed_.end() && it->second.open &&
        (latest == nullptr || it->second.order > latest->order))
      latest = &it->second;
  }
  return latest;
}

const Tracer::Links& Tracer::links_of(const runtime::Graph& graph) {
  auto [it, added] = links_.try_emplace(&graph);
  if (added) {
    const runtime::GraphView view(graph);
    const auto count = view.node_count();
    it->second.parents.resize(count);
    it->second.users.resize(count);
    for (std::uint32_t n = 0; n < count; ++n) {
      for (const auto child : view.children(n)) {
        if (child != view.kNoChild) it->second.parents[child].push_back(n);
      }
      for (const auto query : view.queries(n))
        it->second.users[query].push_back(n);
    }
  }
  return it->second;
}

// The fields every event has; the callers add their own.
TraceEvent Tracer::event(const Instance& i, const char* kind, std::int64_t node) {
  TraceEvent e;
  e.frame = frame;
  e.event = kind;
  e.file = i.graph().file_name();
  e.node = node;
  e.depth = depth(i);
  e.instance =
      instances_.try_emplace(&i, static_cast<std::uint32_t>(instances_.size())).first->second;
  if (node >= 0) {
    const auto n = static_cast<std::uint32_t>(node);
    const auto& mn = i.graph().model().nodes[n];
    e.type = node_class_name(mn);
    if (mn.type == NodeType::UserDefined) e.name = mn.name;
    if (const auto it = placed_.find({&i, n}); it != placed_.end()) e.depth = it->second.depth;
  }
  return e;
}

}  // namespace ainb::simulation
