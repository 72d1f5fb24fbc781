// Reciprocal and square root for Forces' pair loop.
//
// On the GPU these are the hardware's approximations (one MUFU instruction each, within 1 ulp
// of the exact result for the arguments the loop passes: densities, r^2 + eta^2 and r^2, all
// normal numbers or zero). IEEE's correctly rounded versions cost the GPU about ten instructions
// and a branch each, and the pair loop runs a hundred times per particle and pass. On the CPU
// they are the exact operations. CPU and CUDA already differ in the last bit (the GPU fuses
// multiply-adds); the CPU-vs-CUDA test bounds how far the two may drift apart.
#pragma once

#include <cmath>

#include "vec.h"

namespace sph {

SPH_HD float approx_reciprocal(float x) {
#if defined(__CUDA_ARCH__)
    float y;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return 1.0f / x;
#endif
}

SPH_HD float approx_sqrt(float x) {
#if defined(__CUDA_ARCH__)
    float y;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return std::sqrt(x);
#endif
}

}  // namespace sph
