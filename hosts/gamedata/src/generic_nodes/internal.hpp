#pragma once
// What the generic node classes share (docs/generic-nodes.md): the query base honouring
// OutputOnlyOnEnter, one- and two-input queries, the game's result enum, child plugs by name, and
// the registration table each concept's file adds its classes to.

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ainb/gamedata/generic_nodes.hpp"
#include "ainb/runtime/instance.hpp"
#include "ainb/runtime/node_class.hpp"

namespace ainb::gamedata::generic {

using runtime::NodeClass;
using runtime::NodeContext;
using runtime::Result;

// The registration table: (class name, implementation), in no particular order.
using ClassList = std::vector<std::pair<std::string, std::shared_ptr<NodeClass>>>;

// Each concept's classes (math_queries.cpp, choice_queries.cpp, blackboard.cpp, results.cpp,
// selectors.cpp, readings.cpp); readings.cpp adds its classes only when options.ambiguous_readings.
void add_math_queries(ClassList& classes);
void add_choice_queries(ClassList& classes);
void add_blackboard(ClassList& classes);
void add_results(ClassList& classes);
void add_selectors(ClassList& classes);
void add_readings(ClassList& classes, const GenericNodeOptions& options);

inline Vec3f plus(Vec3f a, Vec3f b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
inline Vec3f minus(Vec3f a, Vec3f b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
inline Vec3f scaled(float k, Vec3f v) {
  return {k * v.x, k * v.y, k * v.z};
}
inline float length(Vec3f v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// The game's result enum as the corpus's s32 properties carry it ({None, Busy, Success,
// Failure}: SelectorGenericForceResultOneToOne maps 1 to 1, 2 to 2 and 3 to 3 in most nodes).
// None finishes a node as a success, as Element_Alert reads it; an unknown value too.
inline Result game_result(std::int32_t value) {
  if (value == 1) return Result::Running;
  if (value == 3) return Result::Failure;
  return Result::Success;
}

// The index of the child plug named `name`; child_count() when the node has none (run_child
// then does nothing and gives Success).
inline std::size_t child_named(const NodeContext& c, std::string_view name) {
  const auto n = c.child_count();
  for (std::size_t k = 0; k < n; ++k) {
    if (c.child_name(k) == name) return k;
  }
  return n;
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

}  // namespace ainb::gamedata::generic
