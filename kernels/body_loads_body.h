// Per-particle body of the loads on moving bodies: the force and moment the water exerts on each
// body (body_motion.h), for bodies.csv, summed over the body's particles.
//
// The force on a body particle b from a fluid particle j within 2h is the opposite of the one j
// gets from b in Forces (forces_body.h): the pressure term and the artificial viscosity,
//   F_b += m^2 [ (p_j + p_b) / (rho_j rho_b) - mu_jb / (rho_j + rho_b) ] F(r) r,  r = x_j - x_b,
// where mu_jb = 2 alpha c0 h (v_j - v_b).r / (r^2 + eta^2) while they close (none towards a
// free-slip wall). It is the water's pressure over the body's surface, as the fluid meets it, with
// the wall's pressure from its density (DBC: continuity; mDBC: its ghost node's fit). The moment is
// taken about the body's moment point (a turning body's hinge, else its centre as laid out),
// carried by its law. The fluid is found through the cells around the particle, as mDBC finds it.
//
// A floating body (one whose bit is set in `floating`) also meets other walls and bodies: each of
// its particles closer than dp to a particle of a wall or of another body is pushed back by
// Monaghan's (1994) repulsive boundary force, per unit of a particle's mass
//   f = -D [(dp / r)^12 - (dp / r)^4] r / r^2,  D = c0^2 / 20 (his 5 g H where c0 = 10 sqrt(g H)),
// zero at dp, where the lattice lays particles out, and steep below it, so that a body that
// settles on a floor or strikes a wall stops there instead of passing through it; with a dashpot
// along r, -c (v_b - v_j).r r / r^2, each pair critically damped as if it held a fluid particle's
// mass m: c = 2 sqrt(k m) for the pair's stiffness at dp, k = 8 m D / dp^2. A body of density
// rho_b resting on n layers of its particles is then damped at sqrt(rho0 / (n rho_b)) of critical,
// so that it strikes and stops instead of bouncing back as from a spring.
//
// Each particle's force and moment go into the sums as whole multiples of 2^-32 N (N m): integers
// add up to the same bits in any order, so the sums are the same on any device count, in any
// thread order, on the CPU and on a GPU's atomics (a float sum would not be).
#pragma once

#include <cmath>
#include <cstdint>

#include "cell_walk.h"
#include "kernel_args.h"
#include "particle_type.h"
#include "tait.h"
#include "wendland.h"

namespace sph {

// Sums a body holds: force x, y, z [N] and moment x, y, z [N m], each in units of 1 / kLoadScale.
constexpr int kBodyLoadSums = 6;
constexpr double kLoadScale = 4294967296.0;  // 2^32

// A particle's force and moment on its body, in those units; body = -1 where it is no body's.
struct ParticleLoad {
    int body;
    long long sums[kBodyLoadSums];
};

SPH_HD long long load_units(float value) {
    return llrint(double(value) * kLoadScale);
}

// The contact force (above) on a floating body's particle from a particle r away (r = x_j - x_b),
// their velocities differing by `closing` = v_b - v_j.
SPH_HD Vec3 contact_push(Vec3 r, float r2, Vec3 closing, const SphParams& p) {
    const float q2 = p.dp * p.dp / r2;  // (dp / r)^2
    const float q4 = q2 * q2;
    const float strength = 0.05f * p.c0 * p.c0;
    const float damping = 2.0f * sqrtf(8.0f * strength) / p.dp;
    return (-p.mass * (strength * (q4 * q4 * q4 - q4) + damping * dot(closing, r)) / r2) * r;
}

// Particle i's load (above); `moment_points` one per body [steps]; `floating`: bit b set where
// body b floats.
SPH_HD ParticleLoad body_particle_load(std::uint32_t i, const InstrumentArgs& a,
                                       const FixedPos* moment_points, std::uint64_t floating) {
    ParticleLoad out{-1, {0, 0, 0, 0, 0, 0}};
    const std::uint8_t type_i = a.type[i];
    if (!is_body(type_i)) return out;
    const SphParams& p = a.params;
    const float unit = a.grid.frame.unit;
    const FixedPos pos_i = a.pos[i];
    const Vec4 vr_i = a.velrho[i];
    const TaitEos eos = make_tait_eos(p);
    const float pressure_i = eos.pressure(vr_i.w);
    const WendlandGradient gradient = make_wendland_gradient(p);
    const float viscosity = 2.0f * p.viscosity_alpha * p.c0 * p.h;
    const bool meets_walls = ((floating >> (type_i - kFirstBody)) & 1u) != 0;
    const float contact_sq = p.dp * p.dp;
    Vec3 force = make_vec3(0.0f, 0.0f, 0.0f);
    for_each_particle_near(pos_i, a.grid, a.cell_start, a.cell_end, [&](std::uint32_t j) {
        const std::uint8_t type_j = a.type[j];
        if (type_j != kFluid && (!meets_walls || type_j == type_i)) return false;
        const Vec3 r = displacement(a.pos[j], pos_i, unit);
        const float r2 = length_squared(r);
        if (type_j != kFluid) {
            if (r2 < contact_sq && r2 > 0.0f) {
                force += contact_push(r, r2, xyz(vr_i) - xyz(a.velrho[j]), p);
            }
            return false;
        }
        if (r2 >= p.kernel_radius_sq) return false;
        const Vec4 vr_j = a.velrho[j];
        const float v_dot_r = dot(xyz(vr_j) - xyz(vr_i), r);
        const bool viscous = v_dot_r < 0.0f && type_i != kFreeSlipBoundary;
        const float mu = viscous ? viscosity * v_dot_r / (r2 + p.eta_sq) : 0.0f;
        const float coef =
            (eos.pressure(vr_j.w) + pressure_i) / (vr_j.w * vr_i.w) - mu / (vr_j.w + vr_i.w);
        force += (p.mass * p.mass * coef * gradient(sqrtf(r2))) * r;
        return false;
    });
    out.body = type_i - kFirstBody;
    const Vec3 lever = displacement(pos_i, moment_points[out.body], unit);
    const Vec3 moment = cross(lever, force);
    const float v[kBodyLoadSums] = {force.x, force.y, force.z, moment.x, moment.y, moment.z};
    for (int k = 0; k < kBodyLoadSums; ++k) out.sums[k] = load_units(v[k]);
    return out;
}

}  // namespace sph
