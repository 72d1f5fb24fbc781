// The geometry issue's targets on shapes read from files: a closed sphere mesh (r = 20 dp) holds
// its volume of water within 1 %; a cube mesh's walls are a box's, particle for particle, ghost
// offsets included; a tilted-plane raster's wall particles' top layer lies within dp/2 of where
// the lattice puts the plane's surface, their ghost nodes above it.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "geometry/lattice_fill.h"
#include "geometry/mesh_reader.h"
#include "geometry/mesh_shape.h"
#include "geometry/raster_reader.h"
#include "geometry/terrain.h"
#include "lattice.h"
#include "mesh_samples.h"
#include "test_support.h"
#include "wall_samples.h"

namespace sph {
namespace {

using testing::box_mesh;
using testing::icosphere;
using testing::moved;
using testing::write_stl_binary;

MeshShape mesh_shape(const std::string& path) {
    return MeshShape(make_closed_solid(read_mesh(path, Transform{}), path));
}

TEST(GeometryTargets, ASphereMeshHoldsItsVolumeOfWaterWithinOnePercent) {
    const testing::TempDir dir("sphere_mesh");
    const double dp = 0.01, r = 20 * dp;
    const std::string path = dir.path() + "/sphere.stl";
    // 20,480 triangles: the faceted sphere holds 0.1 % less than the sphere.
    write_stl_binary(moved(icosphere(r, 5), {0.5, 0.5, 0.5}), path);
    const MeshShape sphere = mesh_shape(path);
    std::size_t count = 0;
    fill_water(sphere, INFINITY, 0.7, {}, dp, [&](const LatticeSite&) { ++count; });
    const double volume = count * dp * dp * dp, exact = 4.0 / 3.0 * M_PI * r * r * r;
    std::printf("sphere r = 20 dp: %zu particles, %.6g m^3 against %.6g (%+.3f %%)\n", count,
                volume, exact, 100.0 * (volume / exact - 1.0));
    EXPECT_NEAR(volume / exact, 1.0, 0.01);
}

// The walls problems/lattice.h lays out for `box`, every face wet.
std::vector<SetupParticle> box_walls(const Box& box, double dp) {
    return testing::box_walls(box, Faces{{true, true, true, true, true, true}}, dp, kWallLayers);
}

// The walls a cube mesh with corners lo, hi gives, against those problems/lattice.h gives the
// box: how many particles differ in position or ghost offset (as the devices keep offsets:
// float; the mesh's corners are floats in the file).
std::size_t cube_against_box(const Vec3d& lo, const Vec3d& hi, double dp) {
    const testing::TempDir dir("cube_mesh");
    const std::string path = dir.path() + "/cube.stl";
    write_stl_binary(box_mesh(lo, hi), path);
    WallFill fill;
    fill.hollow = false;
    std::vector<LatticeSite> mesh;
    fill_solid_walls(mesh_shape(path), dp, fill, [&](const LatticeSite& s) { mesh.push_back(s); });
    const std::vector<SetupParticle> boxed =
        box_walls(Box{{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}}, dp);
    EXPECT_EQ(mesh.size(), boxed.size());
    if (mesh.size() != boxed.size()) return std::max(mesh.size(), boxed.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < mesh.size(); ++i) {
        bool same = mesh[i].at[0] == boxed[i].x && mesh[i].at[1] == boxed[i].y &&
                    mesh[i].at[2] == boxed[i].z;
        for (int a = 0; a < 3; ++a) {
            same = same && std::fabs(mesh[i].to_ghost[a] - boxed[i].to_ghost[a]) < 1e-6 * dp;
        }
        if (!same && differ++ < 5) {
            ADD_FAILURE() << "at (" << boxed[i].x << ", " << boxed[i].y << ", " << boxed[i].z
                          << "): mesh ghost (" << mesh[i].to_ghost[0] << ", " << mesh[i].to_ghost[1]
                          << ", " << mesh[i].to_ghost[2] << "), box (" << boxed[i].to_ghost[0]
                          << ", " << boxed[i].to_ghost[1] << ", " << boxed[i].to_ghost[2] << ")";
        }
    }
    return differ;
}

TEST(GeometryTargets, ACubeMeshsWallsAreABoxsWallsGhostOffsetsIncluded) {
    // Faces on the lattice's planes.
    EXPECT_EQ(cube_against_box({0.1, 0.2, 0.0}, {0.3, 0.36, 0.12}, 0.01), 0u);
    // SPHERIC's obstacle, its faces between the lattice's planes: both taken to the lattice.
    EXPECT_EQ(cube_against_box({0.6635, 0.295, 0.0}, {0.8245, 0.698, 0.161}, 0.0185), 0u);
    EXPECT_EQ(cube_against_box({0.6635, 0.295, 0.0}, {0.8245, 0.698, 0.161}, 0.01), 0u);
}

TEST(GeometryTargets, ATiltedPlaneRastersTopLayerLiesWithinHalfASpacingOfItsSurface) {
    const testing::TempDir dir("tilted_raster");
    const double dp = 0.01, a = 0.15, b = -0.08, c = 0.3;  // z = a x + b y + c
    const std::string path = dir.path() + "/plane.asc";
    {
        std::ofstream f(path);
        const int cols = 41, rows = 31;
        f << "ncols " << cols << "\nnrows " << rows << "\nxllcorner -0.0125\nyllcorner -0.0125\n"
          << "cellsize 0.025\nNODATA_value -9999\n";
        for (int r = 0; r < rows; ++r) {
            const double y = (rows - 1 - r) * 0.025;
            for (int k = 0; k < cols; ++k) f << (k ? " " : "") << a * k * 0.025 + b * y + c;
            f << "\n";
        }
    }
    const TerrainShape terrain(read_elevation_raster(path), Transform{});
    std::map<std::pair<long, long>, LatticeSite> top;  // each column's highest wall particle
    std::size_t count = 0;
    fill_solid_walls(terrain, dp, WallFill{}, [&](const LatticeSite& s) {
        ++count;
        const std::pair<long, long> column{std::lround(s.at[0] / dp), std::lround(s.at[1] / dp)};
        if (!top.count(column) || top[column].at[2] < s.at[2]) top[column] = s;
    });
    ASSERT_GT(top.size(), 1000u);
    const double n = std::sqrt(a * a + b * b + 1.0);
    double worst = 0.0;
    for (const auto& [column, s] : top) {
        const double plane = a * s.at[0] + b * s.at[1] + c;
        // The lattice's surface lies half a spacing above a column's top particle: within dp/2
        // of the plane, wherever the plane cuts the column.
        worst = std::max(worst, std::fabs(s.at[2] + 0.5 * dp - plane));
        const Vec3d g{s.at[0] + s.to_ghost[0], s.at[1] + s.to_ghost[1], s.at[2] + s.to_ghost[2]};
        EXPECT_GT((g[2] - (a * g[0] + b * g[1] + c)) / n, 0.0) << "a top ghost node below";
        // Along the normal: the plane the particle is mirrored across lies within half a column's
        // spacing (dp along z, dp / n along the normal) of the raster's plane.
        const double below = (plane - s.at[2]) / n, above = (g[2] - (a * g[0] + b * g[1] + c)) / n;
        EXPECT_LE(0.5 * std::fabs(above - below), 0.5 * dp / n + 1e-12);
    }
    std::printf(
        "tilted plane: %zu wall particles, %zu columns, top layer's surface within %.4f dp "
        "of the plane\n",
        count, top.size(), worst / dp);
    EXPECT_LE(worst, 0.5 * dp + 1e-12);
}

}  // namespace
}  // namespace sph
