// Football pictures from the shared rasteriser (common/raster.h): the viewer's RGB
// frame, and the pixel observations. No graphics library, no allocation.
#ifndef TRACKFIELD_FOOTBALL_RENDER_H
#define TRACKFIELD_FOOTBALL_RENDER_H

#include <cstdint>

#include "football/world.h"

namespace trackfield::football {

// Height of a viewer frame `width` pixels wide (the pitch and a 3 m margin, true aspect).
int render_height(int width);
// Top-down view with scoreboard, clock, game mode, shirt numbers (from about 660 px
// wide), controlled players ringed in yellow, and the ball's shadow.
void render_rgb(const World& w, int width, int height, uint8_t* rgb);
// The `pixels` (channels 3) / `pixels_gray` (1) observation of one agent: the whole
// pitch stretched to width x height, rotated for right-team agents like every
// observation, own team light, opponents dark, the agent's active player marked.
void write_obs_pixels(const World& w, int agent, int width, int height, int channels, uint8_t* out);

}  // namespace trackfield::football

#endif
