#include "boundaries/damping_zones.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sph {

std::vector<DampingZone> checked_damping_zones(const std::vector<DampingZone>& zones) {
    if (zones.size() > std::size_t(kMostDampingZones)) {
        throw std::invalid_argument(std::to_string(zones.size()) + " damping zones: at most " +
                                    std::to_string(kMostDampingZones));
    }
    for (std::size_t k = 0; k < zones.size(); ++k) {
        const DampingZone& z = zones[k];
        const std::string which = "damping zone " + std::to_string(k + 1) + ": ";
        if (z.axis < 0 || z.axis > 2) throw std::invalid_argument(which + "its axis is x, y or z");
        if (!std::isfinite(z.start) || !std::isfinite(z.end) || z.start == z.end) {
            throw std::invalid_argument(which + "its start and end must be finite and differ");
        }
        if (!(z.strength >= 0.0f) || !std::isfinite(z.strength)) {
            throw std::invalid_argument(which + "its strength must be finite and >= 0");
        }
    }
    return zones;
}

std::string describe_damping(const std::vector<DampingZone>& zones) {
    std::ostringstream s;
    s.precision(9);
    for (std::size_t k = 0; k < zones.size(); ++k) {
        const DampingZone& z = zones[k];
        s << (k > 0 ? "; " : "") << "xyz"[z.axis] << " from " << z.start << " to " << z.end
          << " m at " << z.strength << " /s";
    }
    return s.str();
}

}  // namespace sph
