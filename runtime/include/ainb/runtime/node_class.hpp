#pragma once

// Pluggable user-defined node classes: what a host implements for the `UserDefined` nodes of a
// file, and the context through which a class sees its node and instance.
//
// A node class is a flyweight: ONE object serves every node of its class, in every actor, on
// every thread that ticks actors. Keep nothing of a node or an actor in the class's members:
// per-node, per-actor data goes in the state block (StatefulNodeClass<State>, or state_size()
// with NodeContext::state<T>()), the actor's world behind NodeContext::host(). Members are for
// what all nodes share and never change during ticks (declared parameter handles, settings).
// A lambda node's captures are members too (Runtime::add(name, lambda)).

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ainb/model.hpp"

namespace ainb::runtime {

enum class Result : std::uint8_t { Running, Success, Failure };
std::string_view result_name(Result result);

class Instance;
class NodeClass;

// A parameter a class declares once by name (NodeClass::declare_input, declare_property,
// declare_output) and the graph finds in each node of the class when it is built, so that a read
// or write during a tick is an index, not a search by name. The handle is the declaration's
// position in its class's list: it belongs to the class that declared it.
enum class ParamKind : std::uint8_t { Input, Property, Output };
struct ParamDeclaration {
  ParamKind kind;
  ParamType type;
  std::string name;
};
// The C++ types of parameter values.
template <typename T>
concept ParamValue = std::is_same_v<T, std::int32_t> || std::is_same_v<T, bool> ||
    std::is_same_v<T, float> || std::is_same_v<T, std::string_view> || std::is_same_v<T, Vec3f>;

template <ParamKind Kind, ParamValue T>
struct Param {
  std::uint32_t position;  // in NodeClass::declared()
};
template <ParamValue T>
using InputParam = Param<ParamKind::Input, T>;
template <ParamValue T>
using PropertyParam = Param<ParamKind::Property, T>;
template <ParamValue T>
using OutputParam = Param<ParamKind::Output, T>;

// The parameter type a C++ value type stands for.
template <ParamValue T>
constexpr ParamType param_type_for() {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return ParamType::Int;
  } else if constexpr (std::is_same_v<T, bool>) {
    return ParamType::Bool;
  } else if constexpr (std::is_same_v<T, float>) {
    return ParamType::Float;
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return ParamType::String;
  } else {
    return ParamType::Vec3f;
  }
}

// Handed to a class on each call; valid for that call only.
class NodeContext {
 public:
  // Made by the instance for each call: `state` is the node's state block in this instance
  // (`state_size` bytes, the class's state_size(); null when 0).
  NodeContext(Instance& instance, std::uint32_t node, std::byte* state, std::uint32_t state_size)
      : instance_(instance), node_(node), state_(state), state_size_(state_size) {}

  std::uint32_t node_index() const { return node_; }
  const NodeClass& node_class() const;  // the class this call runs for
  const Node& node() const;
  const Model& model() const;
  void* host() const;

  // Typed reads of properties and inputs by name (the node's own parameters); the type's zero
  // when the node has no parameter of that name and type.
  std::int32_t property_int(std::string_view name) const;
  bool property_bool(std::string_view name) const;
  float property_float(std::string_view name) const;
  std::string_view property_string(std::string_view name) const;
  Vec3f property_vec3f(std::string_view name) const;
  std::int32_t input_int(std::string_view name) const;
  bool input_bool(std::string_view name) const;
  float input_float(std::string_view name) const;
  std::string_view input_string(std::string_view name) const;
  Vec3f input_vec3f(std::string_view name) const;

  // The same by type: input<float>("Speed"), property<std::int32_t>("Count").
  template <ParamValue T>
  T input(std::string_view name) const;
  template <ParamValue T>
  T property(std::string_view name) const;

  // Multi-source inputs (a list of other nodes' outputs, as QueryGenericMultiBool reads): how
  // many sources the input has (1 for an ordinary input, 0 for no such input) and the value of
  // source `k`. The class combines them; the plain reads above give source 0.
  std::size_t input_source_count(ParamType type, std::string_view name) const;
  std::int32_t input_int(std::string_view name, std::size_t source) const;
  bool input_bool(std::string_view name, std::size_t source) const;
  float input_float(std::string_view name, std::size_t source) const;

  // Declared parameters (see ParamKind): the value of this node's input or property, the
  // type's zero when the node has none of that name and type; a write returns false then.
  template <ParamValue T>
  T read(InputParam<T> param) const {
    return read_declared<ParamKind::Input, T>(param.position);
  }
  template <ParamValue T>
  T read(PropertyParam<T> param) const {
    return read_declared<ParamKind::Property, T>(param.position);
  }
  template <ParamValue T>
  bool write(OutputParam<T> param, std::type_identity_t<T> value) {
    return write_declared<T>(param.position, value);
  }

  // Typed writes of the node's outputs by name; false when it has no such output. A string
  // output keeps the view, not a copy: its characters must outlive the readers (a literal, the
  // model's strings, or storage the class keeps), here and through write() alike.
  bool write_int(std::string_view name, std::int32_t value);
  bool write_bool(std::string_view name, bool value);
  bool write_float(std::string_view name, float value);
  bool write_string(std::string_view name, std::string_view value);
  bool write_vec3f(std::string_view name, Vec3f value);
  // The same by type: output<float>("DistanceLeft", d).
  template <ParamValue T>
  bool output(std::string_view name, std::type_identity_t<T> value);
  // The same by a type known at run time (a host writing outputs a script names): false also
  // when `value` is not of `type` (Value's alternative of that index).
  bool write_value(ParamType type, std::string_view name, const Value& value);

  // The node's attachments (property sets attached to it, after the file's child replacement
  // table) and their properties by name.
  std::span<const std::uint32_t> attachments() const;
  const Attachment& attachment(std::uint32_t index) const;
  float attachment_float(std::uint32_t index, std::string_view name) const;
  std::int32_t attachment_int(std::uint32_t index, std::string_view name) const;
  bool attachment_bool(std::uint32_t index, std::string_view name) const;

  // Takes the node's transition (active node update) plug `k` (counted among its transition
  // plugs). A node that finishes takes its first transition by itself; a class calls this to
  // choose another one, or to leave while still running. False when there is no such plug.
  bool transition(std::uint32_t k);

  // The node's child plugs (after the file's child replacement table), for a class that runs
  // children as a composite does (TotK's Selector* and Execute*Simultaneous classes, event
  // wrappers with an `Execute` child). run_child(k) enters child `k` when this node does not hold
  // it yet, updates it, and leaves it once it finishes (its result is not Running); leave_child
  // leaves one this node holds. The children a node holds are left before its own Leave, last
  // first. Out of range: Success, and nothing happens.
  std::size_t child_count() const;
  std::string_view child_name(std::size_t k) const;
  // The enum value child plug `k` carries (a `__CHILD_ENUM[n]` plug); none for other plugs and
  // for the default, `__CHILD_ENUM_OTHER` (kChildEnumDefault).
  std::optional<std::uint32_t> child_enum(std::size_t k) const;
  Result run_child(std::size_t k);
  void leave_child(std::size_t k);

  // This node's state block in this instance: `State` must be trivially copyable and fit the
  // class's `state_size()`. It is zeroed at each Enter.
  template <typename State>
  State& state() {
    static_assert(std::is_trivially_copyable_v<State>, "node state must be trivially copyable");
    if (sizeof(State) > state_size_ || alignof(State) > 16) throw_state_too_large(sizeof(State));
    return *std::launder(reinterpret_cast<State*>(state_));
  }
  // The same block as bytes (empty for a class with no state).
  std::span<std::byte> state_bytes() const { return {state_, state_size_}; }

  Instance& instance() { return instance_; }

 private:
  [[noreturn]] void throw_state_too_large(std::size_t size) const;
  // Defined for the five parameter types only (node_context.cpp).
  template <ParamKind Kind, ParamValue T>
  T read_declared(std::uint32_t position) const;
  template <ParamValue T>
  bool write_declared(std::uint32_t position, T value);

  Instance& instance_;
  std::uint32_t node_;
  std::byte* state_;
  std::uint32_t state_size_;
};

// A flyweight (see the top of this file): one object serves every node of its class in every
// instance that shares a graph, on every thread; state that belongs to one node of one instance
// lives in the instance, in the block the class asks for with state_size() and reaches through
// NodeContext::state<T>().
class NodeClass {
 public:
  // Which of enter and leave the class implements. The runtime skips the calls a class declares
  // it does not need: a plain node that only updates costs no virtual call on Enter or Leave.
  // Registering a class that overrides a hook its Hooks leave out is refused
  // (NodeRegistry::add), as the runtime would never call it.
  enum Hooks : std::uint8_t { kUpdateOnly = 0, kEnter = 1, kLeave = 2, kEnterAndLeave = 3 };
  explicit NodeClass(Hooks hooks = kEnterAndLeave) : hooks_(hooks) {}
  virtual ~NodeClass() = default;
  Hooks hooks() const { return hooks_; }
  virtual void enter(NodeContext&) {}
  virtual Result update(NodeContext&) = 0;
  virtual void leave(NodeContext&) {}
  // Bytes of per-node, per-instance state (aligned to 16); 0 for a stateless class.
  virtual std::size_t state_size() const { return 0; }
  // The parameters the class declared, in declaration order (a handle's position).
  const std::vector<ParamDeclaration>& declared() const { return declared_; }

 protected:
  // Declares a parameter the class reads or writes (in its constructor: a graph resolves the
  // declarations of its classes when it is built). Read with NodeContext::read, write with
  // NodeContext::write.
  template <ParamValue T>
  InputParam<T> declare_input(std::string name) {
    return {declare(ParamKind::Input, param_type_for<T>(), std::move(name))};
  }
  template <ParamValue T>
  PropertyParam<T> declare_property(std::string name) {
    return {declare(ParamKind::Property, param_type_for<T>(), std::move(name))};
  }
  template <ParamValue T>
  OutputParam<T> declare_output(std::string name) {
    return {declare(ParamKind::Output, param_type_for<T>(), std::move(name))};
  }

 private:
  std::uint32_t declare(ParamKind kind, ParamType type, std::string name);

  Hooks hooks_;
  std::vector<ParamDeclaration> declared_;
};

// A NodeClass with a typed state block: implement the three calls on `State&` (named apart
// from NodeClass's, so overriding one hides nothing). The state is zeroed at each Enter, also
// for a class that declares no on_enter (`StatefulNodeClass(kUpdateOnly)`).
template <typename State>
class StatefulNodeClass : public NodeClass {
 public:
  static_assert(std::is_trivially_copyable_v<State> && alignof(State) <= 16);
  using StatefulBase = StatefulNodeClass;  // which hooks a class overrides (overridden_hooks)
  explicit StatefulNodeClass(Hooks hooks = kEnterAndLeave) : NodeClass(hooks) {}
  virtual void on_enter(NodeContext&, State&) {}
  virtual Result on_update(NodeContext&, State&) = 0;
  virtual void on_leave(NodeContext&, State&) {}

  void enter(NodeContext& c) final { on_enter(c, c.state<State>()); }
  Result update(NodeContext& c) final { return on_update(c, c.state<State>()); }
  void leave(NodeContext& c) final { on_leave(c, c.state<State>()); }
  std::size_t state_size() const final { return sizeof(State); }
};

// The hooks class `T` overrides (enter, leave; on_enter, on_leave for a StatefulNodeClass),
// which its Hooks must include.
template <std::derived_from<NodeClass> T>
constexpr NodeClass::Hooks overridden_hooks() {
  int hooks = NodeClass::kUpdateOnly;
  if constexpr (requires { typename T::StatefulBase; }) {
    using Base = typename T::StatefulBase;
    if (!std::is_same_v<decltype(&T::on_enter), decltype(&Base::on_enter)>)
      hooks |= NodeClass::kEnter;
    if (!std::is_same_v<decltype(&T::on_leave), decltype(&Base::on_leave)>)
      hooks |= NodeClass::kLeave;
  } else {
    if (!std::is_same_v<decltype(&T::enter), decltype(&NodeClass::enter)>)
      hooks |= NodeClass::kEnter;
    if (!std::is_same_v<decltype(&T::leave), decltype(&NodeClass::leave)>)
      hooks |= NodeClass::kLeave;
  }
  return static_cast<NodeClass::Hooks>(hooks);
}

// A class whose update is a function (Runtime::add(name, lambda)): updates only.
template <typename F>
class FunctionNode final : public NodeClass {
 public:
  explicit FunctionNode(F update) : NodeClass(kUpdateOnly), update_(std::move(update)) {}
  Result update(NodeContext& context) override { return update_(context); }

 private:
  F update_;
};

// What happens to a UserDefined node whose class nobody registered.
enum class UnknownClassPolicy : std::uint8_t {
  Stub,    // a stub that succeeds after NodeRegistry::stub_running_updates updates
  Strict,  // building the graph fails, naming the node and class
};

// The value a stub writes to one of its outputs when entered: from node definitions (the game-data
// layer's catalogue) or the host; nullopt leaves the type's zero. Strings are copied into the
// graph.
using StubOutputDefaults =
    std::function<std::optional<Value>(std::string_view node_class, const Output& output)>;

// Node classes by name. An ordinary object: each runtime has its own, and the same file can run
// with different registries.
class NodeRegistry {
 public:
  // Registers `node_class` under `name`, replacing a class registered under that name before.
  // Throws std::invalid_argument for a null class, and for a class that overrides enter or
  // leave (on_enter, on_leave) while its Hooks leave that hook out. The check reads T: an
  // adapter whose hooks follow callbacks chosen at run time (the C API's) is added as a
  // std::shared_ptr<NodeClass>, which it does not check.
  template <std::derived_from<NodeClass> T>
  void add(std::string name, std::shared_ptr<T> node_class) {
    add_class(std::move(name), std::move(node_class), overridden_hooks<T>());
  }
  std::shared_ptr<NodeClass> find(std::string_view name) const;

  UnknownClassPolicy unknown_classes = UnknownClassPolicy::Stub;
  // A stub returns Running for this many updates after its Enter, then Success.
  std::uint32_t stub_running_updates = 0;
  // A stub with child plugs passes through to its first one: each update runs that child
  // (NodeContext::run_child) and returns its result, so the tree below a class the host does
  // not implement (an event's `Execute` wrapper, a Selector* class) runs. False (the default):
  // stubs run no children and return their own result.
  bool stub_runs_first_child = false;
  StubOutputDefaults stub_outputs;

 private:
  void add_class(std::string name, std::shared_ptr<NodeClass> node_class,
                 NodeClass::Hooks overridden);

  std::unordered_map<std::string, std::shared_ptr<NodeClass>> classes_;
};

}  // namespace ainb::runtime
