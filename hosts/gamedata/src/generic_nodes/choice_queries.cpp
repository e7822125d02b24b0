// The queries that choose or pass on a value: QuerySelect*ByBool, QueryGetBoolSimple,
// QueryInvertBool, QueryXYZVectorToXZVector (docs/generic-nodes.md, "Queries").

#include "internal.hpp"

namespace ainb::gamedata::generic {

namespace {

// out = Bool ? A : B. The real files read so: in 45 of the 65 Vector3f ones, Bool and A are
// two outputs of one node (a validity and the position it is valid for: IsHit and the hit of
// QueryNestCheckHitRayToRoughTerritoryOutline, a target's IsValid and position), B a fallback
// (999999 in every component, the actor's own position).
template <runtime::ParamValue T>
class SelectByBool final : public Calculation {
 public:
  SelectByBool(std::string if_true, std::string if_false, std::string out)
      : bool_(declare_input<bool>("Bool")),
        if_true_(declare_input<T>(std::move(if_true))),
        if_false_(declare_input<T>(std::move(if_false))),
        out_(declare_output<T>(std::move(out))) {}

 private:
  // A chosen string is a view of the model's strings or of another output's: it outlives us.
  void calculate(NodeContext& c) override {
    c.write(out_, c.read(bool_) ? c.read(if_true_) : c.read(if_false_));
  }
  runtime::InputParam<bool> bool_;
  runtime::InputParam<T> if_true_, if_false_;
  runtime::OutputParam<T> out_;
};

}  // namespace

void add_choice_queries(ClassList& classes) {
  auto add = [&](std::string name, std::shared_ptr<NodeClass> node_class) {
    classes.emplace_back(std::move(name), std::move(node_class));
  };
  add("QuerySelectBoolByBool", std::make_shared<SelectByBool<bool>>("A", "B", "Bool"));
  add("QuerySelectF32ByBool", std::make_shared<SelectByBool<float>>("A", "B", "F32"));
  add("QuerySelectVector3fByBool", std::make_shared<SelectByBool<Vec3f>>("A", "B", "Vector"));
  add("QuerySelectStringByBool",
      std::make_shared<SelectByBool<std::string_view>>("A", "B", "String"));
  add("QuerySelectS32ByBool",
      std::make_shared<SelectByBool<std::int32_t>>("TrueValue", "FalseValue", "S32"));
  // Its input passed on (43 of the 45 real ones hold a constant: a switch a file's author sets).
  add("QueryGetBoolSimple",
      std::make_shared<Unary<bool, bool>>("Bool", "Bool", [](bool b) { return b; }));
  add("QueryInvertBool",
      std::make_shared<Unary<bool, bool>>("Bool", "Bool", [](bool b) { return !b; }));
  // As QueryMathMakeXZVector3f: Y dropped (21 of the 30 feed a NormalizeVector).
  add("QueryXYZVectorToXZVector",
      std::make_shared<Unary<Vec3f, Vec3f>>("Input", "Output", [](Vec3f v) {
        return Vec3f{v.x, 0, v.z};
      }));
}

}  // namespace ainb::gamedata::generic
