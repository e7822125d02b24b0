// Random small files against the scheduler's promises (docs/semantics.md): graphs with shared
// nodes, every composite kind, looping Sequentials, selectors that change their minds, chained
// queries, transitions (cycles of post-calc ones included), Fork and Join, in AI and Logic
// files, run for frames while the blackboard changes and commands restart. Every Enter must be
// matched by one Leave, no node may be updated or left while it is not entered, and the runs
// with and without an observer (the general and the short paths) must call the classes in the
// same order, and no node other than a query may be updated twice per Enter in one step. An AI
// file may call a random module (child plugs through ModuleIF_Child, StateEnd back to the caller).
// Hand-written cases pin what a rule means; these look for the combinations nobody wrote down
// (they found faults the hand-written ones had missed; each now has a hand-written test too).
// A failure names its seed and prints the files.

#include <algorithm>
#include <iterator>
#include <random>
#include <set>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/modules.hpp"
#include "ainb_builder.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

// A probe that counts its updates in its own state block (per node and instance), and names the
// module call site in its lines ("enter MU1@3": node 3 of the root calls the module), as the same
// module node runs once per call site.
struct Counter {
  std::uint32_t updates;
};
class RandomProbe : public StatefulNodeClass<Counter> {
 public:
  RandomProbe(std::string name, Log& log, std::vector<Result> script, bool chooses)
      : name_(std::move(name)), log_(log), script_(std::move(script)), chooses_(chooses) {}
  void on_enter(NodeContext& c, Counter&) override { log_.push_back("enter " + where(c)); }
  Result on_update(NodeContext& c, Counter& counter) override {
    log_.push_back("update " + where(c));
    const auto result = script_[std::min<std::size_t>(counter.updates++, script_.size() - 1)];
    // A class may choose its transition while running (ignored outside an active root's tree).
    if (chooses_ && result == Result::Running) c.transition(0);
    return result;
  }
  void on_leave(NodeContext& c, Counter&) override { log_.push_back("leave " + where(c)); }

 private:
  std::string where(NodeContext& c) const {
    const auto& instance = c.instance();
    return instance.parent() == nullptr ? name_
                                        : fmt::format("{}@{}", name_, instance.caller_node());
  }
  std::string name_;
  Log& log_;
  std::vector<Result> script_;
  bool chooses_;
};

struct RandomFile {
  AinbSpec spec;
  struct Probe {
    std::string name;
    std::vector<Result> script;
    bool chooses = false;  // takes its transition while it runs
  };
  std::vector<Probe> probes;
};

// What a random file is: a root file (AI or Logic) that may call the module M.module, or that
// module, whose ModuleIF_Child nodes C0 and C1 run the caller's child plugs of those names and
// whose Element_StateEnd "Done" returns to the caller's transition "Done".
enum class Role { Root, Logic, Module };

// Node i's children are among nodes i+1 .. n-1: no cycles, and any node may have several
// parents. The last node is always a user node. Query nodes come after them, each using only
// later ones; transitions (plain or post calc) may lead anywhere, cycles included. A root AI
// file has two commands whose roots (and secondary roots) are any nodes; the module has one.
RandomFile random_file(std::mt19937& rng, Role role, bool calls_module) {
  const bool logic = role == Role::Logic, module = role == Role::Module;
  const std::string prefix = module ? "M" : "";
  auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
  };
  RandomFile file;
  auto& spec = file.spec;
  spec.file_name = module ? "M.module" : "random.root";
  if (logic) spec.category = "Logic";
  if (calls_module) spec.modules = {{"M.module.ainb"}};
  spec.blackboard = {{BlackboardType::Bool, "B0", false},
                     {BlackboardType::Bool, "B1", true},
                     {BlackboardType::S32, "I0", std::int32_t{0}}};
  const auto n = pick(2, 12);
  const auto queries = pick(0, 3);
  auto add_probe = [&](BuildNode& node, std::string name) {
    node = user(name);
    std::vector<Result> script;
    for (auto k = pick(1, 4); k-- > 0;)
      script.push_back(std::array{R, S, F}[pick(0, 2)]);
    file.probes.push_back({name, script, pick(0, 4) == 0});
  };
  auto transition = [&](BuildNode& node) {
    node.plugs.push_back({PlugKind::Transition, pick(0, n - 1), "",
                          static_cast<std::uint32_t>(spec.transitions.size())});
    spec.transitions.push_back({pick(0, 1) == 0 ? 1u : kPostCalc, ""});
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto kind = i + 1 == n ? 0 : pick(i == 0 ? 1 : 0, module ? 10 : 9);
    auto child = [&] { return pick(i + 1, n - 1); };
    BuildNode node;
    switch (kind) {
      case 0:  // a user node with a random script, or a call of the module
        if (calls_module && i + 1 < n && pick(0, 2) == 0) {
          node = BuildNode{.name = "M.module", .flags = node_flags::kIsModule};
          node.plugs = {{PlugKind::Child, child(), "C0"},
                        {PlugKind::Child, child(), "C1"},
                        {PlugKind::Transition, pick(0, n - 1), "",
                         static_cast<std::uint32_t>(spec.transitions.size())}};
          spec.transitions.push_back({0, "Done"});
        } else {
          add_probe(node, fmt::format("{}U{}", prefix, i));
        }
        break;
      case 1:
        node.type = NodeType::Sequential;
        for (auto k = pick(1, 3); k-- > 0;)
          node.plugs.push_back({PlugKind::Child, child(), ""});
        node.properties = {{ParamType::Bool, "IsUpdateNextInFrame", pick(0, 1) == 1},
                           {ParamType::Bool, "IsLoop", pick(0, 2) == 0},
                           {ParamType::Int, "NumLoop", static_cast<std::int32_t>(pick(0, 2))}};
        break;
      case 2:
        node.type = NodeType::Simultaneous;
        for (auto k = pick(1, 3); k-- > 0;)
          node.plugs.push_back({PlugKind::Child, child(), ""});
        break;
      case 3:
        node.type = NodeType::BoolSelector;
        node.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u | pick(0, 1), false}};
        node.plugs = {{PlugKind::Child, child(), "True"}, {PlugKind::Child, child(), "False"}};
        if (pick(0, 2) == 0) {
          node.properties = {{ParamType::Bool, "IsNoSelectWhenChildBusy", true}};
        }
        break;
      case 4:
        node.type = NodeType::S32Selector;
        node.inputs = {{ParamType::Int, "Input", -1, 0, 0x80000000u, std::int32_t{0}}};
        node.plugs = {{PlugKind::Child, child(), "", 0, s32_condition(1)},
                      {PlugKind::Child, child(), "", 0, s32_condition(2)},
                      {PlugKind::Child, child(), "", 0, s32_condition(0)}};  // the default
        break;
      case 5:
        node.type = NodeType::SplitTiming;
        for (const auto* plug : {"Enter", "Update", "Leave"}) {
          if (pick(0, 3) != 0) node.plugs.push_back({PlugKind::Child, child(), plug});
        }
        break;
      case 6:  // its paths replace the whole active node array
        node.type = NodeType::Fork;
        for (auto k = pick(1, 3); k-- > 0;)
          transition(node);
        break;
      case 7:
        node.type = NodeType::Join;
        node.properties = {{ParamType::Int, "InFlowNum", static_cast<std::int32_t>(pick(1, 2))}};
        break;
      case 8:  // ends the command, or switches to (returns on) the one it names
        node.type = NodeType::StateEnd;
        node.properties = {
            {ParamType::String, "TransitionCommand",
             std::string(module ? std::array{"Done", "Nowhere", "Done"}[pick(0, 2)]
                                : std::array{"Root", "Other", "Nowhere"}[pick(0, 2)])}};
        break;
      case 10:  // the caller's child plug
        node.type = NodeType::ModuleIFChild;
        node.properties = {{ParamType::String, "Name", std::string(pick(0, 1) ? "C1" : "C0")}};
        break;
      default:
        node.type = NodeType::RandomSelector;
        for (auto k = pick(1, 3); k-- > 0;) {
          node.plugs.push_back(
              {PlugKind::Child, child(), "", 0, random_weight(static_cast<float>(pick(0, 2)))});
        }
        break;
    }
    if (node.type != NodeType::Fork && pick(0, 4) == 0) transition(node);
    for (std::uint32_t q = 0; q < queries; ++q) {
      if (pick(0, 3) == 0) node.queries.push_back(static_cast<std::uint16_t>(q));
    }
    spec.nodes.push_back(node);
  }
  for (std::uint32_t q = 0; q < queries; ++q) {
    BuildNode node;
    add_probe(node, fmt::format("{}Q{}", prefix, q));
    node.flags = node_flags::kIsQuery;
    for (auto later = q + 1; later < queries; ++later) {
      if (pick(0, 2) == 0) node.queries.push_back(static_cast<std::uint16_t>(later));
    }
    spec.nodes.push_back(node);
  }
  auto root = [&] { return static_cast<std::uint16_t>(pick(0, n - 1)); };
  if (module) {
    spec.commands = {{"Run", root(), {}}};
  } else if (!logic) {  // two commands, sometimes with a secondary root
    for (const auto* name : {"Root", "Other"}) {
      spec.commands.push_back({name, root(), {}});
      if (pick(0, 3) == 0) spec.commands.back().secondary = root();
    }
  }
  return file;
}

// What the probes logged, checked as it happens: Enter only when not entered, Update and Leave
// only when entered; at most one update of a node per Enter within one step (a tick, a start),
// except for query nodes, calculated before each calculation of each user.
struct Checker {
  std::set<std::string> entered;
  std::vector<std::string> errors;
  void check(const Log& log) {
    std::set<std::string> updated;  // in this step, since their last Enter
    for (const auto& line : log) {
      const auto space = line.find(' ');
      const auto call = line.substr(0, space), name = line.substr(space + 1);
      const bool in = entered.contains(name);
      if (call == "enter" ? in : !in)
        errors.push_back(line + (in ? " (entered)" : " (not entered)"));
      const bool query = name.starts_with("Q") || name.starts_with("MQ");
      if (call == "update" && !query && !updated.insert(name).second) {
        errors.push_back(line + " (twice)");
      }
      if (call == "enter") {
        entered.insert(name);
        updated.erase(name);
      }
      if (call == "leave") entered.erase(name);
    }
  }
};

// One run: creation, 40 frames with blackboard changes and an occasional restart, destruction.
// Returns every call the classes saw, and the errors.
std::pair<Log, std::vector<std::string>> run(const RandomFile& file, const RandomFile& module,
                                             std::uint32_t seed, bool observed) {
  Harness h;
  for (const auto* f : {&file, &module}) {
    for (const auto& p : f->probes)
      h.registry.add(p.name, std::make_shared<RandomProbe>(p.name, h.log, p.script, p.chooses));
  }
  MemoryResolver modules;
  modules.add("M.module.ainb", ainb::load(build(module.spec), "M.module.ainb"));
  h.options.modules = &modules;
  Log all;
  Checker checker;
  auto record = [&](const Log& log) {
    Log calls;  // the classes' calls, without the observer's transition lines
    std::copy_if(log.begin(), log.end(), std::back_inserter(calls),
                 [](const std::string& line) { return !line.starts_with("transition "); });
    checker.check(calls);
    all.insert(all.end(), calls.begin(), calls.end());
    all.push_back("|");
  };
  if (observed) {
    record(h.step([&] { h.load(file.spec, seed); }));
  } else {
    h.load(file.spec, seed);  // builds the graph; its observed instance goes
    h.instance.reset();
    record(h.step([&] {
      h.instance = std::make_unique<Instance>(h.graph, InstanceOptions{seed, nullptr, nullptr});
    }));
  }
  std::mt19937 rng(seed);
  const bool commands = !file.spec.commands.empty();
  if (commands) record(h.step([&] { h.instance->start("Root"); }));
  for (int frame = 0; frame < 40; ++frame) {
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
      case 0:
        h.instance->set_bool("B0", !std::get<bool>(*h.instance->blackboard("B0")));
        break;
      case 1:
        h.instance->set_bool("B1", !std::get<bool>(*h.instance->blackboard("B1")));
        break;
      case 2:
        h.instance->set_int("I0", std::uniform_int_distribution<int>(0, 3)(rng));
        break;
      case 3:  // switch (or restart)
        if (commands) {
          const auto* name = std::uniform_int_distribution<int>(0, 1)(rng) ? "Other" : "Root";
          record(h.step([&] { h.instance->start(name); }));
        }
        break;
      case 4:
        if (commands) record(h.step([&] { h.instance->stop(); }));
        break;
      default:
        break;
    }
    if (commands && h.instance->state() != CommandState::Running) {
      record(h.step([&] { h.instance->start("Root"); }));
    }
    record(h.tick());
  }
  record(h.step([&] { h.instance.reset(); }));
  for (const auto& name : checker.entered)
    checker.errors.push_back(name + " was never left");
  return {all, checker.errors};
}

// The file, for a failure's message: each node with its plugs (child, transition) and queries.
std::string describe(const RandomFile& file) {
  std::string text = fmt::format("{} ({})\n", file.spec.file_name, file.spec.category);
  for (std::size_t i = 0; i < file.spec.nodes.size(); ++i) {
    const auto& n = file.spec.nodes[i];
    text += fmt::format("  {}: {} {}", i, node_type_name(n.type), n.name);
    for (const auto& p : n.properties)
      text += " " + p.name;
    for (const auto& p : n.plugs) {
      text += p.kind == PlugKind::Child
                  ? fmt::format(" child {}{}", p.node, p.name.empty() ? "" : " (" + p.name + ")")
                  : fmt::format(" transition {} ({:#x})", p.node,
                                file.spec.transitions[p.transition].word);
    }
    for (const auto q : n.queries)
      text += fmt::format(" query {}", q);
    text += "\n";
  }
  for (const auto& p : file.probes) {
    text += fmt::format("  {} returns", p.name);
    for (const auto r : p.script)
      text += r == R ? " Running" : r == S ? " Success" : " Failure";
    text += p.chooses ? ", taking its transition while it runs\n" : "\n";
  }
  return text;
}

// Where two logs part ("" when they do not), with the calls before it ("|" ends a step).
std::string first_difference(const Log& a, const Log& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i])
    ++i;
  if (i == a.size() && i == b.size()) return "";
  const auto from = i < 8 ? 0 : i - 8;
  auto tail = [&](const Log& log) {
    return fmt::format(
        "{}",
        fmt::join(log.begin() + static_cast<std::ptrdiff_t>(from),
                  log.begin() + static_cast<std::ptrdiff_t>(std::min(i + 1, log.size())), ", "));
  };
  return fmt::format("at call {}: [{}] against [{}]", i, tail(a), tail(b));
}

}  // namespace

TEST_CASE("random files keep every Enter matched by one Leave, with and without an observer") {
  for (std::uint32_t seed = 1; seed <= 10000; ++seed) {
    std::mt19937 rng(seed);
    const bool calls_module = seed % 3 == 0;
    const auto file = random_file(rng, seed % 4 == 0 ? Role::Logic : Role::Root, calls_module);
    const auto module = random_file(rng, Role::Module, false);
    const auto [observed, errors] = run(file, module, seed, true);
    const auto [quiet, quiet_errors] = run(file, module, seed, false);
    CAPTURE(seed);
    INFO(describe(file));
    if (calls_module) INFO(describe(module));
    CHECK(fmt::format("{}", fmt::join(errors, "; ")) == "");
    CHECK(fmt::format("{}", fmt::join(quiet_errors, "; ")) == "");
    CHECK(first_difference(observed, quiet) == "");
    if (!errors.empty() || !quiet_errors.empty() || observed != quiet) break;  // one is enough
  }
}
