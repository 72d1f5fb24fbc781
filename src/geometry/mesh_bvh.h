// A bounding-volume hierarchy over a triangle mesh's triangles: nearest surface points and the
// crossings of an axis-parallel line, for meshes and terrain (geometry/mesh_shape.h,
// geometry/terrain.h). Built once; queries are const and safe from several threads.
//
// The pseudo-normals of edges and vertices are found through shared vertex indices: give it a
// welded mesh (geometry/mesh_topology.h, weld_vertices) or one built with shared vertices.
#pragma once

#include <array>
#include <vector>

#include "geometry/triangle_mesh.h"

namespace sph {

class TriangleBvh {
public:
    explicit TriangleBvh(TriangleMesh mesh);

    struct Nearest {
        double distance = 0.0;  // unsigned [m]; > max_distance when nothing was found
        Vec3d point{};          // the nearest point on the mesh
        int triangle = -1;      // the triangle it lies on (-1: none within max_distance)
        bool on_face = false;   // inside that triangle, not on one of its edges or vertices
        // The angle-weighted pseudo-normal of the nearest feature (face, edge or vertex), after
        // Baerentzen & Aanaes (2005): (p - point) . pseudo_normal > 0 outside a closed,
        // consistently oriented mesh.
        Vec3d pseudo_normal{};
        // The nearest faces of other directions (over 30 degrees from the nearest triangle's and
        // from each other), within a relative 1e-9 of `distance` or `tie_within` beyond it, the
        // kMaxTies nearest: the faces across an edge or a corner (Shape::nearest); their unit
        // normals and distances, nearest first.
        static constexpr int kMaxTies = SurfacePoint::kMaxFaces - 1;
        int ties = 0;
        Vec3d tie_normals[kMaxTies]{};
        double tie_distances[kMaxTies]{};
    };
    Nearest nearest(const Vec3d& p, double max_distance, double tie_within = 0.0) const;

    // The parameters t where the line origin + t e_axis crosses the mesh, sorted; a crossing
    // through an edge or vertex shared by several triangles counts once.
    void crossings(const Vec3d& origin, int axis, std::vector<double>& t) const;

    const TriangleMesh& mesh() const { return mesh_; }
    Box bounds() const;
    // The unit normal of triangle `triangle`, (b - a) x (c - a) normalized (zero if degenerate).
    const Vec3d& face_normal(int triangle) const { return face_normals_[triangle]; }

    // A node of the tree, stored depth first: an inner node's first child follows it.
    struct Node {
        Box box;
        int first = 0;  // leaf: first index into order_; inner: index of the second child
        int count = 0;  // leaf: its number of triangles; inner: 0
    };

private:
    int build(int begin, int end, const std::vector<Vec3d>& centroids);
    double nearest_distance(const Vec3d& p, double max_distance, int& triangle) const;
    void collect_ties(const Vec3d& p, double within, Nearest& found) const;
    static void add_tie(const Vec3d& normal, double distance, Nearest& found);

    TriangleMesh mesh_;
    std::vector<Node> nodes_;
    std::vector<int> order_;                         // triangle indices in leaf order
    std::vector<Vec3d> face_normals_;                // unit, per triangle
    std::vector<Vec3d> vertex_pseudo_;               // angle-weighted, per vertex
    std::vector<std::array<Vec3d, 3>> edge_pseudo_;  // per triangle edge (ab, bc, ca)
};

}  // namespace sph
