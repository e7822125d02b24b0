// Node classes written in Python (docs/python.md, "Node classes in Python"): a Python class
// registered by name runs the UserDefined nodes of that class. Each node of each actor gets its
// own object of the class, made at the node's Enter and dropped at its Leave, so `self` holds
// what one activation of one node keeps. Python runs with the GIL taken for each call; the rest
// of a run goes on without it.

#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "ainb/runtime/instance.hpp"
#include "bindings.hpp"

namespace ainb::python {

using runtime::NodeContext;
using runtime::Result;

namespace {

// What a Python call gets as `ctx`: the node's context for that call only.
struct Context {
  NodeContext* context = nullptr;
  std::set<std::string, std::less<>>* strings = nullptr;  // the class's, for string outputs

  NodeContext& get() const {
    if (context == nullptr)
      throw std::logic_error("a node context is valid only during the call it was given to");
    return *context;
  }
};

enum class Parameter { Input, Property, Output };

// Calls `f` with the name of each of the node's parameters of one kind and type.
template <typename F>
void each_parameter(const NodeContext& c, Parameter kind, ParamType type, F f) {
  const auto& m = c.model();
  const auto& node = c.node();
  auto all = [&](const auto& params) {
    for (const auto& p : params)
      f(p.name);
  };
  if (kind == Parameter::Input) all(m.inputs_of(node, type));
  if (kind == Parameter::Property) all(m.properties_of(node, type));
  if (kind == Parameter::Output) all(m.outputs_of(node, type));
}

// The type of the node's parameter `name` (the first type that has one of that name), or a
// KeyError listing the ones it has.
ParamType find_parameter(const NodeContext& c, Parameter kind, std::string_view name) {
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    bool found = false;
    each_parameter(c, kind, static_cast<ParamType>(t),
                   [&](std::string_view n) { found |= n == name; });
    if (found) return static_cast<ParamType>(t);
  }
  std::string known;
  for (std::size_t t = 0; t < kParamTypeCount; ++t) {
    const auto type = static_cast<ParamType>(t);
    each_parameter(c, kind, type, [&](std::string_view n) {
      known += fmt::format("{}{} ({})", known.empty() ? "" : ", ", n, param_type_name(type));
    });
  }
  static constexpr const char* kKinds[] = {"input", "property", "output"};
  throw py::key_error(fmt::format("node {} ({}) has no {} \"{}\" ({})", c.node_index(),
                                  node_class_name(c.node()), kKinds[static_cast<int>(kind)], name,
                                  known.empty() ? "it has none" : "it has: " + known));
}

// The value `read` returns for the C++ type of `type`, as Python's.
template <typename Read>
py::object read_parameter(ParamType type, Read read) {
  switch (type) {
    case ParamType::Int:
      return to_python(read(std::int32_t{}));
    case ParamType::Bool:
      return to_python(read(bool{}));
    case ParamType::Float:
      return to_python(read(float{}));
    case ParamType::String:
      return to_python(read(std::string_view{}));
    case ParamType::Vec3f:
      return to_python(read(Vec3f{}));
    case ParamType::Pointer:
      break;
  }
  return py::none();
}

py::object input(const Context& ctx, std::string_view name) {
  auto& c = ctx.get();
  return read_parameter(find_parameter(c, Parameter::Input, name),
                        [&]<typename T>(T) { return c.input<T>(name); });
}

py::object property(const Context& ctx, std::string_view name) {
  auto& c = ctx.get();
  return read_parameter(find_parameter(c, Parameter::Property, name),
                        [&]<typename T>(T) { return c.property<T>(name); });
}

void output(const Context& ctx, std::string_view name, py::handle value) {
  auto& c = ctx.get();
  const auto type = find_parameter(c, Parameter::Output, name);
  auto v = from_python(type, value, fmt::format("output \"{}\" ({})", name, param_type_name(type)));
  // The output keeps a view: the characters live in the class, each distinct string once.
  if (const auto* text = std::get_if<std::string_view>(&v))
    v = std::string_view(*ctx.strings->emplace(*text).first);
  c.write_value(type, name, v);
}

class PythonNodeClass final : public runtime::NodeClass {
 public:
  PythonNodeClass(std::string name, py::object cls)
      : NodeClass(kEnterAndLeave), name_(std::move(name)), cls_(std::move(cls)) {
    has_enter_ = py::hasattr(cls_, "enter");
    has_leave_ = py::hasattr(cls_, "leave");
  }
  ~PythonNodeClass() override {
    py::gil_scoped_acquire gil;
    objects_.clear();
    cls_ = py::object();
  }

  void enter(NodeContext& c) override {
    call(c, [&](py::handle ctx) {
      auto& object = objects_[{&c.instance(), c.node_index()}];
      object = cls_();  // a fresh one for each activation
      if (has_enter_) object.attr("enter")(ctx);
    });
  }

  Result update(NodeContext& c) override {
    Result result = Result::Failure;
    call(c, [&](py::handle ctx) {
      const auto returned = object(c).attr("update")(ctx);
      if (!py::isinstance<Result>(returned)) {
        const auto message = fmt::format("{}.update returned {}, not an ainb.Result", name_,
                                         py::repr(returned).cast<std::string>());
        PyErr_SetString(PyExc_TypeError, message.c_str());
        throw py::error_already_set();
      }
      result = returned.cast<Result>();
    });
    return result;
  }

  void leave(NodeContext& c) override {
    call(c, [&](py::handle ctx) {
      const auto it = objects_.find({&c.instance(), c.node_index()});
      if (it == objects_.end()) return;
      py::object object = std::move(it->second);
      objects_.erase(it);
      if (has_leave_) object.attr("leave")(ctx);
    });
  }

 private:
  // Runs `body` with the GIL, a Python exception becoming the C++ exception that faults the
  // instance (its message: describe_exception's). C++ errors of the context's calls reach Python as
  // exceptions first (RuntimeError, KeyError, TypeError), so a class may catch them.
  template <typename Body>
  void call(NodeContext& c, Body body) {
    std::string failure;
    {
      py::gil_scoped_acquire gil;
      // Python owns the context object; a ctx kept past the call then refuses to work rather
      // than reach a context that is gone.
      auto ctx = py::cast(Context{&c, &strings_});
      try {
        body(ctx);
      } catch (py::error_already_set& e) {
        failure = describe_exception(e);
      } catch (const std::exception& e) {
        failure = e.what();
      }
      ctx.cast<Context&>().context = nullptr;
    }
    if (!failure.empty()) throw std::runtime_error(failure);
  }

  py::object& object(NodeContext& c) {
    const auto it = objects_.find({&c.instance(), c.node_index()});
    if (it == objects_.end()) throw std::logic_error(fmt::format("{}: update before enter", name_));
    return it->second;
  }

  std::string name_;
  py::object cls_;
  bool has_enter_ = false;
  bool has_leave_ = false;
  // Guarded by the GIL: every access is inside call().
  std::map<std::pair<const runtime::Instance*, std::uint32_t>, py::object> objects_;
  std::set<std::string, std::less<>> strings_;
};

}  // namespace

// A Python exception as a fault's message: its last line ("ZeroDivisionError: division by
// zero") first, then the traceback Python prints above it.
std::string describe_exception(py::error_already_set& e) {
  const py::handle trace = e.trace() ? e.trace() : py::none();  // none: raised from C++
  const auto lines =
      py::module_::import("traceback").attr("format_exception")(e.type(), e.value(), trace);
  std::string traceback;
  for (const auto& line : lines)
    traceback += line.cast<std::string>();
  while (!traceback.empty() && traceback.back() == '\n')
    traceback.pop_back();
  const auto last = traceback.rfind('\n');
  if (last == std::string::npos) return traceback;
  return traceback.substr(last + 1) + "\n" + traceback.substr(0, last);
}

NodeClasses node_classes_from(const py::dict& classes) {
  NodeClasses result;
  for (const auto& [key, cls] : classes) {
    if (!py::isinstance<py::str>(key))
      throw py::type_error(fmt::format("node_classes: a class name is a str, not {}",
                                       py::repr(key).cast<std::string>()));
    auto name = key.cast<std::string>();
    if (!py::hasattr(cls, "update") || !PyCallable_Check(cls.ptr())) {
      throw py::type_error(
          fmt::format("node_classes[\"{}\"]: a class with an update(self, ctx) method, not {}",
                      name, py::repr(cls).cast<std::string>()));
    }
    result.emplace_back(
        name, std::make_shared<PythonNodeClass>(name, py::reinterpret_borrow<py::object>(cls)));
  }
  return result;
}

void bind_node_classes(py::module_& m) {
  py::enum_<Result>(m, "Result")
      .value("Running", Result::Running)
      .value("Success", Result::Success)
      .value("Failure", Result::Failure);

  py::class_<Context>(m, "NodeContext",
                      "What a Python node class's enter, update and leave get as `ctx`: the node, "
                      "in one actor, for that call only.")
      .def("input", &input, py::arg("name"),
           "The value of the node's input `name` now: int, bool, float, str or [x, y, z].")
      .def("property", &property, py::arg("name"), "The value of the node's property `name`.")
      .def("output", &output, py::arg("name"), py::arg("value"),
           "Writes the node's output `name`, a value of its type.")
      .def_property_readonly(
          "node", [](const Context& ctx) { return ctx.get().node_index(); },
          "The node's index in its file.")
      .def_property_readonly(
          "node_class",
          [](const Context& ctx) { return to_str(node_class_name(ctx.get().node())); },
          "The node's class name.")
      .def_property_readonly(
          "file", [](const Context& ctx) { return ctx.get().model().name; },
          "The node's file (a module's, inside a module call).")
      .def_property_readonly(
          "frame", [](const Context& ctx) { return ctx.get().instance().frame(); },
          "The actor's frame.")
      .def(
          "blackboard",
          [](const Context& ctx, std::string_view name) {
            return get_blackboard(ctx.get().instance(), name);
          },
          py::arg("name"), "The actor's blackboard entry `name`.")
      .def(
          "set_blackboard",
          [](const Context& ctx, std::string_view name, py::handle value) {
            set_blackboard(ctx.get().instance(), name, value);
          },
          py::arg("name"), py::arg("value"), "Writes the actor's blackboard entry `name`.")
      .def_property_readonly(
          "child_count", [](const Context& ctx) { return ctx.get().child_count(); },
          "The node's child plugs.")
      .def(
          "run_child", [](const Context& ctx, std::size_t k) { return ctx.get().run_child(k); },
          py::arg("k"), "Enters child `k` if needed, updates it, leaves it once it finishes.")
      .def(
          "leave_child", [](const Context& ctx, std::size_t k) { ctx.get().leave_child(k); },
          py::arg("k"), "Leaves child `k`.")
      .def(
          "transition", [](const Context& ctx, std::uint32_t k) { return ctx.get().transition(k); },
          py::arg("k"), "Takes the node's transition plug `k`; False when there is none.");
}

}  // namespace ainb::python
