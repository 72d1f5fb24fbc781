// A run's damping zones (kernels/damping_zone.h) from its problem to the devices: checked, packed,
// and described for the settings a restart must match.
#pragma once

#include <string>
#include <vector>

#include "damping_zone.h"

namespace sph {

// `zones`, or throws std::invalid_argument, naming the zone (its place in the list, from 1), for
// more than kMostDampingZones zones, an axis that is not 0, 1 or 2, a start or end that is not
// finite, a zone of no length, a strength that is negative or not finite.
std::vector<DampingZone> checked_damping_zones(const std::vector<DampingZone>& zones);

// "x from 3 to 4 m at 10 /s; ..." (empty: none).
std::string describe_damping(const std::vector<DampingZone>& zones);

}  // namespace sph
