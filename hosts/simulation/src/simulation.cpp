#include "ainb/simulation/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>
#include <type_traits>

#include <fmt/format.h>

#include "actor.hpp"
#include "ainb/exb/user_functions.hpp"
// The graph's structure as the scheduler runs it (stubs and their children), which the
// summary reports.
#include "ainb/runtime/graph_view.hpp"
#include "ainb/runtime/unhonoured.hpp"
#include "ainb/simulation/tracer.hpp"
#include "scripted.hpp"

namespace ainb::simulation {

namespace {

using runtime::CommandState;
using runtime::Instance;

// A value the summary keeps after its instance is gone: a string's text copied.
std::optional<Summary::StoredValue> stored(const Value& value) {
  return std::visit(
      [](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::string_view>) {
          return Summary::StoredValue(std::string(x));
        } else {
          return Summary::StoredValue(x);
        }
      },
      value);
}
using runtime::NodeContext;
using runtime::Result;

// What a scenario schedules that the run never reaches (a frame past its end; a node override
// at frame 0, which has no updates): a warning each, logged and in the summary.
void warn_unreached(const Scenario& s, std::uint64_t frames, std::vector<std::string>& warnings,
                    const runtime::LogSink* log) {
  auto warn = [&](const std::string& path, const std::string& why) {
    warnings.push_back(fmt::format("{}: {}: {}; it never applies", s.name, path, why));
    log_warning(log, runtime::LogKind::Scenario, s.name, path, warnings.back());
  };
  auto past = [&](std::uint64_t frame, const std::string& path) {
    if (frame > frames)
      warn(path, fmt::format("frame {} is past the run's {} frames", frame, frames));
  };
  // The paths stored end at the value or command; the frame is beside it.
  auto frame_of = [](const std::string& path) {
    return path.substr(0, path.rfind('/')) + "/frame";
  };
  for (const auto& set : s.blackboard)
    past(set.frame, frame_of(set.path));
  for (const auto& c : s.commands)
    past(c.frame, frame_of(c.path));
  for (const auto& force : s.force)
    past(force.frame, force.path + "/frame");
  for (const auto& at : s.at)
    past(at.behaviour.from, at.path + "/from");
  for (const auto& [cls, behaviour] : s.nodes) {
    past(behaviour.from, "/nodes/" + cls + "/from");
    for (std::size_t i = 0; i < behaviour.overrides.size(); ++i) {
      const auto path = fmt::format("/nodes/{}/frames/{}/frame", cls, i);
      if (behaviour.overrides[i].frame == 0) {
        warn(path, "frame 0 has no updates (frame 1 is the first tick)");
      }
      past(behaviour.overrides[i].frame, path);
    }
  }
}

// The scenario's user functions as constants of their signatures' return types.
void add_functions(const Scenario& s, exb::UserFunctions& functions) {
  for (const auto& [signature, json] : s.functions) {
    const auto at = fmt::format("{}: /functions/{}", s.name, signature);
    std::string error;
    const auto parsed = exb::parse_signature(signature, &error);
    if (!parsed) throw ScenarioError(fmt::format("{}: not a signature: {}", at, error));
    const auto bytes = function_result(json, parsed->result);
    if (!bytes) {
      throw ScenarioError(fmt::format(
          "{}: the function returns {}: expected {}", at, exb::data_type_name(parsed->result),
          expected(param_type_of(parsed->result).value_or(ParamType::Int),
                   parsed->result == exb::DataType::UInt)));
    }
    functions.add_constant(signature, *bytes);
  }
}

}  // namespace

Summary simulate(const std::filesystem::path& file, const Scenario& scenario,
                 const RunOptions& options, TraceSink* trace) {
  exb::UserFunctions functions;
  add_functions(scenario, functions);
  auto built = build_actor(
      file, options,
      [&](runtime::NodeRegistry& registry) {
        // A class per name the scenario scripts, by class or node by node.
        std::map<std::string, std::shared_ptr<ScriptedClass>> classes;
        auto class_named = [&](const std::string& cls) -> ScriptedClass& {
          auto& c = classes[cls];
          if (!c) {
            const auto it = scenario.nodes.find(cls);
            c = std::make_shared<ScriptedClass>(it == scenario.nodes.end() ? nullptr : &it->second,
                                                registry.stub_outputs, options.stub_children);
          }
          return *c;
        };
        for (const auto& [cls, behaviour] : scenario.nodes)
          class_named(cls);
        for (const auto& at : scenario.at)
          class_named(at.cls).add_node(at.file, at.node, at.behaviour);
        for (const auto& [cls, c] : classes)
          registry.add(cls, c);
      },
      functions);
  const auto& graph = built.graph;
  validate_scenario(scenario, *graph);

  const auto& commands = graph->model().commands;
  std::string command = !options.command.empty() ? options.command : scenario.command.value_or("");
  if (command.empty() && !commands.empty()) command = commands[0].name;
  if (!command.empty() && !graph->find_command(command)) {
    std::string known;
    for (const auto& c : commands)
      known += fmt::format("{}\"{}\"", known.empty() ? "" : ", ", c.name);
    throw NoSuchCommand(fmt::format("{} has no command \"{}\" ({})", file.string(), command,
                                    known.empty() ? "it has none" : "it has: " + known));
  }
  for (const auto& c : scenario.commands) {
    if (std::none_of(commands.begin(), commands.end(),
                     [&](const Command& k) { return k.name == c.command; })) {
      throw ScenarioError(fmt::format("{}: {}: {} has no command \"{}\"", scenario.name, c.path,
                                      graph->file_name(), c.command));
    }
  }

  Summary summary;
  summary.graph = graph;
  summary.warnings = std::move(built.warnings);
  summary.file = graph->file_name();
  summary.command = summary.started = command;
  {
    const auto graphs = actor_graphs(*graph);
    for (const auto* g : graphs) {
      const runtime::GraphView view(*g);
      for (std::uint32_t n = 0; n < view.node_count(); ++n)
        summary.stubs_with_children +=
            view.is_stub(n) && !view.children(n).empty() && !view.stub_child(n);
      const auto& m = g->model();
      for (const auto& p : runtime::unhonoured_properties(m)) {
        if (view.ends_with_first_child(p.node) && p.property == "ResultPolicy") continue;
        const auto label =
            fmt::format("{} #{} {}", g->file_name(), p.node, node_type_name(m.nodes[p.node].type));
        if (summary.not_honoured.empty() || summary.not_honoured.back().first != label)
          summary.not_honoured.emplace_back(label, runtime::describe(p));
        else
          summary.not_honoured.back().second += ", " + runtime::describe(p);
      }
    }
  }
  Tracer tracer(trace, summary);
  if (options.coverage) {
    summary.coverage = std::make_shared<Coverage>(*graph);
    tracer.coverage = summary.coverage.get();
  }
  {
    Instance actor(
        graph,
        {.seed = scenario.seed.value_or(options.seed), .observer = &tracer, .log = options.log});
    const auto frames = scenario.frames.value_or(options.frames);
    warn_unreached(scenario, frames, summary.warnings, options.log);
    const auto ticked =
        run_frames(actor, scenario, command, frames, scenario.restart.value_or(options.restart),
                   [&](std::uint64_t frame) { tracer.frame = frame; });
    summary.ended_frame = ticked.ended_frame;
    summary.restarts = ticked.restarts;
    if (actor.state() == CommandState::Running) summary.ended_frame = 0;  // a later command runs
    summary.frames = actor.frame();
    summary.command = std::string(actor.command());
    static constexpr const char* kStates[] = {"idle", "running", "succeeded", "failed", "faulted"};
    summary.state = kStates[static_cast<int>(actor.state())];
    if (const auto* fault = actor.fault()) summary.fault = fault->describe();
    for (const auto& e : graph->model().blackboard.entries) {
      const auto* v = actor.blackboard(e.name);
      summary.blackboard.emplace_back(std::string(e.name), v ? format_value(*v) : "?");
      summary.blackboard_values.emplace_back(std::string(e.name), v ? stored(*v) : std::nullopt);
    }
  }  // the actor leaves its nodes: traced too
  tracer.finish_summary();
  if (trace != nullptr) trace->finish();
  return summary;
}

void print_summary(const Summary& s, std::ostream& out) {
  // "succeeded in frame 3 of 600": when the command ended, not only how long the run was.
  auto when = s.ended_frame != 0 ? fmt::format("in frame {} of {}", s.ended_frame, s.frames)
                                 : fmt::format("after {} frames", s.frames);
  if (s.restarts != 0)
    when += fmt::format(" (started again {} time{})", s.restarts, s.restarts == 1 ? "" : "s");
  out << fmt::format("summary: {}, command {}: {} {}, {} node update{}\n", s.file,
                     s.command.empty() ? "(none)" : s.command, s.state, when, s.visits,
                     s.visits == 1 ? "" : "s");
  if (s.stubs_with_children != 0) {
    out << fmt::format(
        "note: {} stub node{} with child plugs ran none of them (--stub-children runs each one's "
        "first, a scenario's \"child\" names one)\n",
        s.stubs_with_children, s.stubs_with_children == 1 ? "" : "s");
  }
  out << "updates by class:\n";
  for (const auto& [cls, count] : s.updates_by_class)
    out << fmt::format("  {:<40} {}\n", cls, count);
  out << "last results:\n";
  for (const auto& [node, result] : s.last_results)
    out << fmt::format("  {:<56} {}\n", node, result);
  if (!s.blackboard.empty()) {
    out << "blackboard at the end:\n";
    for (const auto& [name, value] : s.blackboard)
      out << fmt::format("  {:<40} {}\n", name, value);
  }
  print_not_honoured(s.not_honoured, out);
}

void print_not_honoured(const std::vector<std::pair<std::string, std::string>>& nodes,
                        std::ostream& out) {
  if (nodes.empty()) return;
  out << fmt::format("not honoured, the run behaves as for 0 or false ({}):\n",
                     runtime::kUnhonouredDoc);
  for (const auto& [node, properties] : nodes)
    out << fmt::format("  {}: {}\n", node, properties);
}

}  // namespace ainb::simulation
