// The observation pieces flat and sets share (obs_parts.h).
#include "driving/obs_parts.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "driving/bicycle.h"
#include "driving/obs.h"
#include "driving/obs_view.h"

namespace trackfield::driving::obs {

void write_ego(const DriveWorld& w, const Map& map, int a, const EgoView& ego, const RoutePoint* ahead, float* o) {
  const Vehicles& v = w.veh;
  o[0] = clip1(ego.d / 5.0);
  o[1] = clip1(wrap_angle(ego.heading - w.lane_heading[a]) / M_PI);
  o[2] = ahead ? clip1(wrap_angle(ahead->heading - w.lane_heading[a]) / kObsLaneSpacing / 0.1) : 0.0f;
  o[3] = clip1(ego.v / 30.0);
  o[4] = clip1(map.speed_limit[w.lane[a]] / 30.0);
  o[5] = clip1(v.phi[a] / kSteerMax);
  o[6] = clip1(v.a_long[a] / 5.0);
  o[7] = clip1(v.a_lat[a] / 4.0);
  o[8] = clip1((v.c_throttle[a] - 1.0) / 0.5);
  o[9] = clip1((v.c_steer[a] - 1.0) / 0.5);
  o[10] = clip1((v.c_acc[a] - 1.0) / 0.5);
  o[11] = clip1((v.c_vel[a] - 1.0) / 0.5);
  o[12] = clip1(v.length[a] / 7.0);
  o[13] = clip1(v.width[a] / 3.0);
}

void write_goal(const DriveWorld& w, int a, const EgoView& ego, float* o) {
  const double ox = ego.x, oy = ego.y, c = ego.c, s = ego.s;
  const Goal& current = w.goals[a][w.goal_index[a]];
  const Goal& final_goal = w.goals[a][w.goal_count[a] > 0 ? w.goal_count[a] - 1 : 0];
  ego_xy(ox, oy, c, s, final_goal.x, final_goal.y, 200.0, o);
  ego_xy(ox, oy, c, s, current.x, current.y, 200.0, o + 2);
  o[4] = clip1(w.goal_route_m[a] / 1000.0);
  o[5] = clip1((w.goal_count[a] - 1 - w.goal_index[a]) / 3.0);
}

namespace {

// Squared radii about 5.7% apart in distance (12% in area) from 6 m to 200 m: the
// nearest-vehicle search binary-searches them for the smallest holding enough candidates.
// It counts in float, four at a time, against d2_below[i]: a float a millionth under d2[i]
// (more than the 1.5 float ulps that rounding a double distance and the cut can move), so a
// float count never exceeds the exact one and the cut it picks always holds enough.
struct CutLadder {
  static constexpr int kLevels = 64;
  double d2[kLevels];
  float d2_below[kLevels];
  constexpr CutLadder() : d2(), d2_below() {
    double r = 6.0;
    for (int i = 0; i < kLevels; ++i, r *= 1.05721) d2[i] = r * r, d2_below[i] = static_cast<float>(r * r * 0.999999);
  }
};
constexpr CutLadder kCutLadder;

inline int count_at_most(const float* v, int n, float cut) {
  int count = 0, k = 0;
#if defined(__SSE2__)
  // Per-lane counts (a true comparison is all ones, -1), summed once at the end.
  const __m128 c = _mm_set1_ps(cut);
  __m128i lanes = _mm_setzero_si128();
  for (; k + 4 <= n; k += 4) lanes = _mm_sub_epi32(lanes, _mm_castps_si128(_mm_cmple_ps(_mm_loadu_ps(v + k), c)));
  alignas(16) int32_t part[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(part), lanes);
  count = part[0] + part[1] + part[2] + part[3];
#endif
  for (; k < n; ++k) count += v[k] <= cut;
  return count;
}

// Places each of the m candidates (d2[i], slot[i]), ascending slot, by its rank in
// (d2, slot) order: near[rank] = slot for ranks below count. f2[i] is d2[i] rounded to
// float; both need room for m + 3 (+inf pads). Rounding keeps order (d2[j] >= d2[i] gives
// f2[j] >= f2[i]), so where no other candidate's f2 equals f2[i] the number of strictly
// smaller f2 is the exact rank: counted four at a time, branch-free. Where one does (a
// float tie, rare), the rank is counted again in double: strictly nearer ones, plus the
// equally near of lower slot (ties to the lower slot).
inline void rank_candidates(double* d2, float* f2, const int* slot, int m, int count, int* near) {
  for (int k = m; k < m + 3; ++k)
    d2[k] = std::numeric_limits<double>::infinity(), f2[k] = std::numeric_limits<float>::infinity();
  for (int i = 0; i < m; ++i) {
    int less = 0, equal = 0;
#if defined(__SSE2__)
    const __m128 f = _mm_set1_ps(f2[i]);
    __m128i lt = _mm_setzero_si128(), eq = _mm_setzero_si128();
    for (int j = 0; j < m; j += 4) {  // the pads are never < or == a finite f2
      const __m128 x = _mm_loadu_ps(f2 + j);
      lt = _mm_sub_epi32(lt, _mm_castps_si128(_mm_cmplt_ps(x, f)));
      eq = _mm_sub_epi32(eq, _mm_castps_si128(_mm_cmpeq_ps(x, f)));
    }
    alignas(16) int32_t sums[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(sums), lt);
    _mm_store_si128(reinterpret_cast<__m128i*>(sums + 4), eq);
    less = sums[0] + sums[1] + sums[2] + sums[3], equal = sums[4] + sums[5] + sums[6] + sums[7];
#else
    for (int j = 0; j < m; ++j) less += f2[j] < f2[i], equal += f2[j] == f2[i];
#endif
    int rank = less;
    if (equal > 1) {  // another candidate rounds to the same float: count in double
      const double di = d2[i];
      rank = 0;
      for (int j = 0; j < m; ++j) rank += d2[j] < di || (d2[j] == di && j < i);
    }
    if (rank < count) near[rank] = slot[i];
  }
}

}  // namespace

// The `count` smallest (distance, slot) pairs, nearest first, ties to the lower slot.
// With the world's view: only its live vehicles (ascending slot); the distances and cut
// counts are branch-free loops the compiler vectorises; the cut (the smallest ladder
// radius holding `count` others, found in 6 counting passes) leaves ~1.1 count
// candidates, each placed by its rank among them (rank_candidates: branch-free counts
// instead of an insertion sort's mispredicted shifts). Without a view: one pass over
// every slot with an insertion-sorted list. Both give the same list.
int nearest_vehicles(const DriveWorld& w, int a, double radius, int count, int* near) {
  const Vehicles& v = w.veh;
  if (a < w.erratic.num_agents && is_blind_now(w.erratic, a)) return 0;
  const double ox = v.x[a], oy = v.y[a];
  double d2s[kMaxVehicles];
  const double r2 = radius * radius;
  double worst = r2;  // admits d2 <= worst until the list is full, then only the strictly nearer
  if (const ObsView* view = obs_view_for(w)) {
    const int n_live = view->live_count;
    const double* __restrict lx = view->live_x;
    const double* __restrict ly = view->live_y;
    float d2f[kMaxVehicles];
    for (int k = 0; k < n_live; ++k) {
      const double dx = lx[k] - ox, dy = ly[k] - oy;
      d2s[k] = dx * dx + dy * dy;
      d2f[k] = static_cast<float>(d2s[k]);
    }
    // The agent itself (distance 0, inside every cut when live) is not a candidate.
    int lo = 0, hi = CutLadder::kLevels;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (count_at_most(d2f, n_live, kCutLadder.d2_below[mid]) - 1 >= count) hi = mid;
      else lo = mid + 1;
    }
    if (lo < CutLadder::kLevels && kCutLadder.d2[lo] < worst) worst = kCutLadder.d2[lo];
    double cd2[kMaxVehicles + 3];
    float cf2[kMaxVehicles + 3];
    int cslot[kMaxVehicles];
    int m = 0;
    for (int k = 0; k < n_live; ++k) {
      const int j = view->live_slot[k];
      cd2[m] = d2s[k], cf2[m] = d2f[k], cslot[m] = j;
      m += (d2s[k] <= worst) & (j != a);
    }
    rank_candidates(cd2, cf2, cslot, m, count, near);
    return std::min(m, count);
  }
  for (int j = 0; j < kMaxVehicles; ++j) {
    const double dx = v.x[j] - ox, dy = v.y[j] - oy;
    d2s[j] = dx * dx + dy * dy;
  }
  d2s[a] = std::numeric_limits<double>::infinity();
  double near_d2[kObsVehicles];
  int n = 0;
  for (int j = 0; j < kMaxVehicles; ++j) {
    const double d2 = d2s[j];
    if (!(d2 <= worst) || (n == count && d2 >= worst) || w.state[j] != kAlive) continue;
    int k = n < count ? n++ : n - 1;
    while (k > 0 && near_d2[k - 1] > d2) near[k] = near[k - 1], near_d2[k] = near_d2[k - 1], --k;
    near[k] = j, near_d2[k] = d2;
    if (n == count) worst = near_d2[n - 1];
  }
  return n;
}

void write_light(const DriveWorld& w, const DriveMap& dm, const StopLineAhead& stop, float* o) {
  const LightColour colour = (stop.light >= 0 && w.lights.enabled) ? light_colour_of_light(w.lights, dm.lights, stop.light)
                                                                    : kNone;
  o[0] = colour != kNone ? 1.0f : 0.0f;
  o[1] = colour != kNone ? clip1(stop.distance / 100.0) : 0.0f;
  o[2] = colour == kGreen, o[3] = colour == kYellow, o[4] = colour == kRed;
}

}  // namespace trackfield::driving::obs
