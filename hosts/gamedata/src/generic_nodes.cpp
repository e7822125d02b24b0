#include "ainb/gamedata/generic_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <utility>

#include "ainb/runtime/instance.hpp"

namespace ainb::gamedata {

namespace {

using runtime::NodeClass;
using runtime::NodeContext;
using runtime::Result;

Vec3f plus(Vec3f a, Vec3f b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec3f minus(Vec3f a, Vec3f b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec3f scaled(float k, Vec3f v) {
  return {k * v.x, k * v.y, k * v.z};
}
Vec3f cross(Vec3f a, Vec3f b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float length(Vec3f v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// A query: it computes its outputs from its inputs at each calculation and succeeds, or, when
// its OutputOnlyOnEnter property is true, only at its Enter (its outputs then keep the values
// of that moment).
class Calculation : public NodeClass {
 public:
  Calculation() : NodeClass(kEnter), only_on_enter_(declare_property<bool>("OutputOnlyOnEnter")) {}
  void enter(NodeContext& c) final {
    if (c.read(only_on_enter_)) calculate(c);
  }
  Result update(NodeContext& c) final {
    if (!c.read(only_on_enter_)) calculate(c);
    return Result::Success;
  }

 protected:
  virtual void calculate(NodeContext& c) = 0;

 private:
  runtime::PropertyParam<bool> only_on_enter_;
};

// out = f(a): one input, one output.
template <runtime::ParamValue In, runtime::ParamValue Out>
class Unary final : public Calculation {
 public:
  Unary(std::string in, std::string out, std::function<Out(In)> f)
      : in_(declare_input<In>(std::move(in))),
        out_(declare_output<Out>(std::move(out))),
        f_(std::move(f)) {}

 private:
  void calculate(NodeContext& c) override { c.write(out_, f_(c.read(in_))); }
  runtime::InputParam<In> in_;
  runtime::OutputParam<Out> out_;
  std::function<Out(In)> f_;
};

// out = f(a, b): two inputs, one output.
template <runtime::ParamValue A, runtime::ParamValue B, runtime::ParamValue Out>
class Binary final : public Calculation {
 public:
  Binary(std::string a, std::string b, std::string out, std::function<Out(A, B)> f)
      : a_(declare_input<A>(std::move(a))),
        b_(declare_input<B>(std::move(b))),
        out_(declare_output<Out>(std::move(out))),
        f_(std::move(f)) {}

 private:
  void calculate(NodeContext& c) override { c.write(out_, f_(c.read(a_), c.read(b_))); }
  runtime::InputParam<A> a_;
  runtime::InputParam<B> b_;
  runtime::OutputParam<Out> out_;
  std::function<Out(A, B)> f_;
};

class MakeVector final : public Calculation {
 public:
  MakeVector()
      : x_(declare_input<float>("X")),
        y_(declare_input<float>("Y")),
        z_(declare_input<float>("Z")),
        out_(declare_output<Vec3f>("Vector3f")) {}

 private:
  void calculate(NodeContext& c) override {
    c.write(out_, Vec3f{c.read(x_), c.read(y_), c.read(z_)});
  }
  runtime::InputParam<float> x_, y_, z_;
  runtime::OutputParam<Vec3f> out_;
};

class VectorElements final : public Calculation {
 public:
  VectorElements()
      : in_(declare_input<Vec3f>("Vector")),
        x_(declare_output<float>("f32_X")),
        y_(declare_output<float>("f32_Y")),
        z_(declare_output<float>("f32_Z")) {}

 private:
  void calculate(NodeContext& c) override {
    const auto v = c.read(in_);
    c.write(x_, v.x);
    c.write(y_, v.y);
    c.write(z_, v.z);
  }
  runtime::InputParam<Vec3f> in_;
  runtime::OutputParam<float> x_, y_, z_;
};

// Magnitude and the unit vector; a zero vector gives 0 and the zero vector.
class Normalize final : public Calculation {
 public:
  Normalize()
      : in_(declare_input<Vec3f>("Vector3f")),
        magnitude_(declare_output<float>("Magnitude")),
        out_(declare_output<Vec3f>("Vector3f")) {}

 private:
  void calculate(NodeContext& c) override {
    const auto v = c.read(in_);
    const auto m = length(v);
    c.write(magnitude_, m);
    c.write(out_, m > 0 ? scaled(1 / m, v) : Vec3f{});
  }
  runtime::InputParam<Vec3f> in_;
  runtime::OutputParam<float> magnitude_;
  runtime::OutputParam<Vec3f> out_;
};

// The distance between two points, on the XZ plane when IsCalcXZDistance, squared when
// IsCalcSquareDistance.
class Distance final : public Calculation {
 public:
  Distance()
      : from_(declare_input<Vec3f>("FromVector")),
        to_(declare_input<Vec3f>("ToVector")),
        square_(declare_property<bool>("IsCalcSquareDistance")),
        xz_(declare_property<bool>("IsCalcXZDistance")),
        out_(declare_output<float>("F32")) {}

 private:
  void calculate(NodeContext& c) override {
    auto d = minus(c.read(to_), c.read(from_));
    if (c.read(xz_)) d.y = 0;
    const auto squared = d.x * d.x + d.y * d.y + d.z * d.z;
    c.write(out_, c.read(square_) ? squared : std::sqrt(squared));
  }
  runtime::InputParam<Vec3f> from_, to_;
  runtime::PropertyParam<bool> square_, xz_;
  runtime::OutputParam<float> out_;
};

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
    if constexpr (std::is_same_v<T, Vec3f>) instance.set_vec3f(key, value);
    return Result::Success;
  }

 private:
  runtime::InputParam<T> value_;
  runtime::PropertyParam<std::string_view> key_;
  runtime::PropertyParam<bool> once_;
};

// ExecuteGenericSetResult*: returns its result at every update.
class FixedResult final : public NodeClass {
 public:
  explicit FixedResult(Result result) : NodeClass(kUpdateOnly), result_(result) {}
  Result update(NodeContext&) override { return result_; }

 private:
  Result result_;
};

std::vector<std::pair<std::string, std::shared_ptr<NodeClass>>> generic_classes() {
  using F = float;
  using I = std::int32_t;
  using V = Vec3f;
  std::vector<std::pair<std::string, std::shared_ptr<NodeClass>>> classes;
  auto add = [&](std::string name, std::shared_ptr<NodeClass> node_class) {
    classes.emplace_back(std::move(name), std::move(node_class));
  };
  auto binary_f32 = [&](std::string name, std::function<F(F, F)> f) {
    add(std::move(name), std::make_shared<Binary<F, F, F>>("InputA", "InputB", "Result", f));
  };
  binary_f32("QueryMathAddF32", std::plus<F>());
  binary_f32("QueryMathSubF32", std::minus<F>());
  binary_f32("QueryMathMulF32", std::multiplies<F>());
  binary_f32("QueryMathDivF32", std::divides<F>());  // IEEE: x / 0 is infinite (or NaN)
  add("QueryMathAddS32",
      std::make_shared<Binary<I, I, I>>("InputA", "InputB", "Result", [](I a, I b) {
        // Wraps around, as the game's 32-bit integers do (no undefined overflow here).
        return static_cast<I>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
      }));
  add("QueryMathAddVector3f",
      std::make_shared<Binary<V, V, V>>("InputA", "InputB", "Result", plus));
  add("QueryMathSubVector3f",
      std::make_shared<Binary<V, V, V>>("InputA", "InputB", "Result", minus));
  add("QueryMathLessF32", std::make_shared<Binary<F, F, bool>>(
                              "F32", "F32Base", "Bool", [](F x, F base) { return x < base; }));
  add("QueryMathLessOrEqualF32",
      std::make_shared<Binary<F, F, bool>>("F32", "F32Base", "Bool",
                                           [](F x, F base) { return x <= base; }));
  add("QueryMathClampUnderMax",
      std::make_shared<Binary<F, F, F>>("F32", "Max", "F32",
                                        [](F x, F max) { return std::min(x, max); }));
  add("QueryMathMulF32AndVector3f",
      std::make_shared<Binary<F, V, V>>("F32", "Vector", "Vector", scaled));
  add("QueryMathCrossVector",
      std::make_shared<Binary<V, V, V>>("FromVector", "ToVector", "Vector", cross));
  add("QueryGenericCastS32ToF32",
      std::make_shared<Unary<I, F>>("Input", "Output", [](I x) { return static_cast<F>(x); }));
  add("QueryMathMakeVector3fFromXYZ", std::make_shared<MakeVector>());
  add("QueryMathVector3fGetElements", std::make_shared<VectorElements>());
  add("QueryMathNormalizeVector", std::make_shared<Normalize>());
  add("QueryMathCalcVectorDistance", std::make_shared<Distance>());
  add("ExecuteBlackboardSetBool", std::make_shared<BlackboardSet<bool>>("Bool"));
  add("ExecuteBlackboardSetS32", std::make_shared<BlackboardSet<I>>("S32"));
  add("ExecuteBlackboardSetF32", std::make_shared<BlackboardSet<F>>("F32"));
  add("ExecuteBlackboardSetVec3fToBlackBoard", std::make_shared<BlackboardSet<V>>("Vector"));
  add("ExecuteGenericSetResultSuccess", std::make_shared<FixedResult>(Result::Success));
  add("ExecuteGenericSetResultFailure", std::make_shared<FixedResult>(Result::Failure));
  add("ExecuteGenericSetResultBusy", std::make_shared<FixedResult>(Result::Running));
  // The game's result enum has None besides Busy, Success and Failure; like Element_Alert's
  // None, it finishes the node as a success.
  add("ExecuteGenericSetResultNone", std::make_shared<FixedResult>(Result::Success));
  return classes;
}

}  // namespace

void add_generic_nodes(runtime::NodeRegistry& registry) {
  for (auto& [name, node_class] : generic_classes()) {
    if (!registry.find(name)) registry.add(name, std::move(node_class));
  }
}

std::vector<std::string> generic_node_names() {
  std::vector<std::string> names;
  for (const auto& entry : generic_classes())
    names.push_back(entry.first);
  std::ranges::sort(names);
  return names;
}

}  // namespace ainb::gamedata
