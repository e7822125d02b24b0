// ExecuteBlackboardSet* and QueryBlackboardGet*: the blackboard entry a BlackboardKey property
// names, written or read (docs/generic-nodes.md, "Actions" and "Queries").

#include <type_traits>
#include <variant>

#include "internal.hpp"

namespace ainb::gamedata::generic {

namespace {

// ExecuteBlackboardSet*: writes its input to the blackboard entry its BlackboardKey property
// names (of the input's type; none of that name: nothing is written) and succeeds. With
// ExecuteOnce, only at the first update after its Enter.
struct Written {
  bool once;
};
template <runtime::ParamValue T>
class BlackboardSet final : public runtime::StatefulNodeClass<Written> {
 public:
  explicit BlackboardSet(std::string input)
      : value_(declare_input<T>(std::move(input))),
        key_(declare_property<std::string_view>("BlackboardKey")),
        once_(declare_property<bool>("ExecuteOnce")) {}
  Result on_update(NodeContext& c, Written& written) override {
    if (c.read(once_) && written.once) return Result::Success;
    written.once = true;
    auto& instance = c.instance();
    const auto key = c.read(key_);
    const auto value = c.read(value_);
    if constexpr (std::is_same_v<T, bool>) instance.set_bool(key, value);
    if constexpr (std::is_same_v<T, std::int32_t>) instance.set_int(key, value);
    if constexpr (std::is_same_v<T, float>) instance.set_float(key, value);
    // The instance copies the characters into the entry's own storage (no allocation once
    // it is as long as the longest value written).
    if constexpr (std::is_same_v<T, std::string_view>) instance.set_string(key, value);
    if constexpr (std::is_same_v<T, Vec3f>) instance.set_vec3f(key, value);
    return Result::Success;
  }

 private:
  runtime::InputParam<T> value_;
  runtime::PropertyParam<std::string_view> key_;
  runtime::PropertyParam<bool> once_;
};

// QueryBlackboardGet*: the entry its BlackboardKey names, of the output's type; the type's zero
// when the file has no such entry (as a stub's output). BlackboardType (0, 1 and 3 in the
// corpus) is read by nobody, as for the setters.
template <typename T>
class BlackboardGet final : public Calculation {
 public:
  explicit BlackboardGet(std::string output)
      : key_(declare_property<std::string_view>("BlackboardKey")),
        out_(declare_output<T>(std::move(output))) {}

 private:
  void calculate(NodeContext& c) override {
    const auto* value = c.instance().blackboard(c.read(key_));
    const auto* typed = value != nullptr ? std::get_if<T>(value) : nullptr;
    c.write(out_, typed != nullptr ? *typed : T{});
  }
  runtime::PropertyParam<std::string_view> key_;
  runtime::OutputParam<T> out_;
};

}  // namespace

void add_blackboard(ClassList& classes) {
  auto add = [&](std::string name, std::shared_ptr<NodeClass> node_class) {
    classes.emplace_back(std::move(name), std::move(node_class));
  };
  add("ExecuteBlackboardSetBool", std::make_shared<BlackboardSet<bool>>("Bool"));
  add("ExecuteBlackboardSetS32", std::make_shared<BlackboardSet<std::int32_t>>("S32"));
  add("ExecuteBlackboardSetF32", std::make_shared<BlackboardSet<float>>("F32"));
  add("ExecuteBlackboardSetString", std::make_shared<BlackboardSet<std::string_view>>("String"));
  add("ExecuteBlackboardSetVec3fToBlackBoard", std::make_shared<BlackboardSet<Vec3f>>("Vector"));
  add("QueryBlackboardGetBool", std::make_shared<BlackboardGet<bool>>("Bool"));
  add("QueryBlackboardGetF32", std::make_shared<BlackboardGet<float>>("F32"));
}

}  // namespace ainb::gamedata::generic
