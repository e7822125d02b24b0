#include "targets.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "../actor.hpp"
#include "ainb/byte_reader.hpp"
#include "ainb/exb/section.hpp"
#include "ainb/exb/signature.hpp"
// Selector conditions as the scheduler reads them, and which nodes run as stubs.
#include "ainb/runtime/graph_view.hpp"

namespace ainb::simulation::explorer {

namespace {

void add(Pool& pool, const nlohmann::json& value) {
  if (std::find(pool.begin(), pool.end(), value) == pool.end()) pool.push_back(value);
}

// A float as JSON, rounded to float (so the file's value compares equal when read back).
nlohmann::json float_json(float value) {
  return static_cast<double>(value);
}

// By plug, the values that send a selector down it (the default plug: a value past the others).
std::vector<Pool> plug_values(const runtime::Graph& graph, std::uint32_t node) {
  const runtime::GraphView view(graph);
  const auto cases = view.selector_cases(node);
  std::vector<Pool> plugs(cases.size());
  if (cases.empty()) return plugs;
  auto& fallback = plugs.back();
  switch (graph.model().nodes[node].type) {
    case NodeType::S32Selector: {
      std::int32_t high = std::numeric_limits<std::int32_t>::min();
      for (std::size_t k = 0; k + 1 < cases.size(); ++k) {
        auto value = cases[k].value;
        if (cases[k].entry >= 0) {
          if (const auto* v = std::get_if<std::int32_t>(
                  &view.blackboard_default(static_cast<std::uint32_t>(cases[k].entry))))
            value = *v;
        }
        add(plugs[k], value);
        high = std::max(high, value);
      }
      if (high < std::numeric_limits<std::int32_t>::max()) add(fallback, high + 1);
      break;
    }
    case NodeType::F32Selector:
      for (std::size_t k = 0; k + 1 < cases.size(); ++k) {
        // A bound read from the blackboard: its value at the start.
        auto bound = [&](float constant, std::int32_t entry) {
          if (entry < 0) return constant;
          const auto* v =
              std::get_if<float>(&view.blackboard_default(static_cast<std::uint32_t>(entry)));
          return v != nullptr ? *v : constant;
        };
        const float low = bound(cases[k].min, cases[k].entry),
                    high = bound(cases[k].max, cases[k].max_entry);
        for (const float v : {low + (high - low) / 2, low, high}) {
          if (std::isfinite(v)) add(plugs[k], float_json(v));
        }
        // Just past each bound: another plug's, or the default's.
        for (const float v : {std::nextafter(low, -std::numeric_limits<float>::infinity()),
                              std::nextafter(high, std::numeric_limits<float>::infinity())}) {
          if (std::isfinite(v)) add(fallback, float_json(v));
        }
      }
      break;
    case NodeType::StringSelector:
      for (std::size_t k = 0; k + 1 < cases.size(); ++k)
        add(plugs[k], std::string(cases[k].text));
      add(fallback, "");
      break;
    case NodeType::BoolSelector: {
      const auto true_plug = view.true_plug(node);
      for (std::size_t k = 0; k < plugs.size(); ++k) {
        plugs[k].clear();
        add(plugs[k], true_plug == k);
      }
      break;
    }
    default:
      break;
  }
  return plugs;
}

// The constants expression function `function` works with, and their neighbours (a comparison
// with 40 is decided by 39, 40 and 41), as values of `type`.
Pool expression_values(const exb::Section& section, std::uint32_t function, ParamType type) {
  Pool pool;
  if (function >= section.functions.size()) return pool;
  const auto& f = section.functions[function];
  const ByteReader region(section.param_region, "EXB parameter region");
  auto constant = [&](const exb::Operand& op, exb::DataType t) {
    const bool is_int = t == exb::DataType::Int || t == exb::DataType::UInt;
    if (op.source == exb::Source::Immediate && is_int && type == ParamType::Int) {
      for (const auto d : {-1, 0, 1})
        add(pool, static_cast<std::int64_t>(op.value) + d);
    } else if (op.source == exb::Source::Immediate && t == exb::DataType::Float &&
               type == ParamType::Float) {
      add(pool, static_cast<double>(op.value));
    } else if (op.source == exb::Source::ParamTable && is_int && type == ParamType::Int) {
      const auto v = t == exb::DataType::Int ? std::int64_t{region.s32(op.value)}
                                             : std::int64_t{region.u32(op.value)};
      for (const auto d : {-1, 0, 1}) {
        if (v + d >= INT32_MIN && v + d <= INT32_MAX) add(pool, v + d);
      }
    } else if (op.source == exb::Source::ParamTable && t == exb::DataType::Float &&
               type == ParamType::Float) {
      const float v = region.f32(op.value);
      for (const float x : {v, std::nextafter(v, -std::numeric_limits<float>::infinity()),
                            std::nextafter(v, std::numeric_limits<float>::infinity())}) {
        if (std::isfinite(x)) add(pool, float_json(x));
      }
    } else if (op.source == exb::Source::ImmediateString && type == ParamType::String) {
      add(pool, std::string(section.string_at(op.value)));
    } else if (op.source == exb::Source::ParamTableString && type == ParamType::String) {
      add(pool, std::string(section.string_at(region.u32(op.value))));
    }
  };
  auto scan = [&](const exb::Block& block) {
    for (const auto& ins : section.block(block)) {
      const auto shape = ins.shape();
      if (exb::has_lhs(shape)) constant(ins.lhs, ins.type);
      if (exb::has_rhs(shape)) constant(ins.rhs, exb::rhs_type(shape, ins.type));
    }
  };
  if (f.has_setup) scan(f.setup);
  scan(f.main);
  if (type == ParamType::Bool) {
    add(pool, true);
    add(pool, false);
  }
  return pool;
}

// How a scenario's "child" names plug k of a node: its enum value (a `__CHILD_ENUM` plug), its
// name, or, when another plug has the same name, its position ({"plug": k}).
nlohmann::json child_choice(const Model& m, const Node& node, std::span<const std::uint32_t> plugs,
                            std::uint32_t k) {
  const auto& plug = m.plugs[plugs[k]];
  const auto* e = std::get_if<EnumCondition>(&plug.data);
  if (e != nullptr && is_child_enum_plug(node.type, plug.name) && plug.name != kChildEnumDefault)
    return e->value;
  for (std::uint32_t other = 0; other < plugs.size(); ++other) {
    if (other != k && m.plugs[plugs[other]].name == plug.name) return {{"plug", k}};
  }
  return std::string(plug.name);
}

class Finder {
 public:
  Finder(const runtime::Graph& top, Targets& targets) : top_(top), targets_(targets) {
    for (const auto& e : top.model().blackboard.entries) {
      // A name listed twice is one entry to a scenario, which sets entries by name.
      if (e.type == BlackboardType::Pointer ||
          entry_index_.contains({"", e.type, std::string(e.name)}))
        continue;
      entry_index_[{"", e.type, std::string(e.name)}] = targets.entries.size();
      targets.entries.push_back(
          {std::string(e.name), param_type_of(e.type), e.type == BlackboardType::U32, {}, {}});
    }
  }

  void add_class_node(const runtime::Graph& graph, std::uint32_t node) {
    const auto& m = graph.model();
    const auto& n = m.nodes[node];
    auto& cls = class_named(std::string(n.name));
    for (std::size_t t = 0; t < kParamTypeCount; ++t) {
      const auto type = static_cast<ParamType>(t);
      if (type == ParamType::Pointer) continue;
      for (const auto& out : m.outputs_of(n, type)) {
        if (std::none_of(cls.outputs.begin(), cls.outputs.end(),
                         [&](const auto& o) { return o.name == out.name && o.type == type; }))
          cls.outputs.push_back({std::string(out.name), type, {}});
      }
    }
    const auto plugs = runtime::GraphView(graph).child_plugs(node);
    for (std::uint32_t k = 0; k < plugs.size(); ++k) {
      const auto choice = child_choice(m, m.nodes[node], plugs, k);
      if (std::find(cls.children.begin(), cls.children.end(), choice) == cls.children.end())
        cls.children.push_back(choice);
    }
  }

  // What feeds input `input` (of `type`) of `node`, following built-in nodes' and computing
  // classes' inputs of the same type a few steps back.
  void sinks(const runtime::Graph& graph, std::uint32_t node, ParamType type,
             std::string_view input, std::vector<Targets::Sink>& out, const Pool* through = nullptr,
             int depth = 0) {
    if (depth > 4) return;
    const auto& m = graph.model();
    for (const auto& in : m.inputs_of(m.nodes[node], type)) {
      if (!input.empty() && in.name != input) continue;
      if (in.flags.source() == ParamFlags::Source::Blackboard && !in.has_node_source() &&
          !in.is_multi_source()) {
        entry_sink(graph, type, in.flags, through, out);
      }
      // An input computed by an expression from a linked output: the expression's constants
      // are what that output is compared with.
      ParamType source_type = type;
      const Pool* given = through;
      Pool own;
      if (in.flags.source() == ParamFlags::Source::Expression && m.expressions) {
        const auto function = in.flags.index();
        if (function < m.expressions->functions.size()) {
          if (const auto t = param_type_of(m.expressions->functions[function].input_type)) {
            source_type = *t;
            own = expression_values(*m.expressions, function, source_type);
            given = &own;
          }
          function_sinks(*m.expressions, function, out);
        }
      }
      std::vector<std::pair<std::int32_t, std::int32_t>> sources;  // node, output
      if (in.has_node_source()) sources.emplace_back(in.raw_node_index, in.source_output());
      for (std::uint32_t k = in.multi_sources().base; k < in.multi_sources().end(); ++k) {
        if (k < m.multi_sources.size())
          sources.emplace_back(m.multi_sources[k].node_index, m.multi_sources[k].output_index);
      }
      for (const auto& [source, output] : sources) {
        if (source < 0 || static_cast<std::size_t>(source) >= m.nodes.size()) continue;
        const auto& s = m.nodes[static_cast<std::size_t>(source)];
        const auto outs = m.outputs_of(s, source_type);
        const auto it = classes_.find(std::string(s.name));
        if (s.type == NodeType::UserDefined && it != classes_.end()) {
          if (output < 0 || static_cast<std::size_t>(output) >= outs.size()) continue;
          const auto& cls = targets_.classes[it->second];
          const auto name = outs[static_cast<std::size_t>(output)].name;
          for (std::uint32_t o = 0; o < cls.outputs.size(); ++o) {
            if (cls.outputs[o].name == name && cls.outputs[o].type == source_type)
              add_sink(out, {Targets::Sink::Kind::Output, static_cast<std::uint32_t>(it->second), o,
                             given == nullptr, given ? *given : Pool{}, &graph,
                             static_cast<std::uint32_t>(source)});
          }
        } else {
          // A built-in or a class that computes (a generic query): the value is taken to pass
          // through from its inputs of the same type.
          sinks(graph, static_cast<std::uint32_t>(source), source_type, {}, out, given, depth + 1);
        }
      }
    }
  }

  std::int32_t class_index(const std::string& name) const {
    const auto it = classes_.find(name);
    return it == classes_.end() ? -1 : static_cast<std::int32_t>(it->second);
  }

  Targets::Class& class_named(const std::string& name) {
    const auto [it, added] = classes_.emplace(name, targets_.classes.size());
    if (added) targets_.classes.push_back({name, {}, {}});
    return targets_.classes[it->second];
  }

 private:
  // The user functions expression `function` calls: their results steer what it computes.
  void function_sinks(const exb::Section& section, std::uint32_t function,
                      std::vector<Targets::Sink>& out) {
    const auto& f = section.functions[function];
    for (const auto& ins : section.block(f.main)) {
      if (ins.opcode != exb::Opcode::UserFunction ||
          ins.signature_index >= section.signatures.size())
        continue;
      const auto signature = exb::parse_signature(section.signatures[ins.signature_index]);
      if (!signature) continue;
      for (std::uint32_t k = 0; k < targets_.functions.size(); ++k) {
        const auto& target = targets_.functions[k];
        if (target.signature != signature->text || !param_type_of(target.result)) continue;
        auto values = expression_values(section, function, *param_type_of(target.result));
        add_sink(out, {Targets::Sink::Kind::Function, k, 0, false, std::move(values)});
      }
    }
  }

  void entry_sink(const runtime::Graph& graph, ParamType type, const ParamFlags& flags,
                  const Pool* through, std::vector<Targets::Sink>& out) {
    const auto entries = graph.model().blackboard.of_type(blackboard_type_for(type, flags));
    if (flags.index() >= entries.size()) return;
    if (blackboard_component(type, flags)) return;  // a vec3f's component: not set by scenarios
    const auto& entry = entries[flags.index()];
    // An entry a module inherits is the top file's of that name and type when the top file has
    // one (the parent's is taken to inherit it too); else, as a module's own entry, it is set in
    // the module file's calls, unless each call sets it from its caller's argument.
    auto it = entry_index_.end();
    if (&graph == &top_ || inherits(entry))
      it = entry_index_.find({"", entry.type, std::string(entry.name)});
    if (it == entry_index_.end() && &graph != &top_ && entry.type != BlackboardType::Pointer &&
        !set_by_every_call(graph, entry)) {
      const std::tuple<std::string, BlackboardType, std::string> key{graph.file_name(), entry.type,
                                                                     std::string(entry.name)};
      it = entry_index_.find(key);
      if (it == entry_index_.end()) {
        it = entry_index_.emplace(key, targets_.entries.size()).first;
        targets_.entries.push_back({std::string(entry.name),
                                    param_type_of(entry.type),
                                    entry.type == BlackboardType::U32,
                                    {},
                                    graph.file_name()});
      }
    }
    if (it == entry_index_.end()) return;
    add_sink(out, {Targets::Sink::Kind::Entry, static_cast<std::uint32_t>(it->second), 0,
                   through == nullptr, through ? *through : Pool{}});
  }
  static bool inherits(const BlackboardEntry& e) { return e.inherit != InheritMode::DontInherit; }
  // Whether every call of `module` in the actor passes an argument for `entry` (written at each
  // of the module's Enters, so a scenario's value would not last).
  bool set_by_every_call(const runtime::Graph& module, const BlackboardEntry& entry) const {
    const auto index =
        static_cast<std::uint32_t>(&entry - module.model().blackboard.entries.data());
    bool called = false;
    for (const auto* g : actor_graphs(top_)) {
      const runtime::GraphView view(*g);
      for (std::uint32_t n = 0; n < view.node_count(); ++n) {
        if (view.module_graph(n) != &module) continue;
        called = true;
        const auto arguments = view.module_arguments(n);
        if (std::none_of(arguments.begin(), arguments.end(),
                         [&](const auto& a) { return a.entry == index; }))
          return false;
      }
    }
    return called;
  }
  static void add_sink(std::vector<Targets::Sink>& out, Targets::Sink sink) {
    for (auto& s : out) {
      if (s.kind == sink.kind && s.index == sink.index && s.output == sink.output &&
          s.direct == sink.direct && s.graph == sink.graph && s.node == sink.node) {
        for (const auto& v : sink.values)
          add(s.values, v);
        return;
      }
    }
    out.push_back(std::move(sink));
  }

  const runtime::Graph& top_;
  Targets& targets_;
  // By file (empty: the top file), type and name.
  std::map<std::tuple<std::string, BlackboardType, std::string>, std::size_t> entry_index_;
  std::map<std::string, std::size_t> classes_;
};

}  // namespace

Targets find_targets(const runtime::Graph& graph) {
  Targets targets;
  for (const auto& c : graph.model().commands)
    targets.commands.emplace_back(c.name);
  Finder finder(graph, targets);
  const auto graphs = actor_graphs(graph);
  // The stub classes first, so that feeding a selector finds them.
  for (const auto* g : graphs) {
    const runtime::GraphView view(*g);
    for (std::uint32_t n = 0; n < view.node_count(); ++n) {
      const auto& node = g->model().nodes[n];
      // A module not found runs as a stub too, but no scenario scripts it.
      if (view.is_stub(n) && node.type == NodeType::UserDefined && !node.is_module())
        finder.add_class_node(*g, n);
    }
  }
  for (const auto* g : graphs) {
    const auto& m = g->model();
    if (!m.expressions) continue;
    const auto& section = *m.expressions;
    for (std::uint32_t f = 0; f < section.functions.size(); ++f) {
      std::vector<exb::Instruction> calls;
      const auto& function = section.functions[f];
      for (const auto& block : {function.setup, function.main}) {
        if (&block == &function.setup && !function.has_setup) continue;
        for (const auto& ins : section.block(block)) {
          if (ins.opcode == exb::Opcode::UserFunction) calls.push_back(ins);
        }
      }
      for (const auto& ins : calls) {
        if (ins.signature_index >= section.signatures.size()) continue;
        const auto signature = exb::parse_signature(section.signatures[ins.signature_index]);
        if (!signature) continue;
        auto it = std::find_if(targets.functions.begin(), targets.functions.end(),
                               [&](const auto& x) { return x.signature == signature->text; });
        if (it == targets.functions.end())
          it = targets.functions.insert(targets.functions.end(),
                                        {signature->text, signature->result, {}});
        if (const auto type = param_type_of(signature->result)) {
          for (const auto& v : expression_values(section, f, *type))
            add(it->pool, v);
        }
      }
    }
  }
  auto& pools = targets.pools;
  for (const auto* g : graphs) {
    const auto& m = g->model();
    for (std::uint32_t n = 0; n < m.nodes.size(); ++n) {
      const auto type = m.nodes[n].type;
      if (type == NodeType::RandomSelector) targets.random = true;
      const runtime::GraphView view(*g);
      if (view.children(n).empty()) continue;
      Targets::Decision decision{g, n, {}, {}, -1};
      // A Random selector's draws are steered by the seed alone (`random` above), not by values.
      if (node_choice(type) == NodeChoice::Input) {
        decision.plugs = plug_values(*g, n);
        for (const auto& plug : decision.plugs) {
          for (const auto& v : plug)
            add(pools[static_cast<std::size_t>(selector_type(type))], v);
        }
        finder.sinks(*g, n, selector_type(type), "Input", decision.sinks);
      } else if (type == NodeType::UserDefined && view.is_stub(n) && !m.nodes[n].is_module()) {
        decision.cls = finder.class_index(std::string(m.nodes[n].name));
        const auto plugs = view.child_plugs(n);
        for (std::uint32_t k = 0; k < plugs.size(); ++k)
          decision.plugs.push_back({child_choice(m, m.nodes[n], plugs, k)});
      } else {
        continue;
      }
      // What each sink is worth trying: the values of every plug, or the expression's.
      for (const auto& sink : decision.sinks) {
        Pool values = sink.values;
        if (sink.direct) {
          for (const auto& plug : decision.plugs)
            for (const auto& v : plug)
              add(values, v);
        }
        auto& pool = sink.kind == Targets::Sink::Kind::Entry ? targets.entries[sink.index].pool
                     : sink.kind == Targets::Sink::Kind::Output
                         ? targets.classes[sink.index].outputs[sink.output].pool
                         : targets.functions[sink.index].pool;
        for (const auto& v : values)
          add(pool, v);
      }
      targets.decisions.push_back(std::move(decision));
    }
    if (m.expressions) {
      for (std::uint32_t f = 0; f < m.expressions->functions.size(); ++f) {
        for (const auto type : {ParamType::Int, ParamType::Float, ParamType::String}) {
          for (const auto& v : expression_values(*m.expressions, f, type))
            add(pools[static_cast<std::size_t>(type)], v);
        }
      }
    }
    for (const auto& e : m.blackboard.entries) {
      if (const auto* i = std::get_if<std::int32_t>(&e.default_value)) add(pools[0], *i);
      if (const auto* f = std::get_if<float>(&e.default_value)) add(pools[2], float_json(*f));
      if (const auto* s = std::get_if<std::string_view>(&e.default_value))
        add(pools[3], std::string(*s));
    }
  }
  for (const auto v : {0, 1, -1, 2, 10, 100})
    add(pools[static_cast<std::size_t>(ParamType::Int)], v);
  for (const auto v : {0.0, 1.0, -1.0, 0.5, 10.0, 100.0, 1000.0})
    add(pools[static_cast<std::size_t>(ParamType::Float)], v);
  add(pools[static_cast<std::size_t>(ParamType::Bool)], true);
  add(pools[static_cast<std::size_t>(ParamType::Bool)], false);
  add(pools[static_cast<std::size_t>(ParamType::String)], "");
  return targets;
}

nlohmann::json default_result(const Targets::Function& f) {
  switch (f.result) {
    case exb::DataType::Bool:
      return false;
    case exb::DataType::Int:
    case exb::DataType::UInt:
      return 0;
    case exb::DataType::Float:
      return 0.0;
    case exb::DataType::String:
      return "";
    case exb::DataType::Vec3f:
      return nlohmann::json::array({0.0, 0.0, 0.0});
    default:
      return nullptr;
  }
}

ParamType selector_type(NodeType type) {
  switch (type) {
    case NodeType::F32Selector:
      return ParamType::Float;
    case NodeType::StringSelector:
      return ParamType::String;
    case NodeType::BoolSelector:
      return ParamType::Bool;
    default:
      return ParamType::Int;
  }
}

}  // namespace ainb::simulation::explorer
