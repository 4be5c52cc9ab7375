// The field-by-field check of a restored driving snapshot (restore_check.cpp).
#ifndef TRACKFIELD_DRIVING_RESTORE_CHECK_H
#define TRACKFIELD_DRIVING_RESTORE_CHECK_H

#include "driving/world.h"

namespace trackfield::driving {

// Throws std::invalid_argument naming the first field outside its range.
void check_restored_world(const DriveWorld& w);

}  // namespace trackfield::driving

#endif
