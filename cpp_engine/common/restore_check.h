// Field-by-field checks a restored snapshot passes before any step reads it.
// A snapshot's checksum guards against damage, not against edits (anyone can recompute
// it), so each domain's check_world vets every field: floats finite and inside a
// physical range, booleans 0 or 1, enums and indices in range, counts within capacity.
// A failed check throws std::invalid_argument (Python's ValueError) naming the field.
#ifndef TRACKFIELD_COMMON_RESTORE_CHECK_H
#define TRACKFIELD_COMMON_RESTORE_CHECK_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/angle.h"

namespace trackfield {

class RestoreCheck {
 public:
  explicit RestoreCheck(const char* domain) : domain_(domain) {}

  // value finite and in [lo, hi]; `index` >= 0 names the slot (car, player, vehicle).
  template <typename T>
  void real(T value, double lo, double hi, const char* field, int index = -1) const {
    const double v = static_cast<double>(value);
    if (std::isfinite(v) && v >= lo && v <= hi) return;
    std::ostringstream m;
    if (std::isfinite(v)) m << v << " is outside [" << lo << ", " << hi << "]";
    else m << "is " << v << ", not a finite number";
    fail(field, index, m.str());
  }
  template <typename T, size_t N>
  void reals(const T (&values)[N], double lo, double hi, const char* field, int count = static_cast<int>(N)) const {
    for (int i = 0; i < count; ++i) real(values[i], lo, hi, field, i);
  }

  template <typename T>
  void integer(T value, long long lo, long long hi, const char* field, int index = -1) const {
    const long long v = static_cast<long long>(value);
    if (v >= lo && v <= hi) return;
    fail(field, index, std::to_string(v) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  template <typename T, size_t N>
  void integers(const T (&values)[N], long long lo, long long hi, const char* field, int count = static_cast<int>(N)) const {
    for (int i = 0; i < count; ++i) integer(values[i], lo, hi, field, i);
  }

  // A bool's byte read without loading it as a bool (a byte other than 0 or 1 would be
  // undefined behaviour to read as one).
  void flag(const bool& b, const char* field, int index = -1) const {
    uint8_t byte;
    std::memcpy(&byte, &b, 1);
    if (byte > 1) fail(field, index, std::to_string(byte) + " is not a boolean (0 or 1)");
  }
  template <size_t N>
  void flags(const bool (&b)[N], const char* field, int count = static_cast<int>(N)) const {
    for (int i = 0; i < count; ++i) flag(b[i], field, i);
  }

  [[noreturn]] void fail(const char* field, int index, const std::string& why) const {
    std::string where = field;
    if (index >= 0) where += "[" + std::to_string(index) + "]";
    throw std::invalid_argument(std::string("set_state: corrupted ") + domain_ + " snapshot: " + where + " " + why);
  }

 private:
  const char* domain_;
};

}  // namespace trackfield

#endif
