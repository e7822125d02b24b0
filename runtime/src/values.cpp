// Parameter values: properties, inputs by their bindings, the blackboard as the host writes it,
// and outputs as nodes write them.

#include "protocol.hpp"

#include <variant>

namespace ainb::runtime {

namespace {

// Component 0, 1 or 2 (x, y, z) of a vec3f.
float component_of(const Vec3f& v, std::uint8_t component) {
  return component == 0 ? v.x : component == 1 ? v.y : v.z;
}

}  // namespace

Value detail::Scheduler::blackboard_value(ParamType type, ParamFlags flags) const {
  const auto& m = graph_->model();
  const auto t = static_cast<std::size_t>(blackboard_type_for(type, flags));
  const auto& v = *bb_[m.blackboard.first[t] + flags.index()];
  const auto component = blackboard_component(type, flags);
  return component ? component_of(std::get<Vec3f>(v), static_cast<std::uint8_t>(*component)) : v;
}

Value detail::Scheduler::property_value(const Property& p) const {
  switch (p.flags.source()) {
    case ParamFlags::Source::Blackboard:
      return blackboard_value(p.type, p.flags);
    case ParamFlags::Source::Expression: {
      const auto& m = graph_->model();
      const auto t = static_cast<std::size_t>(p.type);
      const auto index = static_cast<std::uint32_t>(&p - m.properties[t].data());
      return evaluate(graph_->property_site(p.type, index), p.type, p.value, p.value);
    }
    default:
      return p.value;
  }
}

Value detail::Scheduler::bound_value(const InputBinding& b, ParamType type,
                                     const Value& fallback) const {
  const auto t = static_cast<std::size_t>(type);
  switch (b.kind) {
    case InputBinding::Kind::Default:
      return fallback;
    case InputBinding::Kind::Output:
      return output(t, b.index);
    case InputBinding::Kind::Blackboard:
      return *bb_[b.index];
    case InputBinding::Kind::Component:
      return component_of(std::get<Vec3f>(*bb_[b.index]), b.component);
    case InputBinding::Kind::Expression: {
      // The function's input is the linked output, else the stored value.
      const auto source = b.source_index >= 0 ? output(static_cast<std::size_t>(b.source_type),
                                                       static_cast<std::uint32_t>(b.source_index))
                                              : fallback;
      return evaluate(static_cast<std::int32_t>(b.index), type, source, fallback);
    }
    case InputBinding::Kind::MultiSource:
      // An ordinary read of a multi-source input gives its first source.
      if (b.count == 0) return fallback;
      return bound_value(graph_->source_bindings(b)[0], type, fallback);
  }
  return fallback;
}

Value detail::Scheduler::input_value(const Input& in) const {
  const auto t = static_cast<std::size_t>(in.type);
  const auto index = static_cast<std::uint32_t>(&in - graph_->model().inputs[t].data());
  return bound_value(graph_->input_binding(in.type, index), in.type, in.default_value);
}

Value detail::Scheduler::input_source(const Input& in, std::size_t source) const {
  const auto t = static_cast<std::size_t>(in.type);
  const auto index = static_cast<std::uint32_t>(&in - graph_->model().inputs[t].data());
  const auto& b = graph_->input_binding(in.type, index);
  if (b.kind != InputBinding::Kind::MultiSource) {
    return source == 0 ? bound_value(b, in.type, in.default_value) : in.default_value;
  }
  const auto sources = graph_->source_bindings(b);
  return source < sources.size() ? bound_value(sources[source], in.type, in.default_value)
                                 : in.default_value;
}

bool detail::Scheduler::write_output(std::uint32_t node, ParamType type, std::string_view name,
                                     const Value& value) {
  const auto& m = graph_->model();
  const auto t = static_cast<std::size_t>(type);
  const auto outputs = m.outputs_of(m.nodes[node], type);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].name == name) {
      set_output(t, m.nodes[node].outputs[t].base + static_cast<std::uint32_t>(i), value);
      return true;
    }
  }
  return false;
}

bool detail::Scheduler::set_blackboard(std::string_view name, BlackboardType type, Value value) {
  bool found = false;
  catching([&] { write_blackboard(name, type, value, found); });
  return found;
}

// `found` is set before the observer is told, so a write whose observer throws still counts.
void detail::Scheduler::write_blackboard(std::string_view name, BlackboardType type, Value value,
                                         bool& found) {
  const auto& entries = graph_->model().blackboard.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].type != type || entries[i].name != name) continue;
    // Written where the entry lives: this instance, or the file it inherits the entry from.
    auto* const owner = blackboard_links_[i].owner;
    const auto entry = blackboard_links_[i].entry;
    if (const auto* text = std::get_if<std::string_view>(&value)) {
      const auto first = owner->graph_->model().blackboard.first[static_cast<std::size_t>(type)];
      value = std::string_view(owner->blackboard_strings_[entry - first].assign(*text));
    }
    owner->blackboard_[entry] = value;
    found = true;
    if (attached()) {
      guarded(Fault::Source::Observer, -1, "on_blackboard",
              [&] { options_.observer->on_blackboard(*owner, entry); });
    }
    // On: a file may list one name twice in a type (docs/semantics.md, "Blackboard"), and a
    // write by name is meant for all of them.
  }
}

bool Instance::set_bool(std::string_view name, bool v) {
  return set_blackboard(name, BlackboardType::Bool, v);
}
bool Instance::set_int(std::string_view name, std::int32_t v) {
  return set_blackboard(name, BlackboardType::S32, v);
}
bool Instance::set_float(std::string_view name, float v) {
  return set_blackboard(name, BlackboardType::F32, v);
}
bool Instance::set_string(std::string_view name, std::string_view v) {
  return set_blackboard(name, BlackboardType::String, v);
}
bool Instance::set_vec3f(std::string_view name, Vec3f v) {
  return set_blackboard(name, BlackboardType::Vec3f, v);
}

namespace {

// The alternative of Value that holds a blackboard type's values (model.hpp).
std::size_t value_index(BlackboardType type) {
  switch (type) {
    case BlackboardType::String:
      return 3;
    case BlackboardType::S32:
      return 0;
    case BlackboardType::U32:
      return 6;
    case BlackboardType::F32:
      return 2;
    case BlackboardType::Bool:
      return 1;
    case BlackboardType::Vec3f:
      return 4;
    case BlackboardType::Pointer:
      return 5;
  }
  return 5;
}

}  // namespace

bool Instance::set_module_value(std::string_view module_file, std::string_view name,
                                BlackboardType type, const Value& value) {
  if (value.index() != value_index(type)) return false;
  bool found = false;
  catching([&] { write_module_blackboard(module_file, name, type, value, found); });
  return found;
}

void detail::Scheduler::write_module_blackboard(std::string_view module_file, std::string_view name,
                                                BlackboardType type, const Value& value,
                                                bool& found) {
  for (auto* sub : modules_) {
    if (sub->graph_->file_name() == module_file) sub->write_blackboard(name, type, value, found);
    sub->write_module_blackboard(module_file, name, type, value, found);
  }
}

const Value* Instance::blackboard(std::string_view name) const {
  const auto& entries = graph_->model().blackboard.entries;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].name == name) return bb_[i];
  }
  return nullptr;
}

}  // namespace ainb::runtime
