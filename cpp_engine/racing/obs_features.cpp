// The `features` observation: the car's own motion and tyres, where it is on the lap,
// 60 points on each of the left edge, centre line and right edge ahead (about 6 s of
// travel), and the nearest cars ahead and behind, everything in the car's frame.
#include <algorithm>
#include <cmath>
#include <limits>

#include "racing/obs.h"
#include "common/angle.h"
#include "racing/step.h"

namespace trackfield::racing {

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kLookaheadS = 6.0f;       // track points cover this much travel time
constexpr float kMinLookaheadSpeed = 10.0f;  // m/s: at a standstill the points still reach 60 m
constexpr float kAheadRangeM = 100.0f, kBehindRangeM = 50.0f;

const std::vector<FeatureField> kFields = {
    {"velocity", 3, 0, -100, 100, "m/s", "velocity in the car's frame (forward, left, up)"},
    {"angular_velocity", 3, 0, -3, 3, "rad/s", "roll, pitch and yaw rate"},
    {"acceleration", 3, 0, -50, 50, "m/s^2", "acceleration in the car's frame (forward, left, up)"},
    {"tyre_load", 4, 0, 0, 20000, "N", "vertical load per tyre (FL, FR, RL, RR)"},
    {"tyre_slip_angle", 4, 0, -0.5f, 0.5f, "rad", "slip angle per tyre"},
    {"tyre_slip_ratio", 4, 0, -1, 1, "", "slip ratio per tyre"},
    {"lap_progress", 2, 0, -1, 1, "", "sin and cos of 2 pi s / lap length"},
    {"inclination", 2, 0, -0.3f, 0.3f, "rad", "track grade (+ uphill) and banking (+ left edge higher) under the car"},
    {"heading_error", 1, 0, -kPi, kPi, "rad", "car heading minus centre-line heading (+ pointing left)"},
    {"centre_offset", 1, 0, -20, 20, "m", "lateral offset from the centre line (+ left)"},
    {"signed_speed", 1, 0, -30, 110, "m/s", "speed along the car's heading, negative in reverse"},
    {"last_controls", 3, 0, -1, 1, "", "applied steering (+ left, 1 = full lock), throttle 0..1, brake 0..1"},
    {"flags", 3, 0, 0, 1, "", "wall contact, off course (under the rule), car contact, during the last step"},
    {"slipstream", 1, 0, 0, 1, "", "slipstream strength (0 clean air .. 1 full tow)"},
    {"left_edge", kTrackPoints, 3, -300, 300, "m", "points on the left edge ahead, car frame (forward, left, up)"},
    {"centre_line", kTrackPoints, 3, -300, 300, "m", "points on the centre line ahead, car frame"},
    {"right_edge", kTrackPoints, 3, -300, 300, "m", "points on the right edge ahead, car frame"},
    {"ahead_mask", kCarsAhead, 0, 0, 1, "", "1 where a car ahead (within 100 m along the centre line) fills the row, nearest first"},
    {"ahead_position", kCarsAhead, 3, -100, 100, "m", "position of each car ahead, car frame"},
    {"ahead_velocity", kCarsAhead, 3, -50, 50, "m/s", "its velocity minus ours, car frame"},
    {"ahead_acceleration", kCarsAhead, 3, -50, 50, "m/s^2", "its acceleration minus ours, car frame"},
    {"behind_mask", kCarsBehind, 0, 0, 1, "", "1 where a car behind (within 50 m) fills the row, nearest first"},
    {"behind_position", kCarsBehind, 3, -100, 100, "m", "position of each car behind, car frame"},
    {"behind_velocity", kCarsBehind, 3, -50, 50, "m/s", "its velocity minus ours, car frame"},
    {"behind_acceleration", kCarsBehind, 3, -50, 50, "m/s^2", "its acceleration minus ours, car frame"},
};

// Writes values standardised by their field's range and advances the cursor.
struct Writer {
  float* out;
  float mid = 0, inv_scale = 1;
  void field(const FeatureField& f) {
    mid = 0.5f * (f.lo + f.hi);
    inv_scale = std::sqrt(12.0f) / (f.hi - f.lo);
  }
  void put(float x) { *out++ = (x - mid) * inv_scale; }
};

float wrap_angle(float a) { return wrap_pi(a); }  // O(1) for any angle

// World-frame planar vectors of a car's velocity and acceleration.
void world_motion(const CarState& c, float* v, float* a) {
  float cy = std::cos(c.yaw), sy = std::sin(c.yaw);
  Vec2 world = world_velocity(c);
  v[0] = world.x;
  v[1] = world.y;
  v[2] = c.vz;
  a[0] = c.ax * cy - c.ay * sy;
  a[1] = c.ax * sy + c.ay * cy;
  a[2] = 0.0f;
}

struct Frame {
  float x, y, z, cy, sy;
  void to_car(float wx, float wy, float wz, float* out) const {  // a world point
    float dx = wx - x, dy = wy - y;
    out[0] = dx * cy + dy * sy;
    out[1] = -dx * sy + dy * cy;
    out[2] = wz - z;
  }
  void rotate(const float* v, float* out) const {  // a world vector
    out[0] = v[0] * cy + v[1] * sy;
    out[1] = -v[0] * sy + v[1] * cy;
    out[2] = v[2];
  }
};

void write_track_points(const Track& t, const CarState& c, const Frame& f, Writer& wr) {
  const float speed = std::max(std::fabs(c.vx), kMinLookaheadSpeed);
  const float step = speed * kLookaheadS / kTrackPoints;
  float pts[3][kTrackPoints][3];
  int seg = c.track_segment;
  float s0 = t.s[seg] + std::clamp(c.s - t.s[seg], 0.0f, t.length);
  for (int k = 0; k < kTrackPoints; ++k) {
    float s = s0 + step * static_cast<float>(k);
    if (s >= t.length) s -= t.length * std::floor(s / t.length);
    // Walk forward to the segment holding s (points ahead are in order).
    for (int guard = 0; guard < t.n; ++guard) {
      int next = seg + 1 == t.n ? 0 : seg + 1;
      float s_end = next == 0 ? t.length : t.s[next];
      if (s >= t.s[seg] && s < s_end) break;
      seg = next;
    }
    int next = seg + 1 == t.n ? 0 : seg + 1;
    float s_end = next == 0 ? t.length : t.s[next];
    float u = (s - t.s[seg]) / std::max(s_end - t.s[seg], 1e-6f);
    auto lerp = [&](const std::vector<float>& a) { return a[seg] + (a[next] - a[seg]) * u; };
    float x = lerp(t.x), y = lerp(t.y), z = lerp(t.z);
    float nx = -t.tangent_y[seg], ny = t.tangent_x[seg];  // left normal
    float wl = lerp(t.width_left), wrr = lerp(t.width_right), banking = lerp(t.banking);
    float bank = banking == 0.0f ? 0.0f : std::tan(banking);  // most circuits are flat: skip the tan
    f.to_car(x + nx * wl, y + ny * wl, z + wl * bank, pts[0][k]);
    f.to_car(x, y, z, pts[1][k]);
    f.to_car(x - nx * wrr, y - ny * wrr, z - wrr * bank, pts[2][k]);
  }
  for (int line = 0; line < 3; ++line) {
    wr.field(feature_fields()[14 + line]);
    for (int k = 0; k < kTrackPoints; ++k)
      for (int j = 0; j < 3; ++j) wr.put(pts[line][k][j]);
  }
}

// Nearest cars of the same group ahead (0 < d <= 100 m) or behind, by centre-line distance.
int nearest_cars(const SeenCar* seen, const RaceConfig& cfg, int me, bool ahead, int max_cars, int* out) {
  float dist[kMaxCars];
  int n = 0;
  int g0 = group_start(cfg, me);
  for (int j = g0; j < g0 + cfg.cars_per_group; ++j) {
    if (j == me) continue;
    float d = seen[j].progress - seen[me].progress;
    bool take = ahead ? (d >= 0.0f && d <= kAheadRangeM) : (d < 0.0f && d >= -kBehindRangeM);
    if (!take) continue;
    dist[n] = std::fabs(d);
    out[n++] = j;
  }
  // Insertion sort by distance (at most 19 cars), ties by car index for determinism.
  for (int a = 1; a < n; ++a)
    for (int b = a; b > 0 && dist[b] < dist[b - 1]; --b) {
      std::swap(dist[b], dist[b - 1]);
      std::swap(out[b], out[b - 1]);
    }
  return std::min(n, max_cars);
}

void write_neighbours(const SeenCar* seen, const RaceConfig& cfg, int me, const Frame& f, bool ahead, Writer& wr) {
  const int rows = ahead ? kCarsAhead : kCarsBehind;
  const int base = ahead ? 17 : 21;
  int idx[kMaxCars];
  int n = nearest_cars(seen, cfg, me, ahead, rows, idx);
  float my_v[3], my_a[3];
  world_motion(seen[me].car, my_v, my_a);
  const auto& fields = feature_fields();
  wr.field(fields[base]);
  for (int r = 0; r < rows; ++r) wr.put(r < n ? 1.0f : 0.0f);
  float rel[kCarsAhead][3][3] = {};
  for (int r = 0; r < n; ++r) {
    const CarState& o = seen[idx[r]].car;
    float v[3], a[3];
    world_motion(o, v, a);
    f.to_car(o.x, o.y, o.z, rel[r][0]);
    float dv[3] = {v[0] - my_v[0], v[1] - my_v[1], v[2] - my_v[2]};
    float da[3] = {a[0] - my_a[0], a[1] - my_a[1], a[2] - my_a[2]};
    f.rotate(dv, rel[r][1]);
    f.rotate(da, rel[r][2]);
  }
  for (int q = 0; q < 3; ++q) {
    wr.field(fields[base + 1 + q]);
    for (int r = 0; r < rows; ++r)
      for (int j = 0; j < 3; ++j) wr.put(r < n ? rel[r][q][j] : 0.5f * (fields[base + 1 + q].lo + fields[base + 1 + q].hi));
  }
}

}  // namespace

const std::vector<FeatureField>& feature_fields() { return kFields; }

int features_size() {
  int n = 0;
  for (const FeatureField& f : kFields) n += f.size();
  return n;
}

std::vector<FieldSpec> feature_specs() {
  std::vector<FieldSpec> specs;
  const float inf = std::numeric_limits<float>::infinity();
  for (const FeatureField& f : kFields) {
    std::vector<int> shape = f.cols == 0 ? std::vector<int>{f.rows} : std::vector<int>{f.rows, f.cols};
    specs.push_back({f.name, shape, "float32", -inf, inf, f.description});
  }
  return specs;
}

void write_features(const RaceWorld& w, const RaceConfig& cfg, int agent, float* out) {
  const Track& t = *cfg.track;
  const SeenCar* seen = seen_cars(w, cfg);
  const int me = cfg.agent_car(agent);
  const CarState& c = seen[me].car;
  const auto& fields = feature_fields();
  Writer wr{out};
  Frame f{c.x, c.y, c.z, std::cos(c.yaw), std::sin(c.yaw)};
  int seg = c.track_segment;
  int next = seg + 1 == t.n ? 0 : seg + 1;
  float u = std::clamp((c.s - t.s[seg]) / std::max((next == 0 ? t.length : t.s[next]) - t.s[seg], 1e-6f), 0.0f, 1.0f);
  float grade = t.grade[seg] + (t.grade[next] - t.grade[seg]) * u;
  float bank = t.banking[seg] + (t.banking[next] - t.banking[seg]) * u;
  // Roll and pitch follow the road: their rates are how fast banking and grade change under the car.
  float seg_len = std::max((next == 0 ? t.length : t.s[next]) - t.s[seg], 1e-6f);
  float roll_rate = (t.banking[next] - t.banking[seg]) / seg_len * c.vx;
  float pitch_rate = (t.grade[next] - t.grade[seg]) / seg_len * c.vx;

  wr.field(fields[0]);
  wr.put(c.vx); wr.put(c.vy); wr.put(c.vz);
  wr.field(fields[1]);
  wr.put(roll_rate); wr.put(pitch_rate); wr.put(c.yaw_rate);
  wr.field(fields[2]);
  wr.put(c.ax); wr.put(c.ay); wr.put(0.0f);
  wr.field(fields[3]);
  for (int k = 0; k < 4; ++k) wr.put(c.tyre_load[k]);
  wr.field(fields[4]);
  for (int k = 0; k < 4; ++k) wr.put(c.slip_angle[k]);
  wr.field(fields[5]);
  for (int k = 0; k < 4; ++k) wr.put(c.slip_ratio[k]);
  wr.field(fields[6]);
  float phase = 2.0f * kPi * c.s / t.length;
  wr.put(std::sin(phase)); wr.put(std::cos(phase));
  wr.field(fields[7]);
  wr.put(grade); wr.put(bank);
  wr.field(fields[8]);
  wr.put(wrap_angle(c.heading_error));
  wr.field(fields[9]);
  wr.put(c.d);
  wr.field(fields[10]);
  wr.put(c.signed_speed);
  wr.field(fields[11]);
  wr.put(c.steer_input); wr.put(c.throttle); wr.put(c.brake);
  wr.field(fields[12]);
  wr.put(c.wall_contact ? 1.0f : 0.0f); wr.put(seen[me].off_course ? 1.0f : 0.0f); wr.put(seen[me].in_contact ? 1.0f : 0.0f);
  wr.field(fields[13]);
  wr.put(seen[me].slipstream);
  write_track_points(t, c, f, wr);
  write_neighbours(seen, cfg, me, f, true, wr);
  write_neighbours(seen, cfg, me, f, false, wr);
}

}  // namespace trackfield::racing
