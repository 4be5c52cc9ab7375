// Binding of the driving engine's map (built from a flattened RoadMap, see
// trackfield.driving.engine_map), its queries, and test hooks for the bicycle step and
// collision detection. Shapes are checked here, values in build_map; every error is a
// ValueError naming the argument.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driving/bicycle.h"
#include "driving/collision.h"
#include "driving/map.h"
#include "driving/routing.h"

namespace py = pybind11;

namespace trackfield::bindings {

namespace {

using driving::LanePos;
using driving::Map;
using F64 = py::array_t<double, py::array::c_style | py::array::forcecast>;
using I64 = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

std::string shape_of(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t k = 0; k < a.ndim(); ++k) s += (k ? ", " : "") + std::to_string(a.shape(k));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

// Checks a.shape == (rows, cols) (cols < 0: 1-D; rows < 0: any length).
void check_shape(const py::array& a, const char* name, py::ssize_t rows, py::ssize_t cols = -1) {
  const bool ok = cols < 0 ? a.ndim() == 1 && (rows < 0 || a.shape(0) == rows)
                           : a.ndim() == 2 && (rows < 0 || a.shape(0) == rows) && a.shape(1) == cols;
  if (!ok) {
    std::string want = cols < 0 ? "(" + (rows < 0 ? std::string("n") : std::to_string(rows)) + ",)"
                                : "(" + (rows < 0 ? std::string("n") : std::to_string(rows)) + ", " +
                                      std::to_string(cols) + ")";
    throw py::value_error(std::string(name) + ": expected shape " + want + ", got " + shape_of(a));
  }
}

void check_finite(const double* p, py::ssize_t n, const char* name) {
  for (py::ssize_t i = 0; i < n; ++i)
    if (!std::isfinite(p[i])) throw py::value_error(std::string(name) + " contains NaN or inf at flat index " + std::to_string(i));
}

template <typename T, typename A>
std::vector<T> to_vector(const A& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}

std::vector<int32_t> lane_ids(const I64& a, const char* name) {
  std::vector<int32_t> out(a.size());
  for (py::ssize_t i = 0; i < a.size(); ++i) {
    const int64_t v = a.data()[i];
    if (v < -1 || v > 2147483647)
      throw py::value_error(std::string(name) + "[" + std::to_string(i) + "] = " + std::to_string(v) + " is out of range");
    out[i] = static_cast<int32_t>(v);
  }
  return out;
}

std::shared_ptr<Map> make_map(const I64& lane_offsets, const F64& points, const F64& widths, const F64& speed_limits,
                              const I64& successor_offsets, const I64& successors, const I64& left, const I64& right,
                              const I64& junction, const std::optional<I64>& boundary_offsets,
                              const std::optional<F64>& boundary_points, const std::optional<F64>& paved_corners) {
  check_shape(lane_offsets, "lane_offsets", -1);
  if (lane_offsets.size() < 2) throw py::value_error("lane_offsets: need at least one lane (2 offsets)");
  const py::ssize_t lanes = lane_offsets.size() - 1;
  check_shape(points, "points", -1, 3);
  check_shape(widths, "widths", points.shape(0));
  check_shape(speed_limits, "speed_limits", lanes);
  check_shape(successor_offsets, "successor_offsets", lanes + 1);
  check_shape(successors, "successors", -1);
  check_shape(left, "left", lanes), check_shape(right, "right", lanes), check_shape(junction, "junction", lanes);
  auto m = std::make_shared<Map>();
  m->lane_offsets = to_vector<int64_t>(lane_offsets);
  const py::ssize_t n = points.shape(0);
  m->px.resize(n), m->py.resize(n), m->pz.resize(n);
  for (py::ssize_t i = 0; i < n; ++i)
    m->px[i] = points.data()[3 * i], m->py[i] = points.data()[3 * i + 1], m->pz[i] = points.data()[3 * i + 2];
  m->width = to_vector<double>(widths);
  m->speed_limit.resize(lanes);
  for (py::ssize_t i = 0; i < lanes; ++i) m->speed_limit[i] = static_cast<float>(speed_limits.data()[i]);
  m->successor_offsets = to_vector<int64_t>(successor_offsets);
  m->successors = lane_ids(successors, "successors");
  m->left = lane_ids(left, "left"), m->right = lane_ids(right, "right"), m->junction = lane_ids(junction, "junction");
  if (boundary_offsets.has_value() != boundary_points.has_value())
    throw py::value_error("boundary_offsets and boundary_points: give both or neither");
  if (boundary_points) {
    check_shape(*boundary_offsets, "boundary_offsets", -1);
    check_shape(*boundary_points, "boundary_points", -1, 3);
    m->boundary_offsets = to_vector<int64_t>(*boundary_offsets);
    m->boundary_points = to_vector<double>(*boundary_points);
  }
  if (paved_corners) {
    check_shape(*paved_corners, "paved_corners", -1, 12);
    m->paved_corners = to_vector<double>(*paved_corners);
  }
  {
    py::gil_scoped_release release;  // the routing table takes a while on big towns
    driving::build_map(*m);          // std::invalid_argument -> ValueError naming the array
  }
  return m;
}

void check_lane(const Map& m, int lane, const char* name) {
  if (lane < 0 || lane >= m.lane_count)
    throw py::value_error(std::string(name) + " = " + std::to_string(lane) + " is not a lane of this map (0.." +
                          std::to_string(m.lane_count - 1) + ")");
}

template <typename T>
py::array_t<T> copy_out(const std::vector<T>& v) {
  py::array_t<T> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

// Columns of step_bicycle's state array.
constexpr const char* kStateColumns[] = {"x", "y", "heading", "v", "a_long", "a_lat", "phi",
                                         "sign_a_long", "sign_a_lat", "sign_v"};
constexpr int kStateWidth = 10;
constexpr int kVehicleWidth = 6;  // length, width, c_throttle, c_steer, c_acc, c_vel

py::array_t<double> step_bicycle_hook(const F64& state, const F64& vehicle, const py::array& actions, double dt) {
  check_shape(state, "state", -1, kStateWidth);
  const py::ssize_t n = state.shape(0);
  check_shape(vehicle, "vehicle", n, kVehicleWidth);
  check_finite(state.data(), state.size(), "state");
  check_finite(vehicle.data(), vehicle.size(), "vehicle");
  if (!(dt > 0) || !std::isfinite(dt)) throw py::value_error("dt: must be a positive finite time step");
  for (py::ssize_t i = 0; i < n; ++i) {
    const double* v = vehicle.data() + kVehicleWidth * i;
    if (!(v[0] > 0 && v[1] > 0)) throw py::value_error("vehicle: length and width must be positive (row " + std::to_string(i) + ")");
  }
  std::vector<float> jl(n), jt(n);
  if (actions.dtype().kind() == 'i' || actions.dtype().kind() == 'u') {
    I64 a = actions.cast<I64>();
    check_shape(a, "actions", n);
    for (py::ssize_t i = 0; i < n; ++i) {
      if (a.data()[i] < 0 || a.data()[i] >= driving::kActionCount)
        throw py::value_error("actions[" + std::to_string(i) + "] = " + std::to_string(a.data()[i]) + " is outside [0, 12)");
      driving::decode_action(static_cast<int>(a.data()[i]), jl[i], jt[i]);
    }
  } else {
    F64 a = actions.cast<F64>();
    check_shape(a, "actions", n, 2);
    check_finite(a.data(), a.size(), "actions");
    for (py::ssize_t i = 0; i < n; ++i) jl[i] = static_cast<float>(a.data()[2 * i]), jt[i] = static_cast<float>(a.data()[2 * i + 1]);
  }
  driving::BicycleState s;
  driving::bicycle_resize(s, static_cast<int>(n));
  for (py::ssize_t i = 0; i < n; ++i) {
    const double* r = state.data() + kStateWidth * i;
    const double* v = vehicle.data() + kVehicleWidth * i;
    s.x[i] = r[0], s.y[i] = r[1], s.heading[i] = r[2], s.v[i] = r[3], s.a_long[i] = r[4], s.a_lat[i] = r[5], s.phi[i] = r[6];
    s.sign_a_long[i] = r[7] < 0 ? -1 : 1, s.sign_a_lat[i] = r[8] < 0 ? -1 : 1, s.sign_v[i] = r[9] < 0 ? -1 : 1;
    s.length[i] = static_cast<float>(v[0]), s.width[i] = static_cast<float>(v[1]);
    s.wheelbase[i] = static_cast<float>(driving::kWheelbaseRatio * v[0]);
    s.c_throttle[i] = static_cast<float>(v[2]), s.c_steer[i] = static_cast<float>(v[3]);
    s.c_acc[i] = static_cast<float>(v[4]), s.c_vel[i] = static_cast<float>(v[5]);
  }
  driving::BicycleParams params;
  params.dt = dt;
  Rng rng;  // unused: no noise in the hook
  driving::step_bicycle(s, 0, static_cast<int>(n), jl.data(), jt.data(), params, rng);
  py::array_t<double> out({n, static_cast<py::ssize_t>(kStateWidth)});
  double* o = out.mutable_data();
  for (py::ssize_t i = 0; i < n; ++i) {
    const double row[kStateWidth] = {s.x[i], s.y[i], s.heading[i], s.v[i], s.a_long[i], s.a_lat[i], s.phi[i],
                                     static_cast<double>(s.sign_a_long[i]), static_cast<double>(s.sign_a_lat[i]),
                                     static_cast<double>(s.sign_v[i])};
    std::copy(row, row + kStateWidth, o + kStateWidth * i);
  }
  return out;
}

py::tuple detect_collisions_hook(const F64& start, const F64& end, const F64& z, const F64& length, const F64& width) {
  check_shape(start, "start", -1, 3);
  const py::ssize_t n = start.shape(0);
  check_shape(end, "end", n, 3), check_shape(z, "z", n), check_shape(length, "length", n), check_shape(width, "width", n);
  check_finite(start.data(), start.size(), "start"), check_finite(end.data(), end.size(), "end");
  check_finite(z.data(), n, "z"), check_finite(length.data(), n, "length"), check_finite(width.data(), n, "width");
  std::vector<double> x0(n), y0(n), h0(n), x1(n), y1(n), h1(n);
  std::vector<float> zf(n), lf(n), wf(n);
  float lo_x = 0, lo_y = 0, hi_x = 1, hi_y = 1;
  for (py::ssize_t i = 0; i < n; ++i) {
    x0[i] = start.data()[3 * i], y0[i] = start.data()[3 * i + 1], h0[i] = start.data()[3 * i + 2];
    x1[i] = end.data()[3 * i], y1[i] = end.data()[3 * i + 1], h1[i] = end.data()[3 * i + 2];
    zf[i] = static_cast<float>(z.data()[i]), lf[i] = static_cast<float>(length.data()[i]), wf[i] = static_cast<float>(width.data()[i]);
    if (!(lf[i] > 0 && wf[i] > 0)) throw py::value_error("length, width: must be positive (row " + std::to_string(i) + ")");
    lo_x = std::min(lo_x, static_cast<float>(x1[i])), hi_x = std::max(hi_x, static_cast<float>(x1[i]) + 1);
    lo_y = std::min(lo_y, static_cast<float>(y1[i])), hi_y = std::max(hi_y, static_cast<float>(y1[i]) + 1);
  }
  driving::CollisionScratch scratch;
  driving::collision_scratch_init(scratch, static_cast<int>(n), lo_x, lo_y, hi_x, hi_y);
  driving::CollisionInput in;
  in.count = static_cast<int>(n);
  in.x0 = x0.data(), in.y0 = y0.data(), in.heading0 = h0.data(), in.x1 = x1.data(), in.y1 = y1.data(), in.heading1 = h1.data();
  in.z = zf.data(), in.length = lf.data(), in.width = wf.data();
  py::array_t<bool> collided(n);
  py::array_t<int32_t> partner(n);
  std::vector<uint8_t> flags(n);
  driving::detect_collisions(in, scratch, flags.data(), partner.mutable_data());
  for (py::ssize_t i = 0; i < n; ++i) collided.mutable_data()[i] = flags[i] != 0;
  return py::make_tuple(collided, partner);
}

}  // namespace

void bind_driving(py::module_& m) {
  m.attr("SEAM_TOLERANCE") = driving::kSeamTolerance;
  m.attr("OUT_OF_BOUNDS_PUSH") = driving::kOutOfBoundsPush;
  m.attr("LANE_CHANGE_COST") = driving::kLaneChangeCost;
  m.attr("COLLISION_HEIGHT") = driving::kCollisionHeight;
  m.attr("STATE_COLUMNS") = py::make_tuple(kStateColumns[0], kStateColumns[1], kStateColumns[2], kStateColumns[3],
                                           kStateColumns[4], kStateColumns[5], kStateColumns[6], kStateColumns[7],
                                           kStateColumns[8], kStateColumns[9]);

  py::class_<LanePos>(m, "LanePos", "Where a point lies on the map (driving/map.h).")
      .def_readonly("lane", &LanePos::lane)
      .def_readonly("quad", &LanePos::quad)
      .def_readonly("s", &LanePos::s)
      .def_readonly("d", &LanePos::d)
      .def_readonly("heading", &LanePos::heading)
      .def_readonly("z", &LanePos::z)
      .def_readonly("half_width", &LanePos::half_width)
      .def_readonly("on_road", &LanePos::on_road)
      .def("__repr__", [](const LanePos& p) {
        return "LanePos(lane=" + std::to_string(p.lane) + ", s=" + std::to_string(p.s) + ", d=" + std::to_string(p.d) +
               ", on_road=" + (p.on_road ? "True" : "False") + ")";
      });

  py::class_<Map, std::shared_ptr<Map>>(
      m, "Map",
      "A driving map: lanes cut into quads, hashed, with out-of-bounds points and a routing table.\n"
      "Build it with trackfield.driving.engine_map.build_engine_map(roadmap).")
      .def(py::init(&make_map), py::kw_only(), py::arg("lane_offsets"), py::arg("points"), py::arg("widths"),
           py::arg("speed_limits"), py::arg("successor_offsets"), py::arg("successors"), py::arg("left"),
           py::arg("right"), py::arg("junction"), py::arg("boundary_offsets") = py::none(),
           py::arg("boundary_points") = py::none(), py::arg("paved_corners") = py::none())
      .def_readonly("lane_count", &Map::lane_count)
      .def_readonly("paved_count", &Map::paved_count)
      .def_readonly("quad_count", &Map::quad_count)
      .def_property_readonly("lane_lengths", [](const Map& mp) { return copy_out(mp.lane_length); })
      .def_property_readonly("speed_limits", [](const Map& mp) { return copy_out(mp.speed_limit); })
      .def_property_readonly("out_of_bounds_count", [](const Map& mp) { return mp.oob_x.size(); })
      .def_property_readonly("quad_lanes", [](const Map& mp) { return copy_out(mp.quad_lane); })
      .def_property_readonly("sets", [](const Map& mp) {
        const driving::MapSets& s = mp.sets;
        py::dict d;
        d["lane_xyz"] = py::make_tuple(copy_out(s.lane_x), copy_out(s.lane_y), copy_out(s.lane_z));
        d["lane_lane"] = copy_out(s.lane_lane), d["lane_s"] = copy_out(s.lane_s);
        d["boundary_xyz"] = py::make_tuple(copy_out(s.bnd_x), copy_out(s.bnd_y), copy_out(s.bnd_z));
        d["quad_group"] = copy_out(s.quad_group);
        d["group_xy"] = py::make_tuple(copy_out(s.group_x), copy_out(s.group_y));
        d["lane_set_offsets"] = copy_out(s.lane_set_offsets), d["lane_set"] = copy_out(s.lane_set);
        d["boundary_set_offsets"] = copy_out(s.bnd_set_offsets), d["boundary_set"] = copy_out(s.bnd_set);
        d["memory_bytes"] = s.memory_bytes();
        d["route_to_bytes"] = s.route_to.size() * sizeof(float);
        return d;
      }, "The precomputed observation sets (driving/map_sets.h): samples, groups of quads and their sets (copies).")
      .def(
          "localise",
          [](const Map& mp, double x, double y, double z, int hint) {
            if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) throw py::value_error("x, y, z: must be finite");
            return driving::localise(mp, x, y, z, hint >= 0 && hint < mp.quad_count ? hint : -1);
          },
          py::arg("x"), py::arg("y"), py::arg("z") = 0.0, py::arg("hint_quad") = -1,
          "Lane, s, d (+ left), quad and heading of (x, y, z); on_road False: nearest quad within 10 m.")
      .def(
          "is_on_road",
          [](const Map& mp, double x, double y, double z) { return driving::point_on_road(mp, x, y, z); },
          py::arg("x"), py::arg("y"), py::arg("z") = 0.0, "True within the 15 cm seam tolerance of a quad, lane or paved.")
      .def(
          "is_off_road",
          [](const Map& mp, double x, double y, double z, double heading, double length, double width) {
            if (!(length > 0) || !(width > 0)) throw py::value_error("length, width: must be positive");
            return driving::box_off_road(mp, x, y, z, heading, length, width);
          },
          py::arg("x"), py::arg("y"), py::arg("z"), py::arg("heading"), py::arg("length"), py::arg("width"),
          "True when the vehicle box's centre or a corner is on no quad, or it contains an out-of-bounds point.")
      .def(
          "route_distance",
          [](const Map& mp, int lane_a, float s_a, int lane_b, float s_b) {
            check_lane(mp, lane_a, "lane_a"), check_lane(mp, lane_b, "lane_b");
            return driving::route_distance(mp, lane_a, s_a, lane_b, s_b);
          },
          py::arg("lane_a"), py::arg("s_a"), py::arg("lane_b"), py::arg("s_b"),
          "Shortest lane-graph distance from (lane_a, s_a) to (lane_b, s_b), m; inf when unreachable.")
      .def("__repr__", [](const Map& mp) {
        return "<_engine.driving.Map lanes=" + std::to_string(mp.lane_count) + " quads=" + std::to_string(mp.quad_count) + ">";
      });

  m.def("step_bicycle", &step_bicycle_hook, py::arg("state"), py::arg("vehicle"), py::arg("actions"),
        py::arg("dt") = driving::kDefaultDt,
        "Test hook: one bicycle step. state (n, 10) float64 in STATE_COLUMNS order, vehicle (n, 6)\n"
        "[length, width, c_throttle, c_steer, c_acc, c_vel], actions (n,) ints in [0, 12) or (n, 2)\n"
        "jerks (clipped to the Box). Returns the new state.");
  m.def("detect_collisions", &detect_collisions_hook, py::arg("start"), py::arg("end"), py::arg("z"),
        py::arg("length"), py::arg("width"),
        "Test hook: start/end poses (n, 3) [x, y, heading]; returns (collided bool (n,), partner int32 (n,)).");
}

}  // namespace trackfield::bindings
