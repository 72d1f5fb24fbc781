// Triangle meshes from CAD files: STL (ASCII and binary), OBJ and PLY, placed by a Transform.
#pragma once

#include <string>

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

}  // namespace sph
