// Triangle meshes from CAD files: STL (ASCII and binary), OBJ and PLY, placed by a Transform.
#pragma once

#include <string>

#include "geometry/mesh_topology.h"
#include "geometry/transform.h"
#include "geometry/triangle_mesh.h"

namespace sph {

// The triangles of the mesh in `path` (its kind from the extension, any case: .stl, .obj, .ply),
// polygons split into triangles and other cells left out, every vertex moved by `transform`;
// `source` is `path`. Throws OptionError naming the file when it is missing or unreadable, of
// an unknown kind, malformed (with the reader's own message), holds no triangles, or has a
// vertex that is not finite. The mesh is as in the file: see geometry/mesh_topology.h for
// welding and the checks a solid needs.
TriangleMesh read_mesh(const std::string& path, const Transform& transform);

// The mesh in `path` made a closed solid (make_closed_solid): what a wall or water fills. Throws
// OptionError naming the file for anything read_mesh or make_closed_solid refuses.
ClosedSolid read_closed_solid(const std::string& path, const Transform& transform);

}  // namespace sph
