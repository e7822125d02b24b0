// Values both ways (a parameter's or a blackboard entry's), and the blackboard of an instance as
// Python reads and writes it: the node classes' context and the Instance share these.

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include <pybind11/stl.h>

#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "bindings.hpp"

namespace ainb::python {

py::str to_str(std::string_view text) {
  // Bytes that are not UTF-8 replaced, as the trace writer replaces them.
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(text.data(), static_cast<py::ssize_t>(text.size()), "replace"));
}

py::object to_python(const Value& value) {
  return std::visit(
      [](const auto& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string_view>) {
          return to_str(x);
        } else if constexpr (std::is_same_v<T, Vec3f>) {
          return py::cast(std::vector<float>{x.x, x.y, x.z});
        } else if constexpr (std::is_same_v<T, PointerValue>) {
          return py::none();
        } else {
          return py::cast(x);
        }
      },
      value);
}

Value value_view(const simulation::Summary::StoredValue& value) {
  return std::visit(
      [](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::string>) {
          return Value(std::string_view(x));
        } else {
          return Value(x);
        }
      },
      value);
}

namespace {

[[noreturn]] void wrong_type(std::string_view what, std::string_view expected, py::handle value) {
  throw py::type_error(
      fmt::format("{} takes {}, not {}", what, expected, py::repr(value).cast<std::string>()));
}

bool is_number(py::handle value) {
  return !py::isinstance<py::bool_>(value) &&
         (py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value));
}

float to_float(std::string_view what, py::handle value) {
  if (!is_number(value)) wrong_type(what, "a number", value);
  const double d = value.cast<double>();
  if (std::isfinite(d) && std::abs(d) > std::numeric_limits<float>::max())
    throw py::value_error(fmt::format("{}: {} does not fit a 32-bit float", what, d));
  return static_cast<float>(d);
}

}  // namespace

Value from_python(ParamType type, py::handle value, std::string_view what) {
  switch (type) {
    case ParamType::Int: {
      if (py::isinstance<py::bool_>(value) || !py::isinstance<py::int_>(value))
        wrong_type(what, "an int", value);
      int overflow = 0;
      const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
      if (overflow != 0 || n < std::numeric_limits<std::int32_t>::min() ||
          n > std::numeric_limits<std::int32_t>::max()) {
        throw py::value_error(fmt::format("{}: {} does not fit a 32-bit int", what,
                                          py::repr(value).cast<std::string>()));
      }
      return static_cast<std::int32_t>(n);
    }
    case ParamType::Bool:
      if (!py::isinstance<py::bool_>(value)) wrong_type(what, "a bool", value);
      return value.cast<bool>();
    case ParamType::Float:
      return to_float(what, value);
    case ParamType::String: {
      if (!py::isinstance<py::str>(value)) wrong_type(what, "a str", value);
      py::ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
      if (text == nullptr) throw py::error_already_set();
      return std::string_view(text, static_cast<std::size_t>(size));  // the str's own buffer
    }
    case ParamType::Vec3f: {
      if (!py::isinstance<py::sequence>(value) || py::isinstance<py::str>(value) ||
          py::len(value) != 3)
        wrong_type(what, "three numbers (x, y, z)", value);
      const auto xyz = value.cast<py::sequence>();
      return Vec3f{to_float(what, xyz[0]), to_float(what, xyz[1]), to_float(what, xyz[2])};
    }
    case ParamType::Pointer:
      break;
  }
  throw py::type_error(fmt::format("{} is a pointer, which Python cannot set", what));
}

namespace {

const BlackboardEntry* find_entry(const runtime::Instance& instance, std::string_view name) {
  for (const auto& e : instance.graph().model().blackboard.entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

[[noreturn]] void no_entry(const runtime::Instance& instance, std::string_view name) {
  throw py::key_error(
      fmt::format("{} has no blackboard entry \"{}\"", instance.graph().file_name(), name));
}

}  // namespace

py::dict blackboard_dict(const runtime::Instance& instance) {
  py::dict values;
  for (const auto& e : instance.graph().model().blackboard.entries) {
    const auto* v = instance.blackboard(e.name);
    values[to_str(e.name)] = v ? to_python(*v) : py::none();
  }
  return values;
}

py::object get_blackboard(const runtime::Instance& instance, std::string_view name) {
  if (find_entry(instance, name) == nullptr) no_entry(instance, name);
  const auto* v = instance.blackboard(name);
  return v ? to_python(*v) : py::none();
}

void set_blackboard(runtime::Instance& instance, std::string_view name, py::handle value) {
  const auto* entry = find_entry(instance, name);
  if (entry == nullptr) no_entry(instance, name);
  const auto what =
      fmt::format("blackboard entry \"{}\" ({})", name, blackboard_type_name(entry->type));
  if (entry->type == BlackboardType::Pointer || entry->type == BlackboardType::U32)
    throw py::type_error(fmt::format("{} cannot be set from Python", what));
  const auto v = from_python(param_type_of(entry->type), value, what);
  switch (entry->type) {
    case BlackboardType::S32:
      instance.set_int(name, std::get<std::int32_t>(v));
      break;
    case BlackboardType::F32:
      instance.set_float(name, std::get<float>(v));
      break;
    case BlackboardType::Bool:
      instance.set_bool(name, std::get<bool>(v));
      break;
    case BlackboardType::String:
      instance.set_string(name, std::get<std::string_view>(v));
      break;
    case BlackboardType::Vec3f:
      instance.set_vec3f(name, std::get<Vec3f>(v));
      break;
    case BlackboardType::U32:  // refused above
    case BlackboardType::Pointer:
      break;
  }
}

}  // namespace ainb::python
