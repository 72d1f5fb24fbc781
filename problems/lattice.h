// Helpers that lay particles on the cubic lattice every problem shares.
//
// Fluid and walls use one lattice, points at (i + 1/2) dp from the origin, so the spacing between
// fluid and wall particles is exactly dp everywhere, whatever the geometry's dimensions.
#pragma once

#include <cmath>

#include "problem.h"

namespace sph {

// Calls visit(x, y, z) for each lattice point inside `region` (half-open box).
template <class Visit>
void for_each_lattice_point(const Box& region, double dp, Visit visit) {
    long first[3], last[3];
    for (int a = 0; a < 3; ++a) {
        first[a] = static_cast<long>(std::ceil(region.lo[a] / dp - 0.5));
        last[a] = static_cast<long>(std::ceil(region.hi[a] / dp - 0.5));  // exclusive
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
    for_each_lattice_point(outer, dp, [&](double x, double y, double z) {
        if (!open.contains(x, y, z)) emit({x, y, z, kBoundary, depth_of(x, y, z)});
    });
}

// The boundary layers a dynamic-boundary wall needs: the kernel reaches 2h = 2.6 dp.
constexpr int kWallLayers = 3;

}  // namespace sph
