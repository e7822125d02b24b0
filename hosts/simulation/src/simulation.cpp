#include "ainb/simulation/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>

#include <fmt/format.h>

#include "ainb/exb/user_functions.hpp"
#include "ainb/gamedata/blackboard_files.hpp"
#include "ainb/gamedata/catalogue.hpp"
#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/gamedata/romfs.hpp"
// The graph's structure as the scheduler runs it (stubs and their children), which the
// summary reports.
#include "ainb/runtime/detail/graph_arrays.hpp"
#include "ainb/runtime/unhonoured.hpp"
#include "ainb/simulation/tracer.hpp"

namespace ainb::simulation {

namespace {

using runtime::CommandState;
using runtime::Instance;
using runtime::NodeContext;
using runtime::Result;

// A JSON value as a value of `type`, or nullopt when it is not one (an integer out of the 32-bit
// range, s32 or with `unsigned_int` u32, or a number past float's is not one either). Strings are
// views into the JSON (which outlives the run).
std::optional<Value> json_value(const nlohmann::json& j, ParamType type,
                                bool unsigned_int = false) {
  switch (type) {
    case ParamType::Int: {
      if (!j.is_number_integer()) return std::nullopt;
      if (j.is_number_unsigned() && j.get<std::uint64_t>() > 0xFFFFFFFFu) return std::nullopt;
      const auto v = j.get<std::int64_t>();
      const std::int64_t low = unsigned_int ? 0 : INT32_MIN;
      const std::int64_t high = unsigned_int ? std::int64_t{UINT32_MAX} : INT32_MAX;
      if (v < low || v > high) return std::nullopt;
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
    }
    case ParamType::Bool:
      if (j.is_boolean()) return j.get<bool>();
      return std::nullopt;
    case ParamType::Float:
      if (j.is_number() && std::abs(j.get<double>()) <= std::numeric_limits<float>::max()) {
        return j.get<float>();
      }
      return std::nullopt;
    case ParamType::String:
      if (j.is_string()) return std::string_view(j.get_ref<const std::string&>());
      return std::nullopt;
    case ParamType::Vec3f: {
      if (!j.is_array() || j.size() != 3) return std::nullopt;
      const auto x = json_value(j[0], ParamType::Float), y = json_value(j[1], ParamType::Float),
                 z = json_value(j[2], ParamType::Float);
      if (!x || !y || !z) return std::nullopt;
      return Vec3f{std::get<float>(*x), std::get<float>(*y), std::get<float>(*z)};
    }
    case ParamType::Pointer:
      return std::nullopt;
  }
  return std::nullopt;
}

std::string_view expected(ParamType type, bool unsigned_int = false) {
  switch (type) {
    case ParamType::Int:
      return unsigned_int ? "an integer from 0 to 4294967295"
                          : "an integer from -2147483648 to 2147483647";
    case ParamType::Bool:
      return "true or false";
    case ParamType::Float:
      return "a number within float's range";
    case ParamType::String:
      return "a string";
    case ParamType::Vec3f:
      return "[x, y, z]";
    case ParamType::Pointer:
      return "nothing (pointers cannot be set)";
  }
  return "";
}

// What a scripted node keeps between its updates.
struct ScriptedState {
  std::uint32_t updates;
  std::uint32_t running;  // Running updates after this Enter
};

// A user node class as the scenario scripts it (see NodeBehaviour).
class ScriptedNode : public runtime::StatefulNodeClass<ScriptedState> {
 public:
  explicit ScriptedNode(const NodeBehaviour& behaviour) : behaviour_(behaviour) {}
  void on_enter(NodeContext& c, ScriptedState& state) override {
    state.running = behaviour_.running;
    if (!behaviour_.running_property) return;
    // The property by name, int or float (the types validate() accepts); a node without it
    // reads 0 and runs no Running updates.
    const auto& name = *behaviour_.running_property;
    const auto ints = c.model().properties_of(c.node(), ParamType::Int);
    const bool is_int =
        std::any_of(ints.begin(), ints.end(), [&](const Property& p) { return p.name == name; });
    const double value = is_int ? static_cast<double>(c.property_int(name))
                                : static_cast<double>(c.property_float(name));
    const auto scaled = std::round(value * behaviour_.running_scale);
    state.running = scaled <= 0              ? 0u
                    : scaled >= 4294967295.0 ? ~0u
                                             : static_cast<std::uint32_t>(scaled);
  }
  Result on_update(NodeContext& c, ScriptedState& state) override {
    const auto updates = ++state.updates;
    auto result = updates <= state.running ? Result::Running : behaviour_.result;
    if (behaviour_.child) result = run_child(c, *behaviour_.child, result);
    if (behaviour_.child_enum) result = run_enum_child(c, *behaviour_.child_enum, result);
    write(c, behaviour_.outputs);
    for (const auto& o : behaviour_.overrides) {
      if (o.frame != c.instance().frame()) continue;
      if (o.result) result = *o.result;
      write(c, o.outputs);
    }
    return result;
  }

 private:
  static Result run_child(NodeContext& c, std::string_view name, Result otherwise) {
    for (std::size_t k = 0; k < c.child_count(); ++k) {
      if (c.child_name(k) == name) return c.run_child(k);
    }
    return otherwise;
  }
  // The plug whose enum value it is, else the default plug, as the class's own choice would.
  static Result run_enum_child(NodeContext& c, std::uint32_t value, Result otherwise) {
    for (std::size_t k = 0; k < c.child_count(); ++k) {
      if (c.child_enum(k) == value) return c.run_child(k);
    }
    return run_child(c, kChildEnumDefault, otherwise);
  }
  static void write(NodeContext& c, const std::map<std::string, nlohmann::json>& outputs) {
    for (const auto& [name, json] : outputs) {
      for (std::size_t t = 0; t < kParamTypeCount; ++t) {
        const auto type = static_cast<ParamType>(t);
        for (const auto& out : c.model().outputs_of(c.node(), type)) {
          if (out.name != name) continue;
          if (const auto v = json_value(json, type)) {
            c.write_value(type, name, *v);
          }
        }
      }
    }
  }
  const NodeBehaviour& behaviour_;
};

// Every file of the actor: the root and its modules, once each.
void collect_graphs(const runtime::Graph& graph, std::vector<const runtime::Graph*>& out) {
  if (std::find(out.begin(), out.end(), &graph) != out.end()) return;
  out.push_back(&graph);
  for (const auto* module : graph.module_graphs())
    collect_graphs(*module, out);
}

// One of the run's own warnings to the host's log (a host's whole line as the message).
void log_warning(const runtime::LogSink* log, runtime::LogKind kind, std::string_view file,
                 std::string_view subject, std::string_view text) {
  if (!runtime::listening(log)) return;
  (*log)(runtime::LogEvent{.level = runtime::LogLevel::Warning,
                           .kind = kind,
                           .file = file,
                           .subject = subject,
                           .message = text});
}

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
  std::vector<const runtime::Graph*> graphs;
  collect_graphs(graph, graphs);
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
    std::array<std::uint8_t, 12> bytes{};
    std::optional<Value> value;
    switch (parsed->result) {
      case exb::DataType::Bool:
        value = json_value(json, ParamType::Bool);
        if (value) bytes[0] = std::get<bool>(*value) ? 1 : 0;
        break;
      case exb::DataType::Int:
      case exb::DataType::UInt:
        value = json_value(json, ParamType::Int, parsed->result == exb::DataType::UInt);
        if (value) std::memcpy(bytes.data(), &std::get<std::int32_t>(*value), 4);
        break;
      case exb::DataType::Float:
        value = json_value(json, ParamType::Float);
        if (value) std::memcpy(bytes.data(), &std::get<float>(*value), 4);
        break;
      case exb::DataType::Vec3f:
        value = json_value(json, ParamType::Vec3f);
        if (value) std::memcpy(bytes.data(), &std::get<Vec3f>(*value), 12);
        break;
      case exb::DataType::String:
        value = json_value(json, ParamType::String);
        if (value) {
          const char* text = json.get_ref<const std::string&>().c_str();
          std::memcpy(bytes.data(), &text, sizeof(text));
        }
        break;
      default:
        value = Value{};  // None: nothing to return
        break;
    }
    if (!value) {
      throw ScenarioError(fmt::format(
          "{}: the function returns {}: expected {}", at, exb::data_type_name(parsed->result),
          expected(param_type_of(parsed->result).value_or(ParamType::Int),
                   parsed->result == exb::DataType::UInt)));
    }
    functions.add_constant(signature, bytes);
  }
}

}  // namespace

Summary simulate(const std::filesystem::path& file, const Scenario& scenario,
                 const RunOptions& options, TraceSink* trace) {
  const auto spec = gamedata::parse_file_spec(file.string());
  const bool packed = !spec.member.empty();
  const auto dictionaries = gamedata::load_dictionaries(options.romfs, options.zsdic);
  gamedata::FileSource source(options.romfs, &dictionaries);
  auto model = gamedata::open_ai_file(file.string(), source);
  std::vector<std::string> specs;
  for (const auto& path : options.definitions)
    specs.push_back(path.string());
  // Without --defs, a romfs's own NodeDefinition files (none: no stub outputs).
  const auto catalogue = gamedata::load_node_definitions(specs, options.romfs, &dictionaries);
  runtime::NodeRegistry registry;
  if (!catalogue.classes().empty())
    registry.stub_outputs = gamedata::catalogue_stub_outputs(catalogue);
  registry.stub_runs_first_child = options.stub_children;
  for (const auto& [cls, node_class] : options.node_classes)
    registry.add(cls, node_class);
  for (const auto& [cls, behaviour] : scenario.nodes)
    registry.add(cls, std::make_shared<ScriptedNode>(behaviour));
  // After the scenario's classes, which win over the generic ones.
  if (options.generic_nodes) gamedata::add_generic_nodes(registry);
  exb::UserFunctions functions;
  add_functions(scenario, functions);
  // Modules: the --modules folders (default: the file's own, for a plain file), then the romfs
  // and the packs (when a romfs or a pack is used).
  auto dirs = options.module_dirs;
  if (dirs.empty() && !packed) {
    dirs.push_back(spec.file.parent_path().empty() ? "." : spec.file.parent_path());
  }
  const bool game_layout = packed || !options.romfs.empty();
  runtime::ChainResolver modules;
  const runtime::DirectoryResolver directories(dirs);
  const gamedata::RomfsResolver romfs(source);
  if (!dirs.empty()) modules.add(&directories);
  if (game_layout) modules.add(&romfs);
  gamedata::BlackboardFiles blackboard_files(source);
  runtime::GraphOptions graph_options{.functions = &functions,
                                      .modules = &modules,
                                      .missing_modules = options.stub_missing_modules
                                                             ? runtime::MissingModulePolicy::Stub
                                                             : runtime::MissingModulePolicy::Error,
                                      .log = options.log,
                                      .simultaneous_ends_first = options.simultaneous_ends_first};
  if (game_layout) graph_options.blackboard_defaults = blackboard_files.hook();
  const auto graph = std::make_shared<const runtime::Graph>(model, registry, graph_options);
  for (const auto& warning : blackboard_files.warnings())
    log_warning(options.log, runtime::LogKind::ParameterFile, model->name, {}, warning);
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
  summary.warnings = blackboard_files.warnings();
  summary.file = graph->file_name();
  summary.command = summary.started = command;
  {
    std::vector<const runtime::Graph*> graphs;
    collect_graphs(*graph, graphs);
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
    auto apply = [&](std::uint64_t frame) {
      for (const auto& set : scenario.blackboard) {
        if (set.frame != frame) continue;
        for (const auto& e : graph->model().blackboard.entries) {
          if (e.name != set.entry) continue;
          const auto v =
              *json_value(set.value, param_type_of(e.type), e.type == BlackboardType::U32);
          std::visit(
              [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::int32_t>) actor.set_int(e.name, x);
                if constexpr (std::is_same_v<T, bool>) actor.set_bool(e.name, x);
                if constexpr (std::is_same_v<T, float>) actor.set_float(e.name, x);
                if constexpr (std::is_same_v<T, std::string_view>) actor.set_string(e.name, x);
                if constexpr (std::is_same_v<T, Vec3f>) actor.set_vec3f(e.name, x);
              },
              v);
        }
      }
      for (const auto& c : scenario.commands) {
        if (c.frame == frame) actor.start(c.command);
      }
    };
    apply(0);
    if (!command.empty() && actor.command().empty()) actor.start(command);
    const auto frames = scenario.frames.value_or(options.frames);
    warn_unreached(scenario, frames, summary.warnings, options.log);
    const bool restart = scenario.restart.value_or(options.restart);
    for (std::uint64_t frame = 1; frame <= frames; ++frame) {
      tracer.frame = frame;
      apply(frame);
      if (actor.state() == CommandState::Faulted) break;
      const bool ended =
          actor.state() == CommandState::Succeeded || actor.state() == CommandState::Failed;
      if (restart && ended) {
        actor.start(actor.command());
        ++summary.restarts;
      }
      const bool running = actor.state() == CommandState::Running;
      actor.tick();
      if (actor.state() == CommandState::Faulted) break;
      if (running && actor.state() != CommandState::Running) summary.ended_frame = frame;
    }
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
