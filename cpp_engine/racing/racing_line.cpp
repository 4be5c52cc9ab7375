#include "racing/racing_line.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace trackfield::racing {

namespace {

// Share of the axle-limited cornering grip the profile uses (kProfileGrip is the share of
// the tyres' peak grip for braking and traction).
constexpr float kCorneringGrip = 0.97f;

// Even resampling of a closed polyline at about kLineSpacing.
void resample(RacingLine& line, const float* xy, int m) {
  std::vector<double> cum(m + 1, 0.0);
  for (int i = 0; i < m; ++i) {
    int j = (i + 1) % m;
    double dx = xy[2 * j] - xy[2 * i], dy = xy[2 * j + 1] - xy[2 * i + 1];
    cum[i + 1] = cum[i] + std::sqrt(dx * dx + dy * dy);
  }
  double total = cum[m];
  int count = std::max(10, static_cast<int>(std::lround(total / kLineSpacing)));
  double step = total / count;
  line.x.resize(count);
  line.y.resize(count);
  line.s.resize(count);
  int seg = 0;
  for (int k = 0; k < count; ++k) {
    double at = k * step;
    while (seg < m - 1 && cum[seg + 1] <= at) ++seg;
    int j = (seg + 1) % m;
    double len = cum[seg + 1] - cum[seg];
    double t = len > 0 ? (at - cum[seg]) / len : 0.0;
    line.x[k] = static_cast<float>(xy[2 * seg] + t * (xy[2 * j] - xy[2 * seg]));
    line.y[k] = static_cast<float>(xy[2 * seg + 1] + t * (xy[2 * j + 1] - xy[2 * seg + 1]));
    line.s[k] = static_cast<float>(at);
  }
  line.length = static_cast<float>(total);
}

// Published lines (TUM's) touch the painted edge at apexes, and where a hairpin narrows
// the edge the car meets a moment later is closer than the one beside the line point; the
// AI, which runs 1-2 m inside its line through slow corners, then put three tyres beyond
// the kerb (gt3: 1.0 s over 7 shared tracks). So each point keeps the car's
// line_edge_keep inside the narrowest edge within kEdgeWindow of it, and each such pull
// spreads to kEdgeBlend points either way as a raised cosine, which keeps the line smooth
// (a plain clamp left kinks that cost seconds a lap and spun the car).
constexpr float kEdgeWindow = 10.0f;  // m of centre line either way
constexpr int kEdgeBlend = 10;        // line points (20 m)

void keep_inside_edges(RacingLine& line, const Track& track, float keep) {
  const int n = line.size();
  const int window = std::max(1, static_cast<int>(std::lround(kEdgeWindow * track.n / track.length)));
  std::vector<float> pull(n), s(n), d(n);
  int hint = -1;
  for (int i = 0; i < n; ++i) {
    TrackPos pos = project(track, {line.x[i], line.y[i]}, hint);
    hint = pos.segment;
    float limit = std::max(pos.width_left, pos.width_right) + track.wall_distance;
    if (std::abs(pos.d) > limit)  // checked before any pull brings it in
      throw std::invalid_argument("raceline: point " + std::to_string(i) + " lies " + std::to_string(pos.d) +
                                  " m from the centre line of " + track.name + ", beyond its walls");
    float wl = pos.width_left, wr = pos.width_right;
    for (int a = -window; a <= window; ++a) {
      int seg = ((pos.segment + a) % track.n + track.n) % track.n;
      wl = std::min(wl, track.width_left[seg]);
      wr = std::min(wr, track.width_right[seg]);
    }
    pull[i] = std::clamp(pos.d, -(wr - keep), std::max(-(wr - keep), wl - keep)) - pos.d;
    s[i] = pos.s, d[i] = pos.d;
  }
  for (int i = 0; i < n; ++i) {
    float shift = 0.0f;  // the largest pull nearby, tapered with distance
    for (int a = -kEdgeBlend; a <= kEdgeBlend; ++a) {
      float c = pull[((i + a) % n + n) % n];
      float w = 0.5f * (1.0f + std::cos(3.14159265f * static_cast<float>(a) / (kEdgeBlend + 1)));
      if (std::abs(c * w) > std::abs(shift)) shift = c * w;
    }
    if (shift == 0.0f) continue;
    Vec2 q = point_at(track, s[i], d[i] + shift);
    line.x[i] = q.x, line.y[i] = q.y;
  }
}

// Curvature from the circle through points 3 apart (a 12 m chord smooths the 2 m
// digitisation noise of published lines), then a short moving average; normals.
void curvature_and_normals(RacingLine& line) {
  int n = line.size();
  const int gap = 3;
  std::vector<float> raw(n);
  for (int i = 0; i < n; ++i) {
    int a = (i - gap + n) % n, b = (i + gap) % n;
    float ax = line.x[i] - line.x[a], ay = line.y[i] - line.y[a];
    float bx = line.x[b] - line.x[i], by = line.y[b] - line.y[i];
    float cx = line.x[b] - line.x[a], cy = line.y[b] - line.y[a];
    float cross = ax * by - ay * bx;
    float prod = std::sqrt((ax * ax + ay * ay) * (bx * bx + by * by) * (cx * cx + cy * cy));
    raw[i] = prod > 0 ? 2.0f * cross / prod : 0.0f;
  }
  line.curvature.assign(n, 0.0f);
  const int half = 2;
  for (int i = 0; i < n; ++i) {
    float sum = 0;
    for (int k = -half; k <= half; ++k) sum += raw[(i + k + n) % n];
    line.curvature[i] = sum / (2 * half + 1);
  }
  line.normal_x.resize(n);
  line.normal_y.resize(n);
  for (int i = 0; i < n; ++i) {
    int a = (i - 1 + n) % n, b = (i + 1) % n;
    float tx = line.x[b] - line.x[a], ty = line.y[b] - line.y[a];
    float len = std::max(std::sqrt(tx * tx + ty * ty), 1e-6f);
    line.normal_x[i] = -ty / len;
    line.normal_y[i] = tx / len;
  }
}

// Offsets from the centre line and, per centre-line point, the nearest line point.
void attach_to_track(RacingLine& line, const Track& track) {
  int n = line.size();
  line.offset.resize(n);
  std::vector<std::pair<float, int>> by_s(n);
  int hint = -1;
  for (int i = 0; i < n; ++i) {
    TrackPos pos = project(track, {line.x[i], line.y[i]}, hint);
    hint = pos.segment;
    line.offset[i] = pos.d;
    by_s[i] = {pos.s, i};
  }
  std::sort(by_s.begin(), by_s.end());
  line.index_of_segment.resize(track.n);
  size_t k = 0;
  for (int j = 0; j < track.n; ++j) {
    while (k < by_s.size() && by_s[k].first < track.s[j]) ++k;
    int after = by_s[k % by_s.size()].second;
    int before = by_s[(k + by_s.size() - 1) % by_s.size()].second;
    float da = std::abs(wrap_ds(track, by_s[k % by_s.size()].first, track.s[j]));
    float db = std::abs(wrap_ds(track, by_s[(k + by_s.size() - 1) % by_s.size()].first, track.s[j]));
    line.index_of_segment[j] = da < db ? after : before;
  }
}

float effective_mu(const CarParams& p, float speed) {
  float down = 0.5f * kAirDensity * p.lift_area * speed * speed;
  float per_tyre = (p.mass * kGravity + down) / 4.0f;
  return kProfileGrip * p.mu * std::max(0.3f, 1.0f - p.mu_load_sensitivity * (per_tyre / p.nominal_load - 1.0f));
}

// Lateral grip of one tyre pair carrying `load` with `transfer` moved to the outer tyre.
float axle_grip(const CarParams& p, float load, float transfer) {
  auto force = [&](float n) {
    n = std::max(n, 0.0f);
    return n * p.mu * std::max(0.3f, 1.0f - p.mu_load_sensitivity * (n / p.nominal_load - 1.0f));
  };
  return force(0.5f * load + transfer) + force(0.5f * load - transfer);
}

// The steady-state cornering limit (m/s^2) at `speed`, times kCorneringGrip. A car corners
// only as hard as its weaker axle: the lateral load transfer (shared by roll stiffness)
// costs the more-transferring axle grip through load sensitivity, and each axle must
// carry its share of the centripetal force. For gt3 this is about 7-9% below the
// average-tyre estimate, which left long corners (Suzuka's Spoon) no margin at all.
float lateral_limit(const CarParams& p, float speed) {
  float down = 0.5f * kAirDensity * p.lift_area * speed * speed;
  float weight = p.mass * kGravity;
  float b = p.wheelbase - p.cg_to_front;
  float front = weight * b / p.wheelbase + down * p.aero_front;
  float rear = weight * p.cg_to_front / p.wheelbase + down * (1.0f - p.aero_front);
  float lo = 0.0f, hi = 4.0f * (weight + down) * p.mu / p.mass;
  for (int it = 0; it < 20; ++it) {
    float ay = 0.5f * (lo + hi);
    float lateral = p.mass * ay * p.cg_height / p.track_width;
    bool holds = axle_grip(p, front, lateral * p.roll_stiffness_front) >= p.mass * ay * b / p.wheelbase &&
                 p.rear_grip * axle_grip(p, rear, lateral * (1.0f - p.roll_stiffness_front)) >=
                     p.mass * ay * p.cg_to_front / p.wheelbase;
    (holds ? lo : hi) = ay;
  }
  return kCorneringGrip * lo;
}

// Forward (acceleration) and backward (braking) passes around the loop twice, each
// using the grip the corner leaves over on a friction ellipse.
void speed_profile(RacingLine& line, const CarParams& p) {
  int n = line.size();
  std::vector<float> cap(n);
  for (int i = 0; i < n; ++i) cap[i] = corner_speed_limit(p, line.curvature[i]);
  int start = static_cast<int>(std::min_element(cap.begin(), cap.end()) - cap.begin());
  std::vector<float> v(cap);
  auto ds_at = [&](int i) { return (i + 1 < n ? line.s[i + 1] : line.length) - line.s[i]; };
  auto leftover = [&](int i, float speed) {
    float mu = effective_mu(p, speed);
    float grip = mu * (kGravity + 0.5f * kAirDensity * p.lift_area * speed * speed / p.mass);
    float lateral = speed * speed * std::abs(line.curvature[i]);
    float share = std::min(1.0f, lateral / lateral_limit(p, speed));
    return std::make_pair(grip * std::sqrt(1.0f - share * share), mu);
  };
  for (int lap = 0; lap < 2; ++lap) {
    for (int k = 0; k < n; ++k) {  // accelerate out of every corner
      int i = (start + k) % n, j = (i + 1) % n;
      auto [grip, mu] = leftover(i, v[i]);
      float rear_share = p.cg_to_front / p.wheelbase;
      float traction = std::min(drive_force_limit(p, v[i]) / p.mass, grip * rear_share * 1.1f);
      float drag = 0.5f * kAirDensity * p.drag_area * v[i] * v[i] / p.mass + p.rolling_resistance * kGravity;
      float a = traction - drag;
      float next = std::sqrt(std::max(0.0f, v[i] * v[i] + 2.0f * a * ds_at(i)));
      v[j] = std::min(v[j], std::max(next, 0.0f));
      (void)mu;
    }
    for (int k = 0; k < n; ++k) {  // brake into every corner
      int j = (start - k + n) % n, i = (j - 1 + n) % n;
      auto [grip, mu] = leftover(j, v[j]);
      float brakes = std::min(p.brake_force / p.mass, grip);
      float drag = 0.5f * kAirDensity * p.drag_area * v[j] * v[j] / p.mass + p.rolling_resistance * kGravity;
      float prev = std::sqrt(v[j] * v[j] + 2.0f * (brakes + drag) * ds_at(i));
      v[i] = std::min(v[i], prev);
      (void)mu;
    }
  }
  line.speed = v;
}

}  // namespace

float corner_speed_limit(const CarParams& p, float kappa) {
  float k = std::abs(kappa);
  // Above any top speed; the forward pass brings it down to what the engine gives.
  if (k * 120.0f * 120.0f <= lateral_limit(p, 120.0f)) return 120.0f;
  float lo = 0.0f, hi = 120.0f;  // v^2 k - limit(v) rises with v: bisect its root
  for (int it = 0; it < 24; ++it) {
    float v = 0.5f * (lo + hi);
    (v * v * k <= lateral_limit(p, v) ? lo : hi) = v;
  }
  return lo;
}

RacingLine build_racing_line(const Track& track, const CarParams& params, const float* xy, int m) {
  if (m < 10) throw std::invalid_argument("raceline: needs at least 10 points, got " + std::to_string(m));
  for (int i = 0; i < 2 * m; ++i)
    if (!std::isfinite(xy[i])) throw std::invalid_argument("raceline: point " + std::to_string(i / 2) + " is not finite");
  RacingLine line;
  resample(line, xy, m);
  keep_inside_edges(line, track, params.line_edge_keep);
  curvature_and_normals(line);
  attach_to_track(line, track);
  speed_profile(line, params);
  return line;
}

}  // namespace trackfield::racing
