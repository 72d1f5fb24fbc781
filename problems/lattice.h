// Helpers that lay particles on the cubic lattice every problem shares.
//
// Fluid and walls use one lattice, points at (i + 1/2) dp from the origin, so the spacing between
// fluid and wall particles is exactly dp everywhere, whatever the geometry's dimensions.
#pragma once

#include <algorithm>
#include <cmath>

#include "problem.h"

namespace sph {

// The index of the first lattice point at or above v, as a double (v may be unbounded, 1e300);
// i dp is the plane half a spacing below point i, where the lattice's particles make a face
// between planes of points.
inline double lattice_index(double v, double dp) {
    return std::ceil(v / dp - 0.5);
}

// Calls visit(x, y, z) for each lattice point inside `region` (half-open box).
template <class Visit>
void for_each_lattice_point(const Box& region, double dp, Visit visit) {
    long first[3], last[3];
    for (int a = 0; a < 3; ++a) {
        first[a] = static_cast<long>(lattice_index(region.lo[a], dp));
        last[a] = static_cast<long>(lattice_index(region.hi[a], dp));  // exclusive
    }
    for (long k = first[2]; k < last[2]; ++k) {
        for (long j = first[1]; j < last[1]; ++j) {
            for (long i = first[0]; i < last[0]; ++i) {
                const double x = (i + 0.5) * dp, y = (j + 0.5) * dp, z = (k + 0.5) * dp;
                if (region.contains(x, y, z)) visit(x, y, z);
            }
        }
    }
}

// Calls visit(x, y, z) for each lattice point inside `region` and outside `hole`, in
// for_each_lattice_point's order. A row that crosses the hole jumps over the points well inside
// it (those within a point of its faces are asked as any other): a tank's walls are a thin shell
// around a large inside, and asking every point of the inside took most of a large set-up.
template <class Visit>
void for_each_lattice_point_around(const Box& region, const Box& hole, double dp, Visit visit) {
    long first[3], last[3];
    for (int a = 0; a < 3; ++a) {
        first[a] = static_cast<long>(lattice_index(region.lo[a], dp));
        last[a] = static_cast<long>(lattice_index(region.hi[a], dp));  // exclusive
    }
    // Points strictly between these along x lie inside the hole wherever y and z do.
    const long skip_from = static_cast<long>(lattice_index(hole.lo[0], dp)) + 1;
    const long skip_to = static_cast<long>(lattice_index(hole.hi[0], dp)) - 2;
    for (long k = first[2]; k < last[2]; ++k) {
        for (long j = first[1]; j < last[1]; ++j) {
            const double y = (j + 0.5) * dp, z = (k + 0.5) * dp;
            const bool crosses = y >= hole.lo[1] && y < hole.hi[1] && z >= hole.lo[2] &&
                                 z < hole.hi[2] && skip_from <= skip_to;
            for (long i = first[0]; i < last[0]; ++i) {
                if (crosses && i == skip_from) i = skip_to + 1;
                const double x = (i + 0.5) * dp;
                if (region.contains(x, y, z) && !hole.contains(x, y, z)) visit(x, y, z);
            }
        }
    }
}

// The box holding the same lattice points as [lo, hi), with faces on multiples of dp: half a
// spacing from every point, so that rounding cannot move a point in or out. Its faces are the
// surface the lattice's particles make of a box whose own faces lie between lattice planes.
inline Box snapped_to_lattice(const Box& box, double dp) {
    Box snapped{};
    for (int a = 0; a < 3; ++a) {
        snapped.lo[a] = lattice_index(box.lo[a], dp) * dp;  // the first point inside
        snapped.hi[a] = lattice_index(box.hi[a], dp) * dp;  // one past the last
    }
    return snapped;
}

// mDBC ghost nodes (kernels/mdbc_body.h): each wall particle's mirror image across the wall
// surface, which on this lattice lies dp/2 beyond the outermost wall layer. The boxes given
// below are taken to the lattice first (snapped_to_lattice): where a geometry's face lies between
// lattice planes (SPHERIC's obstacle at any dp), the water still rests a spacing from the wall's
// first layer, not from the face, and mirroring across the face itself would put that layer's
// ghost nodes anywhere from on the particle (no node at all) to 2 dp away, and an edge's
// diagonally only where the two faces happen to be equally near.

// A wall particle outside `fluid_side` (the box the fluid is in): the mirror image through the
// nearest point of the box. Beside a face that point is straight across; beyond an edge or a corner
// it is the edge or the corner, so the ghost node lies diagonally inside, as English et al. place
// ghost nodes in concave corners.
inline void ghost_outside(const Box& fluid_side, double dp, SetupParticle& p) {
    const Box surface = snapped_to_lattice(fluid_side, dp);
    const double at[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; ++a) {
        const double nearest = std::min(std::max(at[a], surface.lo[a]), surface.hi[a]);
        p.to_ghost[a] = 2.0 * (nearest - at[a]);
    }
}

// A wall particle whose walls' top, at `top` (taken to the lattice), is as near as the inside
// that ghost_outside mirrored it into, or nearer: mirrored across the top instead, or, equally
// near (the rim's inner edge), through the edge. Without this the top is no surface: its
// particles' ghost nodes face into the tank, and water landing on the walls sinks into them.
inline void ghost_below_top(double top, double dp, SetupParticle& p) {
    const double below = lattice_index(top, dp) * dp - p.z;
    const double beside =
        0.5 * std::sqrt(p.to_ghost[0] * p.to_ghost[0] + p.to_ghost[1] * p.to_ghost[1] +
                        p.to_ghost[2] * p.to_ghost[2]);
    if (below > beside * (1.0 + 1e-9)) return;
    if (below < beside * (1.0 - 1e-9)) p.to_ghost[0] = p.to_ghost[1] = p.to_ghost[2] = 0.0;
    p.to_ghost[2] += 2.0 * below;
}

// The faces of a solid box, in the order -x, +x, -y, +y, -z, +z.
struct Faces {
    bool face[6];
};

// The faces of `solid` that lie inside `tank` rather than on its walls or floor: those the fluid
// can reach.
inline Faces faces_inside(const Box& solid, const Box& tank) {
    Faces wet{};
    for (int a = 0; a < 3; ++a) {
        wet.face[2 * a] = solid.lo[a] > tank.lo[a];
        wet.face[2 * a + 1] = solid.hi[a] < tank.hi[a];
    }
    return wet;
}

// A wall particle inside a solid box whose `wet` faces meet the fluid: the mirror image across the
// nearest wet face; where two or three are equally near (on an edge's or a corner's diagonal),
// across each of them, so that the ghost node lies diagonally outside. Particles deeper than
// `layers` spacings (past the wall layers the kernel reaches) get none: mDBC leaves them alone.
inline void ghost_inside(const Box& solid, const Faces& wet, double dp, int layers,
                         SetupParticle& p) {
    const Box surface = snapped_to_lattice(solid, dp);
    const double deepest = layers * dp;
    const double at[3] = {p.x, p.y, p.z};
    double distance[6];
    double nearest = 1e300;
    for (int f = 0; f < 6; ++f) {
        const int a = f / 2;
        distance[f] = f % 2 == 0 ? at[a] - surface.lo[a] : surface.hi[a] - at[a];
        if (wet.face[f]) nearest = std::min(nearest, distance[f]);
    }
    if (nearest > deepest) return;
    for (int f = 0; f < 6; ++f) {
        if (!wet.face[f] || distance[f] > nearest * (1.0 + 1e-9)) continue;
        p.to_ghost[f / 2] += (f % 2 == 0 ? -2.0 : 2.0) * distance[f];
    }
}

// Floor and four walls, `layers` particles thick, around `interior` (open at the top), up to
// `wall_top`. depth_of(x, y, z) gives each wall particle's hydrostatic depth.
template <class Depth>
void add_open_tank(const Box& interior, double wall_top, double dp, int layers, Depth depth_of,
                   const EmitParticle& emit) {
    const double t = layers * dp;
    const Box outer{{interior.lo[0] - t, interior.lo[1] - t, interior.lo[2] - t},
                    {interior.hi[0] + t, interior.hi[1] + t, wall_top}};
    const Box open{{interior.lo[0], interior.lo[1], interior.lo[2]},
                   {interior.hi[0], interior.hi[1], wall_top}};
    // The fluid's side of the walls: the inside, unbounded above, and everything above the walls'
    // top, where water thrown over them lands.
    const Box fluid_side{{interior.lo[0], interior.lo[1], interior.lo[2]},
                         {interior.hi[0], interior.hi[1], 1e300}};
    for_each_lattice_point_around(outer, open, dp, [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, depth_of(x, y, z)};
        ghost_outside(fluid_side, dp, p);
        ghost_below_top(wall_top, dp, p);
        emit(p);
    });
}

// `emit`, with the wall particles for which free_slip(p) holds made free-slip walls
// (kFreeSlipBoundary: no artificial viscosity towards the fluid). `emit` must outlive it.
template <class Where>
EmitParticle free_slip_where(const EmitParticle& emit, Where free_slip) {
    return [&emit, free_slip](SetupParticle p) {
        if (p.type == kBoundary && free_slip(p)) p.type = kFreeSlipBoundary;
        emit(p);
    };
}

// The boundary layers a dynamic-boundary wall needs: the kernel reaches 2h = 2.6 dp.
constexpr int kWallLayers = 3;

// Where the water of an open tank around `interior` may be (Problem::fluid_reach): in it and
// above it, and up to kWallLayers - 1 spacings into its walls and floor, beyond their surface on
// the lattice. A particle an impact pressed that far in is still water the walls push back; one
// beyond, in their outermost layer or past it, has gone over or through them. There the model
// has no surface: the walls' outsides are no wall to it, and such a particle, alone, slides along
// them at up to 20 m/s, setting the run's dt (bench/NOTES.md entry 37).
inline Box open_tank_fluid_reach(const Box& interior, double dp) {
    const Box surface = snapped_to_lattice(interior, dp);
    const double into = (kWallLayers - 1) * dp;
    return Box{{surface.lo[0] - into, surface.lo[1] - into, surface.lo[2] - into},
               {surface.hi[0] + into, surface.hi[1] + into, 1e300}};
}

}  // namespace sph
