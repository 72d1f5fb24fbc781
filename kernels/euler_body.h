// Per-particle bodies of Euler: the predictor and corrector halves of a symplectic midpoint step.
//
//   predictor: x* = x + dt/2 v,  v* = v + dt/2 a(x, v),  rho* = rho + dt/2 drho(x, v)
//   corrector: v' = v + dt a(x*, v*),  x' = x + dt/2 (v + v'),  rho' = rho + dt drho(x*, v*)
// Boundary particles keep their place and never drop below rho0 (so they never pull fluid in).
// Positions move by whole steps of their frame, the nearest to the float displacement
// (fixed_position.h).
#pragma once

#include <cstdint>

#include "kernel_args.h"
#include "particle_type.h"

namespace sph {

SPH_HD void euler_predictor(std::uint32_t i, const EulerArgs& a) {
    const FixedPos pos = a.pos[i];
    const Vec4 vr = a.velrho[i];
    const Vec4 f = a.force[i];
    const float half = 0.5f * a.dt;
    if (a.type[i] != kFluid) {
        a.pos_pred[i] = pos;
        a.velrho_pred[i] = make_vec4(0.0f, 0.0f, 0.0f, fmaxf(vr.w + half * f.w, a.rho0));
        return;
    }
    a.pos_pred[i] = a.frame.moved(pos, half * xyz(vr));
    a.velrho_pred[i] =
        make_vec4(vr.x + half * f.x, vr.y + half * f.y, vr.z + half * f.z, vr.w + half * f.w);
}

SPH_HD void euler_corrector(std::uint32_t i, const EulerArgs& a) {
    const FixedPos pos = a.pos[i];
    const Vec4 vr = a.velrho[i];
    const Vec4 f = a.force[i];
    if (a.type[i] != kFluid) {
        a.velrho[i] = make_vec4(0.0f, 0.0f, 0.0f, fmaxf(vr.w + a.dt * f.w, a.rho0));
        return;
    }
    const Vec3 v_new = make_vec3(vr.x + a.dt * f.x, vr.y + a.dt * f.y, vr.z + a.dt * f.z);
    const float half = 0.5f * a.dt;
    a.pos[i] = a.frame.moved(pos, half * (xyz(vr) + v_new));
    a.velrho[i] = make_vec4(v_new.x, v_new.y, v_new.z, vr.w + a.dt * f.w);
}

}  // namespace sph
