// Traffic lights of one driving world: the static layout built once per map and the plain
// per-world state that cycles through colours, plus the stop-line violation test.
//
// Phase model (GIGAFLOW's lights, our reading): the light groups of one junction take turns.
// In one cycle of a junction with n groups, group k (its rank among the junction's groups,
// in group-index order) is green for G, yellow for Y, then the whole junction is all-red for
// R before rank k + 1 turns green; a group is red outside its own G + Y. The cycle lasts
// n (G + Y + R) and each junction starts at a random phase offset. "Red 2 s" of the issue is
// the all-red clearance R: a group's total red time is the others' turns plus the clearances.
//
// Per episode (one draw per world episode, shared by all its junctions):
//   R = min(2 s * U(0.15, 5), 10 s), Y = 3 s * U(0.5, 0.75), G = 10 s * U(0.1, 1).
// Removals per episode: the whole world is without lights with p 0.2; otherwise each group is
// removed with p 0.2, each light with p 0.2, and each remaining group is stuck green with
// p 0.05. A removed light or group shows kNone (an uncontrolled approach). A removed group keeps
// its turn in the rotation (the controller still times it; only the lamps are gone), so the
// timing of the remaining groups never depends on removals. A stuck group shows green forever
// while the rest of its junction keeps cycling: it is a fault, so it may be green together
// with another group; that is the point of it.
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
constexpr int kMaxLightGroups = 256;
constexpr int kMaxJunctions = 128;

enum LightColour : uint8_t { kNone = 0, kGreen = 1, kYellow = 2, kRed = 3 };

struct LightConfig {
  float red_s = 2.0f, red_scale_lo = 0.15f, red_scale_hi = 5.0f, red_max_s = 10.0f;
  float yellow_s = 3.0f, yellow_scale_lo = 0.5f, yellow_scale_hi = 0.75f;
  float green_s = 10.0f, green_scale_lo = 0.1f, green_scale_hi = 1.0f;
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
  std::vector<int> group_rank;      // group -> its turn among its junction's groups
  std::vector<int> junction_groups; // junction -> how many groups take turns there
  int num_groups() const { return static_cast<int>(group_junction.size()); }
  int num_lights() const { return static_cast<int>(light_group.size()); }
};

// Fills the derived fields; throws std::invalid_argument on indices out of range or sizes
// over the maxima (a map error, reported to Python, never a crash).
void build_light_layout(LightLayout& layout);

struct LightState {
  float green_s = 0.0f, yellow_s = 0.0f, red_s = 0.0f;  // this episode's durations
  double time_s = 0.0;  // episode clock; double so that 0.1 s steps do not drift over an episode
  uint8_t enabled = 0;                                  // 0: an episode without lights
  float junction_offset_s[kMaxJunctions];
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
