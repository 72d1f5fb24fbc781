// Triangle meshes as solids: the BVH's crossings and nearest points against oracles, MeshShape's
// inside and nearest, and the topology checks (closed, manifold, facing outward).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "common/errors.h"
#include "geometry/mesh_bvh.h"
#include "geometry/mesh_reader.h"
#include "geometry/mesh_shape.h"
#include "geometry/mesh_topology.h"
#include "mesh_samples.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace testing;  // the mesh samples

TEST(MeshBvh, LinesThroughCubeEdgesAndVerticesCrossAnEvenNumberOfTimes) {
    const TriangleBvh bvh(unit_cube());
    const double coords[] = {-0.5, 0.0, 0.25, 0.5, 1.0, 1.5};
    std::vector<double> t;
    for (int axis = 0; axis < 3; ++axis)
        for (double a : coords)
            for (double b : coords) {
                Vec3d origin{-2, -2, -2};
                origin[(axis + 1) % 3] = a;
                origin[(axis + 2) % 3] = b;
                bvh.crossings(origin, axis, t);
                EXPECT_EQ(t.size() % 2, 0u) << "axis " << axis << " at " << a << ", " << b;
                const bool through = a > 0 && a < 1 && b > 0 && b < 1;
                if (through) {
                    EXPECT_EQ(t.size(), 2u);
                }
                EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
            }
}

TEST(MeshBvh, LinesThroughEverySphereVertexCrossAnEvenNumberOfTimes) {
    const TriangleMesh sphere = icosphere(1.0, 3);
    const TriangleBvh bvh(sphere);
    std::vector<double> t;
    for (const Vec3d& v : sphere.vertices)
        for (int axis = 0; axis < 3; ++axis) {
            bvh.crossings(v, axis, t);
            EXPECT_EQ(t.size() % 2, 0u);
        }
}

TEST(MeshShape, IcosphereInsideAgreesWithTheRadius) {
    const MeshShape sphere = shape_of(icosphere(1.0, 3));
    const double inscribed = 0.99;  // the faceted sphere's faces lie at least this far out
    std::mt19937 random(7);
    std::uniform_real_distribution<double> coordinate(-1.2, 1.2);
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
        const Vec3d p{coordinate(random), coordinate(random), coordinate(random)};
        const double r = norm(p);
        if (r > inscribed && r < 1.0) continue;
        EXPECT_EQ(sphere.inside(p), r < 1.0) << p[0] << ", " << p[1] << ", " << p[2];
        ++checked;
    }
    EXPECT_GT(checked, 15000);
}

TEST(MeshShape, InsideAlongAnswersAsInsideDoesPointByPoint) {
    const MeshShape sphere = shape_of(icosphere(1.0, 2));
    std::vector<char> column;
    for (int axis = 0; axis < 3; ++axis)
        for (double a = -1.05; a < 1.1; a += 0.15) {
            Vec3d start{a, 0.3 * a, -1.2};
            start[axis] = -1.2;
            sphere.inside_along(start, axis, 0.01, 240, column);
            ASSERT_EQ(column.size(), 240u);
            for (int k = 0; k < 240; ++k) {
                Vec3d p = start;
                p[axis] += k * 0.01;
                EXPECT_EQ(column[k] != 0, sphere.inside(p)) << "axis " << axis << " k " << k;
            }
        }
}

TEST(MeshShape, CubeSurfacePointsFollowTheBoxConvention) {
    const MeshShape cube = shape_of(unit_cube());
    EXPECT_TRUE(cube.inside({0.0, 0.5, 0.5}));
    EXPECT_FALSE(cube.inside({1.0, 0.5, 0.5}));
    EXPECT_TRUE(cube.inside({0.5, 0.0, 0.5}));
    EXPECT_FALSE(cube.inside({0.5, 1.0, 0.5}));
    EXPECT_TRUE(cube.inside({0.5, 0.5, 0.0}));
    EXPECT_FALSE(cube.inside({0.5, 0.5, 1.0}));
    EXPECT_TRUE(cube.inside({0.0, 0.0, 0.0}));
    EXPECT_EQ(cube.describe(), "mesh test");
}

TEST(MeshBvh, NearestAgreesWithBruteForce) {
    const TriangleMesh sphere = icosphere(1.0, 2);
    const TriangleBvh bvh(sphere);
    std::mt19937 random(11);
    std::uniform_real_distribution<double> coordinate(-2.0, 2.0);
    for (int i = 0; i < 2000; ++i) {
        const Vec3d p{coordinate(random), coordinate(random), coordinate(random)};
        double best = 1e300;
        for (std::size_t t = 0; t < sphere.triangles.size(); ++t)
            best = std::min(best, triangle_distance(p, corner(sphere, t, 0), corner(sphere, t, 1),
                                                    corner(sphere, t, 2)));
        const auto found = bvh.nearest(p, 10.0);
        ASSERT_GE(found.triangle, 0);
        EXPECT_NEAR(found.distance, best, 1e-12);
        EXPECT_NEAR(norm(sub(p, found.point)), found.distance, 1e-12);
        const auto near_only = bvh.nearest(p, 0.5 * best);
        EXPECT_EQ(near_only.triangle, -1);
        EXPECT_GT(near_only.distance, 0.5 * best);
    }
}

TEST(MeshBvh, PseudoNormalPointsOutwardWhereInsideSaysOutside) {
    for (const TriangleMesh& mesh : {icosphere(1.0, 2), unit_cube()}) {
        const MeshShape shape = shape_of(mesh);
        std::mt19937 random(3);
        std::uniform_real_distribution<double> coordinate(-1.5, 1.5);
        for (int i = 0; i < 5000; ++i) {
            const Vec3d p{coordinate(random), coordinate(random), coordinate(random)};
            const auto found = shape.bvh().nearest(p, 1e9);
            if (found.distance < 1e-9) continue;
            EXPECT_EQ(dot(sub(p, found.point), found.pseudo_normal) > 0, !shape.inside(p));
            const SurfacePoint surface = shape.nearest(p, 1e9);
            EXPECT_EQ(dot(sub(p, surface.point), surface.normals[0]) > 0, !surface.inside);
        }
    }
}

TEST(MeshShape, PointsOnACubeDiagonalInsideSeeEveryNearestFace) {
    const MeshShape cube = shape_of(unit_cube());
    // Within 0.25 of the point: the two faces of the edge (0.2 away), not the next (0.5).
    const SurfacePoint edge = cube.nearest({0.2, 0.2, 0.5}, 0.25);
    EXPECT_TRUE(edge.inside);
    EXPECT_TRUE(edge.on_face);
    ASSERT_EQ(edge.faces, 2);
    EXPECT_NEAR(edge.distance, 0.2, 1e-15);
    EXPECT_NEAR(edge.face_distance[1], 0.2, 1e-15);
    EXPECT_NEAR(edge.normals[0][0] + edge.normals[1][0], -1.0, 1e-15);
    EXPECT_NEAR(edge.normals[0][1] + edge.normals[1][1], -1.0, 1e-15);
    // Within 1: all six faces, nearest first.
    const SurfacePoint wide = cube.nearest({0.2, 0.3, 0.6}, 1.0);
    ASSERT_EQ(wide.faces, 6);
    const double distances[6] = {0.2, 0.3, 0.4, 0.6, 0.7, 0.8};
    for (int f = 0; f < 6; ++f) EXPECT_NEAR(wide.face_distance[f], distances[f], 1e-15);
    EXPECT_NEAR(wide.normals[2][2], 1.0, 1e-15);
    EXPECT_NEAR(wide.normals[3][2], -1.0, 1e-15);
    // Within 0.45: the three nearer.
    EXPECT_EQ(cube.nearest({0.2, 0.3, 0.6}, 0.45).faces, 3);
    const SurfacePoint corner3 = cube.nearest({0.7, 0.7, 0.7}, 0.35);
    ASSERT_EQ(corner3.faces, 3);
    const SurfacePoint outside = cube.nearest({-0.1, -0.1, 0.5}, 1.0);
    EXPECT_FALSE(outside.inside);
    EXPECT_FALSE(outside.on_face);
    EXPECT_EQ(outside.faces, 1);
    EXPECT_NEAR(outside.normals[0][0], -std::sqrt(0.5), 1e-15);
    EXPECT_NEAR(outside.normals[0][1], -std::sqrt(0.5), 1e-15);
    // On a face's diagonal (the edge between its two triangles) the surface is still flat.
    const SurfacePoint flat = cube.nearest({0.5, 0.5, -0.3}, 1.0);
    EXPECT_TRUE(flat.on_face);
    EXPECT_NEAR(flat.normals[0][2], -1.0, 1e-15);
    EXPECT_GT(cube.nearest({3, 3, 3}, 1.0).distance, 1.0);
}

TEST(MeshTopology, OpenMeshIsRefusedNamingTheFileAndItsOpenEdges) {
    TriangleMesh cube = unit_cube();
    cube.triangles.pop_back();
    try {
        make_closed_solid(cube, "open_cube.stl");
        FAIL() << "an open mesh was accepted";
    } catch (const OptionError& error) {
        EXPECT_NE(std::string(error.what()).find("mesh open_cube.stl is not closed: 3 open edges"),
                  std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("between vertices ("), std::string::npos);
    }
    EXPECT_THROW(make_closed_solid(TriangleMesh{}, "empty.stl"), OptionError);
}

TEST(MeshTopology, NonManifoldEdgeIsRefused) {
    // Two tetrahedra sharing the edge from (0,0,0) to (1,0,0): four triangles meet on it.
    TriangleMesh pair;
    pair.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, -1, 0}, {0, 0, -1}};
    pair.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3},
                      {0, 1, 4}, {0, 5, 1}, {0, 4, 5}, {1, 5, 4}};
    try {
        make_closed_solid(pair, "fin.obj");
        FAIL() << "a non-manifold mesh was accepted";
    } catch (const OptionError& error) {
        EXPECT_NE(std::string(error.what()).find("mesh fin.obj is not a manifold: 1 edges"),
                  std::string::npos)
            << error.what();
    }
}

TEST(MeshTopology, FlippedTrianglesAreTurnedBackAndReported) {
    TriangleMesh cube = unit_cube();
    for (int t : {1, 4, 9}) std::swap(cube.triangles[t][1], cube.triangles[t][2]);
    EXPECT_EQ(census_edges(cube).inconsistent_edges, 9);
    const ClosedSolid solid = make_closed_solid(cube, "cube.stl");
    EXPECT_EQ(solid.note, "mesh cube.stl: 3 triangles turned to face outward");
    EXPECT_EQ(census_edges(solid.mesh).inconsistent_edges, 0);
    EXPECT_NEAR(signed_volume(solid.mesh), 1.0, 1e-15);
    EXPECT_EQ(make_closed_solid(unit_cube(), "cube.stl").note, "");
}

TEST(MeshTopology, InvertedMeshIsTurnedOutwardAndWeldingJoinsRepeatedCorners) {
    TriangleMesh inverted = icosphere(1.0, 1);
    for (auto& t : inverted.triangles) std::swap(t[1], t[2]);
    EXPECT_LT(signed_volume(inverted), 0.0);
    // STL style: every triangle with corners of its own.
    TriangleMesh unwelded;
    for (std::size_t t = 0; t < inverted.triangles.size(); ++t) {
        const int first = int(unwelded.vertices.size());
        for (int k = 0; k < 3; ++k) unwelded.vertices.push_back(corner(inverted, t, k));
        unwelded.triangles.push_back({first, first + 1, first + 2});
    }
    unwelded.triangles.push_back({0, 0, 1});  // no area
    const ClosedSolid solid = make_closed_solid(unwelded, "ball.stl");
    EXPECT_EQ(solid.mesh.vertices.size(), inverted.vertices.size());
    EXPECT_EQ(solid.note,
              "mesh ball.stl: 1 triangles without area dropped, 80 triangles turned "
              "to face outward");
    EXPECT_NEAR(signed_volume(solid.mesh), -signed_volume(inverted), 1e-12);
}

}  // namespace
}  // namespace sph
