// The Wendland C2 smoothing kernel in 3-D, support radius 2h.
//
// W(q) = alpha (1 - q/2)^4 (2q + 1), q = r / h, alpha = 21 / (16 pi h^3).
// Forces need the gradient as grad_i W = (x_i - x_j) * F(r); F(r) = (dW/dr) / r is finite at r = 0.
#pragma once

#include "sph_params.h"
#include "vec.h"

namespace sph {

SPH_HD float wendland_w(float r, const SphParams& p) {
    const float q = r / p.h;
    if (q >= 2.0f) return 0.0f;
    const float t = 1.0f - 0.5f * q;
    const float t2 = t * t;
    return p.wendland_alpha * t2 * t2 * (2.0f * q + 1.0f);
}

// F(r) = (dW/dr) / r = -5 alpha (1 - q/2)^3 / h^2 (zero beyond the support).
SPH_HD float wendland_f(float r, const SphParams& p) {
    const float q = r / p.h;
    if (q >= 2.0f) return 0.0f;
    const float t = 1.0f - 0.5f * q;
    return -5.0f * p.wendland_alpha * t * t * t / (p.h * p.h);
}

}  // namespace sph
