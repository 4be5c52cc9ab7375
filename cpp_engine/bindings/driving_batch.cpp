// Binding of the driving batch: a map with its lights and spawn buffer (DriveMap), the
// batch config, the flat observation's field table and the world's vehicles.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings/batch.h"
#include "driving/batch.h"
#include "driving/map_raster.h"
#include "driving/obs.h"
#include "driving/recorder.h"
#include "driving/render.h"
#include "driving/spawn.h"
#include "driving/step.h"

namespace py = pybind11;

namespace trackfield::bindings {

namespace dr = trackfield::driving;

namespace {

using I32 = py::array_t<int32_t, py::array::c_style | py::array::forcecast>;
using F64 = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Lights are given per light: its group, the group's junction, the stop line (a, b) and the
// heading of the lanes it stops; lane_light maps each lane to the light stopping its end.
std::shared_ptr<dr::DriveMap> make_drive_map(std::shared_ptr<dr::Map> map, I32 lane_light, I32 light_group,
                                             I32 group_junction, F64 stop_lines, F64 light_heading, uint64_t seed) {
  auto dm = std::make_shared<dr::DriveMap>();
  dm->map = map;
  const py::ssize_t lights = light_group.size();
  if (lane_light.ndim() != 1 || lane_light.size() != map->lane_count)
    throw py::value_error("lane_light: expected one entry per lane (" + std::to_string(map->lane_count) + ")");
  if (stop_lines.ndim() != 3 || stop_lines.shape(0) != lights || stop_lines.shape(1) != 2 || stop_lines.shape(2) != 2)
    throw py::value_error("stop_lines: expected shape (lights, 2, 2)");
  if (light_heading.ndim() != 1 || light_heading.size() != lights)
    throw py::value_error("light_heading: expected one entry per light");
  dm->lane_light.assign(lane_light.data(), lane_light.data() + lane_light.size());
  for (int32_t l : dm->lane_light)
    if (l < -1 || l >= lights) throw py::value_error("lane_light: a light id is out of range");
  dr::LightLayout& ly = dm->lights;
  ly.light_group.assign(light_group.data(), light_group.data() + lights);
  ly.group_junction.assign(group_junction.data(), group_junction.data() + group_junction.size());
  ly.num_junctions = 0;
  for (int j : ly.group_junction) ly.num_junctions = std::max(ly.num_junctions, j + 1);
  const double* sl = stop_lines.data();
  for (py::ssize_t k = 0; k < lights; ++k) {
    ly.stop_line_a.push_back({static_cast<float>(sl[4 * k]), static_cast<float>(sl[4 * k + 1])});
    ly.stop_line_b.push_back({static_cast<float>(sl[4 * k + 2]), static_cast<float>(sl[4 * k + 3])});
    ly.lane_heading.push_back(static_cast<float>(light_heading.data()[k]));
  }
  dr::build_light_layout(ly);
  dr::build_spawn_buffer(*dm, seed);
  return dm;
}

}  // namespace

void bind_driving_batch(py::module_& m) {
  m.attr("MAX_AGENTS") = dr::kMaxAgents;
  m.attr("MAX_STATIC_OBSTACLES") = dr::kMaxStaticObstacles;
  py::list names;
  for (const char* n : dr::kRewardComponentNames) names.append(n);
  m.attr("REWARD_COMPONENTS") = names;
  py::list conditioning;
  for (const char* n : dr::kConditioningNames) conditioning.append(n);
  m.attr("CONDITIONING") = conditioning;
  py::list state_columns;
  for (const char* n : dr::kStateRowNames) state_columns.append(n);
  m.attr("VEHICLE_STATE_COLUMNS") = state_columns;
  m.def("safe_conditioning", [] {
    const dr::RewardParams p = dr::safe_reward_params();
    return py::dict(py::arg("comfort") = p.comfort, py::arg("lane_align_w1") = p.lane_align_w1,
                    py::arg("lane_align_w2") = p.lane_align_w2, py::arg("lane_center") = p.lane_center,
                    py::arg("lane_center_bias") = p.lane_center_bias, py::arg("reverse") = p.reverse,
                    py::arg("stop_line") = p.stop_line, py::arg("collision") = p.collision);
  }, "The reward weights every agent gets with conditioning='safe' (reward.h safe_reward_params).");

  py::class_<dr::DriveMap, std::shared_ptr<dr::DriveMap>>(m, "DriveMap",
      "A map with its traffic-light layout and pre-drawn spawn buffer, shared by every world.")
      .def(py::init(&make_drive_map), py::kw_only(), py::arg("map"), py::arg("lane_light"), py::arg("light_group"),
           py::arg("group_junction"), py::arg("stop_lines"), py::arg("light_heading"), py::arg("seed") = 0)
      .def_property_readonly("map", [](const dr::DriveMap& d) { return std::const_pointer_cast<dr::Map>(d.map); })
      .def("build_raster", [](dr::DriveMap& d) {
        if (d.raster) return;
        auto r = std::make_shared<dr::MapRaster>();
        dr::build_map_raster(*r, *d.map);
        d.raster = r;
      }, "Builds (once) the static picture the pixels observation samples (map_raster.h).")
      .def_property_readonly("raster", [](const dr::DriveMap& d) -> py::object {
        if (!d.raster) return py::none();
        const dr::MapRaster& r = *d.raster;
        py::array_t<uint8_t> bits({r.rows, r.cols});
        uint8_t* out = bits.mutable_data();
        for (int v = 0; v < r.rows; ++v)
          for (int u = 0; u < r.cols; ++u) out[static_cast<size_t>(v) * r.cols + u] = r.cell_bits(u, v);
        return py::make_tuple(bits, r.x0, r.y0, r.cell);
      }, "(bits (rows, cols): 1 drivable | 2 boundary, x0, y0, cell m) of the raster, or None before build_raster(); "
         "row r covers y in [y0 + r cell, y0 + (r + 1) cell)")
      .def_property_readonly("num_lights", [](const dr::DriveMap& d) { return d.lights.num_lights(); })
      .def_property_readonly("spawn_points", [](const dr::DriveMap& d) {
        return py::make_tuple(py::array_t<int32_t>(static_cast<py::ssize_t>(d.spawn_lane.size()), d.spawn_lane.data()),
                              py::array_t<float>(static_cast<py::ssize_t>(d.spawn_s.size()), d.spawn_s.data()));
      }, "(lanes, s) of the spawn buffer")
      .def("light_timeline", [](const dr::DriveMap& d, int episodes, int steps, float dt, uint64_t seed,
                                bool randomised) {
        if (episodes < 1 || steps < 1) throw py::value_error("light_timeline: episodes and steps must be >= 1");
        if (!(dt > 0.0f)) throw py::value_error("light_timeline: dt must be > 0");
        const int lights = d.lights.num_lights();
        py::array_t<uint8_t> out({episodes, steps, lights});
        uint8_t* o = out.mutable_data();
        dr::LightConfig cfg;
        cfg.randomised = randomised;
        Rng rng;
        rng_seed(rng, seed, 0);
        dr::LightState s;
        for (int e = 0; e < episodes; ++e) {
          dr::reset_lights(s, d.lights, cfg, rng);
          for (int t = 0; t < steps; ++t) {
            if (t > 0) dr::advance_lights(s, d.lights, dt);
            for (int k = 0; k < lights; ++k)
              *o++ = s.enabled ? static_cast<uint8_t>(dr::light_colour_of_light(s, d.lights, k)) : 0;
          }
        }
        return out;
      }, py::arg("episodes"), py::arg("steps"), py::arg("dt"), py::arg("seed") = 0, py::arg("randomised") = true,
         "Colours (episodes, steps, lights) of this map's lights (0 none, 1 green, 2 yellow, 3 red) "
         "over `episodes` episodes of `steps` steps of dt s, with the training timings (randomised) or "
         "the fixed default ones: for measuring them.")
      .def_property_readonly("light_phases", [](const dr::DriveMap& d) {
        return py::array_t<int32_t>(static_cast<py::ssize_t>(d.lights.group_phase.size()), d.lights.group_phase.data());
      }, "phase of each light group: groups of one junction in one phase show the same colour, phases take turns");

  m.def("flat_fields", [] { return field_list(dr::flat_specs()); },
        "The flat observation's fields as (name, shape, dtype, low, high, description), in row order.");
  m.def("sets_fields", [] { return field_list(dr::sets_specs()); },
        "The sets observation's fields as (name, shape, dtype, low, high, description), in row order.");

  using Cfg = dr::DriveConfig;
  py::class_<Cfg>(m, "Config", "Driving batch settings (see cpp_engine/driving/config.h).")
      .def(py::init<>())
      .def_property("maps", [](const Cfg& c) {
        std::vector<std::shared_ptr<dr::DriveMap>> out;
        for (const auto& p : c.maps) out.push_back(std::const_pointer_cast<dr::DriveMap>(p));
        return out;
      }, [](Cfg& c, const std::vector<std::shared_ptr<dr::DriveMap>>& maps) {
        c.maps.assign(maps.begin(), maps.end());
      })
      .def_readwrite("dt", &Cfg::dt)
      .def_readwrite("slots", &Cfg::slots)
      .def_readwrite("agents_min", &Cfg::agents_min)
      .def_readwrite("agents_max", &Cfg::agents_max)
      .def_readwrite("controlled", &Cfg::controlled)
      .def_readwrite("static_obstacles", &Cfg::static_obstacles)
      .def_readwrite("episode_steps", &Cfg::episode_steps)
      .def_property("respawn", [](const Cfg& c) { return c.agent_end == dr::AgentEnd::kRespawn; },
                    [](Cfg& c, bool r) { c.agent_end = r ? dr::AgentEnd::kRespawn : dr::AgentEnd::kEndWorld; })
      .def_readwrite("jerk_noise", &Cfg::jerk_noise)
      .def_readwrite("spawn_speed_max", &Cfg::spawn_speed_max)
      .def_readwrite("spawn_clearance", &Cfg::spawn_clearance_m)
      .def_readwrite("random_spawn_heading", &Cfg::random_spawn_heading)
      .def_readwrite("obs_noise_pos", &Cfg::obs_noise_pos_m)
      .def_readwrite("obs_noise_heading", &Cfg::obs_noise_heading_rad)
      .def_readwrite("obs_noise_speed", &Cfg::obs_noise_speed_mps)
      .def_readwrite("obs_inflate", &Cfg::obs_inflate_m)
      .def_readwrite("safe_conditioning", &Cfg::safe_conditioning)
      .def_readwrite("waypoints_max", &Cfg::waypoints_max)
      .def_readwrite("goal_distance_min", &Cfg::goal_distance_min_m)
      .def_readwrite("goal_distance_max", &Cfg::goal_distance_max_m)
      .def_readwrite("lights_enabled", &Cfg::lights_enabled)
      .def_property("lights_randomised", [](const Cfg& c) { return c.lights.randomised; },
                    [](Cfg& c, bool r) { c.lights.randomised = r; })
      .def_readwrite("erratic_enabled", &Cfg::erratic_enabled)
      .def_property("goal_radius", [](const Cfg& c) { return c.reward.goal_radius_m; },
                    [](Cfg& c, float v) { c.reward.goal_radius_m = v; })
      .def_property("goal_speed", [](const Cfg& c) { return c.reward.goal_speed_mps; },
                    [](Cfg& c, float v) { c.reward.goal_speed_mps = v; })
      .def_property("goal_weight", [](const Cfg& c) { return c.reward.goal; }, [](Cfg& c, float v) { c.reward.goal = v; })
      .def_property("collision_weight", [](const Cfg& c) { return c.reward.collision; },
                    [](Cfg& c, float v) { c.reward.collision = v; })
      .def_property("off_road_weight", [](const Cfg& c) { return c.reward.off_road; },
                    [](Cfg& c, float v) { c.reward.off_road = v; })
      .def_property("observation", [](const Cfg& c) {
        return std::string(c.observation == dr::DriveObservation::kSets     ? "sets"
                           : c.observation == dr::DriveObservation::kPixels ? "pixels"
                                                                            : "flat");
      }, [](Cfg& c, const std::string& name) {
        if (name == "flat") c.observation = dr::DriveObservation::kFlat;
        else if (name == "sets") c.observation = dr::DriveObservation::kSets;
        else if (name == "pixels") c.observation = dr::DriveObservation::kPixels;
        else throw py::value_error("observation must be 'flat', 'sets' or 'pixels', got '" + name + "'");
      })
      .def_readwrite("feature_dropout", &Cfg::feature_dropout)
      .def_property("box_actions", [](const Cfg& c) { return c.action == dr::ActionKind::kBox; },
                    [](Cfg& c, bool b) { c.action = b ? dr::ActionKind::kBox : dr::ActionKind::kDiscrete; });

  m.attr("PIXEL_SIZE") = dr::kPixelSize;
  m.attr("PIXEL_CHANNELS") = dr::kPixelChannels;
  m.attr("PIXEL_METRES") = dr::kPixelMetres;
  m.attr("PIXEL_CHANNEL_NAMES") = py::make_tuple("drivable", "boundary", "route", "vehicles", "ego", "lights");

  using PyDriveBatch = PyBatch<dr::DriveDomain>;
  bind_batch<dr::DriveDomain>(m, "A batch of driving worlds stepped in C++ over a thread pool.")
      .def("render", [](PyDriveBatch& pb, int i, int width) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (width < 64 || width > 4096) throw py::value_error("width must be in [64, 4096], got " + std::to_string(width));
        py::array_t<uint8_t> img({width, width, 3});
        uint8_t* out = img.mutable_data();
        const dr::DriveWorld& w = pb.batch->world(i);
        const dr::DriveConfig& cfg = pb.batch->config();
        {
          py::gil_scoped_release release;
          dr::render_world(w, cfg, out, width);
        }
        return img;
      }, py::arg("index") = 0, py::arg("width") = 480,
         "An RGB top-down view (width x width x 3) of world `index`: the whole map, north up (render.h).")
      .def("render_ego", [](PyDriveBatch& pb, int i, int width, int slot) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (width < 64 || width > 4096) throw py::value_error("width must be in [64, 4096], got " + std::to_string(width));
        if (slot < 0 || slot >= dr::kMaxAgents)
          throw py::value_error("slot must be in [0, " + std::to_string(dr::kMaxAgents - 1) + "], got " + std::to_string(slot));
        py::array_t<uint8_t> img({width, width, 3});
        uint8_t* out = img.mutable_data();
        const dr::DriveWorld& w = pb.batch->world(i);
        const dr::DriveConfig& cfg = pb.batch->config();
        {
          py::gil_scoped_release release;
          dr::render_ego(w, cfg, slot, out, width);
        }
        return img;
      }, py::arg("index") = 0, py::arg("width") = 480, py::arg("slot") = 0,
         "An RGB view (width x width x 3) of world `index` around agent `slot` (the first live controlled slot "
         "when it is not alive), its heading up, 60 m across (render.h).")
      .def("render_view", [](PyDriveBatch& pb, int i, int width) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const dr::RenderView v = dr::render_view(dr::world_map(pb.batch->world(i), pb.batch->config()), width);
        return py::make_tuple(v.x0, v.y0, v.px_per_m);
      }, py::arg("index") = 0, py::arg("width") = 480,
         "(x0, y0, px_per_m) of render(index, width): pixel (col, row) shows x = x0 + (col + 0.5) / px_per_m, "
         "y = y0 - (row + 0.5) / px_per_m.")
      .def("vehicles", [](PyDriveBatch& pb, int i) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const dr::DriveWorld& w = pb.batch->world(i);
        py::array_t<double> out({dr::kMaxVehicles, 9});
        for (int k = 0; k < dr::kMaxVehicles; ++k) {
          const double row[9] = {w.veh.x[k], w.veh.y[k], w.veh.heading[k], w.veh.v[k], w.veh.length[k], w.veh.width[k],
                                 static_cast<double>(w.state[k]), static_cast<double>(w.lane[k]), w.veh.z[k]};
          for (int j = 0; j < 9; ++j) out.mutable_at(k, j) = row[j];
        }
        return out;
      }, py::arg("index") = 0,
         "Every vehicle slot of world `index` (agents first, static obstacles from MAX_AGENTS), (200, 9): "
         "x, y, heading, speed, length, width, state (0 empty, 1 alive, 2 ended), lane, z.")
      .def("ai_actions_all", [](PyDriveBatch& pb) {
        const dr::DriveConfig& cfg = pb.batch->config();
        const int n = pb.batch->num_envs(), c = cfg.num_controlled();
        py::array_t<float> out({n, c, 2});
        float* o = out.mutable_data();
        {
          py::gil_scoped_release release;
          for (int i = 0; i < n; ++i) dr::ai_jerks(pb.batch->world(i), cfg, o + static_cast<size_t>(i) * c * 2);
        }
        return out;
      }, "The built-in driver's (j_long, j_lat) jerks for every controlled slot of every world, (num_envs, "
         "controlled, 2) float32 (zeros where no vehicle is).")
      .def("traffic", [](PyDriveBatch& pb, int i) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        const dr::DriveWorld& w = pb.batch->world(i);
        const dr::DriveConfig& cfg = pb.batch->config();
        const int first = cfg.num_controlled(), n = cfg.slots - first;
        py::array_t<int32_t> id(n);
        py::array_t<double> x(n), y(n), speed(n);
        py::array_t<bool> alive(n), collided(n), off_road(n), ran_red(n), reached_goal(n), erratic(n), held_red(n),
            spawned(n);
        for (int k = 0; k < n; ++k) {
          const int a = first + k;
          const bool present = w.state[a] != dr::kEmpty;
          id.mutable_at(k) = present ? w.agent_id[a] : -1;
          x.mutable_at(k) = w.veh.x[a], y.mutable_at(k) = w.veh.y[a], speed.mutable_at(k) = w.veh.v[a];
          alive.mutable_at(k) = w.state[a] == dr::kAlive;
          collided.mutable_at(k) = w.collided[a], off_road.mutable_at(k) = w.off_road[a];
          ran_red.mutable_at(k) = w.ran_red[a], reached_goal.mutable_at(k) = w.reached_goal[a];
          erratic.mutable_at(k) = a < w.erratic.num_agents && dr::is_erratic(w.erratic, a);
          held_red.mutable_at(k) = w.held_red[a];
          spawned.mutable_at(k) = w.joined_now[a];
        }
        py::dict out;
        out["id"] = id, out["x"] = x, out["y"] = y, out["speed"] = speed, out["alive"] = alive;
        out["collided"] = collided, out["off_road"] = off_road, out["ran_red"] = ran_red;
        out["reached_goal"] = reached_goal, out["erratic"] = erratic, out["held_red"] = held_red;
        out["spawned"] = spawned;
        return out;
      }, py::arg("index") = 0,
         "The built-in drivers of world `index` (slots controlled..slots), as a dict of arrays of that length: id "
         "(-1: empty slot), x, y, speed, alive, the last step's events collided, off_road, ran_red, reached_goal, "
         "erratic, held_red (stopping for a red or yellow light or queued behind one that is), spawned (joined "
         "this step).")
      .def("vehicle_states", [](PyDriveBatch& pb, py::array out) {
        const dr::DriveConfig& cfg = pb.batch->config();
        const py::ssize_t n = pb.batch->num_envs(), rows = dr::state_rows(cfg);
        if (!py::isinstance<py::array_t<float>>(out) || out.ndim() != 3 || out.shape(0) != n || out.shape(1) != rows ||
            out.shape(2) != dr::kStateRowSize || !(out.flags() & py::array::c_style) || !out.writeable())
          throw py::value_error("out: expected a writeable C-contiguous float32 array of shape (" + std::to_string(n) +
                                ", " + std::to_string(rows) + ", " + std::to_string(dr::kStateRowSize) + ")");
        float* base = static_cast<float*>(out.mutable_data());
        py::gil_scoped_release release;
        for (py::ssize_t i = 0; i < n; ++i)
          dr::write_vehicle_states(pb.batch->world(static_cast<int>(i)), cfg, base + i * rows * dr::kStateRowSize);
      }, py::arg("out"),
         "Writes every world's vehicle states into `out` (num_envs, slots + static_obstacles, 8) float32, "
         "columns VEHICLE_STATE_COLUMNS: agent slots first, then static obstacles. Allocates nothing.")
      .def("goals", [](PyDriveBatch& pb, int i, int slot) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (slot < 0 || slot >= dr::kMaxAgents) throw py::index_error("slot out of range");
        const dr::DriveWorld& w = pb.batch->world(i);
        py::list out;
        for (int g = 0; g < w.goal_count[slot]; ++g) {
          const dr::Goal& goal = w.goals[slot][g];
          out.append(py::make_tuple(goal.lane, goal.s, goal.x, goal.y, goal.heading));
        }
        return py::make_tuple(out, static_cast<int>(w.goal_index[slot]));
      }, py::arg("index"), py::arg("slot"), "([(lane, s, x, y, heading), ...], current goal index) of an agent slot.")
      .def("place_vehicle", [](PyDriveBatch& pb, int i, int slot, double x, double y, double heading, double speed) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (slot < 0 || slot >= dr::kMaxVehicles) throw py::index_error("slot out of range");
        dr::DriveWorld& w = pb.batch->mutable_world(i);
        if (w.state[slot] != dr::kAlive) throw py::value_error("slot holds no vehicle");
        const dr::Map& map = *dr::world_map(w, pb.batch->config()).map;
        w.veh.x[slot] = x, w.veh.y[slot] = y, w.veh.heading[slot] = heading, w.veh.v[slot] = speed;
        w.veh.a_long[slot] = w.veh.a_lat[slot] = w.veh.phi[slot] = 0.0;
        const dr::LanePos p = dr::localise(map, x, y, w.veh.z[slot], -1);
        if (p.lane >= 0) w.lane[slot] = p.lane, w.quad[slot] = p.quad, w.s[slot] = p.s, w.d[slot] = p.d;
      }, py::arg("index"), py::arg("slot"), py::arg("x"), py::arg("y"), py::arg("heading"), py::arg("speed"),
         "Test hook: moves a vehicle (accelerations and steering zeroed). The observation updates at the next step.")
      .def("set_goal", [](PyDriveBatch& pb, int i, int slot, double x, double y) {
        if (i < 0 || i >= pb.batch->num_envs()) throw py::index_error("env index out of range");
        if (slot < 0 || slot >= dr::kMaxAgents) throw py::index_error("slot out of range");
        dr::DriveWorld& w = pb.batch->mutable_world(i);
        const dr::Map& map = *dr::world_map(w, pb.batch->config()).map;
        const dr::LanePos p = dr::localise(map, x, y, w.veh.z[slot], -1);
        if (p.lane < 0) throw py::value_error("goal is not near a lane");
        w.goals[slot][0] = {p.lane, p.s, static_cast<float>(x), static_cast<float>(y), p.heading};
        w.goal_count[slot] = 1, w.goal_index[slot] = 0;
      }, py::arg("index"), py::arg("slot"), py::arg("x"), py::arg("y"),
         "Test hook: makes (x, y) the slot's only (final) goal.");
}

}  // namespace trackfield::bindings
