// Selector* classes whose choice their names and plugs determine: SelectorMath* compare two
// inputs and run `if_true` or `if_false`; SelectorGenericForceResultOneToOne runs `Execute` and
// maps its result (docs/generic-nodes.md, "Selectors").

#include "selector.hpp"

namespace ainb::gamedata::generic {

namespace {

// SelectorMath<Compare><Type>: `if_true` when Compare(value, base) holds, else `if_false`.
template <runtime::ParamValue T>
class CompareSelector final : public TwoWaySelector {
 public:
  CompareSelector(std::string value, std::string base, std::function<bool(T, T)> compare)
      : TwoWaySelector("if_true", "if_false"),
        value_(declare_input<T>(std::move(value))),
        base_(declare_input<T>(std::move(base))),
        compare_(std::move(compare)) {}

 private:
  bool condition(NodeContext& c) override { return compare_(c.read(value_), c.read(base_)); }
  runtime::InputParam<T> value_, base_;
  std::function<bool(T, T)> compare_;
};

// Runs its `Execute` child and returns ForceResultFrom<the child's result>, a value of the
// game's result enum: in 32 to 38 of the 43 real nodes each maps a result to itself.
class ForceResultOneToOne final : public NodeClass {
 public:
  ForceResultOneToOne()
      : NodeClass(kUpdateOnly),
        from_busy_(declare_property<std::int32_t>("ForceResultFromBusy")),
        from_success_(declare_property<std::int32_t>("ForceResultFromSuccess")),
        from_failure_(declare_property<std::int32_t>("ForceResultFromFailure")) {}
  Result update(NodeContext& c) override {
    switch (c.run_child(child_named(c, "Execute"))) {
      case Result::Running:
        return game_result(c.read(from_busy_));
      case Result::Success:
        return game_result(c.read(from_success_));
      case Result::Failure:
        return game_result(c.read(from_failure_));
    }
    return Result::Success;
  }

 private:
  // ForceResultFromNone: none of our children returns None.
  runtime::PropertyParam<std::int32_t> from_busy_, from_success_, from_failure_;
};

}  // namespace

void add_selectors(ClassList& classes) {
  using F = float;
  using I = std::int32_t;
  auto add = [&](std::string name, std::shared_ptr<NodeClass> node_class) {
    classes.emplace_back(std::move(name), std::move(node_class));
  };
  add("SelectorMathLessF32",
      std::make_shared<CompareSelector<F>>("F32", "F32Base", std::less<F>()));
  add("SelectorMathLessOrEqualF32",
      std::make_shared<CompareSelector<F>>("F32", "F32Base", std::less_equal<F>()));
  add("SelectorMathLessS32",
      std::make_shared<CompareSelector<I>>("S32", "S32Base", std::less<I>()));
  add("SelectorMathLessOrEqualS32",
      std::make_shared<CompareSelector<I>>("S32", "S32Base", std::less_equal<I>()));
  add("SelectorGenericForceResultOneToOne", std::make_shared<ForceResultOneToOne>());
}

}  // namespace ainb::gamedata::generic
