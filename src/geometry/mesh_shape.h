// A closed triangle mesh as a solid (DESIGN.md, "Shapes are one layer"): inside by the parity of
// an axis-parallel ray's crossings, the nearest surface point from the BVH.
//
// A point exactly on the surface is decided as by Box::contains where the surface is
// axis-aligned: inside on faces whose outward normal points to -x, -y or -z, outside on those
// facing +x, +y, +z (the crossings count those at t > 0 only, and a ray along a face is moved off
// it towards +y, +z). On a slanted face either answer may come.
#pragma once

#include <string>
#include <vector>

#include "geometry/mesh_bvh.h"
#include "geometry/mesh_topology.h"
#include "geometry/shape.h"

namespace sph {

class MeshShape : public Shape {
public:
    // `solid` as make_closed_solid gives it: closed, manifold and facing outward.
    explicit MeshShape(ClosedSolid solid);

    Box bounds() const override;
    bool inside(const Vec3d& p) const override;
    // normals[0] is the nearest triangle's face normal when on_face, else the direction of the
    // nearest edge's or vertex's pseudo-normal. on_face also holds on an edge or vertex where the
    // triangles around it lie in one plane (the surface there is that plane). Inside the solid,
    // the faces of other planes equally near follow (faces = 1 + ties).
    SurfacePoint nearest(const Vec3d& p, double max_distance) const override;
    // One crossings() call for the whole column.
    void inside_along(const Vec3d& start, int axis, double step, long count,
                      std::vector<char>& out) const override;
    std::string describe() const override;

    const TriangleBvh& bvh() const { return bvh_; }

private:
    TriangleBvh bvh_;
};

}  // namespace sph
