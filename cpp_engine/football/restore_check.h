// The field-by-field check of a restored football snapshot (restore_check.cpp).
#ifndef TRACKFIELD_FOOTBALL_RESTORE_CHECK_H
#define TRACKFIELD_FOOTBALL_RESTORE_CHECK_H

#include "football/world.h"

namespace trackfield::football {

// Throws std::invalid_argument naming the first field outside its range.
void check_restored_world(const World& w);

}  // namespace trackfield::football

#endif
