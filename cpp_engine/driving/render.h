// The viewer's frame of a driving world (render_mode="rgb_array" / "human"): the whole map
// top-down, north up, fitted into a square frame: lanes, road boundaries, stop lines in
// their light's colour, every vehicle as an oriented box (controlled agents orange with
// slot 0 yellow, built-in drivers blue, static obstacles grey, each with a white nose) and
// the live agents' current goals as magenta discs; slot 0 (the ego of town_drive) also
// gets a ring of a fixed pixel size, so it stays visible on a large map. No allocation.
//
// The ego view (render_mode with render_view="ego"): kEgoViewMetres around one agent, its
// heading up and its centre at the middle of the frame: road, lane dividers (dashed
// between same-direction lanes, solid yellow where the left neighbour is not one, solid
// white at the right edge; none inside junctions), a direction arrow every 16 m of each
// lane, traffic lights (a band behind the stop line and a disc past it, in the light's
// colour), the route ahead through the remaining goals (light blue), the goals (magenta:
// the current one filled, later ones dark, the final one with a target centre; an
// arrowhead at the frame's edge points to a current goal beyond it), other
// vehicles as outlined boxes with a windscreen at the front (agents orange, built-in
// drivers blue, obstacles grey), the agent itself yellow, and its speed and goal distance
// as text. No allocation.
#ifndef TRACKFIELD_DRIVING_RENDER_H
#define TRACKFIELD_DRIVING_RENDER_H

#include <cstdint>

#include "driving/config.h"
#include "driving/world.h"

namespace trackfield::driving {

// Where the frame looks: pixel (col, row) shows the world point
// x = x0 + (col + 0.5) / px_per_m, y = y0 - (row + 0.5) / px_per_m.
struct RenderView {
  double x0, y0, px_per_m;
};

RenderView render_view(const DriveMap& dm, int size);

// Draws world w into rgb (size x size x 3).
void render_world(const DriveWorld& w, const DriveConfig& cfg, uint8_t* rgb, int size);

constexpr double kEgoViewMetres = 60.0;  // side of the ego view's square, m

// The slot the ego view follows when asked for `slot`: it while alive, else the first live
// controlled slot, else `slot` (clamped to the agent slots) where it last was.
int render_ego_slot(const DriveWorld& w, const DriveConfig& cfg, int slot);

// Draws the ego view of agent `slot` of world w into rgb (size x size x 3).
void render_ego(const DriveWorld& w, const DriveConfig& cfg, int slot, uint8_t* rgb, int size);

}  // namespace trackfield::driving

#endif
