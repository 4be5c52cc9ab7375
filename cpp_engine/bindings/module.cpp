// The extension module trackfield._engine: one submodule per domain.
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace trackfield::bindings {
void bind_common(py::module_& m);
void bind_driving(py::module_& m);
void bind_driving_batch(py::module_& m);
void bind_football(py::module_& m);
void bind_probe(py::module_& m);
void bind_racing(py::module_& m);
void bind_racing_batch(py::module_& m);
void bind_racing_car(py::module_& m);
}  // namespace trackfield::bindings

PYBIND11_MODULE(_engine, m) {
  m.doc() = "trackfield's C++ engine";
  auto common = m.def_submodule("common", "shared engine utilities (RNG, spatial hash)");
  trackfield::bindings::bind_common(common);
  auto football = m.def_submodule("football", "the football engine");
  trackfield::bindings::bind_football(football);
  auto racing = m.def_submodule("racing", "the racing engine");
  trackfield::bindings::bind_racing(racing);
  trackfield::bindings::bind_racing_car(racing);
  trackfield::bindings::bind_racing_batch(racing);
  auto driving = m.def_submodule("driving", "the driving engine (maps, bicycle dynamics, collisions)");
  trackfield::bindings::bind_driving(driving);
  trackfield::bindings::bind_driving_batch(driving);
  auto probe = m.def_submodule("probe", "a minimal domain that exercises the shared batch (tests only)");
  trackfield::bindings::bind_probe(probe);
}
