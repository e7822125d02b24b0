// NodeContext: what a registered node class reads and writes of its node, by name or through the
// parameters it declared.

#include "protocol.hpp"

#include <cstring>

#include <fmt/format.h>

namespace ainb::runtime {

namespace {

template <typename T>
T property_of(const NodeContext& c, const detail::Scheduler& instance, ParamType type,
              std::string_view name) {
  for (const auto& p : c.model().properties_of(c.node(), type)) {
    if (p.name == name) return value_or(instance.property_value(p), T{});
  }
  return T{};
}

template <typename T>
T input_of(const NodeContext& c, const detail::Scheduler& instance, ParamType type,
           std::string_view name) {
  for (const auto& in : c.model().inputs_of(c.node(), type)) {
    if (in.name == name) return value_or(instance.input_value(in), T{});
  }
  return T{};
}

template <typename T>
T input_source_of(const NodeContext& c, const detail::Scheduler& instance, ParamType type,
                  std::string_view name, std::size_t source) {
  for (const auto& in : c.model().inputs_of(c.node(), type)) {
    if (in.name == name) return value_or(instance.input_source(in, source), T{});
  }
  return T{};
}

}  // namespace

// The common sources of an input (another node's output, a blackboard entry, the stored value)
// and a constant property are read where they are, in the parameter's own type; others through
// the binding. (Inlined into NodeContext's calls below: a class's read is one call.)
template <ParamKind Kind, ParamValue T>
[[gnu::always_inline]] inline T detail::Scheduler::read_declared(std::uint32_t node,
                                                                 std::uint32_t position) const {
  constexpr auto type = param_type_for<T>();
  constexpr auto t = static_cast<std::size_t>(type);
  const auto* d = graph_->declared_parameter(node, position, Kind, type);
  if (d == nullptr) return T{};
  const auto& m = graph_->model();
  if constexpr (Kind == ParamKind::Property) {
    const auto& p = m.properties[t][d->index];
    if (p.flags.source() == ParamFlags::Source::Constant) return value_or(p.value, T{});
    return value_or(property_value(p), T{});
  } else {
    const auto& b = graph_->input_binding(type, d->index);
    switch (b.kind) {
      case InputBinding::Kind::Output: {
        T value;
        std::memcpy(&value, output_at(t, b.index), sizeof value);
        return value;
      }
      case InputBinding::Kind::Blackboard:
        return value_or(*bb_[b.index], T{});
      case InputBinding::Kind::Default:
        return value_or(m.inputs[t][d->index].default_value, T{});
      default:
        return value_or(bound_value(b, type, m.inputs[t][d->index].default_value), T{});
    }
  }
}

template <ParamValue T>
[[gnu::always_inline]] inline bool detail::Scheduler::write_declared(std::uint32_t node,
                                                                     std::uint32_t position,
                                                                     T value) {
  constexpr auto type = param_type_for<T>();
  const auto* d = graph_->declared_parameter(node, position, ParamKind::Output, type);
  if (d == nullptr) return false;
  std::memcpy(output_at(static_cast<std::size_t>(type), d->index), &value, sizeof value);
  return true;
}

template <ParamKind Kind, ParamValue T>
T NodeContext::read_declared(std::uint32_t position) const {
  return instance_.read_declared<Kind, T>(node_, position);
}
template <ParamValue T>
bool NodeContext::write_declared(std::uint32_t position, T value) {
  return instance_.write_declared<T>(node_, position, value);
}

template <ParamValue T>
T NodeContext::input(std::string_view name) const {
  return input_of<T>(*this, instance_, param_type_for<T>(), name);
}
template <ParamValue T>
T NodeContext::property(std::string_view name) const {
  return property_of<T>(*this, instance_, param_type_for<T>(), name);
}
template <ParamValue T>
bool NodeContext::output(std::string_view name, std::type_identity_t<T> value) {
  return instance_.write_output(node_, param_type_for<T>(), name, value);
}

// The five parameter types, instantiated here (the headers declare the templates only).
#define AINB_DECLARED_PARAMETER(T)                                                    \
  template T NodeContext::read_declared<ParamKind::Input, T>(std::uint32_t) const;    \
  template T NodeContext::read_declared<ParamKind::Property, T>(std::uint32_t) const; \
  template bool NodeContext::write_declared<T>(std::uint32_t, T);                     \
  template T NodeContext::input<T>(std::string_view) const;                           \
  template T NodeContext::property<T>(std::string_view) const;                        \
  template bool NodeContext::output<T>(std::string_view, T);
AINB_DECLARED_PARAMETER(std::int32_t)
AINB_DECLARED_PARAMETER(bool)
AINB_DECLARED_PARAMETER(float)
AINB_DECLARED_PARAMETER(std::string_view)
AINB_DECLARED_PARAMETER(Vec3f)
#undef AINB_DECLARED_PARAMETER

const Node& NodeContext::node() const {
  return instance_.graph().model().nodes[node_];
}

std::span<const std::uint32_t> NodeContext::attachments() const {
  return instance_.graph().attachments(node_);
}
bool NodeContext::transition(std::uint32_t k) {
  return instance_.request_transition(node_, k);
}
std::size_t NodeContext::child_count() const {
  return instance_.graph().children(node_).size();
}
std::string_view NodeContext::child_name(std::size_t k) const {
  const auto& g = instance_.graph();
  const auto plugs = g.child_plugs(node_);
  return k < plugs.size() ? std::string_view(g.model().plugs[plugs[k]].name) : std::string_view();
}
std::optional<std::uint32_t> NodeContext::child_enum(std::size_t k) const {
  const auto& g = instance_.graph();
  const auto plugs = g.child_plugs(node_);
  if (k >= plugs.size()) return std::nullopt;
  const auto& plug = g.model().plugs[plugs[k]];
  const auto* e = std::get_if<EnumCondition>(&plug.data);
  if (e == nullptr || plug.name == kChildEnumDefault) return std::nullopt;  // the default: no case
  return e->value;
}
Result NodeContext::run_child(std::size_t k) {
  return instance_.run_user_child(node_, k);
}
void NodeContext::leave_child(std::size_t k) {
  instance_.leave_user_child(node_, k);
}
void NodeContext::throw_state_too_large(std::size_t size) const {
  // The fault that catches this names the file and node.
  throw std::logic_error(
      fmt::format("state<T>() asks for {} bytes of state, but the class's state_size() is {}", size,
                  state_size_));
}
const Attachment& NodeContext::attachment(std::uint32_t index) const {
  return model().attachments[attachments()[index]];
}
float NodeContext::attachment_float(std::uint32_t index, std::string_view name) const {
  for (const auto& p : model().properties_of(attachment(index), ParamType::Float)) {
    if (p.name == name) return value_or(instance_.property_value(p), 0.0f);
  }
  return 0.0f;
}
std::int32_t NodeContext::attachment_int(std::uint32_t index, std::string_view name) const {
  for (const auto& p : model().properties_of(attachment(index), ParamType::Int)) {
    if (p.name == name) return value_or(instance_.property_value(p), std::int32_t{0});
  }
  return 0;
}
bool NodeContext::attachment_bool(std::uint32_t index, std::string_view name) const {
  for (const auto& p : model().properties_of(attachment(index), ParamType::Bool)) {
    if (p.name == name) return value_or(instance_.property_value(p), false);
  }
  return false;
}
const NodeClass& NodeContext::node_class() const {
  return *instance_.graph().nodes()[node_].user_class;
}
const Model& NodeContext::model() const {
  return instance_.graph().model();
}
void* NodeContext::host() const {
  return instance_.host();
}

std::size_t NodeContext::input_source_count(ParamType type, std::string_view name) const {
  for (const auto& in : model().inputs_of(node(), type)) {
    if (in.name == name) return in.is_multi_source() ? in.multi_sources().count : 1;
  }
  return 0;
}
std::int32_t NodeContext::input_int(std::string_view n, std::size_t k) const {
  return input_source_of<std::int32_t>(*this, instance_, ParamType::Int, n, k);
}
bool NodeContext::input_bool(std::string_view n, std::size_t k) const {
  return input_source_of<bool>(*this, instance_, ParamType::Bool, n, k);
}
float NodeContext::input_float(std::string_view n, std::size_t k) const {
  return input_source_of<float>(*this, instance_, ParamType::Float, n, k);
}
std::int32_t NodeContext::property_int(std::string_view n) const {
  return property_of<std::int32_t>(*this, instance_, ParamType::Int, n);
}
bool NodeContext::property_bool(std::string_view n) const {
  return property_of<bool>(*this, instance_, ParamType::Bool, n);
}
float NodeContext::property_float(std::string_view n) const {
  return property_of<float>(*this, instance_, ParamType::Float, n);
}
std::string_view NodeContext::property_string(std::string_view n) const {
  return property_of<std::string_view>(*this, instance_, ParamType::String, n);
}
Vec3f NodeContext::property_vec3f(std::string_view n) const {
  return property_of<Vec3f>(*this, instance_, ParamType::Vec3f, n);
}
std::int32_t NodeContext::input_int(std::string_view n) const {
  return input_of<std::int32_t>(*this, instance_, ParamType::Int, n);
}
bool NodeContext::input_bool(std::string_view n) const {
  return input_of<bool>(*this, instance_, ParamType::Bool, n);
}
float NodeContext::input_float(std::string_view n) const {
  return input_of<float>(*this, instance_, ParamType::Float, n);
}
std::string_view NodeContext::input_string(std::string_view n) const {
  return input_of<std::string_view>(*this, instance_, ParamType::String, n);
}
Vec3f NodeContext::input_vec3f(std::string_view n) const {
  return input_of<Vec3f>(*this, instance_, ParamType::Vec3f, n);
}
bool NodeContext::write_int(std::string_view n, std::int32_t v) {
  return instance_.write_output(node_, ParamType::Int, n, v);
}
bool NodeContext::write_bool(std::string_view n, bool v) {
  return instance_.write_output(node_, ParamType::Bool, n, v);
}
bool NodeContext::write_float(std::string_view n, float v) {
  return instance_.write_output(node_, ParamType::Float, n, v);
}
bool NodeContext::write_string(std::string_view n, std::string_view v) {
  return instance_.write_output(node_, ParamType::String, n, v);
}
bool NodeContext::write_vec3f(std::string_view n, Vec3f v) {
  return instance_.write_output(node_, ParamType::Vec3f, n, v);
}
bool NodeContext::write_value(ParamType type, std::string_view n, const Value& v) {
  return v.index() == static_cast<std::size_t>(type) && instance_.write_output(node_, type, n, v);
}

}  // namespace ainb::runtime
