// The run's lattice filled from shapes: walls from any solid, water in any shape or below a level.
//
// Every particle sits on the one lattice the problems share, points at (i + 1/2) dp
// (problems/lattice.h), so water and walls are a spacing apart everywhere. A wall particle's mDBC
// ghost node is its mirror image across the surface the lattice makes of the solid: along each
// column of points in the direction the surface faces most, the surface lies halfway between the
// last point inside and the first outside. For a face on a lattice plane that is the face itself;
// for a box it is the box taken to the lattice, exactly as problems/lattice.h mirrors boxes; for a
// tilted or curved face it keeps the first layer's ghost node a column's half spacing beyond the
// surface, where the water's first layer rests, instead of anywhere from on the particle (no node
// at all) to a spacing away (session 44's finding for boxes off the lattice).
#pragma once

#include <functional>
#include <vector>

#include "geometry/shape.h"

namespace sph {

// A lattice point a fill chose.
struct LatticeSite {
    Vec3d at{};
    Vec3d to_ghost{0, 0, 0};  // a wall particle's offset to its mDBC ghost node (zero for water)
    double depth = 0.0;       // water: below its free surface [m]
};
using VisitSite = std::function<void(const LatticeSite&)>;

struct WallFill {
    int layers = 3;  // the wall's depth in spacings that gets ghost nodes (and, hollow, particles)
    bool hollow = true;  // only the layers near the surface; false: every point inside
    // Whether the water can reach a surface point (the point just outside it): surfaces it cannot
    // (a solid's foot on a floor) get no ghost nodes across them. Null: every surface is wet.
    std::function<bool(const Vec3d&)> wet;
};

// Wall particles of `solid`: its lattice points inside, each within `layers` spacings of the
// surface with its ghost node, as many layers as fill.layers (hollow) or all of them.
void fill_solid_walls(const Shape& solid, double dp, const WallFill& fill, const VisitSite& visit);

// A wall particle at `at` inside a solid, its nearest surface s (s.inside): its offset to its
// ghost node, mirrored across each wet face equally near on the lattice's surface; zero beyond
// `layers` spacings.
Vec3d ghost_offset_inside(const Vec3d& at, const SurfacePoint& s, double dp, int layers,
                          const std::function<bool(const Vec3d&)>& wet);

// The depth of a wall particle `depth` below a face whose outward normal is n, measured to the
// surface the lattice makes there (see the file's comment): (floor(depth / s) + 1/2) s, s the
// spacing of the lattice's columns along n's largest component, projected on n.
double lattice_depth(double depth, const Vec3d& n, double dp);

// Water: the lattice points inside `region` below `level` (an elevation; +inf for none) and
// inside none of `solids`, each `surface - z` deep (the free surface of its own body of water).
void fill_water(const Shape& region, double level, double surface,
                const std::vector<const Shape*>& solids, double dp, const VisitSite& visit);

}  // namespace sph
