// Declares an observation field once (name, shape, dtype, bounds): the Python side
// derives Gymnasium spaces and docstring tables from these, EnvPool-style.
#ifndef TRACKFIELD_COMMON_FIELD_SPEC_H
#define TRACKFIELD_COMMON_FIELD_SPEC_H

#include <string>
#include <vector>

namespace trackfield {

struct FieldSpec {
  std::string name;
  std::vector<int> shape;
  std::string dtype;  // numpy dtype name: "float32", "int32", "uint8", "bool"
  float low;
  float high;
  std::string description;
};

inline int field_size(const FieldSpec& f) {
  int n = 1;
  for (int d : f.shape) n *= d;
  return n;
}

}  // namespace trackfield

#endif
