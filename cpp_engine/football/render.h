// A small software rasteriser: a top-down RGB picture of one world, for
// render_mode="rgb_array" and videos. No graphics library, no allocation.
#ifndef TRACKFIELD_FOOTBALL_RENDER_H
#define TRACKFIELD_FOOTBALL_RENDER_H

#include <cstdint>

#include "football/world.h"

namespace trackfield::football {

int render_height(int width);
void render_rgb(const World& w, int width, int height, uint8_t* rgb);

}  // namespace trackfield::football

#endif
