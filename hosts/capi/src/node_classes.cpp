// Node classes whose calls go to C callbacks, their declared parameters, and what a callback
// asks of its node handle (ainb_node_*).

#include <cstddef>
#include <optional>

#include "handles.hpp"

using namespace ainb;
using namespace ainb::capi;

namespace {

// A class whose calls go to C callbacks.
class CNodeClass : public runtime::NodeClass {
 public:
  // NULL callbacks are declared absent, so the runtime does not call through for them.
  explicit CNodeClass(const ainb_node_class& c)
      : NodeClass(static_cast<Hooks>((c.enter != nullptr ? kEnter : 0) |
                                     (c.leave != nullptr ? kLeave : 0))),
        c_(c) {}
  void enter(runtime::NodeContext& c) override {
    if (c_.enter != nullptr) c_.enter(to_c(c), c_.class_data);
    raise_misuse(c.host());
  }
  runtime::Result update(runtime::NodeContext& c) override {
    const auto result = c_.update(to_c(c), c_.class_data);
    raise_misuse(c.host());
    switch (result) {
      case AINB_RUNNING:
        return runtime::Result::Running;
      case AINB_SUCCESS:
        return runtime::Result::Success;
      default:
        return runtime::Result::Failure;
    }
  }
  void leave(runtime::NodeContext& c) override {
    if (c_.leave != nullptr) c_.leave(to_c(c), c_.class_data);
    raise_misuse(c.host());
  }
  std::size_t state_size() const override { return c_.state_size; }

  // ainb_runtime_declare_parameter: the position, or nothing for a kind or type C cannot declare.
  std::optional<std::uint32_t> declare(ainb_parameter_kind kind, ainb_value_type type,
                                       std::string name) {
    switch (type) {
      case AINB_VALUE_BOOL:
        return declare_as<bool>(kind, std::move(name));
      case AINB_VALUE_INT:
        return declare_as<std::int32_t>(kind, std::move(name));
      case AINB_VALUE_FLOAT:
        return declare_as<float>(kind, std::move(name));
      case AINB_VALUE_STRING:  // C writes no strings: they would have to outlive the call
        if (kind == AINB_PARAMETER_OUTPUT) return std::nullopt;
        return declare_as<std::string_view>(kind, std::move(name));
      case AINB_VALUE_VEC3F:
        return declare_as<Vec3f>(kind, std::move(name));
      default:
        return std::nullopt;
    }
  }

 private:
  template <typename T>
  std::optional<std::uint32_t> declare_as(ainb_parameter_kind kind, std::string name) {
    switch (kind) {
      case AINB_PARAMETER_INPUT:
        return declare_input<T>(std::move(name)).position;
      case AINB_PARAMETER_PROPERTY:
        return declare_property<T>(std::move(name)).position;
      case AINB_PARAMETER_OUTPUT:
        return declare_output<T>(std::move(name)).position;
    }
    return std::nullopt;
  }

  ainb_node_class c_;
};

// The size of the first version of ainb_node_class (size, enter, update, leave, class_data,
// state_size): what every caller sets at least. Fields added later come after state_size.
constexpr std::size_t kNodeClassFirstVersion =
    offsetof(ainb_node_class, state_size) + sizeof(size_t);

// A declared input or property by handle, as its declaration says (ainb_node_get_*).
template <typename T>
T get_declared(const ainb_node* n, std::uint32_t position) {
  const auto& c = context(n);
  const auto& declared = c.node_class().declared();
  if (position >= declared.size()) return T{};
  if (declared[position].kind == runtime::ParamKind::Property) {
    return c.read(runtime::PropertyParam<T>{position});
  }
  return c.read(runtime::InputParam<T>{position});
}

}  // namespace

extern "C" {

ainb_status ainb_runtime_declare_parameter(ainb_runtime* rt, const char* class_name,
                                           ainb_parameter_kind kind, ainb_value_type type,
                                           const char* name, uint32_t* position) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  if (class_name == nullptr || name == nullptr || position == nullptr) {
    rt->last_error = "declare_parameter: a class name, a parameter name and a position are needed";
    return AINB_ERROR_ARGUMENT;
  }
  const auto registered = rt->runtime.registry().find(class_name);
  if (registered == nullptr) {
    rt->last_error = fmt::format("declare_parameter: no class \"{}\" is registered", class_name);
    return AINB_ERROR_NOT_FOUND;
  }
  // The C API's own classes are CNodeClasses; the generic classes declare their parameters
  // themselves.
  auto* node_class = dynamic_cast<CNodeClass*>(registered.get());
  if (node_class == nullptr) {
    rt->last_error = fmt::format(
        "declare_parameter: \"{}\" is a generic class (ainb_runtime_add_generic_nodes), not one "
        "registered with ainb_runtime_register_node",
        class_name);
    return AINB_ERROR_ARGUMENT;
  }
  try {
    const auto declared = node_class->declare(kind, type, name);
    if (!declared) {
      rt->last_error = fmt::format(
          "declare_parameter: \"{}\" of class \"{}\" has a kind ({}) or type ({}) that C "
          "cannot declare",
          name, class_name, static_cast<int>(kind), static_cast<int>(type));
      return AINB_ERROR_ARGUMENT;
    }
    *position = *declared;
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

ainb_status ainb_runtime_register_node(ainb_runtime* rt, const char* class_name,
                                       const ainb_node_class* node_class) {
  if (rt == nullptr) return AINB_ERROR_ARGUMENT;
  if (class_name == nullptr || node_class == nullptr) {
    rt->last_error = "register_node: a class needs a name and an update callback";
    return AINB_ERROR_ARGUMENT;
  }
  const auto known = read_versioned(*node_class, kNodeClassFirstVersion);
  if (!known) {
    rt->last_error = fmt::format(
        "register_node: class \"{}\": ainb_node_class.size is {}, less than the first version's "
        "{} bytes; set it to sizeof(ainb_node_class)",
        class_name, node_class->size, kNodeClassFirstVersion);
    return AINB_ERROR_ARGUMENT;
  }
  if (known->update == nullptr) {
    rt->last_error = "register_node: a class needs a name and an update callback";
    return AINB_ERROR_ARGUMENT;
  }
  try {
    // As a NodeClass: its hooks follow the callbacks given, so its type says nothing of them.
    rt->runtime.registry().add(
        class_name, std::shared_ptr<runtime::NodeClass>(std::make_shared<CNodeClass>(*known)));
    return AINB_OK;
  } catch (const std::exception& e) {
    rt->last_error = e.what();
    return AINB_ERROR_ARGUMENT;
  }
}

// ---- Node callbacks ------------------------------------------------------------------------

uint32_t ainb_node_index(const ainb_node* n) {
  if (n == nullptr) return 0;
  return context(n).node_index();
}
void* ainb_node_host(const ainb_node* n) {
  return n == nullptr ? nullptr : host_of(context(n).host());
}
void* ainb_node_state(ainb_node* n) {
  if (n == nullptr) return nullptr;
  const auto block = context(n).state_bytes();
  return block.empty() ? nullptr : block.data();
}
ainb_string ainb_node_name(const ainb_node* n) {
  if (n == nullptr) return {};
  return to_c(context(n).node().name);
}

int32_t ainb_node_property_int(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0;
  return context(n).property_int(name);
}
bool ainb_node_property_bool(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).property_bool(name);
}
float ainb_node_property_float(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0.0f;
  return context(n).property_float(name);
}
ainb_string ainb_node_property_string(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).property_string(name));
}
ainb_vec3f ainb_node_property_vec3f(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).property_vec3f(name));
}
int32_t ainb_node_input_int(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0;
  return context(n).input_int(name);
}
bool ainb_node_input_bool(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).input_bool(name);
}
float ainb_node_input_float(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return 0.0f;
  return context(n).input_float(name);
}
ainb_string ainb_node_input_string(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).input_string(name));
}
ainb_vec3f ainb_node_input_vec3f(const ainb_node* n, const char* name) {
  if (n == nullptr || name == nullptr) return {};
  return to_c(context(n).input_vec3f(name));
}
bool ainb_node_write_int(ainb_node* n, const char* name, int32_t v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_int(name, v);
}
bool ainb_node_write_bool(ainb_node* n, const char* name, bool v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_bool(name, v);
}
bool ainb_node_write_float(ainb_node* n, const char* name, float v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_float(name, v);
}
bool ainb_node_write_vec3f(ainb_node* n, const char* name, ainb_vec3f v) {
  if (n == nullptr || name == nullptr) return false;
  return context(n).write_vec3f(name, Vec3f{v.x, v.y, v.z});
}
int32_t ainb_node_get_int(const ainb_node* n, uint32_t position) {
  if (n == nullptr) return 0;
  return get_declared<std::int32_t>(n, position);
}
bool ainb_node_get_bool(const ainb_node* n, uint32_t position) {
  if (n == nullptr) return false;
  return get_declared<bool>(n, position);
}
float ainb_node_get_float(const ainb_node* n, uint32_t position) {
  if (n == nullptr) return 0.0f;
  return get_declared<float>(n, position);
}
ainb_string ainb_node_get_string(const ainb_node* n, uint32_t position) {
  if (n == nullptr) return {};
  return to_c(get_declared<std::string_view>(n, position));
}
ainb_vec3f ainb_node_get_vec3f(const ainb_node* n, uint32_t position) {
  if (n == nullptr) return {};
  return to_c(get_declared<Vec3f>(n, position));
}
bool ainb_node_set_int(ainb_node* n, uint32_t position, int32_t v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<std::int32_t>{position}, v);
}
bool ainb_node_set_bool(ainb_node* n, uint32_t position, bool v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<bool>{position}, v);
}
bool ainb_node_set_float(ainb_node* n, uint32_t position, float v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<float>{position}, v);
}
bool ainb_node_set_vec3f(ainb_node* n, uint32_t position, ainb_vec3f v) {
  if (n == nullptr) return false;
  return context(n).write(runtime::OutputParam<Vec3f>{position}, Vec3f{v.x, v.y, v.z});
}
bool ainb_node_transition(ainb_node* n, uint32_t k) {
  if (n == nullptr) return false;
  return context(n).transition(k);
}

uint32_t ainb_node_child_count(const ainb_node* n) {
  if (n == nullptr) return 0;
  return static_cast<uint32_t>(context(n).child_count());
}

ainb_string ainb_node_child_name(const ainb_node* n, uint32_t k) {
  if (n == nullptr) return {};
  return to_c(context(n).child_name(k));
}

ainb_result ainb_node_run_child(ainb_node* n, uint32_t k) {
  if (n == nullptr) return AINB_SUCCESS;
  auto& c = context(n);
  auto* i = static_cast<ainb_instance*>(c.host());
  // A child already failed, or this callback misused its instance (the fault is its own, raised
  // when it returns): run nothing more.
  if (i->deferred || !i->misuse.empty()) return AINB_FAILURE;
  try {
    return static_cast<ainb_result>(c.run_child(k));
  } catch (...) {  // a fault below: it goes on from the callback's return, in C++
    i->deferred = std::current_exception();
    return AINB_FAILURE;
  }
}

void ainb_node_leave_child(ainb_node* n, uint32_t k) {
  if (n == nullptr) return;
  auto& c = context(n);
  auto* i = static_cast<ainb_instance*>(c.host());
  if (i->deferred || !i->misuse.empty()) return;
  try {
    c.leave_child(k);
  } catch (...) {
    i->deferred = std::current_exception();
  }
}

}  // extern "C"
