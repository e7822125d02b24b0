#include "ainb/simulation/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>

#include <fmt/format.h>

#include "ainb/exb/user_functions.hpp"
// The graph's structure as the scheduler runs it (stubs and their children), which the
// summary reports.
#include "actor.hpp"
#include "ainb/runtime/detail/graph_arrays.hpp"
#include "ainb/runtime/unhonoured.hpp"
#include "ainb/simulation/tracer.hpp"
#include "scripted.hpp"

namespace ainb::simulation {

namespace {

using runtime::CommandState;
using runtime::Instance;
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
  for (const auto& [cls, behaviour] : s.nodes) {
    for (std::size_t i = 0; i < behaviour.overrides.size(); ++i) {
      const auto path = fmt::format("/nodes/{}/frames/{}/frame", cls, i);
      if (behaviour.overrides[i].frame == 0) {
        warn(path, "frame 0 has no updates (frame 1 is the first tick)");
      }
      past(behaviour.overrides[i].frame, path);
    }
  }
}

// Checks what the scenario names against the files, so a typo fails before the run.
void validate(const Scenario& s, const runtime::Graph& graph) {
  const auto& m = graph.model();
  for (const auto& set : s.blackboard) {
    const BlackboardEntry* found = nullptr;
    for (const auto& e : m.blackboard.entries) {
      if (e.name == set.entry) found = &e;
    }
    if (found == nullptr) {
      const auto name_path = set.path.substr(0, set.path.rfind('/')) + "/name";
      throw ScenarioError(fmt::format("{}: {}: {} has no blackboard entry \"{}\"", s.name,
                                      name_path, graph.file_name(), set.entry));
    }
    const auto type = param_type_of(found->type);
    const bool u32 = found->type == BlackboardType::U32;
    if (!json_value(set.value, type, u32)) {
      throw ScenarioError(fmt::format("{}: {}: \"{}\" is a {} entry: expected {}", s.name, set.path,
                                      set.entry, blackboard_type_name(found->type),
                                      expected(type, u32)));
    }
  }
  if (s.command && !s.command->empty() && !graph.find_command(*s.command)) {
    std::string names;
    for (const auto& c : m.commands)
      names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", c.name);
    throw ScenarioError(fmt::format("{}: /command: {} has no command \"{}\" ({})", s.name,
                                    graph.file_name(), *s.command,
                                    names.empty() ? "it has none" : "it has: " + names));
  }
  const auto graphs = actor_graphs(graph);
  // Every class the scenario scripts is a user class some node of the actor's files has.
  for (const auto& [cls, behaviour] : s.nodes) {
    bool user = false, built_in = false;
    for (const auto* g : graphs) {
      for (const auto& n : g->model().nodes) {
        if (n.type == NodeType::UserDefined && n.name == cls) user = true;
        if (n.type != NodeType::UserDefined && node_type_name(n.type) == cls) built_in = true;
      }
    }
    if (user) continue;
    throw ScenarioError(
        built_in ? fmt::format("{}: /nodes/{}: a built-in node type; a scenario scripts user "
                               "classes only",
                               s.name, cls)
                 : fmt::format("{}: /nodes/{}: no node of {} or its modules has this class", s.name,
                               cls, graph.file_name()));
  }
  // Every function it answers for is one the expressions call, spelt as they spell it.
  for (const auto& [signature, value] : s.functions) {
    std::vector<std::string_view> called;
    for (const auto* g : graphs) {
      if (!g->model().expressions) continue;
      for (const auto sig : g->model().expressions->signatures) {
        if (std::find(called.begin(), called.end(), sig) == called.end()) called.push_back(sig);
      }
    }
    if (std::find(called.begin(), called.end(), signature) != called.end()) continue;
    std::string list;
    for (const auto sig : called)
      list += fmt::format("{}\"{}\"", list.empty() ? "" : ", ", sig);
    throw ScenarioError(fmt::format(
        "{}: /functions/{}: no expression of {} or its modules calls it ({})", s.name, signature,
        graph.file_name(), list.empty() ? "they call no user function" : "they call: " + list));
  }
  for (const auto& [cls, behaviour] : s.nodes) {
    auto check = [&](const std::map<std::string, nlohmann::json>& outputs,
                     const std::string& path) {
      for (const auto& [name, json] : outputs) {
        std::optional<ParamType> declared;
        for (const auto* g : graphs) {
          for (const auto& n : g->model().nodes) {
            if (n.name != cls) continue;
            for (std::size_t t = 0; t < kParamTypeCount; ++t) {
              for (const auto& out : g->model().outputs_of(n, static_cast<ParamType>(t))) {
                if (out.name == name) declared = static_cast<ParamType>(t);
              }
            }
          }
        }
        const auto at = fmt::format("{}: {}/{}", s.name, path, name);
        if (!declared) {
          throw ScenarioError(
              fmt::format("{}: no node of class \"{}\" has an output \"{}\"", at, cls, name));
        }
        if (!json_value(json, *declared)) {
          throw ScenarioError(fmt::format("{}: \"{}\" is a {} output: expected {}", at, name,
                                          param_type_name(*declared), expected(*declared)));
        }
      }
    };
    if (behaviour.running_property) {
      const auto& name = *behaviour.running_property;
      bool found = false;
      for (const auto* g : graphs) {
        for (const auto& n : g->model().nodes) {
          if (n.name != cls) continue;
          for (const auto type : {ParamType::Int, ParamType::Float}) {
            for (const auto& p : g->model().properties_of(n, type))
              found = found || p.name == name;
          }
        }
      }
      if (!found) {
        throw ScenarioError(fmt::format(
            "{}: /nodes/{}/running/property: no node of class \"{}\" has an int or float "
            "property \"{}\"",
            s.name, cls, cls, name));
      }
    }
    check(behaviour.outputs, "/nodes/" + cls + "/outputs");
    for (std::size_t i = 0; i < behaviour.overrides.size(); ++i) {
      check(behaviour.overrides[i].outputs, fmt::format("/nodes/{}/frames/{}/outputs", cls, i));
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
        for (const auto& [cls, behaviour] : scenario.nodes)
          registry.add(cls, std::make_shared<ScriptedNode>(behaviour));
      },
      functions);
  const auto& graph = built.graph;
  validate(scenario, *graph);

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
      const auto& nodes = runtime::detail::arrays(*g).nodes();
      for (const auto& node : nodes)
        summary.stubs_with_children +=
            node.is_stub && node.children.count != 0 && node.named_plugs[0] < 0;
      const auto& m = g->model();
      for (const auto& p : runtime::unhonoured_properties(m)) {
        if (nodes[p.node].ends_with_first_child && p.property == "ResultPolicy") continue;
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
