#include "scenarios.hpp"

#include <functional>

namespace ainb::simulation::explorer {

// SplitMix64: the same numbers on every platform (std's distributions are not).
class Generator::Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<std::size_t>(below(items.size()))];
  }

 private:
  std::uint64_t state_;
};

namespace {

// A class's "child" as explore's targets give it: a name, an enum value, {"plug": K}; null: none.
void set_child(NodeBehaviour& b, const nlohmann::json& child) {
  b.child.reset();
  b.child_enum.reset();
  b.child_plug.reset();
  if (child.is_string()) {
    b.child = child.get<std::string>();
  } else if (child.is_number_unsigned()) {
    b.child_enum = child.get<std::uint32_t>();
  } else if (child.is_object()) {
    b.child_plug = child["plug"].get<std::uint32_t>();
  }
}

// The scenario's behaviour for node `node` of `graph`'s file alone, added when it has none.
NodeBehaviour& node_at(Scenario& s, const runtime::Graph& graph, std::uint32_t node,
                       const std::string& cls) {
  for (auto& at : s.at) {
    if (at.node == node && at.file == graph.file_name()) return at.behaviour;
  }
  s.at.push_back({graph.file_name(), node, cls, {}, "/at"});
  return s.at.back().behaviour;
}

}  // namespace

Scenario Generator::fresh() const {
  Scenario s;
  s.name = "explore";
  s.frames = frames_;
  s.restart = true;
  if (targets_.random) s.seed = 0;
  // Explore's graph calls every user function, so each scenario says what they return.
  for (const auto& f : targets_.functions)
    s.functions[f.signature] = default_result(f);
  return s;
}

Scenario Generator::next(std::uint64_t seed, std::uint64_t run, const std::vector<Scenario>& kept,
                         const std::vector<Goal>& goals) const {
  Rng rng(seed * 0x2545F4914F6CDD1Dull + run);
  rng.next();
  if (!goals.empty() && rng.chance(50)) {
    const auto& goal = rng.pick(goals);
    auto s = goal.kept >= 0 ? kept[static_cast<std::size_t>(goal.kept)] : fresh();
    if (goal.kept < 0 && !goal.command.empty()) s.command = goal.command;
    steer(s, targets_.decisions[goal.decision], goal.plug, rng);
    if (rng.chance(30)) change(s, rng);
    return s;
  }
  auto s = !kept.empty() && !rng.chance(10) ? rng.pick(kept) : fresh();
  const auto changes = 1 + rng.below(3);
  for (std::uint64_t k = 0; k < changes; ++k)
    change(s, rng);
  return s;
}

void Generator::steer(Scenario& s, const Targets::Decision& decision, std::uint32_t plug,
                      Rng& rng) const {
  const auto* wanted = plug < decision.plugs.size() ? &decision.plugs[plug] : nullptr;
  if (decision.cls >= 0) {
    if (wanted == nullptr || wanted->empty()) return;
    // This node's plug, not every node's of its class.
    const auto& cls = targets_.classes[static_cast<std::size_t>(decision.cls)].name;
    set_child(per_node_ ? node_at(s, *decision.graph, decision.node, cls) : s.nodes[cls],
              wanted->front());
    return;
  }
  if (decision.sinks.empty()) return;
  const auto& sink = rng.pick(decision.sinks);
  const auto& values = sink.direct && wanted != nullptr && !wanted->empty() ? *wanted : sink.values;
  if (values.empty()) return;
  const auto& v = rng.pick(values);
  switch (sink.kind) {
    case Targets::Sink::Kind::Entry: {
      const auto& e = targets_.entries[sink.index];
      if (e.unsigned_int && v.is_number_integer() && v.get<std::int64_t>() < 0) return;
      std::erase_if(s.blackboard,
                    [&](const auto& set) { return set.entry == e.name && set.file == e.file; });
      s.blackboard.push_back({0, e.name, v, "/blackboard/value", e.file});
      break;
    }
    case Targets::Sink::Kind::Output: {
      const auto& c = targets_.classes[sink.index];
      const auto& name = c.outputs[sink.output].name;
      // Mostly the node that feeds this decision; sometimes every node of its class.
      auto& b = per_node_ && sink.graph != nullptr && rng.chance(70)
                    ? node_at(s, *sink.graph, sink.node, c.name)
                    : s.nodes[c.name];
      b.outputs[name] = v;
      for (auto& o : b.overrides)
        o.outputs.erase(name);
      break;
    }
    case Targets::Sink::Kind::Function:
      s.functions[targets_.functions[sink.index].signature] = v;
      break;
  }
}

nlohmann::json Generator::value(const Pool& pool, ParamType type, bool unsigned_int,
                                Rng& rng) const {
  const auto& common = targets_.pools[static_cast<std::size_t>(type)];
  auto fits = [&](const nlohmann::json& v) {
    return !unsigned_int || !v.is_number_integer() || v.get<std::int64_t>() >= 0;
  };
  for (int attempt = 0; attempt < 4; ++attempt) {
    nlohmann::json v;
    if (!pool.empty() && rng.chance(80)) {
      v = rng.pick(pool);
    } else if (!common.empty() && rng.chance(70)) {
      v = rng.pick(common);
    } else {
      switch (type) {
        case ParamType::Int:
          v = static_cast<std::int64_t>(rng.below(201)) - 100;
          break;
        case ParamType::Float:
          v = (static_cast<double>(rng.below(20001)) - 10000.0) / 10.0;
          break;
        case ParamType::Bool:
          v = rng.chance(50);
          break;
        case ParamType::String:
          v = common.empty() ? nlohmann::json("") : rng.pick(common);
          break;
        case ParamType::Vec3f: {
          const auto& floats = targets_.pools[static_cast<std::size_t>(ParamType::Float)];
          v = nlohmann::json::array({rng.pick(floats), rng.pick(floats), rng.pick(floats)});
          break;
        }
        case ParamType::Pointer:
          break;
      }
    }
    if (fits(v)) return v;
  }
  return 0;
}

void Generator::change(Scenario& s, Rng& rng) const {
  const auto when = [&] { return 1 + rng.below(frames_ == 0 ? 1 : frames_); };
  const auto kind = rng.below(100);
  if (kind < 25 && !targets_.entries.empty()) {
    const auto& e = rng.pick(targets_.entries);
    const auto frame = rng.chance(50) ? 0 : when();
    s.blackboard.push_back(
        {frame, e.name, value(e.pool, e.type, e.unsigned_int, rng), "/blackboard/value", e.file});
    return;
  }
  std::vector<const Targets::Class*> with_outputs, with_children;
  for (const auto& c : targets_.classes) {
    if (!c.outputs.empty()) with_outputs.push_back(&c);
    if (!c.children.empty()) with_children.push_back(&c);
  }
  if (kind < 50 && !with_outputs.empty()) {
    const auto& c = *rng.pick(with_outputs);
    const auto& o = rng.pick(c.outputs);
    auto& b = s.nodes[c.name];
    auto v = value(o.pool, o.type, false, rng);
    if (rng.chance(60)) {
      b.outputs[o.name] = std::move(v);
    } else {
      b.overrides.push_back({when(), std::nullopt, {{o.name, std::move(v)}}});
    }
    return;
  }
  if (kind < 60 && !targets_.classes.empty()) {
    auto& b = s.nodes[rng.pick(targets_.classes).name];
    switch (rng.below(4)) {
      case 0:
        b.result = runtime::Result::Failure;
        break;
      case 1:
        b.result = runtime::Result::Success;
        break;
      case 2:
        b.running = static_cast<std::uint32_t>(rng.below(4));
        break;
      default:
        b.overrides.push_back(
            {when(), rng.chance(50) ? runtime::Result::Failure : runtime::Result::Running, {}});
        break;
    }
    return;
  }
  if (kind < 74 && !with_children.empty()) {
    const auto& c = *rng.pick(with_children);
    set_child(s.nodes[c.name], rng.pick(c.children));
    return;
  }
  std::vector<const Targets::Function*> valued;
  for (const auto& f : targets_.functions) {
    if (param_type_of(f.result)) valued.push_back(&f);
  }
  if (kind < 84 && !valued.empty()) {
    const auto& f = *rng.pick(valued);
    s.functions[f.signature] =
        value(f.pool, *param_type_of(f.result), f.result == exb::DataType::UInt, rng);
    return;
  }
  if (kind < 92 && targets_.commands.size() > 1) {
    const auto& command = rng.pick(targets_.commands);
    if (rng.chance(50)) {
      s.command = command;
    } else {
      s.commands.push_back({when(), command, "/commands/command"});
    }
    return;
  }
  if (kind < 96 && targets_.random) {
    s.seed = rng.below(1000);
    return;
  }
  // Take something out, so kept scenarios do not only grow.
  if (!s.blackboard.empty() && rng.chance(50)) {
    s.blackboard.erase(s.blackboard.begin() +
                       static_cast<std::ptrdiff_t>(rng.below(s.blackboard.size())));
  } else if (!s.nodes.empty()) {
    auto it = s.nodes.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(rng.below(s.nodes.size())));
    s.nodes.erase(it);
  }
}

namespace {

using Step = std::function<void(Scenario&)>;
using Behaviour = std::function<NodeBehaviour&(Scenario&)>;

// The ways to make one behaviour smaller: an output, a frame's override taken out, Running
// updates, result and child back to their defaults, an override moved to half its frame.
void behaviour_steps(const NodeBehaviour& b, const Behaviour& of, std::vector<Step>& steps) {
  for (const auto& entry : b.outputs)  // not a structured binding: clang 14 cannot capture one
    steps.push_back([of, output = entry.first](Scenario& x) { of(x).outputs.erase(output); });
  for (std::size_t i = 0; i < b.overrides.size(); ++i) {
    steps.push_back([of, i](Scenario& x) {
      auto& o = of(x).overrides;
      o.erase(o.begin() + static_cast<std::ptrdiff_t>(i));
    });
  }
  // An override's outputs written at every update instead: one entry fewer, no frame to read.
  for (std::size_t i = 0; i < b.overrides.size(); ++i) {
    if (b.overrides[i].result || b.overrides[i].outputs.empty()) continue;
    steps.push_back([of, i](Scenario& x) {
      auto& behaviour = of(x);
      for (const auto& [name, value] : behaviour.overrides[i].outputs)
        behaviour.outputs[name] = value;
      behaviour.overrides.erase(behaviour.overrides.begin() + static_cast<std::ptrdiff_t>(i));
    });
  }
  if (b.running != 0) steps.push_back([of](Scenario& x) { of(x).running = 0; });
  if (b.result != runtime::Result::Success)
    steps.push_back([of](Scenario& x) { of(x).result = runtime::Result::Success; });
  if (b.child || b.child_enum || b.child_plug)
    steps.push_back([of](Scenario& x) { set_child(of(x), nullptr); });
  for (std::size_t i = 0; i < b.overrides.size(); ++i) {
    if (b.overrides[i].frame > 1)
      steps.push_back([of, i](Scenario& x) { of(x).overrides[i].frame /= 2; });
  }
}

// Each way to make `s` smaller by one step, in the order tried.
std::vector<Step> smaller(const Scenario& s, const Targets& targets) {
  std::vector<Step> steps;
  for (const auto& f : targets.functions) {
    auto plain = default_result(f);
    const auto it = s.functions.find(f.signature);
    if (it != s.functions.end() && it->second != plain) {
      steps.push_back(
          [signature = f.signature, plain](Scenario& x) { x.functions[signature] = plain; });
    }
  }
  for (std::size_t i = 0; i < s.blackboard.size(); ++i)
    steps.push_back([i](Scenario& x) {
      x.blackboard.erase(x.blackboard.begin() + static_cast<std::ptrdiff_t>(i));
    });
  for (std::size_t i = 0; i < s.commands.size(); ++i)
    steps.push_back([i](Scenario& x) {
      x.commands.erase(x.commands.begin() + static_cast<std::ptrdiff_t>(i));
    });
  if (s.command) steps.push_back([](Scenario& x) { x.command.reset(); });
  if (s.seed && *s.seed != 0) steps.push_back([](Scenario& x) { x.seed = 0; });
  for (const auto& [cls, b] : s.nodes) {
    steps.push_back([name = cls](Scenario& x) { x.nodes.erase(name); });
    behaviour_steps(
        b, [name = cls](Scenario& x) -> NodeBehaviour& { return x.nodes[name]; }, steps);
  }
  for (std::size_t i = 0; i < s.at.size(); ++i) {
    steps.push_back(
        [i](Scenario& x) { x.at.erase(x.at.begin() + static_cast<std::ptrdiff_t>(i)); });
    // A node's behaviour given to its whole class: simpler to read, where it does the same.
    if (!s.nodes.contains(s.at[i].cls)) {
      steps.push_back([i](Scenario& x) {
        x.nodes[x.at[i].cls] = x.at[i].behaviour;
        x.at.erase(x.at.begin() + static_cast<std::ptrdiff_t>(i));
      });
    }
    behaviour_steps(
        s.at[i].behaviour, [i](Scenario& x) -> NodeBehaviour& { return x.at[i].behaviour; }, steps);
  }
  // Earlier: a change at frame F tried at F / 2 (and a blackboard value at 0).
  for (std::size_t i = 0; i < s.blackboard.size(); ++i) {
    if (s.blackboard[i].frame != 0)
      steps.push_back([i](Scenario& x) { x.blackboard[i].frame /= 2; });
  }
  for (std::size_t i = 0; i < s.commands.size(); ++i) {
    if (s.commands[i].frame > 1) steps.push_back([i](Scenario& x) { x.commands[i].frame /= 2; });
  }
  return steps;
}

}  // namespace

std::uint64_t shrink(Scenario& scenario, const Targets& targets, std::uint64_t frames,
                     const std::function<bool(const Scenario&)>& holds) {
  std::uint64_t runs = 0;
  auto reaches = [&](const Scenario& s) {
    ++runs;
    return holds(s);
  };
  constexpr std::uint64_t kMaxRuns = 400;
  for (bool smaller_found = true; smaller_found && runs < kMaxRuns;) {
    smaller_found = false;
    for (const auto& step : smaller(scenario, targets)) {
      auto candidate = scenario;
      step(candidate);
      if (reaches(candidate)) {
        scenario = std::move(candidate);
        smaller_found = true;
        break;
      }
      if (runs >= kMaxRuns) break;
    }
  }
  // The fewest frames for which it holds (a binary search: more frames reach no less).
  std::uint64_t low = 1, high = scenario.frames.value_or(frames);
  while (low < high && runs < kMaxRuns) {
    const auto mid = low + (high - low) / 2;
    auto candidate = scenario;
    candidate.frames = mid;
    if (reaches(candidate)) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  scenario.frames = high;
  return runs;
}

}  // namespace ainb::simulation::explorer
