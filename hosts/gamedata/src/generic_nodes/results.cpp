// ExecuteGenericSetResult*: fixed results (docs/generic-nodes.md, "Actions").

#include "internal.hpp"

namespace ainb::gamedata::generic {

namespace {

// ExecuteGenericSetResult*: returns its result at every update.
class FixedResult final : public NodeClass {
 public:
  explicit FixedResult(Result result) : NodeClass(kUpdateOnly), result_(result) {}
  Result update(NodeContext&) override { return result_; }

 private:
  Result result_;
};

}  // namespace

void add_results(ClassList& classes) {
  auto add = [&](std::string name, Result result) {
    classes.emplace_back(std::move(name), std::make_shared<FixedResult>(result));
  };
  add("ExecuteGenericSetResultSuccess", Result::Success);
  add("ExecuteGenericSetResultFailure", Result::Failure);
  add("ExecuteGenericSetResultBusy", Result::Running);
  // The game's result enum has None besides Busy, Success and Failure; like Element_Alert's
  // None, it finishes the node as a success.
  add("ExecuteGenericSetResultNone", Result::Success);
}

}  // namespace ainb::gamedata::generic
