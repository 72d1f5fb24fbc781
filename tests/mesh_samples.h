// Meshes the tests make and write: a cube, an icosphere, the formats the reader takes, and an
// independent oracle of a point's distance to a triangle.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "geometry/mesh_shape.h"
#include "geometry/mesh_topology.h"
#include "geometry/triangle_mesh.h"

namespace sph::testing {

inline Vec3d sub(const Vec3d& a, const Vec3d& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline double dot(const Vec3d& a, const Vec3d& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline double norm(const Vec3d& a) {
    return std::sqrt(dot(a, a));
}
inline Vec3d lerp(const Vec3d& a, const Vec3d& b, double s) {
    return {a[0] + s * (b[0] - a[0]), a[1] + s * (b[1] - a[1]), a[2] + s * (b[2] - a[2])};
}

// The unit cube [0, 1]^3 as 12 outward triangles.
inline TriangleMesh unit_cube() {
    TriangleMesh cube;
    for (int i = 0; i < 8; ++i)
        cube.vertices.push_back({double(i & 1), double(i >> 1 & 1), double(i >> 2)});
    cube.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                      {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    return cube;
}

// An icosahedron of radius `radius`, each triangle split in four `levels` times, pushed out to
// the sphere.
inline TriangleMesh icosphere(double radius, int levels) {
    const double g = (1.0 + std::sqrt(5.0)) / 2.0;
    TriangleMesh mesh;
    mesh.vertices = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                     {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
    mesh.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                      {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                      {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                      {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (int level = 0; level < levels; ++level) {
        std::map<std::pair<int, int>, int> middle;
        const auto mid = [&](int a, int b) {
            const auto key = std::minmax(a, b);
            auto found = middle.find(key);
            if (found != middle.end()) return found->second;
            mesh.vertices.push_back(lerp(mesh.vertices[a], mesh.vertices[b], 0.5));
            return middle[key] = int(mesh.vertices.size()) - 1;
        };
        std::vector<std::array<int, 3>> finer;
        for (const auto& t : mesh.triangles) {
            const int ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
            finer.insert(finer.end(),
                         {{t[0], ab, ca}, {t[1], bc, ab}, {t[2], ca, bc}, {ab, bc, ca}});
        }
        mesh.triangles = finer;
    }
    for (auto& v : mesh.vertices) {
        const double scale = radius / norm(v);
        v = {v[0] * scale, v[1] * scale, v[2] * scale};
    }
    return mesh;
}

inline const Vec3d& corner(const TriangleMesh& m, std::size_t t, int k) {
    return m.vertices[m.triangles[t][k]];
}

inline void write_stl_ascii(const TriangleMesh& m, const std::string& path) {
    std::ofstream out(path);
    out.precision(17);
    out << "solid test\n";
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
        out << " facet normal 0 0 0\n  outer loop\n";
        for (int k = 0; k < 3; ++k) {
            const Vec3d& v = corner(m, t, k);
            out << "   vertex " << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
        }
        out << "  endloop\n endfacet\n";
    }
    out << "endsolid test\n";
}

inline void write_stl_binary(const TriangleMesh& m, const std::string& path) {
    std::string bytes(80, ' ');
    std::memcpy(&bytes[0], "solid binary header", 19);  // a binary STL may start so
    const auto count = static_cast<std::uint32_t>(m.triangles.size());
    bytes.append(reinterpret_cast<const char*>(&count), 4);
    for (std::size_t t = 0; t < m.triangles.size(); ++t) {
        float record[12] = {};
        for (int k = 0; k < 3; ++k)
            for (int a = 0; a < 3; ++a) record[3 + 3 * k + a] = float(corner(m, t, k)[a]);
        bytes.append(reinterpret_cast<const char*>(record), sizeof record);
        bytes.append(2, '\0');
    }
    std::ofstream(path, std::ios::binary) << bytes;
}

inline void write_obj(const TriangleMesh& m, const std::string& path) {
    std::ofstream out(path);
    out.precision(17);
    for (const auto& v : m.vertices) out << "v " << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
    for (const auto& t : m.triangles)
        out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
}

inline void write_ply(const TriangleMesh& m, const std::string& path) {
    std::ofstream out(path);
    out.precision(17);
    out << "ply\nformat ascii 1.0\nelement vertex " << m.vertices.size()
        << "\nproperty double x\nproperty double y\nproperty double z\nelement face "
        << m.triangles.size() << "\nproperty list uchar int vertex_indices\nend_header\n";
    for (const auto& v : m.vertices) out << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
    for (const auto& t : m.triangles) out << "3 " << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
}

inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// An independent oracle: the distance to a triangle by projection onto its plane, else to the
// nearest of its edges.
inline double segment_distance(const Vec3d& p, const Vec3d& a, const Vec3d& b) {
    const Vec3d ab = sub(b, a);
    const double s = std::clamp(dot(sub(p, a), ab) / dot(ab, ab), 0.0, 1.0);
    return norm(sub(p, lerp(a, b, s)));
}
inline double triangle_distance(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c) {
    const Vec3d ab = sub(b, a), ac = sub(c, a);
    const Vec3d n{ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                  ab[0] * ac[1] - ab[1] * ac[0]};
    const double height = dot(sub(p, a), n) / dot(n, n);
    const Vec3d q{p[0] - height * n[0], p[1] - height * n[1], p[2] - height * n[2]};
    const Vec3d qa = sub(a, q), qb = sub(b, q), qc = sub(c, q);
    const auto side = [&](const Vec3d& x, const Vec3d& y) {
        return dot(
            n, {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]});
    };
    if (side(qa, qb) >= 0 && side(qb, qc) >= 0 && side(qc, qa) >= 0) return norm(sub(p, q));
    return std::min(
        {segment_distance(p, a, b), segment_distance(p, b, c), segment_distance(p, c, a)});
}

inline MeshShape shape_of(TriangleMesh mesh) {
    return MeshShape(make_closed_solid(std::move(mesh), "test"));
}

// The box [lo, hi) as 12 outward triangles.
inline TriangleMesh box_mesh(const Vec3d& lo, const Vec3d& hi) {
    TriangleMesh box = unit_cube();
    for (Vec3d& v : box.vertices) {
        for (int a = 0; a < 3; ++a) v[a] = lo[a] + v[a] * (hi[a] - lo[a]);
    }
    return box;
}

// `mesh` moved by `by`.
inline TriangleMesh moved(TriangleMesh mesh, const Vec3d& by) {
    for (Vec3d& v : mesh.vertices) {
        for (int a = 0; a < 3; ++a) v[a] += by[a];
    }
    return mesh;
}

}  // namespace sph::testing
