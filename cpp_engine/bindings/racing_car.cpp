// Binding of one car on its own: the physics step for tests and the benchmark, the car
// classes' parameters, and the reference lap.
#include <pybind11/pybind11.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>

#include "racing/car.h"
#include "racing/racing_line.h"
#include "racing/ai_driver.h"
#include "racing/reference_lap.h"

namespace py = pybind11;

namespace trackfield::bindings {

namespace rc = trackfield::racing;

namespace {

struct CarSim {
  std::shared_ptr<const rc::Track> track;
  rc::CarKind kind;
  rc::CarState state;
};

py::list four(const float* v) {
  py::list out;
  for (int k = 0; k < 4; ++k) out.append(v[k]);
  return out;
}

py::dict state_dict(const rc::CarState& c) {
  py::dict d;
  d["x"] = c.x; d["y"] = c.y; d["z"] = c.z; d["yaw"] = c.yaw;
  d["vx"] = c.vx; d["vy"] = c.vy; d["vz"] = c.vz; d["yaw_rate"] = c.yaw_rate; d["ax"] = c.ax; d["ay"] = c.ay;
  d["speed"] = rc::car_speed(c); d["signed_speed"] = c.signed_speed;
  d["s"] = c.s; d["d"] = c.d; d["heading_error"] = c.heading_error; d["segment"] = c.track_segment;
  d["gear"] = c.gear; d["rpm"] = c.rpm; d["in_reverse"] = c.in_reverse;
  d["steer"] = c.steer; d["throttle"] = c.throttle; d["brake"] = c.brake;
  d["tyre_load"] = four(c.tyre_load); d["slip_angle"] = four(c.slip_angle); d["slip_ratio"] = four(c.slip_ratio);
  d["wheel_omega"] = four(c.wheel_omega);
  py::list out;
  for (bool b : c.tyre_out) out.append(b);
  d["tyre_out"] = out;
  d["wall_contact"] = c.wall_contact; d["wall_impact_speed"] = c.wall_impact_speed;
  return d;
}

void check_finite(float v, const char* name) {
  if (!std::isfinite(v)) throw py::value_error(std::string(name) + " must be finite");
}

}  // namespace

void bind_racing_car(py::module_& m) {
  m.def("car_names", [] {
    std::vector<std::string> names;
    for (int k = 0; k < rc::kNumCarKinds; ++k) names.push_back(rc::car_params(static_cast<rc::CarKind>(k)).name);
    return names;
  }, "The car classes, in CarKind order.");
  m.def("car_params", [](const std::string& name) {
    const rc::CarParams& p = rc::car_params(rc::car_kind_from_name(name));
    py::dict d;
    d["mass"] = p.mass; d["length"] = p.length; d["width"] = p.width; d["wheelbase"] = p.wheelbase;
    d["cg_to_front"] = p.cg_to_front; d["cg_height"] = p.cg_height; d["track_width"] = p.track_width;
    d["yaw_inertia"] = p.yaw_inertia; d["drag_area"] = p.drag_area; d["lift_area"] = p.lift_area;
    d["aero_front"] = p.aero_front; d["rolling_resistance"] = p.rolling_resistance; d["mu"] = p.mu;
    d["mu_load_sensitivity"] = p.mu_load_sensitivity; d["nominal_load"] = p.nominal_load;
    d["pacejka_bce"] = py::make_tuple(p.pacejka_b, p.pacejka_c, p.pacejka_e);
    d["peak_slip_ratio"] = p.peak_slip_ratio; d["wheel_radius"] = p.wheel_radius;
    d["offtrack_mu"] = p.offtrack_mu; d["offtrack_drag"] = p.offtrack_drag;
    d["rpm_idle_peak_max"] = py::make_tuple(p.idle_rpm, p.peak_torque_rpm, p.max_rpm);
    d["torque_idle_peak_max"] = py::make_tuple(p.torque_at_idle, p.peak_torque, p.torque_at_max);
    d["gear_ratios"] = std::vector<float>(p.gear_ratio, p.gear_ratio + p.gears);
    d["final_drive"] = p.final_drive; d["driveline_efficiency"] = p.driveline_efficiency;
    d["brake_force"] = p.brake_force; d["brake_front"] = p.brake_front;
    d["max_steer"] = p.max_steer; d["steer_rate"] = p.steer_rate;
    d["roll_stiffness_front"] = p.roll_stiffness_front; d["rear_grip"] = p.rear_grip;
    d["traction_control"] = p.traction_control; d["abs"] = p.abs; d["line_edge_keep"] = p.line_edge_keep;
    float peak_power = 0.0f;
    for (float rpm = p.idle_rpm; rpm < p.max_rpm; rpm += 50.0f)
      peak_power = std::max(peak_power, rc::engine_torque(p, rpm) * rpm * 2.0f * 3.14159265f / 60.0f);
    d["peak_power_kw"] = peak_power / 1000.0f;
    return d;
  }, py::arg("car"), "A car class's parameters (SI units; see docs/racing_cars.md).");

  py::class_<CarSim>(m, "CarSim", "One car on a track, stepped by hand (tests, benchmarks, tools).")
      .def(py::init([](std::shared_ptr<rc::Track> track, const std::string& car) {
             if (!track) throw py::value_error("track must be a trackfield._engine.racing.Track");
             return CarSim{track, rc::car_kind_from_name(car), rc::CarState{}};
           }), py::arg("track"), py::arg("car") = "gt3")
      .def("place", [](CarSim& c, float s, float d, float speed, float heading) {
             check_finite(s, "s"); check_finite(d, "d"); check_finite(speed, "speed"); check_finite(heading, "heading");
             rc::place_car(c.state, rc::car_params(c.kind), *c.track, s, d, speed, heading);
           }, py::arg("s"), py::arg("d") = 0.0f, py::arg("speed") = 0.0f, py::arg("heading") = 0.0f,
           "Puts the car at arc length s, offset d (m, + left), speed (m/s), heading offset (rad).")
      .def("step", [](CarSim& c, float throttle_brake, float steer, int n, float drag_scale, bool allow_reverse,
                      float dt) {
             check_finite(throttle_brake, "throttle_brake"); check_finite(steer, "steer");
             if (throttle_brake < -1 || throttle_brake > 1) throw py::value_error("throttle_brake must be in [-1, 1]");
             if (steer < -1 || steer > 1) throw py::value_error("steer must be in [-1, 1]");
             if (n < 0) throw py::value_error("n must be >= 0");
             if (!(dt > 0 && dt <= 0.1f)) throw py::value_error("dt must be in (0, 0.1] s");
             const rc::CarParams& p = rc::car_params(c.kind);
             py::gil_scoped_release release;
             for (int i = 0; i < n; ++i) rc::step_car(c.state, p, *c.track, {throttle_brake, steer}, drag_scale,
                                                      allow_reverse, dt);
           }, py::arg("throttle_brake"), py::arg("steer"), py::arg("n") = 1, py::arg("drag_scale") = 1.0f,
           py::arg("allow_reverse") = false, py::arg("dt") = 0.01f,
           "Holds one control for n physics steps of dt.")
      .def("drive", [](CarSim& c, std::shared_ptr<rc::RacingLine> line, float seconds, float skill) {
             if (!line) throw py::value_error("line is required");
             const rc::CarParams& p = rc::car_params(c.kind);
             int steps = static_cast<int>(seconds * 10.0f);
             py::array_t<float> trace({steps, 10});
             auto t = trace.mutable_unchecked<2>();
             rc::AiDriver driver;
             driver.skill = skill;
             Rng rng;
             rng_seed(rng, 1, 1);
             for (int i = 0; i < steps; ++i) {
               rc::CarControl u = rc::ai_control(c.state, p, *c.track, *line, driver, &c.state, 1, 0, rng);
               for (int k = 0; k < 10; ++k) rc::step_car(c.state, p, *c.track, u, 1.0f, /*allow_reverse=*/true, 0.01f);
               int out = c.state.tyre_out[0] + c.state.tyre_out[1] + c.state.tyre_out[2] + c.state.tyre_out[3];
               float row[10] = {c.state.s, c.state.d, rc::car_speed(c.state), u.throttle_brake, u.steer,
                               static_cast<float>(out), c.state.heading_error, c.state.yaw_rate,
                               0.5f * (c.state.slip_angle[0] + c.state.slip_angle[1]),
                               0.5f * (c.state.slip_angle[2] + c.state.slip_angle[3])};
               for (int k = 0; k < 10; ++k) t(i, k) = row[k];
             }
             return trace;
           }, py::arg("line"), py::arg("seconds"), py::arg("skill") = 1.0f,
           "Lets the built-in AI drive alone at 10 Hz; rows of (s, d, speed, pedal, steer, tyres out, heading error, yaw rate, front and rear slip angle).")
      .def_property_readonly("state", [](const CarSim& c) { return state_dict(c.state); });

  m.def("reference_lap", [](std::shared_ptr<rc::Track> track, const std::string& car,
                            std::shared_ptr<rc::RacingLine> line, int physics_hz, int control_hz, float max_time_s) {
    if (!track || !line) throw py::value_error("track and line are required");
    if (physics_hz < 1 || control_hz < 1 || physics_hz % control_hz != 0)
      throw py::value_error("physics_hz must be a positive multiple of control_hz");
    rc::ReferenceLap lap;
    {
      py::gil_scoped_release release;
      lap = rc::reference_lap(*track, rc::car_params(rc::car_kind_from_name(car)), *line, physics_hz, control_hz,
                              max_time_s);
    }
    py::dict d;
    d["completed"] = lap.completed; d["lap_time_s"] = lap.lap_time_s;
    d["top_speed_kmh"] = lap.top_speed * 3.6f; d["min_speed_kmh"] = lap.min_speed * 3.6f;
    d["off_course_s"] = lap.off_course_s; d["wall_s"] = lap.wall_s;
    return d;
  }, py::arg("track"), py::arg("car"), py::arg("line"), py::arg("physics_hz") = 100, py::arg("control_hz") = 10,
     py::arg("max_time_s") = 600.0f, "The full-skill AI's flying lap alone on the track.");
}

}  // namespace trackfield::bindings
