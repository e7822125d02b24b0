#pragma once

// The parts of the `ainb._ainb` extension, one per concept, each adding its names to the module.

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "ainb/model.hpp"
#include "ainb/runtime/log.hpp"
#include "ainb/runtime/node_class.hpp"
#include "ainb/simulation/simulation.hpp"

namespace ainb::runtime {
class Instance;
}

namespace ainb::python {

namespace py = pybind11;

// A loaded file as Python holds it: the model, and the path it came from (empty for bytes), which
// the simulation's runs need.
struct File {
  std::shared_ptr<const Model> model;
  std::string path;
};

void bind_errors(py::module_& m);
void bind_files(py::module_& m);
void bind_node_classes(py::module_& m);
void bind_runs(py::module_& m);
void bind_streams(py::module_& m);
void bind_instances(py::module_& m);

// Runs (runs.cpp), shared by the streamed trace. The options the Python layer passes
// (ainb/__init__.py, _run_options; node classes made here, with the GIL).
simulation::RunOptions run_options(const py::dict& options);
// ("", "") none, ("path", PATH) a file, ("json", TEXT) a dict printed as JSON.
simulation::Scenario scenario_from(const std::string& kind, const std::string& value);
// The warnings a run says, as lines (alerts are the summary's).
runtime::LogSink collect_warnings(std::vector<std::string>& lines);
// RunResult's fields but the trace.
py::dict summary_dict(const simulation::Summary& summary, const std::vector<std::string>& warnings);
// An event as the dict of its JSON line.
py::dict event_dict(const simulation::TraceEvent& event);

// Values (values.cpp). Text as a str, bytes that are not UTF-8 replaced.
py::str to_str(std::string_view text);
// int, bool, float, str, [x, y, z] for a vec3f (as runs and traces give it); None for a pointer.
py::object to_python(const Value& value);
// A summary's blackboard value as a Value (a view of its string), for to_python.
Value value_view(const simulation::Summary::StoredValue& value);
// `value` as a value of `type`; TypeError or ValueError naming `what` when it is not one. A
// string is a view of the str's own characters, valid while `value` lives.
Value from_python(ParamType type, py::handle value, std::string_view what);
// An instance's blackboard: every entry by name, one entry (KeyError when there is none), and
// a write (KeyError, TypeError for a value of another type or an entry Python cannot set).
py::dict blackboard_dict(const runtime::Instance& instance);
py::object get_blackboard(const runtime::Instance& instance, std::string_view name);
void set_blackboard(runtime::Instance& instance, std::string_view name, py::handle value);

// Node classes written in Python (node_classes.cpp): {name: class} as the runtime's classes.
// A Python exception as the message of the C++ exception that faults an instance: its last line
// ("ZeroDivisionError: division by zero") first, then the traceback Python prints above it.
std::string describe_exception(py::error_already_set& e);
using NodeClasses = std::vector<std::pair<std::string, std::shared_ptr<runtime::NodeClass>>>;
NodeClasses node_classes_from(const py::dict& classes);

}  // namespace ainb::python
