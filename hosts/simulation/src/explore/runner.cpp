#include "runner.hpp"

#include <cstring>

#include "ainb/simulation/tracer.hpp"

namespace ainb::simulation::explorer {

namespace {

using runtime::NodeContext;
using runtime::Result;

// A class `ainb run` would stub: scripted as the running scenario says, else the stub. Most of a
// run's nodes are these, so the calls are few: a NodeClass with its state by hand (one virtual
// call per Update, not a StatefulNodeClass's two), and no Enter (the runtime zeroes the state).
class ExploredClass : public runtime::NodeClass {
 public:
  explicit ExploredClass(std::uint32_t index, Hooks hooks = kUpdateOnly)
      : NodeClass(hooks), index_(index) {}
  std::size_t state_size() const override { return sizeof(ScriptedState); }
  Result update(NodeContext& c) override {
    auto& runner = *static_cast<Runner*>(c.instance().host());
    auto& s = runner.scripted(c);
    if (s.behaviour == nullptr)
      return runner.shared().stub_children() ? stub_update(c, true) : Result::Success;
    if (s.plug == Runner::Scripted::kUnknown) s.plug = chosen_plug(c, *s.behaviour->source);
    return scripted_update(c, c.state<ScriptedState>(), *s.behaviour, s.plug);
  }

 protected:
  std::uint32_t index_;
};

// The same with node definitions: a node the scenario does not script writes their output
// defaults at its Enter, as a stub does.
class ExploredWritingClass final : public ExploredClass {
 public:
  explicit ExploredWritingClass(std::uint32_t index) : ExploredClass(index, kEnter) {}
  void enter(NodeContext& c) override {
    auto& runner = *static_cast<Runner*>(c.instance().host());
    if (runner.scripted(c).behaviour != nullptr) return;
    if (!runner.shared().writes_stub_outputs(index_)) return;
    for (const auto& w : runner.shared().stub_writes(c.model(), c.node_index()))
      c.write_value(w.type, w.name, w.value);
  }
};

// Feeds a run's coverage and, in differential exploration, its fingerprint.
class Watch : public runtime::Observer {
 public:
  Watch(Coverage& coverage, Fingerprint* print) : coverage_(coverage), print_(print) {}
  std::uint64_t frame = 0;

  // The nodes entered and the decisions taken are read at the end (Coverage::reached_by):
  // without a fingerprint, the scheduler keeps its short paths.
  bool node_events() const override { return print_ != nullptr; }
  bool branch_events() const override { return false; }

  void on_command(const runtime::Instance& i, std::string_view name) override {
    coverage_.commanded(i.graph(), name);
    if (print_ != nullptr) print_->command(frame, i, name);
  }
  void on_enter(const runtime::Instance& i, std::uint32_t node) override {
    print_->node_event(frame, i, 'e', node);
  }
  // (Node events come only with a fingerprint.)
  void on_update(const runtime::Instance& i, std::uint32_t node, Result result) override {
    print_->node_event(frame, i, 'u', node, static_cast<std::uint64_t>(result));
  }
  void on_leave(const runtime::Instance& i, std::uint32_t node) override {
    print_->node_event(frame, i, 'l', node);
  }
  void on_transition(const runtime::Instance& i, std::uint32_t from, std::uint32_t to) override {
    coverage_.transitioned(i.graph(), from, to);
    if (print_ != nullptr) print_->transition(frame, i, from, to);
  }
  void on_alert(const runtime::Instance& i, std::uint32_t node, std::string_view message) override {
    if (print_ != nullptr) print_->detail(frame, i, 'a', node, message);
  }
  void on_xlink(const runtime::Instance& i, std::uint32_t node, std::string_view slot,
                std::string_view action) override {
    print_->detail(frame, i, 'x', node, std::string(slot) + "=" + std::string(action));
  }
  void on_blackboard(const runtime::Instance& i, std::size_t entry) override {
    if (print_ == nullptr) return;
    const auto& bb = i.graph().model().blackboard.entries[entry];
    const auto* v = i.blackboard(bb.name);
    print_->detail(frame, i, 'b', Fingerprint::kNoNode,
                   std::string(bb.name) + "=" + (v ? format_value(*v) : "?"));
  }

 private:
  Coverage& coverage_;
  Fingerprint* print_;
};

}  // namespace

Shared::Shared(const std::filesystem::path& file, const RunOptions& options, const Targets& targets)
    : targets_(targets), stub_children_(options.stub_children) {
  for (const auto& c : targets.classes)
    classes_.push_back(c.name);
  for (std::uint32_t k = 0; k < targets.functions.size(); ++k) {
    const auto size = exb::value_size(targets.functions[k].result);
    functions_.add_erased(
        targets.functions[k].signature, [k, size](exb::CallContext& context, std::uint8_t* block) {
          const auto* result = static_cast<const Runner*>(context.host)->function_result(k).data();
          // (Sizes the compiler knows: moves, not a call, in every expression.)
          switch (size) {
            case 4:
              std::memcpy(block, result, 4);
              break;
            case 8:
              std::memcpy(block, result, 8);
              break;
            case 12:
              std::memcpy(block, result, 12);
              break;
            default:
              break;  // None: nothing to return
          }
        });
  }
  actor_ = build_actor(
      file, options,
      [&](runtime::NodeRegistry& registry) {
        for (std::uint32_t k = 0; k < classes_.size(); ++k) {
          if (registry.stub_outputs) {
            registry.add(classes_[k], std::make_shared<ExploredWritingClass>(k));
          } else {
            registry.add(classes_[k], std::make_shared<ExploredClass>(k));
          }
        }
      },
      functions_);
  writes_.assign(classes_.size(), false);
  for (const auto* g : actor_graphs(*actor_.graph)) {
    const auto& m = g->model();
    files_.push_back(g);
    auto& classes = class_of_.emplace_back(m.nodes.size(), -1);
    for (std::uint32_t n = 0; n < m.nodes.size(); ++n) {
      if (m.nodes[n].type == NodeType::UserDefined) classes[n] = class_index(m.nodes[n].name);
    }
    auto& by_node = stub_writes_[&m];
    by_node.resize(m.nodes.size());
    if (!actor_.stub_outputs) continue;
    for (std::uint32_t n = 0; n < m.nodes.size(); ++n) {
      if (m.nodes[n].type != NodeType::UserDefined || class_index(m.nodes[n].name) < 0) continue;
      for (std::size_t t = 0; t < kParamTypeCount; ++t) {
        const auto type = static_cast<ParamType>(t);
        for (const auto& out : m.outputs_of(m.nodes[n], type)) {
          auto value = actor_.stub_outputs(m.nodes[n].name, out);
          if (!value) continue;
          if (const auto* s = std::get_if<std::string_view>(&*value))
            *value = std::string_view(strings_.emplace_back(*s));
          by_node[n].push_back({type, out.name, *value});
          writes_[static_cast<std::size_t>(class_index(m.nodes[n].name))] = true;
        }
      }
    }
  }
}

std::string started(const Scenario& s, const runtime::Graph& graph) {
  if (s.command && !s.command->empty()) return *s.command;
  const auto& commands = graph.model().commands;
  return commands.empty() ? std::string() : std::string(commands[0].name);
}

std::int32_t Shared::class_index(std::string_view name) const {
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    if (classes_[k] == name) return static_cast<std::int32_t>(k);
  }
  return -1;
}

const std::vector<StubWrite>& Shared::stub_writes(const Model& model, std::uint32_t node) const {
  return stub_writes_.at(&model)[node];
}

Runner::Runner(const Shared& shared)
    : shared_(shared),
      behaviours_(shared.class_count(), nullptr),
      by_node_(shared.files().size()),
      results_(shared.targets().functions.size()),
      coverage_(shared.graph()) {}

const Coverage& Runner::run(const Scenario& scenario, std::uint64_t frames,
                            std::string_view command, Fingerprint* print) {
  std::fill(behaviours_.begin(), behaviours_.end(), nullptr);
  prepared_.clear();
  prepared_.reserve(scenario.at.size() + scenario.nodes.size());  // (pointers into it are kept)
  for (const auto& [cls, behaviour] : scenario.nodes) {
    if (const auto k = shared_.class_index(cls); k >= 0)
      behaviours_[static_cast<std::size_t>(k)] = &prepared_.emplace_back(behaviour);
  }
  const auto& files = shared_.files();
  for (std::size_t f = 0; f < files.size(); ++f) {
    const auto& classes = shared_.classes_of(f);
    by_node_[f].resize(classes.size());
    for (std::size_t n = 0; n < classes.size(); ++n) {
      by_node_[f][n] = {classes[n] < 0 ? nullptr
                                       : behaviours_[static_cast<std::size_t>(classes[n])]};
    }
  }
  for (const auto& at : scenario.at) {
    const auto f = std::find(files.begin(), files.end(), actor_file(shared_.graph(), at.file));
    if (f == files.end()) continue;
    auto& nodes = by_node_[static_cast<std::size_t>(f - files.begin())];
    if (at.node < nodes.size()) nodes[at.node] = {&prepared_.emplace_back(at.behaviour)};
  }
  const auto& functions = shared_.targets().functions;
  for (std::size_t k = 0; k < functions.size(); ++k) {
    const auto it = scenario.functions.find(functions[k].signature);
    results_[k] = {};
    if (it == scenario.functions.end()) continue;
    if (const auto bytes = simulation::function_result(it->second, functions[k].result))
      results_[k] = *bytes;
  }
  coverage_.clear_reached();
  if (print != nullptr) print->clear();
  Watch watch(coverage_, print);
  {
    runtime::Instance actor(shared_.graph_ptr(),
                            {.seed = scenario.seed.value_or(0), .host = this, .observer = &watch});
    const auto start = command.empty() ? started(scenario, shared_.graph()) : std::string(command);
    run_frames(actor, scenario, start, scenario.frames.value_or(frames),
               scenario.restart.value_or(true), [&](std::uint64_t frame) { watch.frame = frame; });
    coverage_.reached_by(actor);
  }  // the actor leaves its nodes: the last frame's events
  return coverage_;
}

}  // namespace ainb::simulation::explorer
