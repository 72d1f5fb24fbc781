#include "geometry/terrain.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/errors.h"

namespace sph {

namespace {

constexpr double kDegToRad = 3.14159265358979323846 / 180.0;

Vec3d minus(const Vec3d& a, const Vec3d& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec3d& a, const Vec3d& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3d cross(const Vec3d& a, const Vec3d& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3d along(const Vec3d& a, const Vec3d& d, double t) {
    return {a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2]};
}

// The point of triangle abc nearest to p (Ericson, Real-Time Collision Detection, 5.1.5), and
// whether it lies inside the triangle rather than on an edge or vertex.
struct TrianglePoint {
    Vec3d point;
    bool interior;
};

TrianglePoint nearest_on_triangle(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
    const Vec3d ab = minus(b, a), ac = minus(c, a), ap = minus(p, a);
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return {a, false};
    const Vec3d bp = minus(p, b);
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return {b, false};
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return {along(a, ab, d1 / (d1 - d3)), false};
    const Vec3d cp = minus(p, c);
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return {c, false};
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return {along(a, ac, d2 / (d2 - d6)), false};
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        return {along(b, minus(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))), false};
    }
    const double denominator = 1.0 / (va + vb + vc);
    const double v = vb * denominator, w = vc * denominator;
    return {along(along(a, ab, v), ac, w), true};
}

[[noreturn]] void refuse(const ElevationGrid& grid, const std::string& problem) {
    throw OptionError("terrain " + grid.source + ": " + problem);
}

void check_grid(const ElevationGrid& grid) {
    if (grid.columns < 2 || grid.rows < 2) refuse(grid, "a terrain needs at least 2 x 2 samples");
    if (!(grid.dx > 0 && grid.dy > 0 && std::isfinite(grid.dx) && std::isfinite(grid.dy))) {
        refuse(grid, "sample spacings must be positive and finite");
    }
    if (!std::isfinite(grid.x0) || !std::isfinite(grid.y0)) {
        refuse(grid, "the position of the first sample is not finite");
    }
    if (grid.elevations.size() != static_cast<std::size_t>(grid.columns) * grid.rows) {
        refuse(grid, "the elevations do not fill its columns x rows");
    }
    for (double z : grid.elevations) {
        if (!std::isfinite(z)) refuse(grid, "an elevation is not finite");
    }
}

void check_transform(const ElevationGrid& grid, const Transform& transform) {
    static const char* const kAxes[] = {"x", "y"};
    for (int axis = 0; axis < 2; ++axis) {
        if (transform.rotate_deg[axis] == 0.0) continue;
        refuse(grid, "a rotation about " + std::string(kAxes[axis]) + " (" +
                         std::to_string(transform.rotate_deg[axis]) +
                         " degrees) is refused: a terrain turns about z only, so that its "
                         "surface stays a heightfield");
    }
    if (!(transform.scale > 0 && std::isfinite(transform.scale))) {
        refuse(grid, "the scale must be positive and finite");
    }
    for (double term : {transform.rotate_deg[2], transform.translate[0], transform.translate[1],
                        transform.translate[2]}) {
        if (!std::isfinite(term)) refuse(grid, "the transform holds a non-finite number");
    }
}

}  // namespace

namespace {

// The steepest slope any of the grid's triangles has: each is a right triangle with one leg
// along each axis, so its gradient's components are the rises along those legs over the
// spacings, at most the largest rise between neighbours along each axis.
double steepest_slope(const ElevationGrid& grid) {
    double rise_x = 0.0, rise_y = 0.0;
    for (int j = 0; j < grid.rows; ++j) {
        for (int i = 0; i < grid.columns; ++i) {
            if (i + 1 < grid.columns) {
                rise_x = std::max(rise_x, std::fabs(grid.at(j, i + 1) - grid.at(j, i)));
            }
            if (j + 1 < grid.rows) {
                rise_y = std::max(rise_y, std::fabs(grid.at(j + 1, i) - grid.at(j, i)));
            }
        }
    }
    return std::hypot(rise_x / grid.dx, rise_y / grid.dy);
}

}  // namespace

TerrainShape::TerrainShape(ElevationGrid grid, const Transform& transform,
                           std::optional<double> base)
    : grid_(std::move(grid)), transform_(transform) {
    check_grid(grid_);
    check_transform(grid_, transform_);
    cos_z_ = std::cos(transform_.rotate_deg[2] * kDegToRad);
    sin_z_ = std::sin(transform_.rotate_deg[2] * kDegToRad);
    // Queries are taken relative to sample (0, 0)'s place in the run's frame, so that large
    // georeferenced coordinates cancel once, here, and not in every query.
    const Vec3d origin = transform_.apply({grid_.x0, grid_.y0, 0.0});
    origin_x_ = origin[0];
    origin_y_ = origin[1];
    const auto [lowest, highest] =
        std::minmax_element(grid_.elevations.begin(), grid_.elevations.end());
    lowest_ = *lowest;
    highest_ = *highest;
    steepest_ = steepest_slope(grid_);
    base_ = base.value_or(to_run_z(lowest_) - 1.0);
    if (!std::isfinite(base_)) refuse(grid_, "the base elevation is not finite");
    if (base_ > to_run_z(lowest_)) {
        refuse(grid_, "the base " + std::to_string(base_) + " lies above the lowest point of " +
                          "the surface, " + std::to_string(to_run_z(lowest_)) +
                          ": the solid would have holes there");
    }
}

TerrainShape::Local TerrainShape::to_grid(double x, double y) const {
    const double rx = x - origin_x_, ry = y - origin_y_;
    // Undo the rotation about z; then in sample spacings.
    return {(cos_z_ * rx + sin_z_ * ry) / (transform_.scale * grid_.dx),
            (-sin_z_ * rx + cos_z_ * ry) / (transform_.scale * grid_.dy)};
}

bool TerrainShape::covers_grid(const Local& g) const {
    return g.u >= 0 && g.v >= 0 && g.u <= grid_.columns - 1 && g.v <= grid_.rows - 1;
}

// Cell (i, j) is split along its diagonal from sample (j, i) to (j + 1, i + 1): below the
// diagonal (fu >= fv) the triangle of samples 00, 10, 11, above it 00, 11, 01 (first index the
// column). Linear on each triangle: a plane's samples give the plane back exactly.
double TerrainShape::grid_elevation(const Local& g) const {
    const int i = std::min(static_cast<int>(std::floor(g.u)), grid_.columns - 2);
    const int j = std::min(static_cast<int>(std::floor(g.v)), grid_.rows - 2);
    const double fu = g.u - i, fv = g.v - j;
    const double z00 = grid_.at(j, i), z10 = grid_.at(j, i + 1);
    const double z01 = grid_.at(j + 1, i), z11 = grid_.at(j + 1, i + 1);
    if (fu >= fv) return z00 + fu * (z10 - z00) + fv * (z11 - z10);
    return z00 + fv * (z01 - z00) + fu * (z11 - z01);
}

double TerrainShape::elevation(double x, double y) const {
    const Local g = to_grid(x, y);
    if (!covers_grid(g)) return std::numeric_limits<double>::quiet_NaN();
    return to_run_z(grid_elevation(g));
}

bool TerrainShape::covers(double x, double y) const {
    return covers_grid(to_grid(x, y));
}

bool TerrainShape::inside(const Vec3d& p) const {
    const Local g = to_grid(p[0], p[1]);
    return covers_grid(g) && p[2] >= base_ && p[2] < to_run_z(grid_elevation(g));
}

void TerrainShape::inside_along(const Vec3d& start, int axis, double step, long count,
                                std::vector<char>& out) const {
    if (axis != 2) {
        Shape::inside_along(start, axis, step, count, out);
        return;
    }
    out.assign(static_cast<std::size_t>(count), 0);
    const Local g = to_grid(start[0], start[1]);
    if (!covers_grid(g)) return;
    // The same comparisons as inside(), with the column's one elevation.
    const double top = to_run_z(grid_elevation(g));
    for (long k = 0; k < count; ++k) {
        const double z = start[2] + k * step;
        out[static_cast<std::size_t>(k)] = z >= base_ && z < top ? 1 : 0;
    }
}

Box TerrainShape::bounds() const {
    Box box{{1e300, 1e300, base_}, {-1e300, -1e300, to_run_z(highest_)}};
    const double width = (grid_.columns - 1) * grid_.dx, height = (grid_.rows - 1) * grid_.dy;
    for (double u : {0.0, width}) {
        for (double v : {0.0, height}) {
            const Vec3d corner = run_frame(u * transform_.scale, v * transform_.scale, 0.0);
            for (int a = 0; a < 2; ++a) {
                box.lo[a] = std::min(box.lo[a], corner[a]);
                box.hi[a] = std::max(box.hi[a], corner[a]);
            }
        }
    }
    // Box is half-open and covers() includes the footprint's far edges.
    for (int a = 0; a < 2; ++a) box.hi[a] = std::nextafter(box.hi[a], 1e300);
    return box;
}

std::string TerrainShape::describe() const {
    return "terrain " + grid_.source;
}

// (a, b) along the grid's rotated axes from sample (0, 0), in the run's units.
Vec3d TerrainShape::run_frame(double a, double b, double z) const {
    return {origin_x_ + cos_z_ * a - sin_z_ * b, origin_y_ + sin_z_ * a + cos_z_ * b, z};
}

// The cells within max_distance of p horizontally are searched directly: the grid is its own
// spatial index, so no mesh or hierarchy (twice the terrain's memory again) need be built.
SurfacePoint TerrainShape::nearest(const Vec3d& p, double max_distance) const {
    const Local g = to_grid(p[0], p[1]);
    const double sx = transform_.scale * grid_.dx, sy = transform_.scale * grid_.dy;
    const Vec3d q{g.u * sx, g.v * sy, p[2]};  // p in the grid's rotated frame
    SurfacePoint s;
    s.distance = std::numeric_limits<double>::infinity();
    // Not a number: nothing is near, and no cell index may come from it.
    if (std::isnan(g.u + g.v + p[2] + max_distance)) return s;
    const auto cell_range = [](double from, double to, int cells) {
        // Clamped before the cast: a far point's cell indices need not fit an int.
        const double lo = std::clamp(std::floor(from), 0.0, static_cast<double>(cells));
        const double hi = std::clamp(std::floor(to), -1.0, static_cast<double>(cells - 1));
        return std::pair<int, int>{static_cast<int>(lo), static_cast<int>(hi)};
    };
    const auto [i_lo, i_hi] =
        cell_range(g.u - max_distance / sx, g.u + max_distance / sx, grid_.columns - 1);
    const auto [j_lo, j_hi] =
        cell_range(g.v - max_distance / sy, g.v + max_distance / sy, grid_.rows - 1);
    // A point further above or below the surface than this is further from all of it than
    // max_distance: the surface nowhere rises faster than its steepest slope. The fill asks
    // about every point of the solid, most of them deep inside; this spares them the search.
    if (covers_grid(g)) {
        const double vertical = std::fabs(p[2] - to_run_z(grid_elevation(g)));
        const double bound = vertical / std::sqrt(1.0 + steepest_ * steepest_);
        if (bound > max_distance) {
            s.distance = bound;
            return s;
        }
    }
    NearestCandidate best{std::numeric_limits<double>::infinity(), {}, false, {}};
    for (int j = j_lo; j <= j_hi; ++j) {
        for (int i = i_lo; i <= i_hi; ++i) nearest_in_cell(q, i, j, best);
    }
    s.distance = best.distance;
    if (!(best.distance <= max_distance)) return s;
    s.inside = inside(p);
    s.point = run_frame(best.point[0], best.point[1], best.point[2]);
    s.on_face = best.on_face;
    s.faces = 1;
    s.face_distance[0] = s.distance;
    Vec3d normal = best.face_normal;
    if (!best.on_face && best.distance > 0) {
        // On an edge or a vertex the direction between p and its nearest point is the normal
        // of the surface's offset through p: outward, away from the solid.
        const double sign = s.inside ? -1.0 : 1.0;
        for (int a = 0; a < 3; ++a) normal[a] = sign * (q[a] - best.point[a]) / best.distance;
    }
    s.normals[0] = {cos_z_ * normal[0] - sin_z_ * normal[1],
                    sin_z_ * normal[0] + cos_z_ * normal[1], normal[2]};
    return s;
}

// The cell's two triangles against the best so far, skipping the cell when even its bounding
// box is farther.
void TerrainShape::nearest_in_cell(const Vec3d& q, int i, int j, NearestCandidate& best) const {
    const double sx = transform_.scale * grid_.dx, sy = transform_.scale * grid_.dy;
    const Vec3d v00{i * sx, j * sy, to_run_z(grid_.at(j, i))};
    const Vec3d v10{(i + 1) * sx, j * sy, to_run_z(grid_.at(j, i + 1))};
    const Vec3d v01{i * sx, (j + 1) * sy, to_run_z(grid_.at(j + 1, i))};
    const Vec3d v11{(i + 1) * sx, (j + 1) * sy, to_run_z(grid_.at(j + 1, i + 1))};
    const auto gap = [](double x, double lo, double hi) {
        return x < lo ? lo - x : (x > hi ? x - hi : 0.0);
    };
    const double z_lo = std::min({v00[2], v10[2], v01[2], v11[2]});
    const double z_hi = std::max({v00[2], v10[2], v01[2], v11[2]});
    const double gx = gap(q[0], v00[0], v11[0]), gy = gap(q[1], v00[1], v11[1]);
    const double gz = gap(q[2], z_lo, z_hi);
    if (std::sqrt(gx * gx + gy * gy + gz * gz) > best.distance) return;
    const Vec3d triangles[2][3] = {{v00, v10, v11}, {v00, v11, v01}};
    for (const auto& t : triangles) {
        const TrianglePoint nearest = nearest_on_triangle(q, t[0], t[1], t[2]);
        const Vec3d d = minus(q, nearest.point);
        const double distance = std::sqrt(dot(d, d));
        if (distance >= best.distance) continue;
        const Vec3d n = cross(minus(t[1], t[0]), minus(t[2], t[0]));  // upward: counter-clockwise
        const double length = std::sqrt(dot(n, n));
        best = {distance,
                nearest.point,
                nearest.interior,
                {n[0] / length, n[1] / length, n[2] / length}};
    }
}

}  // namespace sph
