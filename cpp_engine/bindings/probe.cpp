// Binding of the probe domain (common/probe_domain.h): a test fixture for the shared
// batch, and the model of how small a domain's binding is.
#include <pybind11/pybind11.h>

#include "bindings/batch.h"
#include "common/probe_domain.h"

namespace py = pybind11;

namespace trackfield::bindings {

void bind_probe(py::module_& m) {
  using probe::ProbeConfig;
  py::class_<ProbeConfig>(m, "Config", "Probe domain settings (see common/probe_domain.h).")
      .def(py::init<>())
      .def_readwrite("num_agents", &ProbeConfig::num_agents)
      .def_readwrite("join_every", &ProbeConfig::join_every)
      .def_readwrite("max_steps", &ProbeConfig::max_steps)
      .def_readwrite("stack", &ProbeConfig::stack)
      .def_readwrite("image", &ProbeConfig::image);
  bind_batch<probe::ProbeDomain>(m, "A batch of probe worlds (a test fixture for the shared batch).")
      .def("render", [](PyBatch<probe::ProbeDomain>&, int, int) {
        return py::array_t<uint8_t>({1, 1, 3});
      }, py::arg("index") = 0, py::arg("width") = 0, "A 1 x 1 black frame (the probe draws nothing).");
}

}  // namespace trackfield::bindings
