// MeshShape: the Shape questions answered from a TriangleBvh.
#include "geometry/mesh_shape.h"

#include <algorithm>
#include <cmath>

namespace sph {
namespace {

// A pseudo-normal this close to the face normal means the feature lies in a flat region.
constexpr double kFlatCosine = 1.0 - 1e-9;

}  // namespace

MeshShape::MeshShape(ClosedSolid solid) : bvh_(std::move(solid.mesh)) {}

Box MeshShape::bounds() const {
    return bvh_.bounds();
}

bool MeshShape::inside(const Vec3d& p) const {
    std::vector<double> t;
    bvh_.crossings(p, 0, t);
    const auto ahead = t.end() - std::upper_bound(t.begin(), t.end(), 0.0);
    return ahead % 2 == 1;
}

void MeshShape::inside_along(const Vec3d& start, int axis, double step, long count,
                             std::vector<char>& out) const {
    out.assign(std::max(count, 0L), 0);
    std::vector<double> t;
    bvh_.crossings(start, axis, t);
    for (long k = 0; k < count; ++k) {
        const double along = static_cast<double>(k) * step;
        const auto ahead = t.end() - std::upper_bound(t.begin(), t.end(), along);
        out[k] = static_cast<char>(ahead % 2 == 1);
    }
}

SurfacePoint MeshShape::nearest(const Vec3d& p, double max_distance) const {
    // Faces across an edge within max_distance count: the fill decides on the lattice's surface
    // which are equally near (geometry/lattice_fill.h).
    const TriangleBvh::Nearest found = bvh_.nearest(p, max_distance, max_distance);
    SurfacePoint surface;
    surface.distance = found.distance;
    if (found.triangle < 0) return surface;
    surface.inside = inside(p);
    surface.point = found.point;
    const Vec3d& face = bvh_.face_normal(found.triangle);
    const Vec3d& pseudo = found.pseudo_normal;
    const double length =
        std::sqrt(pseudo[0] * pseudo[0] + pseudo[1] * pseudo[1] + pseudo[2] * pseudo[2]);
    const Vec3d direction =
        length > 0.0 ? Vec3d{pseudo[0] / length, pseudo[1] / length, pseudo[2] / length} : face;
    const double cosine = direction[0] * face[0] + direction[1] * face[1] + direction[2] * face[2];
    surface.on_face = found.on_face || cosine > kFlatCosine;
    surface.normals[0] = surface.on_face ? face : direction;
    surface.faces = 1;
    surface.face_distance[0] = found.distance;
    if (surface.inside) {
        for (int k = 0; k < found.ties; ++k) {
            if (found.tie_distances[k] > max_distance) continue;
            surface.face_distance[surface.faces] = found.tie_distances[k];
            surface.normals[surface.faces++] = found.tie_normals[k];
        }
    }
    return surface;
}

std::string MeshShape::describe() const {
    return "mesh " + bvh_.mesh().source;
}

}  // namespace sph
