// A solid the simulator builds walls, water and regions from: a box, a closed triangle mesh or a
// terrain. Every shape answers the same questions (DESIGN.md, "Shapes are one layer"): is a point
// inside, and where is the nearest point of its surface, along which normal. The lattice fill
// (geometry/lattice_fill.h) asks only these, so a mesh works wherever a box does.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "geometry/box.h"

namespace sph {

using Vec3d = std::array<double, 3>;

// The surface nearest to a query point.
struct SurfacePoint {
    double distance = 0.0;  // to the nearest surface point, unsigned [m]
    bool inside = false;    // the query point lies inside the solid
    Vec3d point{};          // the nearest surface point
    // The nearest point lies inside one face (not on an edge or a vertex): the surface there is a
    // plane, normals[0] its outward normal.
    bool on_face = false;
    // The nearest face and, inside a solid, the nearest faces of other directions within
    // max_distance (a box lists all six), at most kMaxFaces, nearest first. The fill mirrors a
    // wall particle's ghost node across each of those the water reaches and equally near on the
    // lattice's surface (geometry/lattice_fill.h), as problems/lattice.h mirrors a box's on an
    // edge's or a corner's diagonal: faces at different distances can be equally near there. A
    // nearer face the water does not reach (a floor under the solid) must not hide them: a corner
    // of three wet faces above a dry one, and the dry ones of a solid on a floor between walls,
    // take six.
    static constexpr int kMaxFaces = 6;
    int faces = 0;
    Vec3d normals[kMaxFaces]{};         // their outward unit normals
    double face_distance[kMaxFaces]{};  // each one's distance (the first is `distance`)
};

class Shape {
public:
    virtual ~Shape() = default;
    // A box holding the whole solid.
    virtual Box bounds() const = 0;
    virtual bool inside(const Vec3d& p) const = 0;
    // The nearest surface point to p, or distance > max_distance (and nothing else set) when the
    // surface is farther than max_distance: the fill asks only near the surface.
    virtual SurfacePoint nearest(const Vec3d& p, double max_distance) const = 0;
    // inside() for `count` points p = start + k step e_axis, k = 0 .. count - 1, into
    // out[0 .. count): one answer per lattice point of a column. A mesh answers a whole column
    // from one ray's crossings; the default asks point by point.
    virtual void inside_along(const Vec3d& start, int axis, double step, long count,
                              std::vector<char>& out) const;
    // What the shape is, for messages: "box [0, 1] x [0, 1] x [0, 1]", "mesh building.stl".
    virtual std::string describe() const = 0;
};

}  // namespace sph
