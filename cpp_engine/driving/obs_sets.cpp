// The "sets" observation (obs.h): GIGAFLOW's egocentric sets with explicit masks. Ego
// frame: x forward, y left; every value divided by the scale in its field's description
// and clipped to [-1, 1]; absent and dropped elements are zero with mask 0.
//
// The lane and boundary points are the map's precomputed sets of the agent's quad group
// (map_sets.h): writing them is a gather, a rotation and, for lane points, two routing
// lookups in the transposed table's goal row. Nothing here searches the map.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/batch_layout.h"
#include "driving/obs.h"
#include "driving/obs_parts.h"
#include "driving/obs_view.h"
#include "driving/routing.h"
#include "driving/step.h"

namespace trackfield::driving {

using obs::clip1;
using obs::kEgoSize;
using obs::kGoalSize;
using obs::kLightSize;

namespace {

constexpr int kVehicleCols = 11, kLaneCols = 9, kBoundaryCols = 4;
constexpr double kLaneScale = kSetLaneRadius, kBoundaryScale = kSetBoundaryRadius;

// Dropout draws for one agent and step: a generator keyed by the world's generator state
// (read, not advanced, so observing never changes the simulation), the step and the agent.
Rng dropout_rng(const DriveWorld& w, int a) {
  Rng r;
  rng_seed(r, splitmix64(w.rng.state ^ splitmix64(static_cast<uint64_t>(w.steps))), static_cast<uint64_t>(a));
  return r;
}

// Float clip to [-1, 1] (min/max, no branches; the sets' values are never NaN).
inline float clipf(float x) { return std::min(std::max(x, -1.0f), 1.0f); }

bool dropped(Rng& r, uint32_t threshold) { return rng_next_u32(r) < threshold; }

constexpr uint32_t probability_threshold(float p) { return static_cast<uint32_t>(p * 4294967296.0); }

// The set writers work in three passes over a fixed kSet*Points (padded with zeros), so
// that the middle one, all the arithmetic, is a straight loop the compiler vectorises:
// gather the group's points (scalar loads), compute every column into column arrays,
// then interleave the columns into rows (zeroing dropped and absent ones). Each value is
// computed by the same float operations as one row at a time, so the same bits.

// Lane points, with the route distance of routing.h's route_distance spelled out over the
// goal lane's row of the transposed table. drop: the dropout generator, or null.
float* write_lane_points(const Map& map, int group, const Goal& goal, float own, double ox, double oy, float fc,
                         float fs, float fz, Rng* drop, float* o) {
  constexpr int N = kSetLanePoints;
  const MapSets& ms = map.sets;
  const int b = group >= 0 ? ms.lane_set_offsets[group] : 0, e = group >= 0 ? ms.lane_set_offsets[group + 1] : 0;
  const int n = e - b;
  float gx[N], gy[N], gz[N], gc[N], gs[N], ghw[N], gsp[N], grem[N], gto[N];
  int32_t gkind[N];  // 1: the goal's lane, 2: beside it, 0: neither
  {
    const int32_t* __restrict set = ms.lane_set.data() + b;
    const int32_t* __restrict plane = ms.lane_lane.data();
    const float* __restrict ps = ms.lane_s.data();
    const float* __restrict length = map.lane_length.data();
    const int32_t* __restrict left = map.left.data();
    const int32_t* __restrict right = map.right.data();
    const float* __restrict to_goal = &ms.route_to[static_cast<size_t>(goal.lane) * map.lane_count];
    const float *__restrict px = ms.lane_x.data(), *__restrict py = ms.lane_y.data(), *__restrict pz = ms.lane_z.data();
    const float *__restrict pc = ms.lane_cos.data(), *__restrict psn = ms.lane_sin.data();
    const float* __restrict phw = ms.lane_half_width.data();
    for (int i = 0; i < n; ++i) {
      const int p = set[i];
      gx[i] = px[p], gy[i] = py[p], gz[i] = pz[p];
      gc[i] = pc[p], gs[i] = psn[p], ghw[i] = phw[p];
      const int l = plane[p];
      const float sp = ps[p];
      gsp[i] = sp;
      grem[i] = std::max(0.0f, length[l] - sp);
      gto[i] = to_goal[l];
      gkind[i] = l == goal.lane ? 1 : (left[l] == goal.lane || right[l] == goal.lane) ? 2 : 0;
    }
    for (int i = n; i < N; ++i) gx[i] = gy[i] = gz[i] = gc[i] = gs[i] = ghw[i] = gsp[i] = grem[i] = gto[i] = 0.0f, gkind[i] = 0;
  }
  float c1[N], c2[N], c3[N], c4[N], c5[N], c6[N], c7[N], c8[N];
  {
    const float inv_xy = static_cast<float>(1.0 / kLaneScale);
    const float goal_s = goal.s;
    constexpr float kInf = std::numeric_limits<float>::infinity();
    for (int i = 0; i < N; ++i) {
      const float dx = static_cast<float>(gx[i] - ox), dy = static_cast<float>(gy[i] - oy);
      c1[i] = clipf((fc * dx + fs * dy) * inv_xy);
      c2[i] = clipf((fc * dy - fs * dx) * inv_xy);
      c3[i] = clipf((gz[i] - fz) * 0.1f);
      // cos and sin of (lane heading - ours) from the stored cos and sin: no trigonometry.
      c4[i] = clipf(gc[i] * fc + gs[i] * fs);
      c5[i] = clipf(gs[i] * fc - gc[i] * fs);
      c6[i] = clipf(ghw[i] * 0.2f);
      const float sp = gsp[i];
      const float far = grem[i] + gto[i] + goal_s;
      // Selects, not branches, so the loop vectorises.
      const int ahead = goal_s >= sp;
      const float same = std::min(far, goal_s - sp), beside = std::min(far, goal_s - sp + kLaneChangeCost);
      float route = far;
      route = (ahead & (gkind[i] == 2)) ? beside : route;
      route = (ahead & (gkind[i] == 1)) ? same : route;
      c7[i] = clipf(route * 1e-3f);
      const float relative = clipf((route - own) * 5e-3f);
      c8[i] = std::fabs(route) == kInf ? 1.0f : relative;
    }
  }
  const uint32_t threshold = probability_threshold(kFeatureDropoutLane);
  float* __restrict row = o;
  for (int i = 0; i < n; ++i, row += kLaneCols) {
    if (drop && dropped(*drop, threshold)) {
      std::memset(row, 0, sizeof(float) * kLaneCols);
      continue;
    }
    row[0] = 1.0f, row[1] = c1[i], row[2] = c2[i], row[3] = c3[i], row[4] = c4[i];
    row[5] = c5[i], row[6] = c6[i], row[7] = c7[i], row[8] = c8[i];
  }
  std::memset(row, 0, sizeof(float) * kLaneCols * (N - n));
  return o + kLaneCols * N;
}

float* write_boundary_points(const MapSets& ms, int group, double ox, double oy, float fz, float fc, float fs,
                             Rng* drop, float* o) {
  constexpr int N = kSetBoundaryPoints;
  const int b = group >= 0 ? ms.bnd_set_offsets[group] : 0, e = group >= 0 ? ms.bnd_set_offsets[group + 1] : 0;
  const int n = e - b;
  float gx[N], gy[N], gz[N];
  {
    const int32_t* __restrict set = ms.bnd_set.data() + b;
    const float *__restrict px = ms.bnd_x.data(), *__restrict py = ms.bnd_y.data(), *__restrict pz = ms.bnd_z.data();
    for (int i = 0; i < n; ++i) {
      const int p = set[i];
      gx[i] = px[p], gy[i] = py[p], gz[i] = pz[p];
    }
    for (int i = n; i < N; ++i) gx[i] = gy[i] = gz[i] = 0.0f;
  }
  float c1[N], c2[N], c3[N];
  const float inv_xy = static_cast<float>(1.0 / kBoundaryScale);
  for (int i = 0; i < N; ++i) {
    const float dx = static_cast<float>(gx[i] - ox), dy = static_cast<float>(gy[i] - oy);
    c1[i] = clipf((fc * dx + fs * dy) * inv_xy);
    c2[i] = clipf((fc * dy - fs * dx) * inv_xy);
    c3[i] = clipf((gz[i] - fz) * 0.1f);
  }
  const uint32_t threshold = probability_threshold(kFeatureDropoutBoundary);
  float* __restrict row = o;
  for (int i = 0; i < n; ++i, row += kBoundaryCols) {
    if (drop && dropped(*drop, threshold)) {
      std::memset(row, 0, sizeof(float) * kBoundaryCols);
      continue;
    }
    row[0] = 1.0f, row[1] = c1[i], row[2] = c2[i], row[3] = c3[i];
  }
  std::memset(row, 0, sizeof(float) * kBoundaryCols * (N - n));
  return o + kBoundaryCols * N;
}

}  // namespace

const std::vector<FieldSpec>& sets_specs() {
  static const std::vector<FieldSpec> specs = {
      {"ego", {kEgoSize}, "float32", -1, 1, flat_specs()[0].description},
      {"goal", {kGoalSize}, "float32", -1, 1, flat_specs()[1].description},
      {"vehicles", {kObsVehicles, kVehicleCols}, "float32", -1, 1,
       "the 20 nearest other vehicles within 200 m, nearest first: mask, x, y (/200 m), cos and sin of the "
       "heading difference, velocity vx, vy in the ego frame (/30 m/s), length (/7 m), width (/3 m), "
       "z difference (/10 m); none while blind"},
      {"lane_points", {kSetLanePoints, kLaneCols}, "float32", -1, 1,
       "the map's lane samples (every lane's centre line at <= 40 m spacing) nearest to the agent's quad group, "
       "within 200 m, nearest first: mask, x, y (/200 m), z difference (/10 m), cos and sin of the lane heading "
       "minus ours, half width (/5 m), route distance from the point to the current goal (/1000 m; 1: "
       "unreachable), that minus our own route distance to it (/200 m)"},
      {"boundary_points", {kSetBoundaryPoints, kBoundaryCols}, "float32", -1, 1,
       "the map's boundary polylines sampled every 1 m, the 80 nearest to the agent's quad group within 50 m, "
       "nearest first: mask, x, y (/50 m), z difference (/10 m)"},
      {"light", {kLightSize}, "float32", -1, 1, flat_specs()[4].description},
      {"conditioning", {kNumConditioning}, "float32", -1, 1, flat_specs()[5].description},
  };
  return specs;
}

int sets_size() { return fields_size(sets_specs()); }

void write_sets(const DriveWorld& w, const DriveConfig& cfg, int a, float* out) {
  const DriveMap& dm = world_map(w, cfg);
  const Map& map = *dm.map;
  const MapSets& ms = map.sets;
  const Vehicles& v = w.veh;
  const EgoView ego = observed_ego(w, cfg, a);  // with observation noise, if any
  const double ox = ego.x, oy = ego.y, c = ego.c, s = ego.s;
  const double oz = v.z[a];
  const Goal& current = w.goals[a][w.goal_index[a]];

  // The first lane point 5 m ahead (the ego's curvature) and the stop line within 100 m:
  // the flat observation's walk, without its other 19 points.
  RoutePoint ahead;
  StopLineAhead stop;
  const int npts = walk_route(dm, w.lane[a], w.s[a], current.lane, current.s, kObsLaneSpacing, 1, &ahead, nullptr);
  walk_route(dm, w.lane[a], w.s[a], current.lane, current.s, kObsLaneSpacing, kObsLanePoints, nullptr, &stop);

  float* o = out;
  obs::write_ego(w, map, a, ego, npts > 0 ? &ahead : nullptr, o);
  o += kEgoSize;
  obs::write_goal(w, a, ego, o);
  o += kGoalSize;

  int near[kObsVehicles];
  const int count = obs::nearest_vehicles(w, a, kObsVehicleRadius, kObsVehicles, near);
  // cos and sin of the heading difference from each heading's own (the world's view holds
  // them: one sincos per vehicle and step instead of one per pair).
  const ObsView* view = obs_view_for(w);
  for (int k = 0; k < count; ++k, o += kVehicleCols) {
    const int j = near[k];
    const double cj = view ? view->cos_h[j] : std::cos(v.heading[j]), sj = view ? view->sin_h[j] : std::sin(v.heading[j]);
    const double ch = cj * c + sj * s, sh = sj * c - cj * s;
    o[0] = 1.0f;
    obs::ego_xy(ox, oy, c, s, v.x[j], v.y[j], kObsVehicleRadius, o + 1);
    o[3] = clip1(ch), o[4] = clip1(sh);
    o[5] = clip1(v.v[j] * ch / 30.0), o[6] = clip1(v.v[j] * sh / 30.0);
    o[7] = clip1(observed_size(cfg, v.length[j]) / 7.0), o[8] = clip1(observed_size(cfg, v.width[j]) / 3.0);
    o[9] = clip1((v.z[j] - v.z[a]) / 10.0);
  }
  std::memset(o, 0, sizeof(float) * kVehicleCols * (kObsVehicles - count));
  o += kVehicleCols * (kObsVehicles - count);

  const int q = w.quad[a];
  const int group = q >= 0 && q < map.quad_count ? ms.quad_group[q] : -1;
  Rng drop = cfg.feature_dropout ? dropout_rng(w, a) : Rng{};

  // Float from here: offsets from the agent (double) are small, and float halves the work.
  const float fc = static_cast<float>(c), fs = static_cast<float>(s), fz = static_cast<float>(oz);
  const bool dropout = cfg.feature_dropout;
  o = write_lane_points(map, group, current, w.goal_route_m[a], ox, oy, fc, fs, fz, dropout ? &drop : nullptr, o);
  o = write_boundary_points(ms, group, ox, oy, fz, fc, fs, dropout ? &drop : nullptr, o);

  obs::write_light(w, dm, stop, o);
  o += kLightSize;

  const float coeffs[kNumDynamicsCoeffs] = {v.c_throttle[a], v.c_steer[a], v.c_acc[a], v.c_vel[a]};
  write_conditioning(w.reward_params[a], cfg.reward_ranges, coeffs, o);
}

const std::vector<FieldSpec>& observation_specs(const DriveConfig& cfg) {
  return cfg.observation == DriveObservation::kSets ? sets_specs() : flat_specs();
}

void write_observation(const DriveWorld& w, const DriveConfig& cfg, int agent, float* out) {
  if (cfg.observation == DriveObservation::kSets) write_sets(w, cfg, agent, out);
  else write_flat(w, cfg, agent, out);
}

}  // namespace trackfield::driving
