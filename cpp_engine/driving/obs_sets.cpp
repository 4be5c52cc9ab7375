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

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

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
// The stop-line set: the nearest lit stop lines (light not removed, lights on), any lane's.
constexpr int kStopLines = 8, kStopLineCols = 9;
constexpr float kStopLineRadius = 100.0f;  // m, planar, to the stop line's middle

// Writes the stop-line set: the kStopLines lit stop lines whose middles lie nearest the agent
// within kStopLineRadius, nearest first (ties: lower light index); each row mask, x, y
// (/100 m), cos and sin of its lanes' heading minus ours, green, yellow, red, and 1 when it
// is the one on our route ahead (the light field's). A scan over the map's lights with a
// box test first; colours are read only for the few inside.
void write_stop_lines(const DriveWorld& w, const LightLayout& lights, int own_light, double ox, double oy, float fc,
                      float fs, float* o) {
  std::memset(o, 0, sizeof(float) * kStopLineCols * kStopLines);
  if (!w.lights.enabled) return;
  const float r2 = kStopLineRadius * kStopLineRadius;
  float best_d2[kStopLines];
  int best[kStopLines];
  LightColour best_colour[kStopLines];
  int found = 0;
  const int n = lights.num_lights();
  const Vec2* __restrict a = lights.stop_line_a.data();
  const Vec2* __restrict b = lights.stop_line_b.data();
  const float fox = static_cast<float>(ox), foy = static_cast<float>(oy);
  for (int i = 0; i < n; ++i) {
    const float dx = 0.5f * (a[i].x + b[i].x) - fox, dy = 0.5f * (a[i].y + b[i].y) - foy;
    if (std::fabs(dx) > kStopLineRadius || std::fabs(dy) > kStopLineRadius) continue;
    const float d2 = dx * dx + dy * dy;
    if (d2 > r2 || (found == kStopLines && d2 >= best_d2[kStopLines - 1])) continue;
    const LightColour colour = light_colour_of_light(w.lights, lights, i);
    if (colour == kNone) continue;
    int k = found < kStopLines ? found++ : kStopLines - 1;
    for (; k > 0 && best_d2[k - 1] > d2; --k)
      best_d2[k] = best_d2[k - 1], best[k] = best[k - 1], best_colour[k] = best_colour[k - 1];
    best_d2[k] = d2, best[k] = i, best_colour[k] = colour;
  }
  const float inv = 1.0f / kStopLineRadius;
  for (int k = 0; k < found; ++k, o += kStopLineCols) {
    const int i = best[k];
    const float dx = 0.5f * (a[i].x + b[i].x) - fox, dy = 0.5f * (a[i].y + b[i].y) - foy;
    const float hc = std::cos(lights.lane_heading[i]), hs = std::sin(lights.lane_heading[i]);
    const LightColour colour = best_colour[k];
    o[0] = 1.0f;
    o[1] = clip1((fc * dx + fs * dy) * inv);
    o[2] = clip1((fc * dy - fs * dx) * inv);
    o[3] = hc * fc + hs * fs;  // cos(theta_light - theta)
    o[4] = hs * fc - hc * fs;  // sin(theta_light - theta)
    o[5] = colour == kGreen, o[6] = colour == kYellow, o[7] = colour == kRed;
    o[8] = i == own_light;
  }
}

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

// The four columns every set point starts with: mask, x and y in the agent's frame
// (scaled by inv_xy), and its height above the agent (/10 m).
inline void write_point_xyz(float* row, float dx, float dy, float dz, float fc, float fs, float inv_xy) {
  row[0] = 1.0f;
  row[1] = clipf((fc * dx + fs * dy) * inv_xy);
  row[2] = clipf((fc * dy - fs * dx) * inv_xy);
  row[3] = clipf(dz * 0.1f);
}

constexpr uint32_t probability_threshold(float p) { return static_cast<uint32_t>(p * 4294967296.0); }

#if defined(__SSE2__)
// Four set points at once: the same operations in the same order as the scalar code
// (offsets from the agent in double, rounded to float; then float), so the same bits.
// With dropout off every point is written, which is what lets four go together.
inline __m128 clip4(__m128 x) { return _mm_min_ps(_mm_max_ps(x, _mm_set1_ps(-1.0f)), _mm_set1_ps(1.0f)); }

struct Frame4 {
  __m128d ox, oy;
  __m128 fc, fs, fz, inv_xy;
};

// Columns mask, x, y, z (write_point_xyz) of four points whose x, y, z (as floats) are
// X, Y, Z, transposed into rows r[0..3].
inline void point_xyz4(const Frame4& f, __m128 X, __m128 Y, __m128 Z, __m128 r[4]) {
  // The offsets from the agent in double (float to double is exact), rounded to float.
  const __m128 dx = _mm_movelh_ps(_mm_cvtpd_ps(_mm_sub_pd(_mm_cvtps_pd(X), f.ox)),
                                  _mm_cvtpd_ps(_mm_sub_pd(_mm_cvtps_pd(_mm_movehl_ps(X, X)), f.ox)));
  const __m128 dy = _mm_movelh_ps(_mm_cvtpd_ps(_mm_sub_pd(_mm_cvtps_pd(Y), f.oy)),
                                  _mm_cvtpd_ps(_mm_sub_pd(_mm_cvtps_pd(_mm_movehl_ps(Y, Y)), f.oy)));
  const __m128 dz = _mm_sub_ps(Z, f.fz);
  r[0] = _mm_set1_ps(1.0f);
  r[1] = clip4(_mm_mul_ps(_mm_add_ps(_mm_mul_ps(f.fc, dx), _mm_mul_ps(f.fs, dy)), f.inv_xy));
  r[2] = clip4(_mm_mul_ps(_mm_sub_ps(_mm_mul_ps(f.fc, dy), _mm_mul_ps(f.fs, dx)), f.inv_xy));
  r[3] = clip4(_mm_mul_ps(dz, _mm_set1_ps(0.1f)));
  _MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
}

// clip1 (obs_parts.h: NaN to 0, then [-1, 1]) of two doubles, as floats in the low half.
inline __m128 clip1x2(__m128d x) {
  x = _mm_and_pd(x, _mm_cmpord_pd(x, x));
  return _mm_cvtpd_ps(_mm_min_pd(_mm_max_pd(x, _mm_set1_pd(-1.0)), _mm_set1_pd(1.0)));
}

// x where mask is set, else y.
inline __m128 select4(__m128 mask, __m128 x, __m128 y) { return _mm_or_ps(_mm_and_ps(mask, x), _mm_andnot_ps(mask, y)); }
#endif

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
      {"stop_lines", {kStopLines, kStopLineCols}, "float32", -1, 1,
       "the 8 lit stop lines (any lane's, crossing traffic's included) whose middles are nearest, within "
       "100 m, nearest first: mask, x, y (/100 m), cos and sin of the heading of the lanes they stop minus "
       "ours, green, yellow, red, 1 for the one on our route ahead (the light field's)"},
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
  const int npts = walk_route(dm, w.lane[a], w.s[a], current.lane, current.s, kObsLaneSpacing, 1, &ahead, nullptr,
                               quad_start_point(map, w.quad[a]));
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
  int k = 0;
#if defined(__SSE2__)
  if (view) {
    // Two vehicles at a time in double (the divisions by the scales two per instruction),
    // the same operations as the scalar loop below, so the same bits; the columns that do
    // not depend on the observer come from the view.
    const __m128d c2 = _mm_set1_pd(c), s2 = _mm_set1_pd(s), neg_s2 = _mm_set1_pd(-s);
    const __m128d ox2 = _mm_set1_pd(ox), oy2 = _mm_set1_pd(oy);
    const __m128d radius = _mm_set1_pd(static_cast<double>(kObsVehicleRadius));
    const __m128 ones = _mm_set1_ps(1.0f);
    const float za = v.z[a];
    for (; k + 2 <= count; k += 2, o += 2 * kVehicleCols) {
      const int j0 = near[k], j1 = near[k + 1];
      const __m128d dx = _mm_sub_pd(_mm_set_pd(v.x[j1], v.x[j0]), ox2);
      const __m128d dy = _mm_sub_pd(_mm_set_pd(v.y[j1], v.y[j0]), oy2);
      const __m128 X = clip1x2(_mm_div_pd(_mm_add_pd(_mm_mul_pd(c2, dx), _mm_mul_pd(s2, dy)), radius));
      const __m128 Y = clip1x2(_mm_div_pd(_mm_add_pd(_mm_mul_pd(neg_s2, dx), _mm_mul_pd(c2, dy)), radius));
      const __m128d cj = _mm_set_pd(view->cos_h[j1], view->cos_h[j0]), sj = _mm_set_pd(view->sin_h[j1], view->sin_h[j0]);
      const __m128d ch = _mm_add_pd(_mm_mul_pd(cj, c2), _mm_mul_pd(sj, s2));
      const __m128d sh = _mm_sub_pd(_mm_mul_pd(sj, c2), _mm_mul_pd(cj, s2));
      const __m128d speed = _mm_set_pd(v.v[j1], v.v[j0]);
      const __m128 VX = clip1x2(_mm_div_pd(_mm_mul_pd(speed, ch), _mm_set1_pd(30.0)));
      const __m128 VY = clip1x2(_mm_div_pd(_mm_mul_pd(speed, sh), _mm_set1_pd(30.0)));
      const __m128d dz = _mm_set_pd(static_cast<double>(v.z[j1] - za), static_cast<double>(v.z[j0] - za));
      const __m128 Z = clip1x2(_mm_div_pd(dz, _mm_set1_pd(10.0)));
      const __m128 LEN = _mm_setr_ps(view->length_col[j0], view->length_col[j1], 0.0f, 0.0f);
      const __m128 WID = _mm_setr_ps(view->width_col[j0], view->width_col[j1], 0.0f, 0.0f);
      // Column pairs (0 1) (2 3) ... (8 9): each unpack holds both rows' pair.
      const __m128 pairs[5] = {_mm_unpacklo_ps(ones, X), _mm_unpacklo_ps(Y, clip1x2(ch)),
                               _mm_unpacklo_ps(clip1x2(sh), VX), _mm_unpacklo_ps(VY, LEN),
                               _mm_unpacklo_ps(WID, Z)};
      for (int q = 0; q < 5; ++q) {
        _mm_storel_pi(reinterpret_cast<__m64*>(o + 2 * q), pairs[q]);
        _mm_storeh_pi(reinterpret_cast<__m64*>(o + kVehicleCols + 2 * q), pairs[q]);
      }
    }
  }
#endif
  for (; k < count; ++k, o += kVehicleCols) {
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
  const uint32_t lane_drop = probability_threshold(kFeatureDropoutLane);
  const uint32_t bnd_drop = probability_threshold(kFeatureDropoutBoundary);

  // Float from here: offsets from the agent (double) are small, and float halves the work.
  // Every array is read through a local restrict pointer, so the compiler keeps them in
  // registers instead of reloading each vector's data pointer after every store to `o`.
  const float fc = static_cast<float>(c), fs = static_cast<float>(s), fz = static_cast<float>(oz);
  const bool dropout = cfg.feature_dropout;

  // Lane points, with the route distance of routing.h's route_distance spelled out over the
  // goal lane's row of the transposed table.
  {
    const int b = group >= 0 ? ms.lane_set_offsets[group] : 0, e = group >= 0 ? ms.lane_set_offsets[group + 1] : 0;
    const int32_t* __restrict set = ms.lane_set.data();
    const float* __restrict px = ms.lane_x.data();
    const float* __restrict py = ms.lane_y.data();
    const float* __restrict pz = ms.lane_z.data();
    const float* __restrict pc = ms.lane_cos.data();
    const float* __restrict psn = ms.lane_sin.data();
    const float* __restrict phw = ms.lane_half_width.data();
    const float* __restrict ps = ms.lane_s.data();
    const int32_t* __restrict plane = ms.lane_lane.data();
    const float* __restrict length = map.lane_length.data();
    const int32_t* __restrict left = map.left.data();
    const int32_t* __restrict right = map.right.data();
    const float* __restrict to_goal = &ms.route_to[static_cast<size_t>(current.lane) * map.lane_count];
    const int goal_lane = current.lane;
    const float goal_s = current.s, own = w.goal_route_m[a];
    const float inv_xy = static_cast<float>(1.0 / kLaneScale);
    float* __restrict row = o;
    // Route distance from lane point p to the current goal.
    auto route_of = [&](int p) {
      const int l = plane[p];
      const float sp = ps[p];
      float route = std::max(0.0f, length[l] - sp) + to_goal[l] + goal_s;
      if (goal_s >= sp) {
        if (l == goal_lane) route = std::min(route, goal_s - sp);
        else if (left[l] == goal_lane || right[l] == goal_lane) route = std::min(route, goal_s - sp + kLaneChangeCost);
      }
      return route;
    };
    int k = b;
#if defined(__SSE2__)
    if (!dropout) {
      // Four points a time from their packed records (map_sets.h), route_of included:
      // the same operations, branch-free (selects for its two cases), so the same bits.
      const Frame4 f{_mm_set1_pd(ox), _mm_set1_pd(oy), _mm_set1_ps(fc), _mm_set1_ps(fs), _mm_set1_ps(fz),
                     _mm_set1_ps(inv_xy)};
      const LaneSampleRecord* __restrict rec = ms.lane_records.data();
      const __m128 gs = _mm_set1_ps(goal_s), own4 = _mm_set1_ps(own);
      const __m128 inf4 = _mm_set1_ps(std::numeric_limits<float>::infinity());
      const __m128i g4 = _mm_set1_epi32(goal_lane);
      for (; k + 4 <= e; k += 4, row += 4 * kLaneCols) {
        const LaneSampleRecord* r4[4] = {&rec[set[k]], &rec[set[k + 1]], &rec[set[k + 2]], &rec[set[k + 3]]};
        __m128 X = _mm_load_ps(&r4[0]->x), Y = _mm_load_ps(&r4[1]->x), Z = _mm_load_ps(&r4[2]->x),
               C = _mm_load_ps(&r4[3]->x);
        _MM_TRANSPOSE4_PS(X, Y, Z, C);
        __m128 S = _mm_load_ps(&r4[0]->sin), HW = _mm_load_ps(&r4[1]->sin), SP = _mm_load_ps(&r4[2]->sin),
               REST = _mm_load_ps(&r4[3]->sin);
        _MM_TRANSPOSE4_PS(S, HW, SP, REST);
        __m128 L = _mm_load_ps(reinterpret_cast<const float*>(&r4[0]->lane)),
               LL = _mm_load_ps(reinterpret_cast<const float*>(&r4[1]->lane)),
               LR = _mm_load_ps(reinterpret_cast<const float*>(&r4[2]->lane)),
               PAD = _mm_load_ps(reinterpret_cast<const float*>(&r4[3]->lane));
        _MM_TRANSPOSE4_PS(L, LL, LR, PAD);
        __m128 xyz[4], rest[4];
        point_xyz4(f, X, Y, Z, xyz);
        // route_of: rest + to_goal[l] + goal_s, then the same lane (goal ahead) or a
        // neighbour of the goal's lane (goal ahead, + the lane change).
        const __m128 TG = _mm_setr_ps(to_goal[r4[0]->lane], to_goal[r4[1]->lane], to_goal[r4[2]->lane],
                                      to_goal[r4[3]->lane]);
        __m128 route = _mm_add_ps(_mm_add_ps(REST, TG), gs);
        const __m128 ahead = _mm_cmple_ps(SP, gs), to_end = _mm_sub_ps(gs, SP);
        const __m128 same = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(L), g4));
        const __m128 beside = _mm_or_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(LL), g4)),
                                        _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(LR), g4)));
        route = select4(_mm_and_ps(same, ahead), _mm_min_ps(to_end, route), route);
        route = select4(_mm_and_ps(_mm_andnot_ps(same, beside), ahead),
                        _mm_min_ps(_mm_add_ps(to_end, _mm_set1_ps(kLaneChangeCost)), route), route);
        rest[0] = clip4(_mm_add_ps(_mm_mul_ps(C, f.fc), _mm_mul_ps(S, f.fs)));
        rest[1] = clip4(_mm_sub_ps(_mm_mul_ps(S, f.fc), _mm_mul_ps(C, f.fs)));
        rest[2] = clip4(_mm_mul_ps(HW, _mm_set1_ps(0.2f)));
        rest[3] = clip4(_mm_mul_ps(route, _mm_set1_ps(1e-3f)));
        _MM_TRANSPOSE4_PS(rest[0], rest[1], rest[2], rest[3]);
        alignas(16) float last[4];
        _mm_store_ps(last, select4(_mm_cmpeq_ps(route, inf4), _mm_set1_ps(1.0f),
                                   clip4(_mm_mul_ps(_mm_sub_ps(route, own4), _mm_set1_ps(5e-3f)))));
        for (int j = 0; j < 4; ++j) {
          float* r = row + j * kLaneCols;
          _mm_storeu_ps(r, xyz[j]);
          _mm_storeu_ps(r + 4, rest[j]);
          r[8] = last[j];
        }
      }
    }
#endif
    for (; k < e; ++k, row += kLaneCols) {
      if (dropout && dropped(drop, lane_drop)) {
        std::memset(row, 0, sizeof(float) * kLaneCols);
        continue;
      }
      const int p = set[k];
      const float dx = static_cast<float>(px[p] - ox), dy = static_cast<float>(py[p] - oy);
      write_point_xyz(row, dx, dy, pz[p] - fz, fc, fs, inv_xy);
      // cos and sin of (lane heading - ours) from the stored cos and sin: no trigonometry.
      row[4] = clipf(pc[p] * fc + psn[p] * fs);
      row[5] = clipf(psn[p] * fc - pc[p] * fs);
      row[6] = clipf(phw[p] * 0.2f);
      const float route = route_of(p);
      row[7] = clipf(route * 1e-3f);
      row[8] = std::isinf(route) ? 1.0f : clipf((route - own) * 5e-3f);
    }
    std::memset(row, 0, sizeof(float) * kLaneCols * (kSetLanePoints - (e - b)));
    o += kLaneCols * kSetLanePoints;
  }

  // Boundary points.
  {
    const int b = group >= 0 ? ms.bnd_set_offsets[group] : 0, e = group >= 0 ? ms.bnd_set_offsets[group + 1] : 0;
    const int32_t* __restrict set = ms.bnd_set.data();
    const float* __restrict px = ms.bnd_x.data();
    const float* __restrict py = ms.bnd_y.data();
    const float* __restrict pz = ms.bnd_z.data();
    const float inv_xy = static_cast<float>(1.0 / kBoundaryScale);
    float* __restrict row = o;
    int k = b;
#if defined(__SSE2__)
    if (!dropout) {
      const Frame4 f{_mm_set1_pd(ox), _mm_set1_pd(oy), _mm_set1_ps(fc), _mm_set1_ps(fs), _mm_set1_ps(fz),
                     _mm_set1_ps(inv_xy)};
      const BoundarySampleRecord* __restrict rec = ms.bnd_records.data();
      for (; k + 4 <= e; k += 4, row += 4 * kBoundaryCols) {
        __m128 X = _mm_load_ps(&rec[set[k]].x), Y = _mm_load_ps(&rec[set[k + 1]].x), Z = _mm_load_ps(&rec[set[k + 2]].x),
               PAD = _mm_load_ps(&rec[set[k + 3]].x);
        _MM_TRANSPOSE4_PS(X, Y, Z, PAD);
        __m128 xyz[4];
        point_xyz4(f, X, Y, Z, xyz);
        for (int j = 0; j < 4; ++j) _mm_storeu_ps(row + j * kBoundaryCols, xyz[j]);
      }
    }
#endif
    for (; k < e; ++k, row += kBoundaryCols) {
      if (dropout && dropped(drop, bnd_drop)) {
        std::memset(row, 0, sizeof(float) * kBoundaryCols);
        continue;
      }
      const int p = set[k];
      const float dx = static_cast<float>(px[p] - ox), dy = static_cast<float>(py[p] - oy);
      write_point_xyz(row, dx, dy, pz[p] - fz, fc, fs, inv_xy);
    }
    std::memset(row, 0, sizeof(float) * kBoundaryCols * (kSetBoundaryPoints - (e - b)));
    o += kBoundaryCols * kSetBoundaryPoints;
  }

  obs::write_light(w, dm, stop, o);
  o += kLightSize;
  write_stop_lines(w, dm.lights, stop.light, ox, oy, static_cast<float>(c), static_cast<float>(s), o);
  o += kStopLineCols * kStopLines;

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
