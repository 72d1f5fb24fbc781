// The position frame's set-up (host only): where the integer steps start and how long one is.
#include "fixed_position.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sph {

PositionFrame position_frame(const double origin[3], int exponent) {
    PositionFrame f{};
    for (int a = 0; a < 3; ++a) f.origin[a] = origin[a];
    f.unit = std::ldexp(1.0f, exponent);
    f.inv_unit = std::ldexp(1.0f, -exponent);
    return f;
}

PositionFrame frame_for_domain(const double lo[3], const double hi[3]) {
    double longest = 0.0;
    for (int a = 0; a < 3; ++a) longest = std::max(longest, hi[a] - lo[a]);
    if (!(longest > 0.0) || !std::isfinite(longest)) {
        throw std::invalid_argument("the domain must have a positive, finite extent");
    }
    constexpr int kDomainSteps = 30;  // the longest side in at most 2^30 steps
    const int exponent = static_cast<int>(std::ceil(std::log2(longest))) - kDomainSteps;
    return position_frame(lo, exponent);
}

PositionFrame default_position_frame() {
    const double origin[3] = {0.0, 0.0, 0.0};
    return position_frame(origin, -24);
}

}  // namespace sph
