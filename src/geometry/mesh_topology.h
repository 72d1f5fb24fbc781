// What a triangle mesh must be to stand for a solid, and the repairs that are safe to make: shared
// vertices welded, triangles without area dropped, every edge between exactly two triangles
// (closed, manifold), and all triangles turned the same way, outward.
#pragma once

#include <array>
#include <string>

#include "geometry/triangle_mesh.h"

namespace sph {

// Vertices with exactly equal coordinates made one (STL lists each triangle's corners anew);
// unused vertices go. Returns how many vertices were merged away.
long weld_vertices(TriangleMesh& mesh);

// Triangles of zero area (a repeated vertex, or three on one line exactly) removed; returns how
// many.
long drop_degenerate_triangles(TriangleMesh& mesh);

// How a mesh's edges are shared. An example of each fault is kept for messages (vertex indices,
// -1 when there is none).
struct EdgeCensus {
    long edges = 0;
    long open_edges = 0;          // used by one triangle
    long nonmanifold_edges = 0;   // used by three or more
    long inconsistent_edges = 0;  // used by two triangles running along it the same way
    std::array<int, 2> open_example{-1, -1};
    std::array<int, 2> nonmanifold_example{-1, -1};
};
EdgeCensus census_edges(const TriangleMesh& mesh);

// The volume enclosed, positive when the triangles face outward (divergence theorem over the
// triangles' signed tetrahedra from the origin).
double signed_volume(const TriangleMesh& mesh);

// Turns triangles so that each connected component is consistently oriented (breadth first from
// one triangle across the manifold edges), then turns whole components whose signed volume is
// negative. Returns how many triangles end up turned. A component nested inside another (a
// cavity) is also turned outward: cavities are not supported.
long repair_orientation(TriangleMesh& mesh);

// A mesh fit to be a MeshShape, and what was done to it for the user to read ("" when nothing).
struct ClosedSolid {
    TriangleMesh mesh;
    std::string note;
};

// Welds, drops degenerate triangles and orients `mesh`, or throws OptionError naming `what` (the
// file) when it is empty, open or non-manifold, or cannot be oriented.
ClosedSolid make_closed_solid(TriangleMesh mesh, const std::string& what);

}  // namespace sph
