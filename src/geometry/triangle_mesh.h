// A triangle mesh as read from a file (geometry/mesh_reader.h), and the checks a solid needs.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "geometry/shape.h"

namespace sph {

struct TriangleMesh {
    std::vector<Vec3d> vertices;
    // Vertex indices; a closed solid's triangles run counter-clockwise seen from outside, so that
    // (b - a) x (c - a) points out of the solid.
    std::vector<std::array<int, 3>> triangles;
    std::string source;  // the file it came from, for messages
};

}  // namespace sph
