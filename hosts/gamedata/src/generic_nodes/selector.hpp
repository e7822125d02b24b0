#pragma once
// A selector class with two child plugs, for the Selector* generic classes (selectors.cpp,
// readings.cpp).

#include <cstdint>
#include <string>

#include "internal.hpp"

namespace ainb::gamedata::generic {

struct Choice {
  std::uint32_t chosen;  // 1 + the child plug chosen; 0 before the first choice
  bool busy;             // the chosen child's last update returned Running
};

// Chooses one of two child plugs by condition() at each update and runs it, leaving the child
// it chose before when the choice changes (as Element_BoolSelector re-evaluates). With
// SelectChildOnEnterOnly (or the class's own `enter_only` property) it chooses at the first
// update only; with NoChangeWhenChildIsBusy it keeps the choice while the child is busy.
class TwoWaySelector : public runtime::StatefulNodeClass<Choice> {
 public:
  TwoWaySelector(std::string if_true, std::string if_false, std::string enter_only = {})
      : StatefulNodeClass(kUpdateOnly),
        if_true_(std::move(if_true)),
        if_false_(std::move(if_false)),
        no_change_when_busy_(declare_property<bool>("NoChangeWhenChildIsBusy")),
        enter_only_(declare_property<bool>("SelectChildOnEnterOnly")) {
    if (!enter_only.empty()) own_enter_only_ = declare_property<bool>(std::move(enter_only));
  }
  Result on_update(NodeContext& c, Choice& choice) override {
    const bool once =
        c.read(enter_only_) || (own_enter_only_.position != kNone && c.read(own_enter_only_));
    const bool keep = choice.chosen != 0 && (once || (choice.busy && c.read(no_change_when_busy_)));
    if (!keep) {
      const auto k = child_named(c, condition(c) ? if_true_ : if_false_);
      if (choice.chosen != 0 && choice.chosen - 1 != k) c.leave_child(choice.chosen - 1);
      choice.chosen = static_cast<std::uint32_t>(k + 1);
    }
    const auto result = c.run_child(choice.chosen - 1);
    choice.busy = result == Result::Running;
    return result;
  }

 protected:
  virtual bool condition(NodeContext& c) = 0;

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  std::string if_true_, if_false_;
  runtime::PropertyParam<bool> no_change_when_busy_, enter_only_;
  runtime::PropertyParam<bool> own_enter_only_{kNone};
};

}  // namespace ainb::gamedata::generic
