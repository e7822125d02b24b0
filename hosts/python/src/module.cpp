// `ainb._ainb`: the compiled half of `import ainb` (hosts/python/ainb/__init__.py is the other,
// and what users read; docs/python.md).

#include <pybind11/pybind11.h>

#include "ainb/load_error.hpp"
#include "ainb/writer/text_form.hpp"
#include "bindings.hpp"

namespace ainb::python {

// LoadError keeps what the C++ error names (file, section, offset, reason) as attributes;
// TextFormError its JSON pointer. Both are ValueErrors, their messages the command line's.
void bind_errors(py::module_& m) {
  static py::handle load_error =
      py::exception<LoadError>(m, "LoadError", PyExc_ValueError).release();
  static py::handle text_form_error =
      py::exception<writer::TextFormError>(m, "TextFormError", PyExc_ValueError).release();
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const LoadError& e) {
      auto error = py::reinterpret_borrow<py::object>(load_error)(e.what());
      error.attr("file") = e.file();
      error.attr("section") = e.section();
      error.attr("offset") = e.offset();
      error.attr("reason") = e.reason();
      PyErr_SetObject(load_error.ptr(), error.ptr());
    } catch (const writer::TextFormError& e) {
      auto error = py::reinterpret_borrow<py::object>(text_form_error)(e.what());
      error.attr("path") = e.path();
      PyErr_SetObject(text_form_error.ptr(), error.ptr());
    }
  });
}

}  // namespace ainb::python

PYBIND11_MODULE(_ainb, m) {
  m.doc() = "The compiled part of the ainb package; import ainb instead.";
  m.attr("__version__") = AINB_VERSION;
  ainb::python::bind_errors(m);
  ainb::python::bind_files(m);
  ainb::python::bind_node_classes(m);
  ainb::python::bind_runs(m);
  ainb::python::bind_streams(m);
  ainb::python::bind_instances(m);
}
