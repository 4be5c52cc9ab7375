// A map's static top-down picture for the "pixels" observation: which cells are drivable
// and which are road boundary, rasterised once per map (trackfield.driving builds it only
// for a pixels config), so that at run time an agent's view only samples it through its
// own rotation (4096 lookups) instead of filling hundreds of lane quads.
//
// Rules: a cell is drivable when its centre lies in a lane quad (any height: the picture is
// 2-D, overpasses merge). Boundary cells: the map's boundary polylines, plus the edge of
// the drivable area (see build_map_raster), so maps without boundary polylines still show
// their road edges, about 1.5 m thick so that a 1 m observation pixel sampling it cannot
// step over it.
#ifndef TRACKFIELD_DRIVING_MAP_RASTER_H
#define TRACKFIELD_DRIVING_MAP_RASTER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace trackfield::driving {

struct Map;

constexpr uint8_t kRasterDrivable = 1, kRasterBoundary = 2;
constexpr float kRasterCell = 0.5f;          // m per cell, unless the map is too large
constexpr int64_t kRasterMaxCells = 1 << 24; // larger maps get coarser cells (16 MB at most)

struct MapRaster {
  float x0 = 0, y0 = 0;  // world point of the corner of cell (0, 0); row r covers y in [y0 + r cell, y0 + (r + 1) cell)
  float cell = kRasterCell;
  int cols = 0, rows = 0;
  // Two bits per cell (kRasterDrivable | kRasterBoundary), four cells per byte, rows of
  // `stride` bytes: cell (u, v) is (packed[v * stride + u / 4] >> 2 (u % 4)) & 3. Packed,
  // the cells an agent's view samples (~180 x 180 at any rotation) fit in L1 beside the
  // frame being written; a byte per cell missed there on every other sample.
  int stride = 0;
  std::vector<uint8_t> packed;

  uint8_t cell_bits(int u, int v) const {
    return (packed[static_cast<std::size_t>(v) * stride + (u >> 2)] >> ((u & 3) * 2)) & 3;
  }
};

// Rasterises the map's quads and boundary polylines (allocates; once per map).
void build_map_raster(MapRaster& raster, const Map& map);

}  // namespace trackfield::driving

#endif
