// The racing observations. `features` is one float32 vector whose fields are declared
// once here (name, size, raw range, unit); each scalar is standardised from its
// documented range [lo, hi] as (x - (lo + hi) / 2) / ((hi - lo) / sqrt(12)), so a
// uniform spread over the range has unit variance. `pixels` is a chase view.
#ifndef TRACKFIELD_RACING_OBS_H
#define TRACKFIELD_RACING_OBS_H

#include <vector>

#include "common/field_spec.h"
#include "racing/config.h"
#include "racing/world.h"

namespace trackfield::racing {

struct FeatureField {
  const char* name;
  int rows, cols;  // shape (rows,) when cols == 0, else (rows, cols)
  float lo, hi;    // documented raw range
  const char* unit;
  const char* description;
  int size() const { return cols == 0 ? rows : rows * cols; }
};

const std::vector<FeatureField>& feature_fields();
int features_size();
// The engine's FieldSpecs of the standardised vector (bounds -inf..inf: a value outside
// its raw range is not clipped).
std::vector<FieldSpec> feature_specs();

void write_features(const RaceWorld& w, const RaceConfig& cfg, int agent, float* out);
// A chase view of `car` into an RGB (channels 3) or grey (1) buffer of width x height,
// `metres` of ground across; also the env's rgb_array frame.
void draw_chase_view(const RaceWorld& w, const RaceConfig& cfg, int car, uint8_t* out, int width, int height,
                     int channels, float metres);
void write_pixels(const RaceWorld& w, const RaceConfig& cfg, int agent, uint8_t* out);

// Caller-owned planes of a YUV 4:2:0 image: y (height x width), u and v (height / 2 x
// width / 2); they may lie inside wider frames (row strides in bytes).
struct Yuv420Planes {
  uint8_t *y, *u, *v;
  int y_stride, uv_stride;
};
// draw_chase_view's picture painted as YUV 4:2:0 (BT.601 limited range), what video
// encoders take; width and height even.
void draw_chase_view_yuv420(const RaceWorld& w, const RaceConfig& cfg, int car, int width, int height, float metres,
                            const Yuv420Planes& out);

}  // namespace trackfield::racing

#endif
