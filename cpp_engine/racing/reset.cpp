// Launches: where each car of each group starts, how fast, and how its AI drives.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "racing/step.h"

namespace trackfield::racing {

namespace {

constexpr float kGridRowM = 8.0f;   // distance between grid rows
constexpr float kGridFirstM = 6.0f; // pole position's distance behind the line
constexpr float kKmh = 1.0f / 3.6f;

float track_half_width(const Track& t, float s, bool left) {
  TrackPos p = project(t, point_at(t, s, 0.0f), -1);
  return left ? p.width_left : p.width_right;
}

// A lateral offset that keeps a car this far inside the painted edges.
float random_lateral(const Track& t, float s, Rng& rng, float margin) {
  float wl = std::max(track_half_width(t, s, true) - margin, 0.0f);
  float wr = std::max(track_half_width(t, s, false) - margin, 0.0f);
  return rng_range(rng, -wr, wl);
}

float line_speed(const RaceConfig& cfg, float s) {
  const RacingLine& line = *cfg.line;
  float u = s - std::floor(s / cfg.track->length) * cfg.track->length;
  int k = static_cast<int>(u / cfg.track->length * static_cast<float>(line.speed.size()));
  k = std::min(std::max(k, 0), static_cast<int>(line.speed.size()) - 1);
  return line.speed[k];
}

void launch_rolling(RaceWorld& w, const RaceConfig& cfg, int g0, float s0) {
  const Track& t = *cfg.track;
  const CarParams& p = car_params(cfg.car);
  const int n = cfg.cars_per_group;
  // A column of cars in random order with random gaps; the first agent's place in it is random.
  int order[kMaxCars];
  for (int k = 0; k < n; ++k) order[k] = k;
  for (int k = n - 1; k > 0; --k) std::swap(order[k], order[static_cast<int>(rng_uniform(w.rng) * (k + 1)) % (k + 1)]);
  float along[kMaxCars];
  float pos = 0.0f;
  for (int k = 0; k < n; ++k) {
    along[order[k]] = pos;
    pos += rng_range(w.rng, cfg.gap_min_m, cfg.gap_max_m);
  }
  float shift = s0 - along[0];
  for (int k = 0; k < n; ++k) {
    float s = along[k] + shift;
    float d = random_lateral(t, s, w.rng, 0.5f * p.width + 1.0f);
    float v = rng_range(w.rng, cfg.speed_min_kmh, cfg.speed_max_kmh) * kKmh;
    v = std::min(v, 0.9f * line_speed(cfg, s));
    place_car(w.car[g0 + k], p, t, s, d, v, 0.0f);
  }
}

void launch_grid(RaceWorld& w, const RaceConfig& cfg, int g0, int first_slot) {
  const Track& t = *cfg.track;
  const CarParams& p = car_params(cfg.car);
  const int n = cfg.cars_per_group;
  // Slot of each car: the first agent at first_slot, the others fill the rest in order.
  int slot_of[kMaxCars];
  int next = 0;
  for (int k = 0; k < n; ++k) {
    if (k == 0) {
      slot_of[k] = std::min(first_slot, n - 1);
      continue;
    }
    if (next == slot_of[0]) ++next;
    slot_of[k] = next++;
  }
  for (int k = 0; k < n; ++k) {
    int slot = slot_of[k];
    float s = -(kGridFirstM + kGridRowM * static_cast<float>(slot / 2)) - (slot % 2 ? 0.5f * kGridRowM : 0.0f);
    float half = track_half_width(t, s, slot % 2 == 0);
    float d = (slot % 2 == 0 ? 1.0f : -1.0f) * std::min(0.45f * half, 3.0f);
    place_car(w.car[g0 + k], p, t, s, d, cfg.grid_speed_kmh * kKmh, 0.0f);
    w.lap[g0 + k] = -1;  // behind the line: crossing it starts lap 0
  }
}

void launch_slipstream(RaceWorld& w, const RaceConfig& cfg, int g0, float s0) {
  const Track& t = *cfg.track;
  const CarParams& p = car_params(cfg.car);
  float v = rng_range(w.rng, cfg.speed_min_kmh, cfg.speed_max_kmh) * kKmh;
  place_car(w.car[g0], p, t, s0, 0.0f, v, 0.0f);
  for (int k = 1; k < cfg.cars_per_group; ++k) {
    float s = s0 + cfg.slipstream_gap_m * static_cast<float>(k);
    place_car(w.car[g0 + k], p, t, s, cfg.slipstream_side_m, v, 0.0f);
    w.driver[g0 + k].lateral_preference = cfg.slipstream_side_m;
    w.driver[g0 + k].hold_line = true;
  }
}

}  // namespace

void reset_world(RaceWorld& w, const RaceConfig& cfg, uint64_t seed) {
  std::memset(static_cast<void*>(&w), 0, sizeof(RaceWorld));
  rng_seed(w.rng, seed, 0x52414345u);  // "RACE"
  const Track& t = *cfg.track;
  for (int i = 0; i < cfg.num_cars(); ++i) {
    AiDriver& d = w.driver[i];
    d.skill = rng_range(w.rng, cfg.skill_min, cfg.skill_max);
    d.lateral_preference = 0.0f;
    d.braking_noise = cfg.braking_noise;
    d.hold_line = false;
    d.aggression = cfg.ai_aggression;
    d.noise_block = -1;
    w.lap_start_time[i] = -1.0f;
  }
  for (int g = 0; g < cfg.groups; ++g) {
    int g0 = g * cfg.cars_per_group;
    float s0 = cfg.start_s_m >= 0.0f ? cfg.start_s_m : rng_uniform(w.rng) * t.length;
    switch (cfg.start) {
      case StartKind::kGrid: {
        int slot = cfg.start_slot >= 0 ? cfg.start_slot
                                       : static_cast<int>(rng_uniform(w.rng) * static_cast<float>(cfg.cars_per_group));
        launch_grid(w, cfg, g0, std::min(slot, cfg.cars_per_group - 1));
        break;
      }
      case StartKind::kSlipstream: launch_slipstream(w, cfg, g0, s0); break;
      case StartKind::kRolling:
      case StartKind::kSection: launch_rolling(w, cfg, g0, s0); break;
    }
  }
  for (int i = 0; i < cfg.num_cars(); ++i) {
    w.prev_progress[i] = w.progress[i];
    int g0 = group_start(cfg, i);
    float reference = cfg.start == StartKind::kGrid ? 0.0f : w.car[g0].s;
    w.start_offset[i] = wrap_ds(t, w.car[i].s, reference);
  }
  for (auto& row : w.seen)
    for (int i = 0; i < cfg.num_cars(); ++i) {
      row[i].car = w.car[i];
      row[i].progress = w.start_offset[i];
    }
}

}  // namespace trackfield::racing
