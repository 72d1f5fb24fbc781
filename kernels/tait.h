// Tait equation of state and its inverse (for hydrostatic initial densities).
#pragma once

#include <cmath>

#include "sph_params.h"
#include "vec.h"

namespace sph {

// p = B ((rho / rho0)^gamma - 1). The constants are taken once per kernel, not once per pair.
struct TaitEos {
    float inv_rho0;
    float b;
    float gamma;
    bool gamma_is_7;  // the default: four multiplications instead of powf in the pair loop

    SPH_HD float pressure(float rho) const {
        return gamma_is_7 ? pressure_as<true>(rho) : pressure_as<false>(rho);
    }

    // The same, the choice of gamma made by the caller: a loop over pairs makes it once, outside
    // the loop (decided inside, every pair paid a branch and its reconvergence).
    template <bool kGammaIs7>
    SPH_HD float pressure_as(float rho) const {
        const float x = rho * inv_rho0;
        float x_gamma;
        if constexpr (kGammaIs7) {
            const float x2 = x * x;
            x_gamma = x2 * x2 * x2 * x;
        } else {
            x_gamma = powf(x, gamma);
        }
        return b * (x_gamma - 1.0f);
    }
};

SPH_HD TaitEos make_tait_eos(const SphParams& p) {
    return TaitEos{1.0f / p.rho0, p.tait_b, p.gamma, p.gamma == 7.0f};
}

SPH_HD float tait_pressure(float rho, const SphParams& p) {
    return make_tait_eos(p).pressure(rho);
}

// Density whose Tait pressure is `pressure`; used on the host at set-up, in double precision.
inline double tait_density(double pressure, double rho0, double tait_b, double gamma) {
    return rho0 * std::pow(1.0 + pressure / tait_b, 1.0 / gamma);
}

}  // namespace sph
