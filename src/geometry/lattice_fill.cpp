#include "geometry/lattice_fill.h"

#include <algorithm>
#include <cmath>

namespace sph {

namespace {

// The index of the first lattice point at or above v (problems/lattice.h, lattice_index).
long first_point(double v, double dp) {
    return static_cast<long>(std::ceil(v / dp - 0.5));
}

// Each row of lattice points along x inside `region` (fill_row(start, first x index, count, row)),
// the rows of a z plane computed side by side (OpenMP) and visited in the problems' order (z
// planes, then y rows, then x), so that the particles come out the same, in the same order, on any
// number of threads.
template <class FillRow>
void for_each_row(const Box& region, double dp, FillRow fill_row, const VisitSite& visit) {
    long first[3], last[3];
    for (int a = 0; a < 3; ++a) {
        first[a] = first_point(region.lo[a], dp);
        last[a] = first_point(region.hi[a], dp);
    }
    const long rows = std::max(0L, last[1] - first[1]);
    const long count = last[0] - first[0];
    if (count <= 0) return;
    std::vector<std::vector<LatticeSite>> plane(static_cast<std::size_t>(rows));
    for (long k = first[2]; k < last[2]; ++k) {
#pragma omp parallel for schedule(dynamic, 4)
        for (long r = 0; r < rows; ++r) {
            const Vec3d start{(first[0] + 0.5) * dp, (first[1] + r + 0.5) * dp, (k + 0.5) * dp};
            std::vector<LatticeSite>& row = plane[static_cast<std::size_t>(r)];
            row.clear();
            fill_row(start, first[0], count, row);
        }
        for (const std::vector<LatticeSite>& row : plane) {
            for (const LatticeSite& site : row) visit(site);
        }
    }
}

}  // namespace

double lattice_depth(double depth, const Vec3d& n, double dp) {
    const double largest = std::max({std::fabs(n[0]), std::fabs(n[1]), std::fabs(n[2])});
    const double spacing = dp * largest;
    return (std::floor(depth / spacing + 1e-9) + 0.5) * spacing;
}

Vec3d ghost_offset_inside(const Vec3d& at, const SurfacePoint& s, double dp, int layers,
                          const std::function<bool(const Vec3d&)>& wet) {
    Vec3d offset{0, 0, 0};
    // A face, or several (an edge's or a corner's diagonal): mirrored across each wet one whose
    // plane at the lattice's surface is nearest, as problems/lattice.h mirrors a box's. An edge or
    // a vertex alone (a mesh's concave feature seen from inside): across the surface itself
    // along the pseudo-normal.
    const bool planes = s.on_face || s.faces > 1;
    double depth[SurfacePoint::kMaxFaces];
    double nearest = 1e300;
    for (int f = 0; f < s.faces; ++f) {
        const Vec3d& n = s.normals[f];
        depth[f] = -1.0;  // not wet
        if (wet) {
            // Half a spacing beyond the face, where the water would be.
            const double out = s.face_distance[f] + 0.5 * dp;
            const Vec3d beyond{at[0] + out * n[0], at[1] + out * n[1], at[2] + out * n[2]};
            if (!wet(beyond)) continue;
        }
        depth[f] = planes ? lattice_depth(s.face_distance[f], n, dp) : s.distance;
        nearest = std::min(nearest, depth[f]);
    }
    if (nearest > layers * dp) return offset;
    for (int f = 0; f < s.faces; ++f) {
        if (depth[f] < 0.0 || depth[f] > nearest * (1.0 + 1e-9)) continue;
        for (int a = 0; a < 3; ++a) offset[a] += 2.0 * depth[f] * s.normals[f][a];
    }
    return offset;
}

void fill_solid_walls(const Shape& solid, double dp, const WallFill& fill, const VisitSite& visit) {
    // A point deeper than this has no ghost node and, hollow, no particle; the column snapping of
    // lattice_depth can put a point up to one spacing deeper than its distance, so ask that far.
    const double reach = (fill.layers + 1) * dp;
    for_each_row(
        solid.bounds(), dp,
        [&](const Vec3d& start, long first, long count, std::vector<LatticeSite>& row) {
            std::vector<char> in;
            solid.inside_along(start, 0, dp, count, in);
            for (long i = 0; i < count; ++i) {
                if (!in[static_cast<std::size_t>(i)]) continue;
                LatticeSite site;
                site.at = start;
                site.at[0] = (first + i + 0.5) * dp;  // as problems/lattice.h places it
                const SurfacePoint s = solid.nearest(site.at, reach);
                if (s.distance <= reach && s.faces > 0) {
                    site.to_ghost = ghost_offset_inside(site.at, s, dp, fill.layers, fill.wet);
                }
                const bool has_ghost = site.to_ghost != Vec3d{0, 0, 0};
                if (fill.hollow && !has_ghost && !(s.distance <= fill.layers * dp)) continue;
                row.push_back(site);
            }
        },
        visit);
}

void fill_water(const Shape& region, double level, double surface,
                const std::vector<const Shape*>& solids, double dp, const VisitSite& visit) {
    Box box = region.bounds();
    box.hi[2] = std::min(box.hi[2], level);
    for_each_row(
        box, dp,
        [&](const Vec3d& start, long first, long count, std::vector<LatticeSite>& row) {
            std::vector<char> in, blocked;
            region.inside_along(start, 0, dp, count, in);
            for (const Shape* solid : solids) {
                solid->inside_along(start, 0, dp, count, blocked);
                for (long i = 0; i < count; ++i) in[i] = in[i] && !blocked[i];
            }
            for (long i = 0; i < count; ++i) {
                if (!in[static_cast<std::size_t>(i)]) continue;
                LatticeSite site;
                site.at = start;
                site.at[0] = (first + i + 0.5) * dp;  // as problems/lattice.h places it
                site.depth = surface - site.at[2];
                row.push_back(site);
            }
        },
        visit);
}

}  // namespace sph
