// Super mini map: height x width uint8 (GRF's channel_dimensions, default 72 x 96),
// channels last (own team, opponents, ball, active player), 255 at the one pixel
// where an entity stands, as GRF's 'extracted' observation.
#include <cstring>

#include "football/env_config.h"
#include "football/obs.h"

namespace trackfield::football {

namespace {

void mark(uint8_t* out, int width, int height, const Perspective& v, float x, float y, int channel) {
  float gx = obs_x(v, x), gy = obs_y(v, y);
  int col = static_cast<int>((gx + 1.0f) * 0.5f * width);
  int row = static_cast<int>((gy + 0.42f) / 0.84f * height);
  col = col < 0 ? 0 : (col >= width ? width - 1 : col);
  row = row < 0 ? 0 : (row >= height ? height - 1 : row);
  out[(static_cast<size_t>(row) * width + col) * kSmmChannels + channel] = 255;
}

}  // namespace

void write_obs_smm(const World& w, int agent, int width, int height, uint8_t* out) {
  std::memset(out, 0, static_cast<size_t>(height) * width * kSmmChannels);
  Perspective v = perspective_of(w, agent);
  for (int side = 0; side < 2; ++side) {
    int team = side == 0 ? v.own : v.opp;
    for (int s = 0; s < w.team_size[team]; ++s) {
      int p = first_of(team) + s;
      if (w.p.present[p]) mark(out, width, height, v, w.p.x[p], w.p.y[p], side);
    }
  }
  mark(out, width, height, v, w.ball.x, w.ball.y, 2);
  int active = w.agents[agent].player;
  if (active >= 0) mark(out, width, height, v, w.p.x[active], w.p.y[active], 3);
}

}  // namespace trackfield::football
