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

// F(r) = (dW/dr) / r = -5 alpha (1 - q/2)^3 / h^2 (zero beyond the support). Its constants are
// divided out once, when a kernel starts, not once per pair: a division costs the GPU about ten
// instructions and Forces evaluates F a hundred times per particle.
struct WendlandGradient {
    float support;     // 2h: F is exactly zero from here on
    float half_inv_h;  // 1 / (2h): t = 1 - r / (2h)
    float scale;       // -5 alpha / h^2

    SPH_HD float operator()(float r) const {
        if (r >= support) return 0.0f;
        const float t = 1.0f - half_inv_h * r;
        return scale * t * t * t;
    }
};

SPH_HD WendlandGradient make_wendland_gradient(const SphParams& p) {
    return WendlandGradient{2.0f * p.h, 0.5f / p.h, -5.0f * p.wendland_alpha / (p.h * p.h)};
}

SPH_HD float wendland_f(float r, const SphParams& p) {
    return make_wendland_gradient(p)(r);
}

}  // namespace sph
