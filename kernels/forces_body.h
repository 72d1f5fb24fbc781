// Per-particle body of Forces: acceleration, density rate and the particle's largest stable dt.
//
// Weakly-compressible SPH with the Tait EOS, Monaghan artificial viscosity and Molteni-Colagrossi
// density diffusion between fluid particles. The diffusion acts on the dynamic part of the density
// difference only (the hydrostatic part, rho0 g.(x_j - x_i) / c0^2 to first order, is removed, as
// Fourtakas et al. 2019 do): diffusing the whole difference wears the hydrostatic gradient away
// wherever walls truncate the fluid's kernel, and still water then slowly starts to move.
// Boundary particles get only a density rate under DBC, and nothing under mDBC: they never move.
// Free-slip boundary particles (kFreeSlipBoundary) push with their pressure but exert no artificial
// viscosity. Neighbours are summed in list order, which is the same on every device split: results
// are bitwise reproducible.
#pragma once

#include <cmath>
#include <cstdint>

#include "kernel_args.h"
#include "particle_type.h"
#include "tait.h"
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

SPH_HD void compute_forces(std::uint32_t i, const ForcesArgs& a) {
    const SphParams& p = a.params;
    const Vec3 pos_i = xyz(a.pos[i]);
    const Vec4 vr_i = a.velrho[i];
    const Vec3 vel_i = xyz(vr_i);
    const float rho_i = vr_i.w;
    const float pressure_i = tait_pressure(rho_i, p);
    const bool fluid_i = a.type[i] == kFluid;
    if (!fluid_i && p.boundary == BoundaryModel::kMdbc) {
        // An mDBC wall's density comes from mdbc_density, not continuity, and a wall never
        // moves: nothing to compute (a density that blew up still stops the run).
        a.force[i] = make_vec4(0.0f, 0.0f, 0.0f, 0.0f);
        a.dt_max[i] = is_finite(rho_i) ? INFINITY : NAN;
        return;
    }
    const std::uint32_t cell_i = a.cell[i];
    const float diffusion = p.diffusion_delta * p.h * p.c0 * 2.0f * p.mass;
    const float hydrostatic_slope = p.rho0 / (p.c0 * p.c0);  // d rho / d (g.x) at rest

    Vec3 acc = make_vec3(0.0f, 0.0f, 0.0f);
    float drho = 0.0f;
    int cached_code = -1;
    std::uint32_t cell_start = 0;
    const NeighbourEntry* entry = a.list + i;  // a pointer walk: k * stride overflows 32 bits
    for (std::uint32_t k = 0; k < a.max_neighbours; ++k, entry += a.stride) {
        const NeighbourEntry e = *entry;
        if (e == kListEnd) break;
        const int code = neighbour_code(e);
        if (code != cached_code) {  // entries are grouped by cell: one start load per cell
            cached_code = code;
            cell_start = a.cell_start[cell_i + neighbour_cell_delta(a.grid, code)];
        }
        const std::uint32_t j = cell_start + neighbour_offset(e);
        const Vec3 r = pos_i - xyz(a.pos[j]);
        const float r2 = length_squared(r);
        if (r2 >= p.kernel_radius_sq) continue;
        const float f = wendland_f(sqrtf(r2), p);
        const Vec4 vr_j = a.velrho[j];
        const Vec3 v = vel_i - xyz(vr_j);
        const float v_dot_r = dot(v, r);
        drho += p.mass * v_dot_r * f;
        if (!fluid_i) continue;
        const float rho_j = vr_j.w;
        if (a.type[j] == kFluid) {
            const float dynamic = (rho_j - rho_i) + hydrostatic_slope * dot(p.gravity, r);
            drho += diffusion * dynamic / rho_j * (-f) * r2 / (r2 + p.eta_sq);
        }
        float coef = (pressure_i + tait_pressure(rho_j, p)) / (rho_i * rho_j);
        if (v_dot_r < 0.0f && a.type[j] != kFreeSlipBoundary) {
            const float mu = p.h * v_dot_r / (r2 + p.eta_sq);
            coef -= p.viscosity_alpha * p.c0 * mu / (0.5f * (rho_i + rho_j));
        }
        acc += (-p.mass * coef * f) * r;
    }
    if (fluid_i) acc += p.gravity;
    a.force[i] = make_vec4(acc.x, acc.y, acc.z, drho);
    a.dt_max[i] = particle_dt_max(fluid_i, acc, drho, rho_i, vel_i, p);
}

}  // namespace sph
