// Our readings of the common generic classes whose names and parameters leave their behaviour
// open (docs/generic-nodes.md, "Readings"): registered only with
// GenericNodeOptions::ambiguous_readings (`--ambiguous-readings`), each from the evidence the
// doc gives.

#include <algorithm>

#include "selector.hpp"

namespace ainb::gamedata::generic {

namespace {

// A MultiBool input's sources combined by a Mode property: 0 any (or), 1 all (and). The corpus
// wiring reads so: Mode 0 lists alternatives (IsGeneralCounterEnd, IsForbidAttackPermission,
// IsTransitionDesiredAnyReason), Mode 1 joint conditions (RagdollReactionHasComponent,
// CctHasRagdollController). Another Mode reads as 0.
bool combine(const NodeContext& c, runtime::PropertyParam<std::int32_t> mode) {
  const auto n = c.input_source_count(ParamType::Bool, "MultiBool");
  const bool all = c.read(mode) == 1;
  for (std::size_t k = 0; k < n; ++k) {
    if (c.input_bool("MultiBool", k) != all) return !all;
  }
  return all && n > 0;
}

// QueryGenericMultiBool, QueryGenericBooleanOperation: `out` = the combined sources.
class MultiBool final : public Calculation {
 public:
  explicit MultiBool(std::string out)
      : in_(declare_input<bool>("MultiBool")),
        mode_(declare_property<std::int32_t>("Mode")),
        out_(declare_output<bool>(std::move(out))) {}

 private:
  void calculate(NodeContext& c) override { c.write(out_, combine(c, mode_)); }
  runtime::InputParam<bool> in_;  // declared for the check of the real files; read by source
  runtime::PropertyParam<std::int32_t> mode_;
  runtime::OutputParam<bool> out_;
};

// SelectorGenericMultiBool: `True` or `False` by the combined sources; IsOnlyEnter as
// SelectChildOnEnterOnly.
class MultiBoolSelector final : public TwoWaySelector {
 public:
  MultiBoolSelector()
      : TwoWaySelector("True", "False", "IsOnlyEnter"),
        in_(declare_input<bool>("MultiBool")),
        mode_(declare_property<std::int32_t>("Mode")) {}

 private:
  bool condition(NodeContext& c) override { return combine(c, mode_); }
  runtime::InputParam<bool> in_;
  runtime::PropertyParam<std::int32_t> mode_;
};

// ExecuteGenericDummyAction: an action that does nothing and never finishes. It stands in the
// branch a selector takes when there is nothing to do (167 of 330 are a BoolSelector's False
// child); finishing at once is what ExecuteGenericSetResultSuccess is for.
class DummyAction final : public NodeClass {
 public:
  DummyAction() : NodeClass(kUpdateOnly) {}
  Result update(NodeContext&) override { return Result::Running; }
};

// ExecuteGenericCounter: counts the updates since its Enter up to BaseFrameTime, returning
// ResultBeforeFinish until then and ResultOnFinish from then on (the game's result enum; None
// before the end reads as Running: a counter that finished at its first frame would not count).
// Outputs: ElapsedFrameTime, RemainingFrameTime, PercentComplete as a fraction (the real files
// compare it with 1.0). RandomTimeMax adds a random time in the game; we add none, so that runs
// repeat.
struct Count {
  float elapsed;
};
class Counter final : public runtime::StatefulNodeClass<Count> {
 public:
  Counter()
      : StatefulNodeClass(kUpdateOnly),
        before_(declare_property<std::int32_t>("ResultBeforeFinish")),
        on_finish_(declare_property<std::int32_t>("ResultOnFinish")),
        frames_(declare_property<float>("BaseFrameTime")),
        elapsed_(declare_output<float>("ElapsedFrameTime")),
        remaining_(declare_output<float>("RemainingFrameTime")),
        percent_(declare_output<float>("PercentComplete")) {}
  Result on_update(NodeContext& c, Count& count) override {
    const auto total = c.read(frames_);
    count.elapsed = std::min(count.elapsed + 1, std::max(total, 0.0f));
    c.write(elapsed_, count.elapsed);
    c.write(remaining_, total - count.elapsed);
    c.write(percent_, total > 0 ? count.elapsed / total : 1.0f);
    if (count.elapsed >= total) return game_result(c.read(on_finish_));
    const auto before = c.read(before_);
    return before == 0 ? Result::Running : game_result(before);
  }

 private:
  runtime::PropertyParam<std::int32_t> before_, on_finish_;
  runtime::PropertyParam<float> frames_;
  runtime::OutputParam<float> elapsed_, remaining_, percent_;
};

// SelectorBoolTrigger: runs `NotTriggered` until its Input is true, then `Triggered`, which it
// keeps when the Input falls again (a trigger latches; the Inputs are mostly one-frame events,
// QueryASGetTriggerEvent*). ResetWhenChildResultSuccess: a Success of `Triggered` re-arms it.
// ExecuteTriggeredChildOnEveryTrigger: a new rising Input restarts `Triggered`.
// NoChangeWhenChildIsBusy: no trigger while `NotTriggered` is busy.
struct Trigger {
  bool triggered, last_input, busy;
};
class BoolTrigger final : public runtime::StatefulNodeClass<Trigger> {
 public:
  BoolTrigger()
      : StatefulNodeClass(kUpdateOnly),
        input_(declare_input<bool>("Input")),
        every_(declare_property<bool>("ExecuteTriggeredChildOnEveryTrigger")),
        no_change_when_busy_(declare_property<bool>("NoChangeWhenChildIsBusy")),
        reset_(declare_property<bool>("ResetWhenChildResultSuccess")) {}
  Result on_update(NodeContext& c, Trigger& t) override {
    const auto triggered = child_named(c, "Triggered");
    const auto not_triggered = child_named(c, "NotTriggered");
    const bool input = c.read(input_);
    const bool rising = input && !t.last_input;
    t.last_input = input;
    if (!t.triggered && input && !(t.busy && c.read(no_change_when_busy_))) {
      c.leave_child(not_triggered);
      t.triggered = true;
    } else if (t.triggered && rising && c.read(every_)) {
      c.leave_child(triggered);  // entered again below
    }
    const auto result = c.run_child(t.triggered ? triggered : not_triggered);
    t.busy = result == Result::Running;
    if (t.triggered && result == Result::Success && c.read(reset_)) t.triggered = false;
    return result;
  }

 private:
  runtime::InputParam<bool> input_;
  runtime::PropertyParam<bool> every_, no_change_when_busy_, reset_;
};

// SelectorGenericForceResult: runs `Execute`; while it is busy, busy; when it finishes,
// ForcedResult (the game's result enum) instead of its result. Its children are mostly
// lasting actions (ExecuteASPlay, selectors, Simultaneous), which a result forced at every
// update would cut off after a frame.
class ForceResult final : public NodeClass {
 public:
  ForceResult() : NodeClass(kUpdateOnly), forced_(declare_property<std::int32_t>("ForcedResult")) {}
  Result update(NodeContext& c) override {
    if (c.run_child(child_named(c, "Execute")) == Result::Running) return Result::Running;
    return game_result(c.read(forced_));
  }

 private:
  runtime::PropertyParam<std::int32_t> forced_;
};

// SelectorGenericFrameCounter: counts its updates since its Enter; `NotFinish` runs until the
// count reaches CountFrames, `Finish` from then on (outputs CurrentFrame, FinishFrame). IsLoop:
// when `Finish` ends, the count starts again. NoChangeWhenChildIsBusy: `NotFinish` is not left
// while busy. RandomAddCountFrames adds a random count in the game; we add none (runs repeat).
struct Frames {
  float frame;
  std::uint32_t chosen;  // 1 + the child plug running
  bool busy;
};
class FrameCounter final : public runtime::StatefulNodeClass<Frames> {
 public:
  FrameCounter()
      : StatefulNodeClass(kUpdateOnly),
        count_(declare_property<float>("CountFrames")),
        loop_(declare_property<bool>("IsLoop")),
        no_change_when_busy_(declare_property<bool>("NoChangeWhenChildIsBusy")),
        current_(declare_output<float>("CurrentFrame")),
        finish_(declare_output<float>("FinishFrame")) {}
  Result on_update(NodeContext& c, Frames& f) override {
    const auto total = c.read(count_);
    f.frame += 1;
    c.write(current_, f.frame);
    c.write(finish_, total);
    const bool keep = f.chosen != 0 && f.busy && c.read(no_change_when_busy_);
    if (!keep) {
      const auto k = child_named(c, f.frame >= total ? "Finish" : "NotFinish");
      if (f.chosen != 0 && f.chosen - 1 != k) c.leave_child(f.chosen - 1);
      f.chosen = static_cast<std::uint32_t>(k + 1);
    }
    const auto result = c.run_child(f.chosen - 1);
    f.busy = result == Result::Running;
    if (!f.busy && f.frame >= total && c.read(loop_)) f.frame = 0;
    return result;
  }

 private:
  runtime::PropertyParam<float> count_;
  runtime::PropertyParam<bool> loop_, no_change_when_busy_;
  runtime::OutputParam<float> current_, finish_;
};

}  // namespace

void add_readings(ClassList& classes, const GenericNodeOptions& options) {
  if (!options.ambiguous_readings) return;
  auto add = [&](std::string name, std::shared_ptr<NodeClass> node_class) {
    classes.emplace_back(std::move(name), std::move(node_class));
  };
  add("QueryGenericMultiBool", std::make_shared<MultiBool>("Bool"));
  add("QueryGenericBooleanOperation", std::make_shared<MultiBool>("Result"));
  add("SelectorGenericMultiBool", std::make_shared<MultiBoolSelector>());
  add("ExecuteGenericDummyAction", std::make_shared<DummyAction>());
  add("ExecuteGenericCounter", std::make_shared<Counter>());
  add("SelectorBoolTrigger", std::make_shared<BoolTrigger>());
  add("SelectorGenericForceResult", std::make_shared<ForceResult>());
  add("SelectorGenericFrameCounter", std::make_shared<FrameCounter>());
}

}  // namespace ainb::gamedata::generic
