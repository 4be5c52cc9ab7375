// Traffic lights of one driving world: the static layout built once per map and the plain
// per-world state that cycles through colours, plus the stop-line violation test.
//
// Phases. The light groups of a junction (CARLA: its controllers) are sorted into phases:
// groups whose approaches are parallel or opposite (headings within 30 degrees of each
// other or of the reverse) share a phase and show the same colour; approaches that cross
// are in different phases. A junction's phases take turns: phase k is green for G_k, yellow
// for Y_k, then all-red for a clearance C before phase k + 1 turns green; a phase is red
// outside its own G_k + Y_k. So approaches that cross are never green or yellow together.
// A junction with a single phase cycles green G, yellow Y, red R on its own.
//
// Training timings (LightConfig::randomised, GIGAFLOW's lights), drawn each episode for each
// phase of each junction independently, so no two junctions are synchronised:
//   green G_k = 10 s * U(0.1, 1), yellow Y_k = 3 s * U(0.5, 0.75),
//   red R = min(2 s * U(0.15, 5), 10 s) (the red of a single-phase junction).
// GIGAFLOW draws each light on its own, so lights drawn that way would show green to
// crossing approaches together. Here the draw is per phase, and a phase's red is what the
// crossing phases' turns leave: with n phases, R_k = sum_{q != k} (G_q + Y_q) + n C, with the
// all-red clearance C = 0.5 s. To keep every red within GIGAFLOW's 10 s cap a green is cut
// to at most (10 s - n C) / (n - 1) - Y_k: 9 s - Y_k at the usual two phases (crossing
// approaches), so greens keep their drawn 1-10 s up to 6.75-7.5 s and reds run 2.5-10 s.
// Fixed timings (randomised = false, the long-form evaluation): CARLA's defaults, green
// 10 s, yellow 3 s and red 2 s (the all-red clearance between turns, as CARLA's red time
// is; a single-phase junction's red), every junction starting its cycle at t = 0; no
// removals and no stuck lights.
//
// Removals per episode (training only): the whole world is without lights with p 0.2;
// otherwise each group is removed with p 0.2, each light with p 0.2, and each remaining group
// is stuck green with p 0.05. A removed light or group shows kNone (an uncontrolled
// approach). A removed group's phase keeps its turn (the controller still times it; only the
// lamps are gone), so the timing of the rest never depends on removals. A stuck group shows
// green forever while the rest of its junction keeps cycling: it is a fault, so it may be
// green together with a crossing phase; that is the point of it.
#ifndef TRACKFIELD_DRIVING_LIGHTS_H
#define TRACKFIELD_DRIVING_LIGHTS_H

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/rng.h"
#include "common/vec2.h"

namespace trackfield::driving {

// Fixed maxima of the per-world state. CARLA's largest towns have fewer than 100 lights in
// about 40 signalised junctions; these leave room for generated towns.
constexpr int kMaxLights = 512;
constexpr int kMaxLightGroups = 256;  // and phases: a phase holds at least one group
constexpr int kMaxJunctions = 128;
// Groups of one junction whose lane headings are this close to parallel or opposite share
// a phase (radians, 30 degrees).
constexpr float kPhaseHeadingTolerance = 0.5235988f;

enum LightColour : uint8_t { kNone = 0, kGreen = 1, kYellow = 2, kRed = 3 };

struct LightConfig {
  bool randomised = true;  // false: the fixed default timings, no removals (see above)
  float red_s = 2.0f, red_scale_lo = 0.15f, red_scale_hi = 5.0f, red_max_s = 10.0f;
  float yellow_s = 3.0f, yellow_scale_lo = 0.5f, yellow_scale_hi = 0.75f;
  float green_s = 10.0f, green_scale_lo = 0.1f, green_scale_hi = 1.0f;
  float clearance_s = 0.5f;  // all-red between two phases' turns (training timings)
  float p_light_removed = 0.2f;
  float p_group_removed = 0.2f;
  float p_episode_without_lights = 0.2f;
  float p_stuck_green = 0.05f;
};

// Static, per map (may allocate: it is built once and shared read-only by every world).
struct LightLayout {
  int num_junctions = 0;
  std::vector<int> group_junction;  // group -> junction, in [0, num_junctions)
  std::vector<int> light_group;     // light -> group
  std::vector<Vec2> stop_line_a;    // light -> stop line segment (a, b)
  std::vector<Vec2> stop_line_b;
  std::vector<float> lane_heading;  // light -> heading (rad) of the lanes it controls
  // Derived by build_light_layout:
  std::vector<int> group_phase;     // group -> phase (phases numbered over the whole map)
  std::vector<int> phase_junction;  // phase -> junction
  std::vector<int> phase_rank;      // phase -> its turn among its junction's phases
  std::vector<int> junction_phases; // junction -> how many phases take turns there
  std::vector<int> junction_first_phase;  // junction -> its phase of rank 0 (ranks are consecutive)
  int num_groups() const { return static_cast<int>(group_junction.size()); }
  int num_lights() const { return static_cast<int>(light_group.size()); }
  int num_phases() const { return static_cast<int>(phase_junction.size()); }
};

// Fills the derived fields; throws std::invalid_argument on indices out of range or sizes
// over the maxima (a map error, reported to Python, never a crash).
void build_light_layout(LightLayout& layout);

struct LightState {
  double time_s = 0.0;  // episode clock; double so that 0.1 s steps do not drift over an episode
  uint8_t enabled = 0;  // 0: an episode without lights
  float junction_offset_s[kMaxJunctions];
  float junction_cycle_s[kMaxJunctions];
  float phase_start_s[kMaxLightGroups];   // when its green starts within its junction's cycle
  float phase_green_s[kMaxLightGroups];
  float phase_yellow_s[kMaxLightGroups];
  uint8_t group_removed[kMaxLightGroups];
  uint8_t group_stuck[kMaxLightGroups];
  uint8_t light_removed[kMaxLights];
  uint8_t group_colour[kMaxLightGroups];  // LightColour, updated by advance_lights
};

static_assert(std::is_trivially_copyable<LightState>::value, "a world copies and snapshots its lights");

// Draws the episode's durations, offsets, removals and stuck groups and sets the colours at t = 0.
void reset_lights(LightState& s, const LightLayout& layout, const LightConfig& cfg, Rng& rng);
// Advances the clock by dt and recomputes every group's colour. No allocation.
void advance_lights(LightState& s, const LightLayout& layout, float dt);

LightColour light_colour(const LightState& s, int group);
// A light's colour: kNone if the light itself was removed, else its group's.
LightColour light_colour_of_light(const LightState& s, const LightLayout& layout, int light);

// Whether a front point moving p0 -> p1 goes from behind the stop line (a, b) to on or beyond
// it, crossing within the segment's extent, while moving with the lane (heading in rad).
bool crossed_stop_line(Vec2 p0, Vec2 p1, Vec2 a, Vec2 b, float lane_heading);
// A stop-line violation: crossing on red. Crossing on yellow is not one (a car too close to
// stop when the light turns yellow must be allowed through), nor on green or with no light.
bool stop_line_violation(LightColour colour, Vec2 p0, Vec2 p1, Vec2 a, Vec2 b, float lane_heading);

}  // namespace trackfield::driving

#endif
