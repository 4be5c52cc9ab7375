// Checks a numpy buffer handed to the engine once, at construction: dtype,
// C-contiguity, writeability and element count, with an error naming the argument.
#ifndef TRACKFIELD_BINDINGS_BUFFERS_H
#define TRACKFIELD_BINDINGS_BUFFERS_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

namespace trackfield::bindings {

namespace py = pybind11;

template <typename T>
T* checked_buffer(py::array& arr, const char* name, size_t expected_elems) {
  if (!py::dtype::of<T>().is(arr.dtype()))
    throw py::type_error(std::string(name) + ": expected dtype " +
                         std::string(py::str(py::dtype::of<T>())) + ", got " +
                         std::string(py::str(arr.dtype())));
  if (!(arr.flags() & py::array::c_style))
    throw py::value_error(std::string(name) + ": array must be C-contiguous");
  if (!arr.writeable()) throw py::value_error(std::string(name) + ": array must be writeable");
  if (static_cast<size_t>(arr.size()) != expected_elems)
    throw py::value_error(std::string(name) + ": expected " + std::to_string(expected_elems) +
                          " elements, got " + std::to_string(arr.size()));
  return static_cast<T*>(arr.mutable_data());
}

}  // namespace trackfield::bindings

#endif
