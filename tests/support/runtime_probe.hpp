#pragma once

// LimboAI-style test nodes for the scheduler: a Probe logs every Enter/Update/Leave, and a
// Harness runs a hand-made file so a test can assert the exact sequence frame by frame.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "ainb_builder.hpp"

namespace ainb::test {

using Log = std::vector<std::string>;

// Logs its calls as "enter A", "update A", "leave A"; returns `script[k]` on its k-th update of
// one activation (the last entry repeats). Writes its update count to an int output "Count".
class Probe : public runtime::NodeClass {
 public:
  Probe(std::string name, Log& log, std::vector<runtime::Result> script)
      : name_(std::move(name)), log_(log), script_(std::move(script)) {}
  void enter(runtime::NodeContext&) override {
    log_.push_back("enter " + name_);
    updates_ = 0;
  }
  runtime::Result update(runtime::NodeContext& context) override {
    log_.push_back("update " + name_);
    context.write_int("Count", static_cast<std::int32_t>(updates_ + 1));
    return script_[std::min<std::size_t>(updates_++, script_.size() - 1)];
  }
  void leave(runtime::NodeContext&) override { log_.push_back("leave " + name_); }

 private:
  std::string name_;
  Log& log_;
  std::vector<runtime::Result> script_;
  std::size_t updates_ = 0;
};

inline constexpr auto R = runtime::Result::Running;
inline constexpr auto S = runtime::Result::Success;
inline constexpr auto F = runtime::Result::Failure;

// Logs transitions into the same log, as "transition FROM -> TO" with the nodes' class names
// (or built-in type names), prefixed by the file when it is a module's.
struct TransitionLog : runtime::Observer {
  Log& log;
  explicit TransitionLog(Log& l) : log(l) {}
  static std::string name_of(const runtime::Instance& instance, std::uint32_t node) {
    const auto& n = instance.graph().model().nodes[node];
    return n.type == NodeType::UserDefined ? std::string(n.name)
                                           : std::string(node_type_name(n.type));
  }
  void on_transition(const runtime::Instance& instance, std::uint32_t from,
                     std::uint32_t to) override {
    log.push_back(
        fmt::format("transition {} -> {}", name_of(instance, from), name_of(instance, to)));
  }
};

struct Harness {
  // Declared before the instance, so they outlive it: its destructor leaves nodes and reports.
  Log log;
  TransitionLog transitions{log};
  runtime::NodeRegistry registry;
  runtime::GraphOptions options;
  std::shared_ptr<const runtime::Graph> graph;
  std::unique_ptr<runtime::Instance> instance;

  void probe(const std::string& name, std::vector<runtime::Result> script) {
    registry.add(name, std::make_shared<Probe>(name, log, std::move(script)));
  }
  void load(const AinbSpec& spec, std::uint64_t seed = 0) {
    instance.reset();
    auto model = ainb::load(build(spec), spec.file_name + ".ainb");
    graph = std::make_shared<runtime::Graph>(model, registry, options);
    instance = std::make_unique<runtime::Instance>(
        graph, runtime::InstanceOptions{seed, nullptr, &transitions});
  }
  // A fresh instance with no observer: the scheduler's short paths (the probes still log).
  void unobserved() {
    instance.reset();
    instance = std::make_unique<runtime::Instance>(graph, runtime::InstanceOptions{});
  }
  // The log of one step, then cleared.
  Log step(const std::function<void()>& action) {
    log.clear();
    action();
    return log;
  }
  Log tick() {
    return step([&] { instance->tick(); });
  }
};

inline BuildNode user(const std::string& name) {
  return BuildNode{.name = name};
}

// An Element_BoolSelector reading the Bool blackboard entry 0 ("Flag"), leading to node 1 when it
// is true and to node 2 when it is false.
inline BuildNode flag_selector() {
  BuildNode choose{.type = NodeType::BoolSelector};
  choose.inputs = {{ParamType::Bool, "Input", -1, 0, 0x80000000u, false}};
  choose.plugs = {{PlugKind::Child, 1, "True"}, {PlugKind::Child, 2, "False"}};
  return choose;
}

}  // namespace ainb::test
