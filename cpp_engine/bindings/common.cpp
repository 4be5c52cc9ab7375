// Bindings of the shared utilities, so they can be tested and reused from Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "common/rng.h"
#include "common/snapshot.h"
#include "common/spatial_hash.h"

namespace py = pybind11;

namespace trackfield::bindings {

void bind_common(py::module_& m) {
  m.def(
      "reseal_snapshot",
      [](py::bytes state) {
        std::string bytes = state;
        if (bytes.size() < sizeof(SnapshotHeader)) throw py::value_error("state: too short to be a snapshot");
        const uint64_t sum = fingerprint_bytes(bytes.data() + sizeof(SnapshotHeader), bytes.size() - sizeof(SnapshotHeader));
        std::memcpy(&bytes[offsetof(SnapshotHeader, payload_checksum)], &sum, sizeof(sum));
        return py::bytes(bytes);
      },
      py::arg("state"),
      "The snapshot with its payload checksum recomputed, as an edited snapshot would carry "
      "(for fuzzing the restore's own field checks).");
  m.def(
      "rng_uniform",
      [](uint64_t seed, uint64_t stream, int n) {
        if (n < 0) throw py::value_error("n must be non-negative");
        Rng rng;
        rng_seed(rng, seed, stream);
        py::array_t<float> out(n);
        auto o = out.mutable_unchecked<1>();
        for (int i = 0; i < n; ++i) o(i) = rng_uniform(rng);
        return out;
      },
      py::arg("seed"), py::arg("stream"), py::arg("n"),
      "n uniform floats in [0, 1) from the engine's PCG32 seeded with (seed, stream).");

  m.def(
      "spatial_hash_query",
      [](py::array_t<float, py::array::c_style | py::array::forcecast> points, float cell_size,
         float x, float y, float radius) {
        if (points.ndim() != 2 || points.shape(1) != 2)
          throw py::value_error("points: expected shape (n, 2)");
        int n = static_cast<int>(points.shape(0));
        std::vector<float> xs(n), ys(n);
        float lo_x = 0, lo_y = 0, hi_x = 1, hi_y = 1;
        for (int i = 0; i < n; ++i) {
          xs[i] = points.at(i, 0);
          ys[i] = points.at(i, 1);
          if (i == 0 || xs[i] < lo_x) lo_x = xs[i];
          if (i == 0 || ys[i] < lo_y) lo_y = ys[i];
          if (i == 0 || xs[i] > hi_x) hi_x = xs[i];
          if (i == 0 || ys[i] > hi_y) hi_y = ys[i];
        }
        SpatialHash h;
        spatial_hash_init(h, lo_x, lo_y, hi_x + cell_size, hi_y + cell_size, cell_size, n);
        spatial_hash_rebuild(h, xs.data(), ys.data(), n);
        std::vector<int> found;
        spatial_hash_query(h, xs.data(), ys.data(), x, y, radius, [&](int id, float) { found.push_back(id); });
        std::sort(found.begin(), found.end());
        return found;
      },
      py::arg("points"), py::arg("cell_size"), py::arg("x"), py::arg("y"), py::arg("radius"),
      "Ids of the points within radius of (x, y), found through the engine's spatial hash.");
}

}  // namespace trackfield::bindings
