// Car-car contact: the bodies are oriented boxes; overlapping boxes are pushed apart
// and exchange an impulse with restitution and friction at the deepest point.
#ifndef TRACKFIELD_RACING_CONTACT_H
#define TRACKFIELD_RACING_CONTACT_H

#include <cstdint>

#include "racing/car.h"

namespace trackfield::racing {

// How a contact looks from one car: it ran into the other from behind, the other ran
// into it from behind, or anything else (alongside, at an angle).
enum class ContactClass : uint8_t { kNone = 0, kRearEnd = 1, kRearEnded = 2, kSide = 3 };

constexpr float kCarRestitution = 0.2f;
constexpr float kCarFriction = 0.3f;

// Separates and bounces a and b when their boxes overlap; true if they touched.
bool collide_cars(CarState& a, const CarParams& pa, CarState& b, const CarParams& pb);

// The class of a contact between self and other, from where the other car is in
// self's frame: ahead within its width is a rear-end by self, behind is being rear-ended.
ContactClass classify_contact(const CarState& self, const CarState& other, const CarParams& self_params,
                              const CarParams& other_params);

}  // namespace trackfield::racing

#endif
