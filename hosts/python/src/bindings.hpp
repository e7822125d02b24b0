#pragma once

// The parts of the `ainb._ainb` extension, one per concept, each adding its names to the module.

#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "ainb/model.hpp"

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
void bind_runs(py::module_& m);

}  // namespace ainb::python
