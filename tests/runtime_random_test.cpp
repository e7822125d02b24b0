// Random small files against the scheduler's promises (docs/semantics.md): graphs with shared
// nodes, every composite kind, looping Sequentials, selectors that change their minds, chained
// queries, transitions (cycles of post-calc ones included), Fork and Join, in AI and Logic
// files, run for frames while the blackboard changes and commands restart. Every Enter must be
// matched by one Leave, no node may be updated or left while it is not entered, and the runs
// with and without an observer (the general and the short paths) must call the classes in the
// same order. Hand-written cases pin what a rule means; these look for the combinations nobody
// wrote down (they found four faults the hand-written ones had missed: docs/semantics.md).
// A failure names its seed and prints the file.

#include <algorithm>
#include <iterator>
#include <random>
#include <set>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "ainb_builder.hpp"
#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

namespace {

struct RandomFile {
  AinbSpec spec;
  std::vector<std::pair<std::string, std::vector<Result>>> probes;
};

constexpr std::uint32_t kPostCalc = 0x80000001u;

// Node i's children are among nodes i+1 .. n-1: no cycles, and any node may have several
// parents. The last node is always a user node. Query nodes come after them, each using only
// later ones; transitions (plain or post calc) may lead anywhere, cycles included.
RandomFile random_file(std::mt19937& rng, bool logic) {
  auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
    return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
  };
  RandomFile file;
  auto& spec = file.spec;
  spec.file_name = "random.root";
  if (logic) {
    spec.category = "Logic";
  } else {
    spec.commands = {{"Root", 0, {}}};
  }
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
    file.probes.emplace_back(name, script);
  };
  auto transition = [&](BuildNode& node) {
    node.plugs.push_back({PlugKind::Transition, pick(0, n - 1), "",
                          static_cast<std::uint32_t>(spec.transitions.size())});
    spec.transitions.push_back({pick(0, 1) == 0 ? 1u : kPostCalc, ""});
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto kind = i + 1 == n ? 0 : pick(i == 0 ? 1 : 0, 7);
    auto child = [&] { return pick(i + 1, n - 1); };
    BuildNode node;
    switch (kind) {
      case 0:  // a user node with a random script
        add_probe(node, fmt::format("U{}", i));
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
      default:
        node.type = NodeType::Join;
        node.properties = {{ParamType::Int, "InFlowNum", static_cast<std::int32_t>(pick(1, 2))}};
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
    add_probe(node, fmt::format("Q{}", q));
    node.flags = node_flags::kIsQuery;
    for (auto later = q + 1; later < queries; ++later) {
      if (pick(0, 2) == 0) node.queries.push_back(static_cast<std::uint16_t>(later));
    }
    spec.nodes.push_back(node);
  }
  return file;
}

// What the probes logged, checked as it happens: Enter only when not entered, Update and Leave
// only when entered.
struct Checker {
  std::set<std::string> entered;
  std::vector<std::string> errors;
  void check(const Log& log) {
    for (const auto& line : log) {
      const auto space = line.find(' ');
      const auto call = line.substr(0, space), name = line.substr(space + 1);
      const bool in = entered.contains(name);
      if (call == "enter" ? in : !in)
        errors.push_back(line + (in ? " (entered)" : " (not entered)"));
      if (call == "enter") entered.insert(name);
      if (call == "leave") entered.erase(name);
    }
  }
};

// One run: creation, 40 frames with blackboard changes and an occasional restart, destruction.
// Returns every call the classes saw, and the errors.
std::pair<Log, std::vector<std::string>> run(const RandomFile& file, std::uint32_t seed,
                                             bool observed) {
  Harness h;
  for (const auto& [name, script] : file.probes)
    h.probe(name, script);
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
      case 3:
        if (commands) record(h.step([&] { h.instance->start("Root"); }));
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
  std::string text = fmt::format("{} file\n", file.spec.category);
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
  for (const auto& [name, script] : file.probes) {
    text += fmt::format("  {} returns", name);
    for (const auto r : script)
      text += r == R ? " Running" : r == S ? " Success" : " Failure";
    text += "\n";
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
    const auto file = random_file(rng, seed % 4 == 0);
    const auto [observed, errors] = run(file, seed, true);
    const auto [quiet, quiet_errors] = run(file, seed, false);
    CAPTURE(seed);
    INFO(describe(file));
    CHECK(fmt::format("{}", fmt::join(errors, "; ")) == "");
    CHECK(fmt::format("{}", fmt::join(quiet_errors, "; ")) == "");
    CHECK(first_difference(observed, quiet) == "");
    if (!errors.empty() || !quiet_errors.empty() || observed != quiet) break;  // one is enough
  }
}
