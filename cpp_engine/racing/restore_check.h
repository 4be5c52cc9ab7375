// The field-by-field check of a restored racing snapshot (restore_check.cpp).
#ifndef TRACKFIELD_RACING_RESTORE_CHECK_H
#define TRACKFIELD_RACING_RESTORE_CHECK_H

#include "racing/config.h"
#include "racing/world.h"

namespace trackfield::racing {

// Throws std::invalid_argument naming the first field outside its range.
void check_restored_world(const RaceWorld& w, const RaceConfig& cfg);

}  // namespace trackfield::racing

#endif
