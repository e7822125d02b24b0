#include "scripted.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "actor.hpp"

namespace ainb::simulation {

using runtime::NodeContext;
using runtime::Result;

std::optional<Value> json_value(const nlohmann::json& j, ParamType type, bool unsigned_int) {
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

std::string_view expected(ParamType type, bool unsigned_int) {
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

std::optional<std::array<std::uint8_t, 12>> function_result(const nlohmann::json& value,
                                                            exb::DataType result) {
  std::array<std::uint8_t, 12> bytes{};
  const auto type = param_type_of(result);
  if (!type) return bytes;  // None: nothing to return
  const auto v = json_value(value, *type, result == exb::DataType::UInt);
  if (!v) return std::nullopt;
  exb::write_value(exb_value(*v), bytes);
  return bytes;
}

namespace {

std::uint32_t plug_named(NodeContext& c, std::string_view name) {
  for (std::size_t k = 0; k < c.child_count(); ++k) {
    if (c.child_name(k) == name) return static_cast<std::uint32_t>(k);
  }
  return kNoPlug;
}

// The plug whose enum value it is, else the default plug, as the class's own choice would.
std::uint32_t plug_of_enum(NodeContext& c, std::uint32_t value) {
  for (std::size_t k = 0; k < c.child_count(); ++k) {
    if (c.child_enum(k) == value) return static_cast<std::uint32_t>(k);
  }
  return plug_named(c, kChildEnumDefault);
}

}  // namespace

std::uint32_t chosen_plug(NodeContext& c, const NodeBehaviour& behaviour) {
  if (behaviour.child) return plug_named(c, *behaviour.child);
  if (behaviour.child_enum) return plug_of_enum(c, *behaviour.child_enum);
  if (behaviour.child_plug && *behaviour.child_plug < c.child_count()) return *behaviour.child_plug;
  return kNoPlug;
}

namespace {

std::vector<PreparedBehaviour::Write> converted(
    const std::map<std::string, nlohmann::json>& outputs) {
  std::vector<PreparedBehaviour::Write> writes;
  for (const auto& [name, json] : outputs) {
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      if (const auto v = json_value(json, type)) writes.push_back({type, name, *v});
    }
  }
  return writes;
}

// (A node without an output of that name and type writes nothing.)
void write(NodeContext& c, const std::vector<PreparedBehaviour::Write>& writes) {
  for (const auto& w : writes)
    c.write_value(w.type, w.name, w.value);
}

// The Running updates a behaviour gives one node: its count, or its property's value (by name,
// int or float, the types validate() accepts; a node without it reads 0) scaled.
std::uint32_t running_updates(NodeContext& c, const NodeBehaviour& behaviour) {
  if (!behaviour.running_property) return behaviour.running;
  const auto& name = *behaviour.running_property;
  const auto ints = c.model().properties_of(c.node(), ParamType::Int);
  const bool is_int =
      std::any_of(ints.begin(), ints.end(), [&](const Property& p) { return p.name == name; });
  const double value = is_int ? static_cast<double>(c.property_int(name))
                              : static_cast<double>(c.property_float(name));
  const auto scaled = std::round(value * behaviour.running_scale);
  return scaled <= 0 ? 0u : scaled >= 4294967295.0 ? ~0u : static_cast<std::uint32_t>(scaled);
}

// A scenario's result read from the blackboard (NodeBehaviour::ResultIf).
Result result_of(NodeContext& c, const NodeBehaviour::ResultIf& cond) {
  const auto* value = c.instance().blackboard(cond.entry);
  const bool yes = value != nullptr && std::visit(
                                           [](const auto& v) {
                                             using T = std::decay_t<decltype(v)>;
                                             if constexpr (std::is_same_v<T, std::string_view>) {
                                               return !v.empty();
                                             } else if constexpr (std::is_arithmetic_v<T>) {
                                               return v != T{};
                                             } else {
                                               return false;  // (validate_scenario refuses these)
                                             }
                                           },
                                           *value);
  return yes ? cond.then : cond.otherwise;
}

const BlackboardEntry* entry_named(const runtime::Graph& graph, std::string_view name) {
  for (const auto& e : graph.model().blackboard.entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

PreparedBehaviour::PreparedBehaviour(const NodeBehaviour& behaviour)
    : source(&behaviour), outputs(converted(behaviour.outputs)) {
  for (const auto& o : behaviour.overrides)
    overrides.push_back({o.frame, o.result, converted(o.outputs)});
}

Result scripted_update(NodeContext& c, ScriptedState& state, const PreparedBehaviour& prepared,
                       std::uint32_t plug) {
  const auto& behaviour = *prepared.source;
  if (state.updates == 0) state.running = running_updates(c, behaviour);
  const auto updates = ++state.updates;
  auto result = updates <= state.running ? Result::Running
                : behaviour.result_if    ? result_of(c, *behaviour.result_if)
                                         : behaviour.result;
  if (plug != kNoPlug) result = c.run_child(plug);
  write(c, prepared.outputs);
  for (const auto& o : prepared.overrides) {
    if (o.frame != c.instance().frame()) continue;
    if (o.result) result = *o.result;
    write(c, o.outputs);
  }
  return result;
}

void stub_enter(NodeContext& c, const runtime::StubOutputDefaults& stub_outputs) {
  if (!stub_outputs) return;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    for (const auto& out : c.model().outputs_of(c.node(), type)) {
      if (const auto v = stub_outputs(c.node().name, out)) c.write_value(type, out.name, *v);
    }
  }
}

Result stub_update(NodeContext& c, bool stub_children) {
  if (stub_children && c.child_count() != 0) return c.run_child(0);
  return Result::Success;
}

const PreparedBehaviour* ScriptedClass::behaviour_of(NodeContext& c) const {
  const auto& instance = c.instance();
  const auto applies = [&](const PreparedBehaviour& b) {
    return instance.frame() >= b.source->from;
  };
  // Of a node's entries, the one that began last (a later one on a tie): interventions stack.
  const PreparedBehaviour* chosen = nullptr;
  for (const auto& at : at_) {
    if (at.node != c.node_index() || !applies(at.behaviour)) continue;
    if (at.file.empty() ? instance.parent() != nullptr : instance.graph().file_name() != at.file)
      continue;
    if (chosen == nullptr || at.behaviour.source->from >= chosen->source->from)
      chosen = &at.behaviour;
  }
  if (chosen != nullptr) return chosen;
  return behaviour_ && applies(*behaviour_) ? &*behaviour_ : nullptr;
}

void ScriptedClass::on_enter(NodeContext& c, ScriptedState&) {
  if (behaviour_of(c) == nullptr) stub_enter(c, stub_outputs_);
}

Result ScriptedClass::on_update(NodeContext& c, ScriptedState& state) {
  if (const auto* b = behaviour_of(c))
    return scripted_update(c, state, *b, chosen_plug(c, *b->source));
  return stub_update(c, stub_children_);
}

namespace {

// A result read from the blackboard names a scalar entry of a file that has the class.
// `path`: the class's or node's entry (messages).
void check_result_if(const Scenario& s, const std::string& path, const std::string& cls,
                     const std::string& entry, const std::vector<const runtime::Graph*>& graphs) {
  bool found = false;
  for (const auto* g : graphs) {
    const auto& nodes = g->model().nodes;
    const bool has_class = std::any_of(nodes.begin(), nodes.end(), [&](const Node& n) {
      return n.type == NodeType::UserDefined && n.name == cls;
    });
    const auto* e = has_class ? entry_named(*g, entry) : nullptr;
    if (e == nullptr) continue;
    found = true;
    const auto type = param_type_of(e->type);
    if (type != ParamType::Bool && type != ParamType::Int && type != ParamType::Float &&
        type != ParamType::String) {
      throw ScenarioError(fmt::format(
          "{}: {}/result/if: \"{}\" is a {} entry of {}: expected a bool, int, float or "
          "string entry",
          s.name, path, entry, blackboard_type_name(e->type), g->file_name()));
    }
  }
  if (!found) {
    throw ScenarioError(
        fmt::format("{}: {}/result/if: no file with a node of this class has a "
                    "blackboard entry \"{}\"",
                    s.name, path, entry));
  }
}

}  // namespace

void validate_scenario(const Scenario& s, const runtime::Graph& graph) {
  const auto& m = graph.model();
  const auto graphs = actor_graphs(graph);
  for (const auto& set : s.blackboard) {
    const auto item_path = set.path.substr(0, set.path.rfind('/'));
    const auto* file = actor_file(graph, set.file);
    if (file == nullptr || (!set.file.empty() && file == &graph)) {  // a module's, by "file"
      throw ScenarioError(fmt::format("{}: {}/file: the actor calls no module file \"{}\"", s.name,
                                      item_path, set.file));
    }
    const auto* found = entry_named(*file, set.entry);
    if (found == nullptr) {
      throw ScenarioError(fmt::format("{}: {}/name: {} has no blackboard entry \"{}\"", s.name,
                                      item_path, file->file_name(), set.entry));
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
  // Every class the scenario scripts is a user class some node of the actor's files has.
  for (const auto& [cls, behaviour] : s.nodes) {
    bool user = false, built_in = false;
    for (const auto* g : graphs) {
      for (const auto& n : g->model().nodes) {
        if (n.type == NodeType::UserDefined && n.name == cls) user = true;
        if (n.type != NodeType::UserDefined && node_type_name(n.type) == cls) built_in = true;
      }
    }
    if (user) {
      if (behaviour.result_if)
        check_result_if(s, "/nodes/" + cls, cls, behaviour.result_if->entry, graphs);
      continue;
    }
    throw ScenarioError(
        built_in ? fmt::format("{}: /nodes/{}: a built-in node type; a scenario scripts user "
                               "classes only",
                               s.name, cls)
                 : fmt::format("{}: /nodes/{}: no node of {} or its modules has this class", s.name,
                               cls, graph.file_name()));
  }
  // Every node it scripts on its own is a user node of that class in one of the actor's files.
  for (const auto& at : s.at) {
    const auto where = fmt::format("{}: {}", s.name, at.path);
    const auto* file = actor_file(graph, at.file);
    if (file == nullptr) {
      std::string files;
      for (const auto* g : graphs)
        files += fmt::format("{}{}", files.empty() ? "" : ", ", g->file_name());
      throw ScenarioError(
          fmt::format("{}/file: the actor has no file \"{}\" ({})", where, at.file, files));
    }
    const auto& nodes = file->model().nodes;
    if (at.node >= nodes.size())
      throw ScenarioError(
          fmt::format("{}/node: {} has {} nodes", where, file->file_name(), nodes.size()));
    const auto& n = nodes[at.node];
    if (n.type != NodeType::UserDefined || n.is_module() || n.name != at.cls) {
      throw ScenarioError(fmt::format("{}/class: node {} of {} is {}, not \"{}\"", where, at.node,
                                      file->file_name(), node_class_name(n), at.cls));
    }
    if (at.behaviour.result_if)
      check_result_if(s, at.path, at.cls, at.behaviour.result_if->entry, {file});
  }
  // Every node it forces is in one of the actor's files.
  for (const auto& force : s.force) {
    const auto* file = actor_file(graph, force.file);
    if (file == nullptr || (!force.file.empty() && file == &graph)) {  // a module's, by "file"
      throw ScenarioError(fmt::format("{}: {}/file: the actor calls no module file \"{}\"", s.name,
                                      force.path, force.file));
    }
    if (force.node >= file->model().nodes.size()) {
      throw ScenarioError(fmt::format("{}: {}/node: {} has {} nodes", s.name, force.path,
                                      file->file_name(), file->model().nodes.size()));
    }
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
  for (const auto& [class_name, behaviour] : s.nodes) {
    const std::string& cls = class_name;  // clang 14 cannot capture a structured binding
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

void apply_frame(runtime::Instance& actor, const Scenario& scenario, std::uint64_t frame) {
  for (const auto& set : scenario.blackboard) {
    if (set.frame != frame) continue;
    if (!set.file.empty()) {
      const auto* file = actor_file(actor.graph(), set.file);
      const auto* e = file == nullptr ? nullptr : entry_named(*file, set.entry);
      if (e == nullptr) continue;  // (checked by validate_scenario)
      const auto v = *json_value(set.value, param_type_of(e->type), e->type == BlackboardType::U32);
      actor.set_module_value(set.file, e->name, e->type, v);
      continue;
    }
    for (const auto& e : actor.graph().model().blackboard.entries) {
      if (e.name != set.entry) continue;
      const auto v = *json_value(set.value, param_type_of(e.type), e.type == BlackboardType::U32);
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
      break;  // the setter writes every entry of that name
    }
  }
  for (const auto& c : scenario.commands) {
    if (c.frame == frame) actor.start(c.command);
  }
  for (const auto& force : scenario.force) {
    const bool begins = force.frame == frame;
    if (!begins && !(force.frames && force.frame + *force.frames == frame)) continue;
    const auto result = begins ? std::optional(force.result) : std::nullopt;
    if (force.file.empty())
      actor.force(force.node, result);
    else
      actor.force_in_module(force.file, force.node, result);
  }
}

}  // namespace ainb::simulation
