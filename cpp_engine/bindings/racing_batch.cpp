// Binding of the racing batch: its config, the racing line, the features field table
// and the chase-view render. The track itself is bound in racing.cpp.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>

#include "bindings/batch.h"
#include "racing/batch.h"
#include "racing/obs.h"
#include "racing/race_state.h"
#include "racing/step.h"

namespace py = pybind11;

namespace trackfield::bindings {

namespace rc = trackfield::racing;

namespace {

// An enum field of the config as an int property, values outside [0, count) refused.
template <typename E>
void def_enum(py::class_<rc::RaceConfig>& cls, const char* name, E rc::RaceConfig::*field, int count,
              const char* meaning) {
  std::string error = std::string(name) + " must be " + meaning;
  cls.def_property(name, [field](const rc::RaceConfig& c) { return static_cast<int>(c.*field); },
                   [field, count, error](rc::RaceConfig& c, int v) {
                     if (v < 0 || v >= count) throw py::value_error(error);
                     c.*field = static_cast<E>(v);
                   });
}

}  // namespace

void bind_racing_batch(py::module_& m) {
  m.attr("MAX_CARS") = rc::kMaxCars;
  py::list names;
  for (const char* n : rc::kComponentNames) names.append(n);
  m.attr("REWARD_COMPONENTS") = names;
  m.attr("RACE_STATE_SCALARS") = rc::kRaceStateScalars;

  py::class_<rc::RacingLine, std::shared_ptr<rc::RacingLine>>(m, "RacingLine",
      "The AI's racing line with its grip-limited speed profile (built by build_racing_line).")
      .def_property_readonly("length", [](const rc::RacingLine& l) { return l.length; })
      .def_property_readonly("speed", [](const rc::RacingLine& l) {
        return py::array_t<float>(static_cast<py::ssize_t>(l.speed.size()), l.speed.data());
      }, "maximum speed along the line, m/s")
      .def_property_readonly("xy", [](const rc::RacingLine& l) {
        py::array_t<float> out({l.size(), 2});
        for (int i = 0; i < l.size(); ++i) {
          out.mutable_at(i, 0) = l.x[i];
          out.mutable_at(i, 1) = l.y[i];
        }
        return out;
      }, "the resampled line, (M, 2) m")
      .def_property_readonly("curvature", [](const rc::RacingLine& l) {
        return py::array_t<float>(static_cast<py::ssize_t>(l.curvature.size()), l.curvature.data());
      }, "1/m, + left")
      .def_property_readonly("offset", [](const rc::RacingLine& l) {
        return py::array_t<float>(static_cast<py::ssize_t>(l.offset.size()), l.offset.data());
      }, "lateral offset from the centre line, m, + left");

  m.def("build_racing_line", [](std::shared_ptr<rc::Track> track, const std::string& car,
                                py::array_t<float, py::array::c_style | py::array::forcecast> xy) {
    if (xy.ndim() != 2 || xy.shape(1) != 2 || xy.shape(0) < 10)
      throw py::value_error("raceline must be an (M, 2) array with M >= 10");
    rc::CarKind kind = rc::car_kind_from_name(car);
    return std::make_shared<rc::RacingLine>(rc::build_racing_line(*track, rc::car_params(kind), xy.data(),
                                                                  static_cast<int>(xy.shape(0))));
  }, py::arg("track"), py::arg("car"), py::arg("xy"), "The racing line through xy with this car's speed profile.");

  m.def("feature_fields", [] { return field_list(rc::feature_specs()); },
        "The features observation's fields as (name, shape, dtype, low, high, description), in row order.");
  m.def("feature_ranges", [] {
    py::list out;
    for (const auto& f : rc::feature_fields()) out.append(py::make_tuple(f.name, f.lo, f.hi, f.unit));
    return out;
  }, "Each features field's documented raw range (name, lo, hi, unit).");

  using Cfg = rc::RaceConfig;
  py::class_<Cfg> config(m, "Config", "Racing batch settings (see cpp_engine/racing/config.h).");
  def_enum(config, "start", &Cfg::start, 4, "0-3");
  def_enum(config, "off_course_rule", &Cfg::off_course_rule, 2, "0 or 1");
  def_enum(config, "observation", &Cfg::observation, 2, "0 (features) or 1 (pixels)");
  config
      .def(py::init<>())
      .def_property("track", [](const Cfg& c) { return std::const_pointer_cast<rc::Track>(c.track); },
                    [](Cfg& c, std::shared_ptr<rc::Track> t) { c.track = t; })
      .def_property("line", [](const Cfg& c) { return std::const_pointer_cast<rc::RacingLine>(c.line); },
                    [](Cfg& c, std::shared_ptr<rc::RacingLine> l) { c.line = l; })
      .def_property("car", [](const Cfg& c) { return static_cast<int>(c.car); },
                    [](Cfg& c, const std::string& name) { c.car = rc::car_kind_from_name(name); })
      .def_readwrite("groups", &Cfg::groups)
      .def_readwrite("cars_per_group", &Cfg::cars_per_group)
      .def_readwrite("agents_per_group", &Cfg::agents_per_group)
      .def_readwrite("physics_hz", &Cfg::physics_hz)
      .def_readwrite("control_hz", &Cfg::control_hz)
      .def_readwrite("max_time_s", &Cfg::max_time_s)
      .def_readwrite("laps", &Cfg::laps)
      .def_readwrite("finish_distance_m", &Cfg::finish_distance_m)
      .def_readwrite("max_off_course_s", &Cfg::max_off_course_s)
      .def_readwrite("start_s_m", &Cfg::start_s_m)
      .def_readwrite("start_slot", &Cfg::start_slot)
      .def_readwrite("speed_min_kmh", &Cfg::speed_min_kmh)
      .def_readwrite("speed_max_kmh", &Cfg::speed_max_kmh)
      .def_readwrite("gap_min_m", &Cfg::gap_min_m)
      .def_readwrite("gap_max_m", &Cfg::gap_max_m)
      .def_readwrite("grid_speed_kmh", &Cfg::grid_speed_kmh)
      .def_readwrite("skill_min", &Cfg::skill_min)
      .def_readwrite("skill_max", &Cfg::skill_max)
      .def_readwrite("braking_noise", &Cfg::braking_noise)
      .def_readwrite("ai_aggression", &Cfg::ai_aggression)
      .def_readwrite("slipstream_gap_m", &Cfg::slipstream_gap_m)
      .def_readwrite("slipstream_side_m", &Cfg::slipstream_side_m)
      .def_readwrite("allow_reverse", &Cfg::allow_reverse)
      .def_readwrite("penalties", &Cfg::penalties)
      .def_readwrite("action_delay_steps", &Cfg::action_delay_steps)
      .def_readwrite("observation_delay_steps", &Cfg::observation_delay_steps)
      .def_readwrite("pixel_width", &Cfg::pixel_width)
      .def_readwrite("pixel_height", &Cfg::pixel_height)
      .def_readwrite("pixel_metres", &Cfg::pixel_metres)
      .def_readwrite("passing_behind_m", &Cfg::passing_behind_m)
      .def_readwrite("passing_ahead_m", &Cfg::passing_ahead_m)
      .def_readwrite("race_state", &Cfg::race_state)
      .def("set_weights", [](Cfg& c, const std::vector<float>& w) {
        if (static_cast<int>(w.size()) != rc::kNumComponents) throw py::value_error("one weight per reward component");
        for (int k = 0; k < rc::kNumComponents; ++k) c.weight[k] = w[k];
      })
      .def("weights", [](const Cfg& c) { return std::vector<float>(c.weight, c.weight + rc::kNumComponents); })
      .def("set_section_scale", [](Cfg& c, int section, const std::vector<float>& s) {
        if (section < 0 || section >= rc::kMaxSections)
          throw py::value_error("section id must be in [0, " + std::to_string(rc::kMaxSections) + ")");
        if (static_cast<int>(s.size()) != rc::kNumComponents) throw py::value_error("one scale per reward component");
        for (int k = 0; k < rc::kNumComponents; ++k) c.section_scale[section][k] = s[k];
      });

  using PyRacingBatch = PyBatch<rc::RacingDomain>;
  bind_batch<rc::RacingDomain>(m, "A batch of racing worlds stepped in C++ over a thread pool.")
      .def("render", [](PyRacingBatch& pb, int i, int width, int height) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (width < 96 || width > 4096) throw py::value_error("width must be in [96, 4096]");
        if (height != 0 && (height < 54 || height > 4096)) throw py::value_error("height must be 0 or in [54, 4096]");
        const rc::RaceConfig& cfg = pb.batch->config();
        int car = cfg.num_agents() > 0 ? cfg.agent_car(0) : 0;
        if (height == 0) height = width * 3 / 4;
        py::array_t<uint8_t> img({height, width, 3});
        rc::draw_chase_view(pb.batch->world(i), cfg, car, img.mutable_data(), width, height, 3, 160.0f);
        return img;
      }, py::arg("index") = 0, py::arg("width") = 480, py::arg("height") = 0,
         "An RGB chase view of world `index`'s first agent (height 0: 3/4 of the width).")
      .def("render_yuv420", [](PyRacingBatch& pb, int i, py::array y, py::array u, py::array v) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        auto plane = [](py::array& a, const char* name) {
          if (a.ndim() != 2 || !a.dtype().is(py::dtype::of<uint8_t>()) || a.strides(1) != 1 || !a.writeable())
            throw py::value_error(std::string(name) + " must be a writable 2-D uint8 array with contiguous rows");
        };
        plane(y, "y"), plane(u, "u"), plane(v, "v");
        const int height = static_cast<int>(y.shape(0)), width = static_cast<int>(y.shape(1));
        if (width < 96 || width > 4096 || height < 54 || height > 4096 || width % 2 || height % 2)
          throw py::value_error("y must be (height, width), both even, width in [96, 4096], height in [54, 4096]");
        for (py::array* c : {&u, &v})
          if (c->shape(0) != height / 2 || c->shape(1) != width / 2)
            throw py::value_error("u and v must be (height / 2, width / 2) of y");
        if (u.strides(0) != v.strides(0)) throw py::value_error("u and v must have the same row stride");
        const rc::RaceConfig& cfg = pb.batch->config();
        int car = cfg.num_agents() > 0 ? cfg.agent_car(0) : 0;
        rc::draw_chase_view_yuv420(pb.batch->world(i), cfg, car, width, height, 160.0f,
                                   {static_cast<uint8_t*>(y.mutable_data()), static_cast<uint8_t*>(u.mutable_data()),
                                    static_cast<uint8_t*>(v.mutable_data()), static_cast<int>(y.strides(0)),
                                    static_cast<int>(u.strides(0))});
      }, py::arg("index"), py::arg("y"), py::arg("u"), py::arg("v"),
         "render(index, width, height)'s view painted as planar YUV 4:2:0 (BT.601 limited range) into caller-owned "
         "planes y (height, width), u and v (height / 2, width / 2); they may be views into wider frames.")
      .def("place_car", [](PyRacingBatch& pb, int i, int car, float s, float d, float speed, float heading) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const rc::RaceConfig& cfg = pb.batch->config();
        if (car < 0 || car >= cfg.num_cars())
          throw py::value_error("car must be in [0, " + std::to_string(cfg.num_cars()) + "), got " + std::to_string(car));
        for (float x : {s, d, speed, heading})
          if (!std::isfinite(x)) throw py::value_error("s, d, speed and heading must be finite");
        rc::place_car(pb.batch->mutable_world(i).car[car], rc::car_params(cfg.car), *cfg.track, s, d, speed, heading);
      }, py::arg("index"), py::arg("car"), py::arg("s"), py::arg("d") = 0.0f, py::arg("speed") = 0.0f,
         py::arg("heading") = 0.0f,
         "Puts car `car` of world `index` at arc length s, offset d (m, + left), speed (m/s) and heading offset from "
         "the centre line (rad), for constructed situations in tests and tools; its race bookkeeping is unchanged.")
      .def("cars", [](PyRacingBatch& pb, int i) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const rc::RaceConfig& cfg = pb.batch->config();
        const rc::RaceWorld& w = pb.batch->world(i);
        const int n = cfg.num_cars();
        py::array_t<float> out({n, 9});
        int place[rc::kMaxCars];
        rc::race_places(w, cfg, place);
        for (int k = 0; k < n; ++k) {
          const rc::CarState& c = w.car[k];
          float row[9] = {c.x, c.y, c.yaw, rc::car_speed(c), c.s, c.d, static_cast<float>(w.lap[k]), w.progress[k],
                          static_cast<float>(place[k])};
          for (int j = 0; j < 9; ++j) out.mutable_at(k, j) = row[j];
        }
        return out;
      }, py::arg("index") = 0,
         "Every car of world `index` now, (cars, 9): x, y, yaw, speed (m/s), s, d (m), lap, progress (m), place.")
      .def("ai_actions", [](PyRacingBatch& pb, int i) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const rc::RaceConfig& cfg = pb.batch->config();
        rc::RaceWorld& w = pb.batch->mutable_world(i);
        py::array_t<float> out({cfg.num_agents(), 2});
        Rng rng = w.rng;  // a copy: asking draws nothing from the world's stream
        for (int a = 0; a < cfg.num_agents(); ++a) {
          int car = cfg.agent_car(a), g0 = rc::group_start(cfg, car);
          // The agent's own driver slot (the step never uses it) keeps its recovery state.
          rc::AiDriver& driver = w.driver[car];
          driver.skill = 1.0f;
          driver.braking_noise = 0.0f;
          rc::CarControl c = rc::ai_control(w.car[car], rc::car_params(cfg.car), *cfg.track, *cfg.line, driver,
                                            w.car + g0, cfg.cars_per_group, car - g0, rng);
          out.mutable_at(a, 0) = c.throttle_brake;
          out.mutable_at(a, 1) = c.steer;
          w.ai_suggested[car] = {out.at(a, 0), out.at(a, 1)};
          w.ai_suggested_valid[car] = true;
        }
        return out;
      }, py::arg("index") = 0,
         "What the built-in AI at full skill would do for each agent's car now, (agents, 2). Stuck, it "
         "backs out in reverse; the next step lets an agent's car reverse (whatever allow_reverse says) when its "
         "action is exactly this suggestion.");
}

}  // namespace trackfield::bindings
