#include "ainb/simulation/regress.hpp"

#include <ostream>
#include <set>

#include <fmt/format.h>

#include "edits.hpp"
#include "misfit.hpp"

namespace ainb::simulation {

namespace {

// An event as a line; `node` names its node when given (an edited run's node by its original
// number).
std::string describe(const TraceEvent& e, const std::string& node = "") {
  std::string s = fmt::format("frame {} {}", e.frame, e.event);
  if (e.node >= 0)
    s += fmt::format(" {} {}", node.empty() ? fmt::format("#{}", e.node) : node, e.type);
  if (!e.result.empty()) s += " -> " + e.result;
  if (e.to >= 0) s += fmt::format(" -> #{}", e.to);
  if (!e.detail.empty()) s += ": " + e.detail;
  return s + fmt::format(" [{}]", e.file);
}

// Reads the edited run's node numbers as the original's, file by file (the top-level file's
// pairing under the original's name, the modules' under theirs).
struct EventMatcher {
  const std::string& top_a;
  const std::string& top_b;
  const NodePairings* pairings;

  // The pairing of a file, by its name in the original run (none: compared by index).
  const NodePairing* pairing(const std::string& original_file) const {
    if (pairings == nullptr) return nullptr;
    const auto found = pairings->find(original_file);
    return found == pairings->end() ? nullptr : &found->second;
  }
  // The pairing of the file an edited run's event is in.
  const NodePairing* pairing_of(const TraceEvent& b) const {
    return pairing(b.file == top_b ? top_a : b.file);
  }
  std::int64_t original(const TraceEvent& b, std::int64_t node) const {
    const auto* p = pairing_of(b);
    return p == nullptr || node < 0 ? node : p->original(node);
  }
  // Original node `a_node` and edited node `b_node` are the same node: paired, or (a node copied
  // with its GUID, where the pairing can only guess which is the copy) of one GUID.
  bool same_node(const TraceEvent& b, std::int64_t a_node, std::int64_t b_node) const {
    if (a_node == original(b, b_node)) return true;
    const auto* p = pairing_of(b);
    return p != nullptr && p->same_guid(a_node, b_node);
  }
  // Original node `node` of the original run's event `a` has no partner in the edited file.
  bool deleted(const TraceEvent& a, std::int64_t node) const {
    const auto* p = pairing(a.file);
    return p != nullptr && node >= 0 && static_cast<std::size_t>(node) < p->edited_of.size() &&
           p->edited_of[static_cast<std::size_t>(node)] < 0;
  }
  // Events are the same when everything but the top-level file's name agrees (an edited copy
  // may be saved under another name), nodes compared as paired.
  bool same(const TraceEvent& a, const TraceEvent& b) const {
    const bool files = (a.file == top_a && b.file == top_b) || a.file == b.file;
    return files && a.frame == b.frame && a.event == b.event && same_node(b, a.node, b.node) &&
           a.type == b.type && a.result == b.result && same_node(b, a.to, b.to) &&
           a.detail == b.detail;
  }
};

// A short reason for the first difference, in the modder's terms.
std::string explain(const std::optional<TraceEvent>& a, const std::optional<TraceEvent>& b,
                    const EventMatcher& match, const RunLabels& labels) {
  const auto& o = labels.original;
  const auto& e = labels.edited;
  if (!a) return fmt::format("{} does more: its run has events where {}'s ended", e, o);
  if (!b) return fmt::format("{} does less: its run ends where {}'s goes on", e, o);
  const auto b_node = match.original(*b, b->node);
  const auto edited_node = [&] {
    if (b_node < 0 && b->node >= 0) return fmt::format("#{} (a node new in {})", b->node, e);
    return b_node == b->node ? fmt::format("#{}", b->node)
                             : fmt::format("#{} (#{} in {})", b_node, b->node, e);
  };
  auto same_step = *b;
  same_step.frame = a->frame;
  if (a->frame != b->frame && match.same(*a, same_step)) {
    return fmt::format(
        "the same step happens at frame {} in {} and at frame {} in {} (timing changed)", a->frame,
        o, b->frame, e);
  }
  if (a->event == b->event && a->node == b_node && a->type != b->type) {
    return fmt::format("node #{} is {} in {} and {} in {}", a->node, a->type, o, b->type, e);
  }
  if (a->event == "update" && b->event == "update" && a->node == b_node) {
    return fmt::format("node #{} ({}) returned {} in {} and {} in {}", a->node, a->type, a->result,
                       o, b->result, e);
  }
  if (a->event == "enter" && b->event == "enter") {
    if (match.deleted(*a, a->node)) {
      return fmt::format(
          "node #{} {}, entered in {}, is not in {} (deleted): {} {} was entered "
          "instead",
          a->node, a->type, o, e, edited_node(), b->type);
    }
    return fmt::format(
        "a different node was entered: #{} {} in {}, {} {} in {} (a different child was chosen "
        "or linked)",
        a->node, a->type, o, edited_node(), b->type, e);
  }
  if (a->event == b->event && a->event == "blackboard") {
    return fmt::format("a different blackboard write: {} in {}, {} in {}", a->detail, o, b->detail,
                       e);
  }
  if (a->event == "transition" || b->event == "transition") {
    return "a different transition (active node update) was taken";
  }
  return fmt::format("{} does \"{}\" where {} does \"{}\"", o, describe(*a), e,
                     describe(*b, b->node >= 0 ? edited_node() : ""));
}

// The nodes a run entered, by file (the top-level file and each module).
using Entered = std::map<std::string, std::set<std::int64_t>>;
void mark_entered(const std::vector<TraceEvent>& events, Entered& entered) {
  for (const auto& e : events) {
    if (e.event == "enter" && e.node >= 0) entered[e.file].insert(e.node);
  }
}

// The edits of one file the traces could not see (they agree), each with why: on a node some
// run entered (its class ignored the change, as a stub does, or the runs were too short), on
// one no run reached (nothing tested it), or of the file as a whole. `module` names a module
// file ("" for the top-level file).
// What regress says of an edit the traces could not see; `a` and `b` are the edit's file in the
// original and the edited actor, `entered` the original's nodes the runs entered there.
std::string edit_note(const Edit& edit, const Model& a, const Model& b,
                      const std::set<std::int64_t>& entered, bool in_module) {
  const auto where = in_module ? "module " + edit.file + ", " : std::string();
  if (edit.original_node < 0 && edit.edited_node < 0) {
    return fmt::format(
        "{}{}; the traces agree: the runs did not depend on it, or not in a way their trace shows",
        where, edit.what);
  }
  const bool ran = entered.contains(edit.original_node);
  std::string node;
  if (edit.original_node < 0) {
    node = fmt::format("node #{} of the edited file ({})", edit.edited_node,
                       node_class_name(b.nodes[static_cast<std::size_t>(edit.edited_node)]));
  } else {
    const auto i = static_cast<std::size_t>(edit.original_node);
    node = edit.edited_node >= 0 && edit.edited_node != edit.original_node
               ? fmt::format("node #{} (#{} in the edited file, {})", i, edit.edited_node,
                             node_class_name(a.nodes[i]))
               : fmt::format("node #{} ({})", i, node_class_name(a.nodes[i]));
  }
  return fmt::format(
      "{}{}: {}; {}", where, node, edit.what,
      ran ? "the node ran and the traces agree: its class ignores the change (as a stub does), "
            "or these runs did not last or reach far enough for it to show"
          : "no run entered this node, so nothing tested the edit (a scenario that reaches it "
            "would)");
}

}  // namespace

NodePairings pair_files(const runtime::Graph& original, const runtime::Graph& edited) {
  NodePairings pairings;
  pairings.emplace(original.file_name(), pair_nodes(original.model(), edited.model()));
  const auto files_a = actor_files(original), files_b = actor_files(edited);
  for (const auto& [name, model] : files_a) {
    const auto other = files_b.find(name);
    if (name != original.file_name() && other != files_b.end())
      pairings.emplace(name, pair_nodes(*model, *other->second));
  }
  return pairings;
}

std::vector<Edit> actor_edits(const runtime::Graph& original, const runtime::Graph& edited,
                              const NodePairings& pairings) {
  std::vector<Edit> edits;
  const auto add = [&](const std::string& name, const Model& a, const Model& b) {
    const auto pairing = pairings.find(name);
    if (pairing == pairings.end()) return;
    for (auto& edit : edits_between(a, b, pairing->second)) {
      edit.file = name;
      edits.push_back(std::move(edit));
    }
  };
  add(original.file_name(), original.model(), edited.model());
  const auto edited_files = actor_files(edited);
  for (const auto& [name, model] : actor_files(original)) {
    const auto other = edited_files.find(name);
    if (name != original.file_name() && other != edited_files.end())
      add(name, *model, *other->second);
  }
  return edits;
}

namespace {

// Each pair: the scenario the original runs, the one the edited file runs.
using ScenarioPairs = std::vector<std::pair<Scenario, Scenario>>;

RegressResult regress_pairs(const std::filesystem::path& original,
                            const std::filesystem::path& edited, const ScenarioPairs& runs,
                            const RunOptions& options, RegressRuns* kept, const RunLabels& labels) {
  RegressResult result;
  Entered entered;
  std::shared_ptr<const runtime::Graph> original_graph, edited_graph;
  NodePairings pairings;
  for (const auto& run_pair : runs) {
    // Named references, not structured bindings: clang 14's lambdas cannot capture those.
    const Scenario& scenario = run_pair.first;
    const Scenario& edited_scenario = run_pair.second;
    TraceCollector a(options.max_held_events), b(options.max_held_events);
    // Which side an error is of: both files often have the same internal name.
    auto with_side = [](const char* side, const std::filesystem::path& file, auto&& f) {
      try {
        f();
      } catch (const std::exception& e) {
        throw std::runtime_error(fmt::format("{} ({}): {}", side, file.string(), e.what()));
      }
    };
    auto run = [](const std::filesystem::path& file, const Scenario& played, const RunOptions& o,
                  TraceCollector& trace) {
      auto summary = simulate(file, played, o, &trace);
      if (!summary.fault.empty())
        throw std::runtime_error("the run stopped on a fault: " + summary.fault);
      return summary;
    };
    Summary sa, sb;
    with_side("original", original, [&] { sa = run(original, scenario, options, a); });
    // The edited file runs the command the original started, by name: its first command may be
    // another one.
    auto edited_options = options;
    edited_options.command = sa.started;
    std::optional<std::string> does_not_fit;
    with_side("edited", edited, [&] {
      does_not_fit = misfit([&] { sb = run(edited, edited_scenario, edited_options, b); });
    });
    // The runs a look at them shows: this scenario's, until a later one's replace them.
    const auto keep = [&] {
      if (kept == nullptr) return;
      *kept = {.scenario = scenario.name,
               .edited_scenario = edited_scenario.name,
               .original = std::move(sa),
               .edited = std::move(sb),
               .original_events = std::move(a.events),
               .edited_events = std::move(b.events)};
    };
    if (does_not_fit) {
      keep();
      // What the scenario or the command names, which the original has, is gone: a difference.
      Difference d;
      d.scenario = scenario.name;
      d.explanation = labels.edited + " does not fit this run: " + *does_not_fit;
      result.difference = std::move(d);
      ++result.scenarios;
      return result;
    }
    original_graph = sa.graph;
    edited_graph = sb.graph;
    result.not_honoured = sb.not_honoured;
    pairings = pair_files(*original_graph, *edited_graph);
    ++result.scenarios;
    if (auto d = first_difference(a.events, b.events, sa.file, sb.file, &pairings, labels)) {
      d->scenario = scenario.name;
      result.events += d->index;
      result.difference = std::move(d);
      keep();
      return result;
    }
    result.events += a.events.size();
    mark_entered(a.events, entered);
    keep();
  }
  // Edits the runs could not see: in the file, then in each module both sides loaded (an edit
  // of a module file counts as much as one of the file).
  const auto top = original_graph->file_name();
  auto original_files = actor_files(*original_graph), edited_files = actor_files(*edited_graph);
  // The edited top file may call itself otherwise; edits name it by the original's name.
  edited_files[top] = &edited_graph->model();
  for (const auto& edit : actor_edits(*original_graph, *edited_graph, pairings)) {
    result.notes.push_back(edit_note(edit, *original_files.at(edit.file),
                                     *edited_files.at(edit.file), entered[edit.file],
                                     edit.file != top));
  }
  return result;
}

}  // namespace

RegressResult regress(const std::filesystem::path& original, const std::filesystem::path& edited,
                      const std::vector<Scenario>& scenarios, const RunOptions& options,
                      RegressRuns* kept) {
  ScenarioPairs runs;
  for (const auto& s : scenarios)
    runs.emplace_back(s, s);
  if (runs.empty()) {
    Scenario none;
    none.name = "(no scenario)";
    runs.emplace_back(none, none);
  }
  return regress_pairs(original, edited, runs, options, kept, {});
}

RegressResult regress_scenarios(const std::filesystem::path& original,
                                const std::filesystem::path& edited, const Scenario& first,
                                const Scenario& second, const RunOptions& options,
                                RegressRuns* kept) {
  return regress_pairs(
      original, edited, {{first, second}}, options, kept,
      {.original = "the run of " + first.name, .edited = "the run of " + second.name});
}

std::optional<Difference> first_difference(const std::vector<TraceEvent>& a,
                                           const std::vector<TraceEvent>& b,
                                           const std::string& file_a, const std::string& file_b,
                                           const NodePairings* pairings, const RunLabels& labels) {
  const EventMatcher match{file_a, file_b, pairings};
  const auto n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const bool has_a = i < a.size(), has_b = i < b.size();
    if (has_a && has_b && match.same(a[i], b[i])) continue;
    Difference d;
    d.index = i;
    for (std::size_t k = i >= 5 ? i - 5 : 0; k < i; ++k)
      d.context.push_back(a[k]);
    if (has_a) d.original = a[i];
    if (has_b) d.edited = b[i];
    d.explanation = explain(d.original, d.edited, match, labels);
    return d;
  }
  return std::nullopt;
}

void print_regress(const RegressResult& r, std::ostream& out) {
  if (!r.difference) {
    out << fmt::format("equal: {} events agree under {} scenario(s)\n", r.events, r.scenarios);
    for (const auto& note : r.notes)
      out << "note: " << note << '\n';
  } else {
    print_difference(*r.difference, out);
  }
  print_not_honoured(r.not_honoured, out);
}

void print_difference(const Difference& d, std::ostream& out, std::string_view original,
                      std::string_view edited) {
  if (!d.original && !d.edited) {  // the edited file could not run what the original ran
    out << fmt::format("different: scenario {}, before the first event\n  {}\n", d.scenario,
                       d.explanation);
    return;
  }
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
