// Binding of the racing engine: the track (built from arrays that Python derived) and
// its projection queries. Errors name the argument; the engine checks the values.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "racing/track.h"

namespace py = pybind11;

namespace trackfield::bindings {

namespace {

using racing::Track;
using racing::TrackPos;
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
using IntArray = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

template <typename A>
void check_vector_shape(const A& a, const char* name) {
  if (a.ndim() != 1) throw py::value_error(std::string(name) + ": expected a 1-D array, got " +
                                           std::to_string(a.ndim()) + " dimensions");
}

std::vector<float> to_vector(const FloatArray& a, const char* name) {
  check_vector_shape(a, name);
  return std::vector<float>(a.data(), a.data() + a.size());
}

std::vector<float> to_vector(const std::optional<FloatArray>& a, const char* name) {
  return a ? to_vector(*a, name) : std::vector<float>{};
}

template <typename T>
std::vector<T> to_int_vector(const std::optional<IntArray>& a, const char* name, int64_t lo, int64_t hi) {
  if (!a) return {};
  check_vector_shape(*a, name);
  std::vector<T> out(a->size());
  for (py::ssize_t i = 0; i < a->size(); ++i) {
    int64_t v = a->data()[i];
    if (v < lo || v > hi)
      throw py::value_error(std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(v) +
                            " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    out[i] = static_cast<T>(v);
  }
  return out;
}

std::shared_ptr<Track> make_track(const std::string& name, const FloatArray& x, const FloatArray& y,
                                  const FloatArray& width_left, const FloatArray& width_right,
                                  const std::optional<FloatArray>& z, const std::optional<FloatArray>& banking,
                                  const std::optional<FloatArray>& grade,
                                  const std::optional<FloatArray>& curvature,
                                  const std::optional<IntArray>& section,
                                  const std::optional<IntArray>& section_kind,
                                  const std::vector<std::string>& section_names, float kerb_width,
                                  float wall_distance, bool bridge) {
  auto t = std::make_shared<Track>();
  t->name = name;
  t->x = to_vector(x, "x");
  t->y = to_vector(y, "y");
  t->width_left = to_vector(width_left, "width_left");
  t->width_right = to_vector(width_right, "width_right");
  t->z = to_vector(z, "z");
  t->banking = to_vector(banking, "banking");
  t->grade = to_vector(grade, "grade");
  t->curvature = to_vector(curvature, "curvature");
  t->section = to_int_vector<int16_t>(section, "section", -1, 32767);
  t->section_kind = to_int_vector<uint8_t>(section_kind, "section_kind", 0, 1);
  t->section_names = section_names;
  t->kerb_width = kerb_width;
  t->wall_distance = wall_distance;
  t->bridge = bridge;
  t->finalize();  // std::invalid_argument -> ValueError, naming the array
  return t;
}

py::array_t<float> copy_out(const std::vector<float>& v) {
  py::array_t<float> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

}  // namespace

void bind_racing(py::module_& m) {
  py::class_<TrackPos>(m, "TrackPos", "Where a point lies relative to the centre line (racing/track.h).")
      .def_readonly("segment", &TrackPos::segment)
      .def_readonly("t", &TrackPos::t)
      .def_readonly("s", &TrackPos::s)
      .def_readonly("d", &TrackPos::d)
      .def_readonly("width_left", &TrackPos::width_left)
      .def_readonly("width_right", &TrackPos::width_right)
      .def_readonly("z", &TrackPos::z)
      .def_readonly("banking", &TrackPos::banking)
      .def_readonly("grade", &TrackPos::grade)
      .def_readonly("curvature", &TrackPos::curvature)
      .def_readonly("heading", &TrackPos::heading)
      .def("__repr__", [](const TrackPos& p) {
        return "TrackPos(segment=" + std::to_string(p.segment) + ", s=" + std::to_string(p.s) +
               ", d=" + std::to_string(p.d) + ")";
      });

  py::class_<Track, std::shared_ptr<Track>>(
      m, "Track",
      "A closed centre line as the engine stores it: per-point float32 arrays of equal length.\n"
      "Build it with trackfield.racing.Track.to_engine(); values are checked (ValueError).")
      .def(py::init(&make_track), py::kw_only(), py::arg("name"), py::arg("x"), py::arg("y"),
           py::arg("width_left"), py::arg("width_right"), py::arg("z") = py::none(),
           py::arg("banking") = py::none(), py::arg("grade") = py::none(), py::arg("curvature") = py::none(),
           py::arg("section") = py::none(), py::arg("section_kind") = py::none(),
           py::arg("section_names") = std::vector<std::string>{}, py::arg("kerb_width") = 1.0f,
           py::arg("wall_distance") = 8.0f, py::arg("bridge") = false)
      .def_readonly("name", &Track::name)
      .def_readonly("n", &Track::n)
      .def_readonly("length", &Track::length)
      .def_readonly("kerb_width", &Track::kerb_width)
      .def_readonly("wall_distance", &Track::wall_distance)
      .def_readonly("bridge", &Track::bridge)
      .def_readonly("section_names", &Track::section_names)
      .def_property_readonly("s", [](const Track& t) { return copy_out(t.s); }, "arc length per point (copy)")
      .def(
          "project",
          [](const Track& t, float x, float y, int hint) { return racing::project(t, {x, y}, hint); },
          py::arg("x"), py::arg("y"), py::arg("hint") = -1,
          "Nearest centre-line point to (x, y); hint = previous segment (>= 0) keeps the search local.")
      .def(
          "project_many",
          [](const Track& t, const FloatArray& xy, int hint) {
            if (xy.ndim() != 2 || xy.shape(1) != 2) throw py::value_error("xy: expected shape (N, 2)");
            py::ssize_t n = xy.shape(0);
            py::array_t<int32_t> segment(n);
            const char* names[] = {"t", "s", "d", "width_left", "width_right", "z",
                                   "banking", "grade", "curvature", "heading"};
            std::vector<py::array_t<float>> cols;
            for (size_t k = 0; k < std::size(names); ++k) cols.emplace_back(n);
            std::vector<float*> out;
            for (auto& c : cols) out.push_back(c.mutable_data());
            const float* p = xy.data();
            int32_t* seg = segment.mutable_data();
            {
              py::gil_scoped_release release;
              for (py::ssize_t i = 0; i < n; ++i) {
                TrackPos pos = racing::project(t, {p[2 * i], p[2 * i + 1]}, hint);
                if (hint >= 0) hint = pos.segment;
                seg[i] = pos.segment;
                const float v[] = {pos.t, pos.s, pos.d, pos.width_left, pos.width_right, pos.z,
                                   pos.banking, pos.grade, pos.curvature, pos.heading};
                for (size_t k = 0; k < std::size(v); ++k) out[k][i] = v[k];
              }
            }
            py::dict result;
            result["segment"] = segment;
            for (size_t k = 0; k < std::size(names); ++k) result[names[k]] = cols[k];
            return result;
          },
          py::arg("xy"), py::arg("hint") = -1,
          "Projects the rows of xy [N, 2]; a dict of arrays (segment, t, s, d, widths, z, banking,\n"
          "grade, curvature, heading). hint >= 0 chains: row k starts its walk at row k-1's segment,\n"
          "as a moving car does; hint = -1 searches the whole track for every row.")
      .def(
          "point_at",
          [](const Track& t, float s, float d) {
            Vec2 p = racing::point_at(t, s, d);
            return py::make_tuple(p.x, p.y);
          },
          py::arg("s"), py::arg("d") = 0.0f, "World (x, y) at arc length s, offset d to the left.")
      .def(
          "wrap_ds", [](const Track& t, float a, float b) { return racing::wrap_ds(t, a, b); },
          py::arg("a"), py::arg("b"), "a - b in arc length, wrapped into [-length/2, length/2).")
      .def("__repr__", [](const Track& t) {
        return "<_engine.racing.Track '" + t.name + "' n=" + std::to_string(t.n) +
               " length=" + std::to_string(t.length) + ">";
      });
}

}  // namespace trackfield::bindings
