// Query nodes: calculated before their user's Enter and each Update, chained, and shared (entered
// once, left with their last user). Each test asserts the exact Enter/Update/Leave sequence frame
// by frame (docs/semantics.md says why each order is what it is).

#include <doctest/doctest.h>

#include "runtime_probe.hpp"

using namespace ainb;
using namespace ainb::runtime;
using namespace ainb::test;

TEST_CASE("queries are calculated before their user's enter and each update") {
  Harness h;
  h.probe("IsNear", {S});
  h.probe("Chase", {R});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode chase = user("Chase");
  chase.queries = {0};
  chase.inputs = {{ParamType::Int, "Near", 1, 0, 0, std::int32_t{0}}};
  BuildNode near = user("IsNear");
  near.flags = node_flags::kIsQuery;
  near.outputs = {{ParamType::Int, "Count"}};
  spec.nodes = {chase, near};
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter IsNear", "update IsNear", "enter Chase"});
  CHECK(h.tick() == Log{"update IsNear", "update Chase"});
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave Chase", "leave IsNear"});
}

TEST_CASE(
    "chained and shared queries: entered once, calculated after their own, left by the last user") {
  // User queries A and B; B queries A too; A queries C. Every calculation of A is preceded by
  // one of C, and A is entered once though two nodes use it.
  Harness h;
  h.probe("User", {R});
  for (const auto* name : {"A", "B", "C"})
    h.probe(name, {S});
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode user_node = user("User");
  user_node.queries = {0, 1};  // query indices: A 0, B 1, C 2
  BuildNode a = user("A"), b = user("B"), c = user("C");
  a.queries = {2};
  b.queries = {0};
  for (auto* q : {&a, &b, &c})
    q->flags = node_flags::kIsQuery;
  spec.nodes = {user_node, a, b, c};
  h.load(spec);
  const Log entering{"enter A",  "enter C",  "update C", "update A",  "enter B",
                     "update C", "update A", "update B", "enter User"};
  CHECK(h.step([&] { h.instance->start("Root"); }) == entering);
  const Log updating{"update C", "update A", "update C", "update A", "update B", "update User"};
  CHECK(h.tick() == updating);
  CHECK(h.tick() == updating);
  // A stays while B still uses it; then B's leave takes A, and A's takes C.
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave User", "leave B", "leave A", "leave C"});
}

namespace {

// A query that logs its Enter and Leave, and its calculation as "NAME VALUE".
class LoggedQuery : public runtime::NodeClass {
 public:
  LoggedQuery(std::string name, Log& log) : name_(std::move(name)), log_(log) {}
  void enter(runtime::NodeContext&) override { log_.push_back("enter " + name_); }
  void leave(runtime::NodeContext&) override { log_.push_back("leave " + name_); }

 protected:
  template <typename T>
  void logged(T value) {
    log_.push_back(fmt::format("{} {}", name_, value));
  }

 private:
  std::string name_;
  Log& log_;
};

// A counter query reset by a query that reads the counter's own output: the shape of the cycle
// in Ganondorf_Miasma.utility.root (docs/semantics.md, "Query cycles").
class CycleCounter : public LoggedQuery {
 public:
  explicit CycleCounter(Log& log) : LoggedQuery("Counter", log) {}
  runtime::Result update(runtime::NodeContext& c) override {
    count_ = c.input_bool("Reset") ? 0 : count_ + 1;
    c.write_int("Count", count_);
    logged(count_);
    return runtime::Result::Success;
  }

 private:
  std::int32_t count_ = 0;
};

class AtLimit : public LoggedQuery {
 public:
  explicit AtLimit(Log& log) : LoggedQuery("AtLimit", log) {}
  runtime::Result update(runtime::NodeContext& c) override {
    const bool done = c.input_int("Count") >= 3;
    c.write_bool("Done", done);
    logged(done);
    return runtime::Result::Success;
  }
};

// User (node 0) queries AtLimit (node 1, query 0), which queries Counter (node 2, query 1),
// which queries AtLimit: Counter's Reset reads AtLimit's Done, AtLimit's Count reads Counter's.
AinbSpec counter_cycle(Harness& h) {
  h.probe("User", {R});
  h.registry.add("AtLimit", std::make_shared<AtLimit>(h.log));
  h.registry.add("Counter", std::make_shared<CycleCounter>(h.log));
  AinbSpec spec;
  spec.commands = {{"Root", 0, {}}};
  BuildNode user_node = user("User");
  user_node.queries = {0};
  BuildNode at_limit = user("AtLimit");
  at_limit.flags = node_flags::kIsQuery;
  at_limit.queries = {1};
  at_limit.inputs = {{ParamType::Int, "Count", 2, 0, 0, std::int32_t{0}}};
  at_limit.outputs = {{ParamType::Bool, "Done"}};
  BuildNode counter = user("Counter");
  counter.flags = node_flags::kIsQuery;
  counter.queries = {0};
  counter.inputs = {{ParamType::Bool, "Reset", 1, 0, 0, false}};
  counter.outputs = {{ParamType::Int, "Count"}};
  spec.nodes = {user_node, at_limit, counter};
  return spec;
}

}  // namespace

TEST_CASE("a query cycle: the query met again gives what it holds, from the frame before") {
  // AtLimit's calculation needs Counter first; Counter's needs AtLimit, which is being
  // calculated: Counter reads the Done AtLimit holds (false before its first calculation), so a
  // reset is seen one frame after the limit. Enter and Leave stay matched.
  Harness h;
  h.load(counter_cycle(h));
  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter AtLimit", "enter Counter", "Counter 1", "AtLimit false", "enter User"});
  CHECK(h.tick() == Log{"Counter 2", "AtLimit false", "update User"});
  CHECK(h.tick() == Log{"Counter 3", "AtLimit true", "update User"});
  CHECK(h.tick() == Log{"Counter 0", "AtLimit false", "update User"});
  CHECK(h.tick() == Log{"Counter 1", "AtLimit false", "update User"});
  CHECK(h.step([&] { h.instance->stop(); }) == Log{"leave User", "leave AtLimit", "leave Counter"});
  // Started again, both are entered again: nothing was kept entered by the cycle.
  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter AtLimit", "enter Counter", "Counter 2", "AtLimit false", "enter User"});
}

TEST_CASE("a query cycle: each user starts the walk at its own query") {
  // A second user of Counter alone: Counter's walk meets AtLimit first, and AtLimit meets
  // Counter on the path, so AtLimit reads the Count Counter holds and Counter reads the fresh
  // Done. Each query is left with its last user outside the cycle.
  Harness h;
  auto spec = counter_cycle(h);
  h.probe("Other", {R});
  spec.nodes[0].type = NodeType::Simultaneous;
  spec.nodes[0].name.clear();
  spec.nodes[0].queries.clear();
  BuildNode first = user("User");
  first.queries = {0};
  BuildNode second = user("Other");
  second.queries = {1};
  spec.nodes[0].plugs = {{PlugKind::Child, 3, ""}, {PlugKind::Child, 4, ""}};
  spec.nodes.push_back(first);
  spec.nodes.push_back(second);
  h.load(spec);
  CHECK(h.step([&] { h.instance->start("Root"); }) ==
        Log{"enter AtLimit", "enter Counter", "Counter 1", "AtLimit false", "enter User",
            "AtLimit false", "Counter 2", "enter Other"});
  CHECK(h.tick() == Log{"Counter 3", "AtLimit true", "update User", "AtLimit true", "Counter 0",
                        "update Other"});
  // The Simultaneous leaves Other first: Counter loses its last user; AtLimit stays for User.
  CHECK(h.step([&] { h.instance->stop(); }) ==
        Log{"leave Other", "leave Counter", "leave User", "leave AtLimit"});
}
