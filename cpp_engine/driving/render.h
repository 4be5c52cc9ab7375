// The viewer's frame of a driving world (render_mode="rgb_array" / "human"): the whole map
// top-down, north up, fitted into a square frame: lanes, road boundaries, stop lines in
// their light's colour, every vehicle as an oriented box (controlled agents orange with
// slot 0 yellow, built-in drivers blue, static obstacles grey, each with a white nose) and
// the live agents' current goals as magenta discs. No allocation.
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

}  // namespace trackfield::driving

#endif
