#include "ainb/simulation/regress.hpp"

#include <ostream>
#include <set>

#include <fmt/format.h>

namespace ainb::simulation {

namespace {

std::string describe(const TraceEvent& e) {
  std::string s = fmt::format("frame {} {}", e.frame, e.event);
  if (e.node >= 0) s += fmt::format(" #{} {}", e.node, e.type);
  if (!e.result.empty()) s += " -> " + e.result;
  if (e.to >= 0) s += fmt::format(" -> #{}", e.to);
  if (!e.detail.empty()) s += ": " + e.detail;
  return s + fmt::format(" [{}]", e.file);
}

// Events are the same when everything but the top-level file's name agrees (an edited copy may
// be saved under another name).
bool same(const TraceEvent& a, const TraceEvent& b, const std::string& top_a,
          const std::string& top_b) {
  const bool files = (a.file == top_a && b.file == top_b) || a.file == b.file;
  return files && a.frame == b.frame && a.event == b.event && a.node == b.node &&
         a.type == b.type && a.result == b.result && a.to == b.to && a.detail == b.detail;
}

// A short reason for the first difference, in the modder's terms.
std::string explain(const std::optional<TraceEvent>& a, const std::optional<TraceEvent>& b) {
  if (!a) return "the edited file does more: its run has events where the original's ended";
  if (!b) return "the edited file does less: its run ends where the original's goes on";
  if (a->frame != b->frame) {
    return fmt::format(
        "the same step happens at frame {} in the original and at frame {} in the "
        "edited file (timing changed)",
        a->frame, b->frame);
  }
  if (a->event == b->event && a->node == b->node && a->type != b->type) {
    return fmt::format("node #{} is {} in the original and {} in the edited file", a->node, a->type,
                       b->type);
  }
  if (a->event == "update" && b->event == "update" && a->node == b->node) {
    return fmt::format("node #{} ({}) returned {} in the original and {} in the edited file",
                       a->node, a->type, a->result, b->result);
  }
  if (a->event == "enter" && b->event == "enter") {
    return fmt::format(
        "a different node was entered: #{} {} in the original, #{} {} in the "
        "edited file (a different child was chosen or linked)",
        a->node, a->type, b->node, b->type);
  }
  if (a->event == b->event && a->event == "blackboard") {
    return fmt::format("a different blackboard write: {} in the original, {} in the edited file",
                       a->detail, b->detail);
  }
  if (a->event == "transition" || b->event == "transition") {
    return "a different transition (active node update) was taken";
  }
  return fmt::format("the original does \"{}\" where the edited file does \"{}\"", describe(*a),
                     describe(*b));
}

std::string value_text(const Value& value) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Vec3f>) {
          return fmt::format("[{}, {}, {}]", x.x, x.y, x.z);
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return "pointer";
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else {
          return fmt::format("{}", x);
        }
      },
      value);
}

// The nodes a run entered, by file (the top-level file and each module).
using Entered = std::map<std::string, std::set<std::int64_t>>;
void mark_entered(const std::vector<TraceEvent>& events, Entered& entered) {
  for (const auto& e : events) {
    if (e.event == "enter" && e.node >= 0) entered[e.file].insert(e.node);
  }
}

// Every file of the actor by name: the root and the modules it loaded.
std::map<std::string, const Model*> files_of(const runtime::Graph& graph) {
  std::map<std::string, const Model*> files;
  std::vector<const runtime::Graph*> pending{&graph};
  while (!pending.empty()) {
    const auto* g = pending.back();
    pending.pop_back();
    if (!files.emplace(g->file_name(), &g->model()).second) continue;
    for (const auto& call : g->module_calls())
      pending.push_back(call.graph.get());
  }
  return files;
}

// Stored values of properties and inputs that differ, when the traces agree: on a node some run
// entered (the stub or scripted class ignored the value), or on one no run reached (the edit
// went untested).
// `module` names a module file ("" for the top-level file), whose notes say which file they are in.
void value_notes(const Model& a, const Model& b, const std::set<std::int64_t>& entered,
                 const std::string& module, std::vector<std::string>& notes) {
  auto note = [&](std::size_t i, std::string_view what, std::string_view name, const Value& x,
                  const Value& y) {
    const auto& n = a.nodes[i];
    notes.push_back(fmt::format(
        "{}node #{} ({}): {} {} is {} in the original and {} in the edited file; {}",
        module.empty() ? "" : "module " + module + ", ", i,
        n.name.empty() ? node_type_name(n.type) : n.name, what, name, value_text(x), value_text(y),
        entered.contains(static_cast<std::int64_t>(i))
            ? "the node ran and the traces agree: its class ignores the value (as a stub does), "
              "or these runs did not last or reach far enough for it to show"
            : "no run entered this node, so nothing tested the edit (a scenario that reaches it "
              "would)"));
  };
  for (std::size_t i = 0; i < a.nodes.size() && i < b.nodes.size(); ++i) {
    if (a.nodes[i].name != b.nodes[i].name) continue;
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      for (const auto& p : a.properties_of(a.nodes[i], type)) {
        for (const auto& q : b.properties_of(b.nodes[i], type)) {
          if (p.name == q.name && value_text(p.value) != value_text(q.value)) {
            note(i, "property", p.name, p.value, q.value);
          }
        }
      }
      for (const auto& p : a.inputs_of(a.nodes[i], type)) {
        for (const auto& q : b.inputs_of(b.nodes[i], type)) {
          if (p.name == q.name && value_text(p.default_value) != value_text(q.default_value)) {
            note(i, "input", p.name, p.default_value, q.default_value);
          }
        }
      }
    }
  }
}

}  // namespace

RegressResult regress(const std::filesystem::path& original, const std::filesystem::path& edited,
                      const std::vector<Scenario>& scenarios, const RunOptions& options) {
  RegressResult result;
  std::vector<Scenario> runs = scenarios;
  if (runs.empty()) {
    runs.emplace_back();
    runs.back().name = "(no scenario)";
  }
  Entered entered;
  std::shared_ptr<const runtime::Graph> original_graph, edited_graph;
  for (const auto& scenario : runs) {
    TraceCollector a(options.max_held_events), b(options.max_held_events);
    // Which side an error is of: both files often have the same internal name.
    auto run = [&](const char* side, const std::filesystem::path& file, TraceCollector& trace) {
      try {
        auto summary = simulate(file, scenario, options, &trace);
        if (!summary.fault.empty())
          throw std::runtime_error("the run stopped on a fault: " + summary.fault);
        return summary;
      } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("{} ({}): {}", side, file.string(), e.what()));
      }
    };
    const auto sa = run("original", original, a);
    const auto sb = run("edited", edited, b);
    original_graph = sa.graph;
    edited_graph = sb.graph;
    ++result.scenarios;
    if (auto d = first_difference(a.events, b.events, sa.file, sb.file)) {
      d->scenario = scenario.name;
      result.events += d->index;
      result.difference = std::move(d);
      return result;
    }
    result.events += a.events.size();
    mark_entered(a.events, entered);
  }
  // Edited values the runs could not see: in the file, then in each module both sides loaded
  // (an edit of a module file counts as much as one of the file).
  const auto original_files = files_of(*original_graph), edited_files = files_of(*edited_graph);
  const auto top = original_graph->file_name();
  value_notes(original_graph->model(), edited_graph->model(), entered[top], "", result.notes);
  for (const auto& [name, model] : original_files) {
    const auto other = edited_files.find(name);
    if (name == top || other == edited_files.end()) continue;
    value_notes(*model, *other->second, entered[name], name, result.notes);
  }
  return result;
}

std::optional<Difference> first_difference(const std::vector<TraceEvent>& a,
                                           const std::vector<TraceEvent>& b,
                                           const std::string& file_a, const std::string& file_b) {
  const auto n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const bool has_a = i < a.size(), has_b = i < b.size();
    if (has_a && has_b && same(a[i], b[i], file_a, file_b)) continue;
    Difference d;
    d.index = i;
    for (std::size_t k = i >= 5 ? i - 5 : 0; k < i; ++k)
      d.context.push_back(a[k]);
    if (has_a) d.original = a[i];
    if (has_b) d.edited = b[i];
    d.explanation = explain(d.original, d.edited);
    return d;
  }
  return std::nullopt;
}

void print_regress(const RegressResult& r, std::ostream& out) {
  if (!r.difference) {
    out << fmt::format("equal: {} events agree under {} scenario(s)\n", r.events, r.scenarios);
    for (const auto& note : r.notes)
      out << "note: " << note << '\n';
    return;
  }
  print_difference(*r.difference, out);
}

void print_difference(const Difference& d, std::ostream& out, std::string_view original,
                      std::string_view edited) {
  out << fmt::format("different: scenario {}, event {}, frame {}\n", d.scenario, d.index,
                     d.original ? d.original->frame : d.edited->frame);
  out << fmt::format("  {}\n", d.explanation);
  const auto width = std::max(original.size(), edited.size()) + 1;
  for (const auto& e : d.context)
    out << fmt::format("    {:<{}} {}\n", "both:", width, describe(e));
  out << fmt::format("  > {:<{}} {}\n", std::string(original) + ":", width,
                     d.original ? describe(*d.original) : "(no more events)");
  out << fmt::format("  > {:<{}} {}\n", std::string(edited) + ":", width,
                     d.edited ? describe(*d.edited) : "(no more events)");
}

}  // namespace ainb::simulation
