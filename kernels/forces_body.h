// Per-particle body of Forces: acceleration, density rate and the particle's largest stable dt.
//
// Weakly-compressible SPH with the Tait EOS, Monaghan artificial viscosity and Molteni-Colagrossi
// density diffusion between fluid particles. The diffusion acts on the dynamic part of the density
// difference only (the hydrostatic part, rho0 g.(x_j - x_i) / c0^2 to first order, is removed, as
// Fourtakas et al. 2019 do): diffusing the whole difference wears the hydrostatic gradient away
// wherever walls truncate the fluid's kernel, and still water then slowly starts to move.
// Boundary particles get only a density rate under DBC, and nothing under mDBC: a wall's rate is
// the fluid's alone (two walls of one body, or still walls, close at exactly zero speed; a moving
// body's particles meet other walls' only through the fluid).
// Free-slip boundary particles (kFreeSlipBoundary) push with their pressure but exert no artificial
// viscosity. Under --gradient-correction the part of the pressure force that differentiates the
// pressure goes through the corrected kernel gradient (gradient_correction.h). Neighbours are
// summed in list order, which is the same on every device split: results are bitwise reproducible.
// They come from the list or, under --neighbours cells, straight from the cells (CellNeighbours),
// in the same order: the two give the same bits. Under --no-penetration the corrector's pair loop
// also finds each fluid particle's nearest wall, whose face may stop it (wall_contact.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "cell_walk.h"
#include "fast_math.h"
#include "gradient_correction.h"
#include "kernel_args.h"
#include "list_walk.h"
#include "particle_type.h"
#include "tait.h"
#include "wall_contact.h"
#include "wendland.h"

namespace sph {

// A non-finite dt_max marks a particle whose state blew up; MinimumScan propagates it.
SPH_HD float particle_dt_max(bool fluid, Vec3 acc, float drho, float rho, Vec3 vel,
                             const SphParams& p) {
    const bool finite = is_finite(acc.x) && is_finite(acc.y) && is_finite(acc.z) &&
                        is_finite(drho) && is_finite(rho);
    if (!finite) return NAN;
    const float acoustic = p.h / (p.c0 + sqrtf(length_squared(vel)));
    if (!fluid) return p.cfl * acoustic;
    const float a = sqrtf(length_squared(acc));
    const float body = a > 0.0f ? sqrtf(p.h / a) : acoustic;
    return p.cfl * fminf(acoustic, body);
}

// The cells source of Forces' neighbours for these arguments.
SPH_HD CellNeighbours cell_neighbours(const ForcesArgs& a) {
    // A little beyond (2h)^2: every pair passed over adds exact zeros (see CellNeighbours).
    constexpr float kCutMargin = 1.0f + 1.0f / 1024.0f;
    return CellNeighbours{a.pos,
                          a.cell,
                          a.cell_start,
                          a.cell_end,
                          a.cell_split,
                          a.grid,
                          a.params.kernel_radius_sq * kCutMargin};
}

// Under mDBC a wall particle's Forces: no force and no density rate, only its dt bound.
SPH_HD void mdbc_wall_forces(std::uint32_t i, const ForcesArgs& a, float rho_i, Vec3 vel_i) {
    // An mDBC wall's density comes from mdbc_density, not continuity, and its motion from
    // its law, if any: nothing to compute (a density that blew up still stops the run). A
    // moving body's speed bounds dt as a DBC wall's does, so that the list's margin holds.
    a.force[i] = make_vec4(0.0f, 0.0f, 0.0f, 0.0f);
    const float still = is_finite(rho_i) ? INFINITY : NAN;
    a.dt_max[i] = is_body(a.type[i]) ? particle_dt_max(false, make_vec3(0.0f, 0.0f, 0.0f), 0.0f,
                                                       rho_i, vel_i, a.params)
                                     : still;
}

// A DBC wall particle's density rate: continuity only, over the fluid alone, as its walls would
// add exact zeros.
template <class Neighbours>
SPH_HD float dbc_wall_density_rate(std::uint32_t i, const ForcesArgs& a,
                                   const Neighbours& neighbours, const FixedPos& pos_i, Vec3 vel_i,
                                   const WendlandGradient& gradient) {
    const SphParams& p = a.params;
    const float unit = a.grid.frame.unit;
    float drho = 0.0f;
    neighbours.for_each_fluid(i, pos_i, [&](std::uint32_t j) {
        const Vec3 r = displacement(pos_i, a.pos[j], unit);
        const Vec3 v = vel_i - xyz(a.velrho[j]);
        drho += p.mass * dot(v, r) * gradient(approx_sqrt(length_squared(r)));
        return false;
    });
    return drho;
}

// A fluid particle as its pair loop reads it: its state, and everything that does not depend on
// the neighbour, computed here once: the pair loop runs a hundred times per particle and holds no
// division.
struct FluidParticle {
    FixedPos pos;
    Vec3 vel;
    float rho;
    float unit;  // [m] a step of the positions
    WendlandGradient gradient;
    TaitEos eos;
    float inv_rho;
    float pressure;
    float diffusion;
    float hydrostatic_slope;  // d rho / d (g.x) at rest
    float viscosity;          // 2: 1 / the mean density
};

SPH_HD FluidParticle make_fluid_particle(const FixedPos& pos_i, Vec3 vel_i, float rho_i, float unit,
                                         const WendlandGradient& gradient, const SphParams& p) {
    const TaitEos eos = make_tait_eos(p);
    return FluidParticle{pos_i,
                         vel_i,
                         rho_i,
                         unit,
                         gradient,
                         eos,
                         1.0f / rho_i,
                         eos.pressure(rho_i),
                         p.diffusion_delta * p.h * p.c0 * 2.0f * p.mass,
                         p.rho0 / (p.c0 * p.c0),
                         2.0f * p.viscosity_alpha * p.c0 * p.h};
}

// What a fluid particle's pair loop sums. Under --gradient-correction it also sums the first
// moment of the kernel gradient and the part of the pressure force that differentiates the
// pressure, sum_j V_j (p_j - p_i) grad W; the correction of that part is added once the loop is
// done (gradient_correction.h). The rest of (p_i + p_j), 2 p_i sum_j V_j grad W, vanishes inside
// the water and holds the free surface up: it stays as it is, as does the viscosity. Under
// --no-penetration's contact it finds the nearest wall.
struct FluidPairSums {
    Vec3 acc;
    float drho;
    SymmetricMatrix3 moment;
    Vec3 differentiating;
    NearestWall nearest;
};

// One pair loop of a fluid particle, for one choice of gamma 7 or not, the correction or not and
// looking for the nearest wall or not (std::true_type or std::false_type each).
template <class Gamma7, class Corrected, class FindsWalls, class Neighbours>
SPH_HD void sum_fluid_pairs(Gamma7 gamma_is_7, Corrected corrected, FindsWalls finds_walls,
                            std::uint32_t i, const ForcesArgs& a, const Neighbours& neighbours,
                            const FluidParticle& fi, FluidPairSums& sums) {
    const SphParams& p = a.params;
    neighbours.for_each(i, fi.pos, [&](std::uint32_t j) {
        const FixedPos pos_j = a.pos[j];
        const Vec4 vr_j = a.velrho[j];
        const float type_j = pos_j.w;  // it comes with the position (particle_record.h)
        const Vec3 r = displacement(fi.pos, pos_j, fi.unit);
        const float r2 = length_squared(r);
        const float f = fi.gradient(approx_sqrt(r2));
        const Vec3 v = fi.vel - xyz(vr_j);
        const float v_dot_r = dot(v, r);
        // Selections instead of branches: a warp whose particles take different sides of a
        // branch runs both, and converging again costs instructions of its own.
        const float rho_j = vr_j.w;
        const float inv_rho_j = approx_reciprocal(rho_j);
        const float inv_r2_eta = approx_reciprocal(r2 + p.eta_sq);
        // Gravity points along -z (run_setup.cpp): g.r is g.z r.z, the same bits as the dot
        // product, whose other two terms are exact zeros.
        const float dynamic = (rho_j - fi.rho) + fi.hydrostatic_slope * (p.gravity.z * r.z);
        const float diffusing = type_j == float(kFluid) ? fi.diffusion : 0.0f;  // fluid only
        sums.drho += p.mass * v_dot_r * f;
        sums.drho -= diffusing * dynamic * inv_rho_j * f * r2 * inv_r2_eta;
        const bool viscous = v_dot_r < 0.0f && type_j != float(kFreeSlipBoundary);  // closing
        const float mu = viscous ? fi.viscosity * v_dot_r * inv_r2_eta : 0.0f;
        const float pressure_j = fi.eos.template pressure_as<decltype(gamma_is_7)::value>(rho_j);
        const float coef = (fi.pressure + pressure_j) * fi.inv_rho * inv_rho_j -
                           mu * approx_reciprocal(fi.rho + rho_j);
        sums.acc += (-p.mass * coef * f) * r;
        if constexpr (decltype(corrected)::value) {
            // grad_i W = F r; sum_j V_j (x_j - x_i) (x) grad_i W = -sum_j V_j F r (x) r
            const float volume_f = p.mass * inv_rho_j * f;
            add_outer_product(sums.moment, -volume_f, r);
            sums.differentiating += (volume_f * (pressure_j - fi.pressure)) * r;
        }
        if constexpr (decltype(finds_walls)::value) {
            const bool closer = type_j != float(kFluid) && r2 < sums.nearest.r2;
            sums.nearest.r2 = closer ? r2 : sums.nearest.r2;
            sums.nearest.index = closer ? j : sums.nearest.index;
        }
        return false;
    });
}

// A fluid particle's sums over its neighbours, its pair loop chosen once of eight: for gamma 7 or
// any other, with the correction or without, and looking for the nearest wall or not.
template <class Neighbours>
SPH_HD FluidPairSums fluid_pair_sums(std::uint32_t i, const ForcesArgs& a,
                                     const Neighbours& neighbours, const FluidParticle& fi,
                                     bool contact) {
    const SphParams& p = a.params;
    FluidPairSums sums{make_vec3(0.0f, 0.0f, 0.0f), 0.0f, SymmetricMatrix3{},
                       make_vec3(0.0f, 0.0f, 0.0f), NearestWall{}};
    const auto fluid_pairs = [&](auto gamma_is_7, auto corrected, auto finds_walls) {
        sum_fluid_pairs(gamma_is_7, corrected, finds_walls, i, a, neighbours, fi, sums);
    };
    const auto with_contact_choice = [&](auto gamma_is_7, auto corrected) {
        if (contact) {
            fluid_pairs(gamma_is_7, corrected, std::true_type{});
        } else {
            fluid_pairs(gamma_is_7, corrected, std::false_type{});
        }
    };
    const auto with_correction_choice = [&](auto gamma_is_7) {
        if (p.gradient_correction) {
            with_contact_choice(gamma_is_7, std::true_type{});
        } else {
            with_contact_choice(gamma_is_7, std::false_type{});
        }
    };
    if (fi.eos.gamma_is_7) {
        with_correction_choice(std::true_type{});
    } else {
        with_correction_choice(std::false_type{});
    }
    return sums;
}

// A fluid particle's acceleration (gravity's included) from its pair sums, and in `contact_change`
// the velocity change its nearest wall's face asks for, if any (wall_contact.h).
SPH_HD Vec3 fluid_acceleration(const ForcesArgs& a, const FluidParticle& fi,
                               const FluidPairSums& sums, bool contact, Vec3& contact_change) {
    const SphParams& p = a.params;
    Vec3 acc = sums.acc;
    if (p.gradient_correction) {
        acc += (-fi.inv_rho) *
               (gradient_correction(sums.moment) * sums.differentiating - sums.differentiating);
    }
    acc += p.gravity;
    if (contact && sums.nearest.r2 < INFINITY) {
        // The velocity towards the wall's face counts relative to the wall (a body moves).
        const Vec3 wall_velocity = xyz(a.velrho[sums.nearest.index]);
        contact_change =
            contact_velocity_change(displacement(fi.pos, a.pos[sums.nearest.index], fi.unit),
                                    fi.vel - wall_velocity, a.to_ghost[sums.nearest.index], p.dp);
    }
    return acc;
}

// `neighbours`: ListedNeighbours<ForcesArgs> or CellNeighbours (list_walk.h, cell_walk.h).
template <class Neighbours>
SPH_HD void compute_forces(std::uint32_t i, const ForcesArgs& a, const Neighbours& neighbours) {
    const SphParams& p = a.params;
    const FixedPos pos_i = a.pos[i];
    const float unit = a.grid.frame.unit;  // [m] a step of the positions
    const Vec4 vr_i = a.velrho[i];
    const Vec3 vel_i = xyz(vr_i);
    const float rho_i = vr_i.w;
    const bool fluid_i = a.type[i] == kFluid;
    if (!fluid_i && p.boundary == BoundaryModel::kMdbc) {
        mdbc_wall_forces(i, a, rho_i, vel_i);
        return;
    }
    const WendlandGradient gradient = make_wendland_gradient(p);
    Vec3 acc = make_vec3(0.0f, 0.0f, 0.0f);
    float drho = 0.0f;
    // Only the corrector's Forces know the step's dt, and only they correct (wall_contact.h).
    const bool contact = fluid_i && p.no_penetration && a.step.predictor_minima != nullptr;
    Vec3 contact_change = make_vec3(0.0f, 0.0f, 0.0f);
    // No distance test in the pair loops: F is zero from r = 2h on, so the list skin's pairs add
    // exact zeros (every term is a multiple of f), and a branch would only make the velocity's
    // load wait for the position's.
    if (!fluid_i) {
        drho = dbc_wall_density_rate(i, a, neighbours, pos_i, vel_i, gradient);
    } else {
        const FluidParticle fi = make_fluid_particle(pos_i, vel_i, rho_i, unit, gradient, p);
        const FluidPairSums sums = fluid_pair_sums(i, a, neighbours, fi, contact);
        drho = sums.drho;
        acc = fluid_acceleration(a, fi, sums, contact, contact_change);
    }
    // A contact is no force: the stable dt comes from the forces alone.
    a.dt_max[i] = particle_dt_max(fluid_i, acc, drho, rho_i, vel_i, p);
    if (contact_change.x != 0.0f || contact_change.y != 0.0f || contact_change.z != 0.0f) {
        const StepDt step = euler_dt(a.step);
        if (step.usable) acc += (1.0f / step.dt) * contact_change;
    }
    a.force[i] = make_vec4(acc.x, acc.y, acc.z, drho);
}

}  // namespace sph
