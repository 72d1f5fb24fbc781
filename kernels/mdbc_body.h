// Per-particle body of the mDBC boundary density: the modified dynamic boundary condition of
// English et al. (2022, "Modified dynamic boundary conditions (mDBC) for general-purpose smoothed
// particle hydrodynamics", Computational Particle Mechanics 9), as DualSPHysics 5 applies it.
//
// Each boundary particle b has a ghost node g = x_b + to_ghost_b, its mirror image across the
// wall surface (set-up computes to_ghost from the geometry). The density around g is fitted to
// first order from the fluid particles j within 2h of it. With V_j = m / rho_j, r_j = x_g - x_j and
// the kernel gradient with respect to g, grad W_j = f(|r_j|) r_j:
//
//   sum_j m W_j       = rho_g sum_j V_j W_j       - (sum_j V_j W_j r_j) . grad_rho
//   sum_j m grad W_j  = rho_g sum_j V_j grad W_j  - (sum_j V_j grad W_j r_j^T) grad_rho
//
// a 4x4 system A [rho_g, grad_rho] = b, exact for a linear density field; b's density is then
// rho_g + grad_rho . (x_b - x_g). A is dimensionless up to row and column scalings that cancel in
// its determinant (about 1 under a full kernel, 1/2 at a flat wall); where |det A| < 1e-3 the
// fluid around g is too thin to fit a gradient and the Shepard average sum m W / sum V W is used,
// and with no fluid within 2h of g, rho0. The result is kept at rho0 or above, as DBC's walls are
// (euler_body.h): a wall never pulls the fluid in.
//
// The fluid is found through the cell grid (cells are at least 2h wide): the 27 cells around g in
// index order, each cell's particles in sorted order, so that the sums run in the same order on
// every device split and results stay bitwise identical (given the device holds those cells).
//
// A listed wall particle walks its list instead, which holds the fluid around its ghost node in
// the cell walk's order (ghost_list.h), or nothing where no fluid lies within the list radius of
// the wall itself (2h and a skin, covering where the fluid may come before the next rebuild):
// such a wall touches no fluid; it is dry and takes rho0. A device lists its own walls and the
// near externals' (LocalRanges), the only ones whose densities its Forces read. A moving body's
// walls always walk the cells (see mdbc_density). Under
// --neighbours cells nothing is listed, and every wall walks the cells in full; where one
// differs from a listed run's dry rho0, no fluid is near enough to read it.
#pragma once

#include <cmath>
#include <cstdint>

#include "cell_walk.h"
#include "ghost_list.h"
#include "kernel_args.h"
#include "list_walk.h"
#include "particle_type.h"
#include "wendland.h"

namespace sph {

// |det A| below which the first-order fit is abandoned for the Shepard average.
constexpr double kMdbcDeterminantLimit = 1e-3;

// What the fluid around a ghost node adds up to (see above); a[r][c] is A, b the right-hand side.
// The fit is of rho - rho0 (b sums V_j (rho_j - rho0) instead of m), which keeps the float sums
// ten times further from rounding at water densities.
struct GhostSums {
    float a[4][4];
    float b[4];
};

// Solves A x = b (4x4) by Gaussian elimination with partial pivoting, in double; returns det A.
// Every loop unrolls and every index is a constant, the pivot row's swap included (a predicated
// exchange with each row below): the GPU keeps the system in registers, where indexing by the
// pivot put it in local memory.
SPH_HD double solve_4x4(double a[4][4], double b[4], double x[4]) {
    double det = 1.0;
    SPH_UNROLL
    for (int col = 0; col < 4; ++col) {
        int pivot = col;
        double largest = fabs(a[col][col]);
        SPH_UNROLL
        for (int r = col + 1; r < 4; ++r) {
            if (fabs(a[r][col]) > largest) {
                largest = fabs(a[r][col]);
                pivot = r;
            }
        }
        if (largest == 0.0) return 0.0;
        SPH_UNROLL
        for (int r = col + 1; r < 4; ++r) {
            if (r != pivot) continue;
            SPH_UNROLL
            for (int c = 0; c < 4; ++c) {
                const double t = a[col][c];
                a[col][c] = a[r][c];
                a[r][c] = t;
            }
            const double t = b[col];
            b[col] = b[r];
            b[r] = t;
            det = -det;
        }
        det *= a[col][col];
        SPH_UNROLL
        for (int r = col + 1; r < 4; ++r) {
            const double factor = a[r][col] / a[col][col];
            SPH_UNROLL
            for (int c = col; c < 4; ++c) a[r][c] -= factor * a[col][c];
            b[r] -= factor * b[col];
        }
    }
    SPH_UNROLL
    for (int r = 3; r >= 0; --r) {
        double s = b[r];
        SPH_UNROLL
        for (int c = r + 1; c < 4; ++c) s -= a[r][c] * x[c];
        x[r] = s / a[r][r];
    }
    return det;
}

// Adds fluid particle j (at r = g - x_j from it, density rho_j) to the sums around ghost node g.
SPH_HD void add_to_ghost_sums(GhostSums& s, Vec3 r, float rho_j, const SphParams& p) {
    const float r2 = length_squared(r);
    if (r2 >= p.kernel_radius_sq) return;
    const float dist = sqrtf(r2);
    const float w = wendland_w(dist, p);
    const Vec3 grad = wendland_f(dist, p) * r;
    const float volume = p.mass / rho_j;
    const float excess = volume * (rho_j - p.rho0);  // m - rho0 V: the fit is of rho - rho0
    const float rv[3] = {r.x, r.y, r.z};
    const float gv[3] = {grad.x, grad.y, grad.z};
    s.a[0][0] += volume * w;
    s.b[0] += excess * w;
    for (int k = 0; k < 3; ++k) {
        s.a[0][k + 1] -= volume * w * rv[k];
        s.a[k + 1][0] += volume * gv[k];
        s.b[k + 1] += excess * gv[k];
        for (int c = 0; c < 3; ++c) s.a[k + 1][c + 1] -= volume * gv[k] * rv[c];
    }
}

// The boundary particle's density from the sums around its ghost node (see above).
SPH_HD float density_from_ghost_sums(const GhostSums& s, Vec3 to_ghost, const SphParams& p) {
    if (!(s.a[0][0] > 0.0f)) return p.rho0;  // no fluid within 2h of the ghost node
    double a[4][4], b[4], x[4] = {0.0, 0.0, 0.0, 0.0};
    for (int r = 0; r < 4; ++r) {
        b[r] = s.b[r];
        for (int c = 0; c < 4; ++c) a[r][c] = s.a[r][c];
    }
    const double det = solve_4x4(a, b, x);
    float rho;
    if (fabs(det) >= kMdbcDeterminantLimit) {
        rho = p.rho0 + float(x[0] - (x[1] * to_ghost.x + x[2] * to_ghost.y + x[3] * to_ghost.z));
    } else {
        rho = p.rho0 + s.b[0] / s.a[0][0];
    }
    return fmaxf(rho, p.rho0);
}

// Whether listed particle i has a fluid particle in its neighbour list.
SPH_HD bool lists_fluid(std::uint32_t i, const MdbcArgs& a, const std::int32_t* cell_step) {
    bool found = false;
    for_each_listed_neighbour(i, a, cell_step, [&](std::uint32_t j) {
        found = a.type[j] == kFluid;
        return found;
    });
    return found;
}

// Whether particle i has a density to fit: a wall particle with a ghost node. Fluid has none,
// nor have wall particles deeper than the fluid can reach (set-up gives them no ghost node).
SPH_HD bool has_ghost_node(std::uint32_t i, const MdbcArgs& a) {
    if (a.type[i] == kFluid) return false;
    const Vec3 offset = a.to_ghost[i];
    return offset.x != 0.0f || offset.y != 0.0f || offset.z != 0.0f;
}

// Sets boundary particle i's density from the fluid around its ghost node; leaves particles
// without a ghost node alone. cell_step: neighbour_cell_steps(a.grid).by_code, wherever the
// launcher keeps it.
SPH_HD void mdbc_density(std::uint32_t i, const MdbcArgs& a, const std::int32_t* cell_step) {
    if (!has_ghost_node(i, a)) return;
    const Vec3 offset = a.to_ghost[i];
    // A moving body's list was built around where its ghost node was at the rebuild, and its
    // rows are found from the node's cell now: once the body has carried the node into another
    // cell they would name other particles. Its walls walk the cells instead (few, against the
    // fluid's and the still walls').
    const bool listed =
        a.list != nullptr && i >= a.listed_begin && i < a.listed_end && !is_body(a.type[i]);
    const PositionFrame& frame = a.grid.frame;
    const FixedPos g = frame.moved(a.pos[i], offset);
    GhostSums sums{};
    const std::uint32_t node_cell = a.grid.cell_of(g);   // outside the grid: the outside cell
    if (listed && node_cell != a.grid.outside_cell()) {  // the fluid around g, listed
        const RowStartsFromCells rows{a.cell_start, cell_step, node_cell,
                                      first_along_fastest(node_cell, a.grid)};
        walk_listed_neighbours(i, a, rows, [&](std::uint32_t j) {
            add_to_ghost_sums(sums, frame.between(g, a.pos[j]), a.velrho[j].w, a.params);
            return false;
        });
    } else {
        // A node outside the grid: the wall's own list says whether it is dry.
        if (listed && !lists_fluid(i, a, cell_step)) {
            a.velrho[i].w = a.params.rho0;
            return;
        }
        for_each_particle_near(g, a.grid, a.cell_start, a.cell_end, [&](std::uint32_t j) {
            if (a.type[j] == kFluid) {
                add_to_ghost_sums(sums, frame.between(g, a.pos[j]), a.velrho[j].w, a.params);
            }
            return false;
        });
    }
    a.velrho[i].w = density_from_ghost_sums(sums, offset, a.params);
}

}  // namespace sph
