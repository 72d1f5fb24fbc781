// Tait equation of state and its inverse (for hydrostatic initial densities).
#pragma once

#include <cmath>

#include "sph_params.h"
#include "vec.h"

namespace sph {

SPH_HD float tait_pressure(float rho, const SphParams& p) {
    const float x = rho / p.rho0;
    float x_gamma;
    if (p.gamma == 7.0f) {  // the default: three multiplications instead of powf in the pair loop
        const float x2 = x * x;
        x_gamma = x2 * x2 * x2 * x;
    } else {
        x_gamma = powf(x, p.gamma);
    }
    return p.tait_b * (x_gamma - 1.0f);
}

// Density whose Tait pressure is `pressure`; used on the host at set-up, in double precision.
inline double tait_density(double pressure, double rho0, double tait_b, double gamma) {
    return rho0 * std::pow(1.0 + pressure / tait_b, 1.0 / gamma);
}

}  // namespace sph
