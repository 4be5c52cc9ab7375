// The single env's `info` dict built in C++: the single env returns one every step, and
// assembling it field by field in Python cost more than the racing physics itself.
// Values follow InfoFields.one in envs/core/engine.py: int32 -> int (tuple of ints for a
// vector), bool -> bool (bool array), float -> float (float32 array); then
// "reward_components" as {name: float}.
#ifndef TRACKFIELD_BINDINGS_INFO_H
#define TRACKFIELD_BINDINGS_INFO_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/field_spec.h"

namespace trackfield::bindings {

namespace py = pybind11;

class InfoBuilder {
 public:
  InfoBuilder() = default;
  InfoBuilder(const std::vector<FieldSpec>& world, const std::vector<FieldSpec>& agent,
              const std::vector<std::string>& components)
      : world_(entries_of(world)), agent_(entries_of(agent)) {
    for (const std::string& c : components) component_keys_.push_back(py::str(c));
    components_key_ = py::str("reward_components");
  }

  // World fields, then one agent's fields (agent_row may be null), then its components.
  py::dict build(const double* world_row, const double* agent_row, const float* components) const {
    py::dict out;
    add_fields(out, world_, world_row);
    if (agent_row != nullptr) add_fields(out, agent_, agent_row);
    py::dict comps;
    for (size_t k = 0; k < component_keys_.size(); ++k)
      set_item(comps, component_keys_[k], PyFloat_FromDouble(components[k]));
    set_item(out, components_key_, comps.release().ptr());
    return out;
  }

 private:
  enum class Kind { Int, Bool, Float };
  struct Entry {
    py::str key;
    Kind kind;
    std::vector<py::ssize_t> shape;  // empty: a scalar
    int size;
  };

  static std::vector<Entry> entries_of(const std::vector<FieldSpec>& fields) {
    std::vector<Entry> out;
    for (const FieldSpec& f : fields) {
      const Kind kind = f.dtype == "int32" ? Kind::Int : f.dtype == "bool" ? Kind::Bool : Kind::Float;
      out.push_back({py::str(f.name), kind, std::vector<py::ssize_t>(f.shape.begin(), f.shape.end()), field_size(f)});
    }
    return out;
  }

  // Stores `value` (a new reference, which the dict takes over) under `key`.
  static void set_item(py::dict& d, const py::str& key, PyObject* value) {
    if (value == nullptr) throw py::error_already_set();
    const int status = PyDict_SetItem(d.ptr(), key.ptr(), value);
    Py_DECREF(value);
    if (status != 0) throw py::error_already_set();
  }

  static long long as_int(double v) { return std::isfinite(v) ? static_cast<long long>(v) : 0; }

  static void add_fields(py::dict& out, const std::vector<Entry>& entries, const double* row) {
    for (const Entry& e : entries) {
      if (e.shape.empty()) {
        PyObject* value = e.kind == Kind::Int    ? PyLong_FromLongLong(as_int(row[0]))
                          : e.kind == Kind::Bool ? PyBool_FromLong(row[0] != 0.0)
                                                 : PyFloat_FromDouble(row[0]);
        set_item(out, e.key, value);
      } else if (e.kind == Kind::Int) {
        py::tuple values(e.size);
        for (int k = 0; k < e.size; ++k) values[k] = py::int_(as_int(row[k]));
        set_item(out, e.key, values.release().ptr());
      } else if (e.kind == Kind::Bool) {
        py::array_t<bool> values(e.shape);
        bool* data = values.mutable_data();
        for (int k = 0; k < e.size; ++k) data[k] = row[k] != 0.0;
        set_item(out, e.key, values.release().ptr());
      } else {
        py::array_t<float> values(e.shape);
        float* data = values.mutable_data();
        for (int k = 0; k < e.size; ++k) data[k] = static_cast<float>(row[k]);
        set_item(out, e.key, values.release().ptr());
      }
      row += e.size;
    }
  }

  std::vector<Entry> world_, agent_;
  std::vector<py::str> component_keys_;
  py::str components_key_;
};

}  // namespace trackfield::bindings

#endif
