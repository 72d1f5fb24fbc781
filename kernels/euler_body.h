// Per-particle bodies of Euler: the predictor and corrector halves of a symplectic midpoint step.
//
//   predictor: x* = x + dt/2 v,  v* = v + dt/2 a(x, v),  rho* = rho + dt/2 drho(x, v)
//   corrector: v' = v + dt a(x*, v*),  x' = x + dt/2 (v + v'),  rho' = rho + dt drho(x*, v*)
// Boundary particles keep their place and never drop below rho0 (so they never pull fluid in);
// a moving body's particles go where its law (or a floating body's pose) puts them
// (body_motion.h) and take its velocity.
// Positions move by whole steps of their frame, the nearest to the float displacement
// (fixed_position.h). In a damping zone the corrector's new fluid velocity is damped
// (damping_zone.h).
#pragma once

#include <cstdint>

#include "body_motion.h"
#include "damping_zone.h"
#include "kernel_args.h"
#include "particle_type.h"

namespace sph {

// Where a wall particle of type `type` at `pos` as the step begins lies at time t_to: a still
// wall where it is, at rest; a body's particle where its law puts it.
SPH_HD BodyMove wall_move(std::uint8_t type, const FixedPos& pos, const EulerArgs& a, double t_to) {
    if (!is_body(type)) return BodyMove{pos, make_vec3(0.0f, 0.0f, 0.0f), 0.0};
    return move_body_particle(pos, a.bodies, type - kFirstBody, a.time, t_to, a.frame);
}

SPH_HD void euler_predictor(std::uint32_t i, const EulerArgs& a) {
    const FixedPos pos = a.pos[i];
    const Vec4 vr = a.velrho[i];
    const Vec4 f = a.force[i];
    const float half = 0.5f * a.dt;
    if (a.type[i] != kFluid) {
        const float rho = fmaxf(vr.w + half * f.w, a.rho0);
        const BodyMove m = wall_move(a.type[i], pos, a, a.time + double(half));
        a.pos_pred[i] = m.pos;
        a.velrho_pred[i] = make_vec4(m.velocity.x, m.velocity.y, m.velocity.z, rho);
        return;
    }
    a.pos_pred[i] = a.frame.moved(pos, half * xyz(vr));
    a.velrho_pred[i] =
        make_vec4(vr.x + half * f.x, vr.y + half * f.y, vr.z + half * f.z, vr.w + half * f.w);
}

// `damping`: where the water's new velocity is damped (none: count 0).
SPH_HD void euler_corrector(std::uint32_t i, const EulerArgs& a,
                            const DampingZones& damping = DampingZones{}) {
    const FixedPos pos = a.pos[i];
    const Vec4 vr = a.velrho[i];
    const Vec4 f = a.force[i];
    if (a.type[i] != kFluid) {
        const float rho = fmaxf(vr.w + a.dt * f.w, a.rho0);
        const BodyMove m = wall_move(a.type[i], pos, a, a.time + double(a.dt));
        a.pos[i] = m.pos;
        // A turning body's ghost offsets turn with it, once a step (the predicted state, half a
        // step on, is read with the offsets of the step's start).
        if (m.turned != 0.0 && a.to_ghost != nullptr) {
            a.to_ghost[i] = turn_offset(a.to_ghost[i], a.bodies, a.type[i] - kFirstBody, m.turned);
        }
        a.velrho[i] = make_vec4(m.velocity.x, m.velocity.y, m.velocity.z, rho);
        return;
    }
    Vec3 v_new = make_vec3(vr.x + a.dt * f.x, vr.y + a.dt * f.y, vr.z + a.dt * f.z);
    if (damping.count > 0) v_new = damping_factor(damping, pos, a.frame, a.dt) * v_new;
    const float half = 0.5f * a.dt;
    a.pos[i] = a.frame.moved(pos, half * (xyz(vr) + v_new));
    a.velrho[i] = make_vec4(v_new.x, v_new.y, v_new.z, vr.w + a.dt * f.w);
}

}  // namespace sph
