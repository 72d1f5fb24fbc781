// The lattice filled from shapes (geometry/lattice_fill.h): a box filled as a shape gives the
// wall particles and ghost offsets problems/lattice.h gives it, on and off the lattice's planes;
// water fills shapes below levels and outside solids; threads do not change the order.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <vector>

#include "geometry/box_shape.h"
#include "geometry/lattice_fill.h"
#include "lattice.h"
#include "wall_samples.h"

namespace sph {
namespace {

std::vector<LatticeSite> walls_of(const Shape& shape, double dp, const WallFill& fill) {
    std::vector<LatticeSite> sites;
    fill_solid_walls(shape, dp, fill, [&](const LatticeSite& s) { sites.push_back(s); });
    return sites;
}

using testing::box_walls;

// Positions bit for bit, ghost offsets as the devices keep them (float).
void expect_same_walls(const std::vector<LatticeSite>& a, const std::vector<SetupParticle>& b) {
    ASSERT_EQ(a.size(), b.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        bool same = a[i].at[0] == b[i].x && a[i].at[1] == b[i].y && a[i].at[2] == b[i].z;
        for (int k = 0; k < 3; ++k)
            same = same && float(a[i].to_ghost[k]) == float(b[i].to_ghost[k]);
        if (!same && differ++ < 5) {
            ADD_FAILURE() << "particle " << i << " at (" << b[i].x << ", " << b[i].y << ", "
                          << b[i].z << "): ghost (" << a[i].to_ghost[0] << ", " << a[i].to_ghost[1]
                          << ", " << a[i].to_ghost[2] << ") against (" << b[i].to_ghost[0] << ", "
                          << b[i].to_ghost[1] << ", " << b[i].to_ghost[2] << ")";
        }
    }
    EXPECT_EQ(differ, 0u);
}

TEST(LatticeFill, ABoxOnTheLatticeGivesTheBoxWallsAndGhostNodes) {
    const double dp = 0.01;
    const Box box{{0.1, 0.2, 0.0}, {0.3, 0.35, 0.12}};
    const Faces all{{true, true, true, true, true, true}};
    WallFill fill;
    fill.hollow = false;
    expect_same_walls(walls_of(BoxShape(box), dp, fill), box_walls(box, all, dp, 3));
}

TEST(LatticeFill, ABoxOffTheLatticeGivesTheSnappedBoxWallsAndGhostNodes) {
    // SPHERIC's obstacle at dp 0.0185: its faces lie 0.15-0.95 dp from the lattice's planes.
    const double dp = 0.0185;
    const Box box{{0.6635, 0.295, 0.0}, {0.8245, 0.698, 0.161}};
    const Faces all{{true, true, true, true, true, true}};
    WallFill fill;
    fill.hollow = false;
    expect_same_walls(walls_of(BoxShape(box), dp, fill), box_walls(box, all, dp, 3));
}

TEST(LatticeFill, FacesTheWaterCannotReachGetNoGhostNodes) {
    const double dp = 0.0185;
    const Box tank{{0, 0, 0}, {3.22, 1.0, 1.0}};
    const Box box{{0.6635, 0.295, 0.0}, {0.8245, 0.698, 0.161}};
    WallFill fill;
    fill.hollow = false;
    fill.wet = [&](const Vec3d& p) { return tank.contains(p[0], p[1], p[2]); };
    expect_same_walls(walls_of(BoxShape(box), dp, fill),
                      box_walls(box, faces_inside(box, tank), dp, 3));
}

TEST(LatticeFill, AHollowSolidKeepsItsWallLayersOnly) {
    const double dp = 0.01;
    const Box box{{0, 0, 0}, {0.2, 0.2, 0.2}};  // 20 points a side
    WallFill fill;
    fill.layers = 3;
    const std::vector<LatticeSite> shell = walls_of(BoxShape(box), dp, fill);
    EXPECT_EQ(shell.size(), 20u * 20 * 20 - 14u * 14 * 14);
    for (const LatticeSite& s : shell) EXPECT_NE(s.to_ghost, (Vec3d{0, 0, 0}));
}

TEST(LatticeFill, LatticeDepthIsHalfwayBetweenAColumnsLastPointInsideAndFirstOutside) {
    const double dp = 0.1;
    EXPECT_DOUBLE_EQ(lattice_depth(0.03, {0, 0, 1}, dp), 0.05);
    EXPECT_DOUBLE_EQ(lattice_depth(0.099, {0, 0, 1}, dp), 0.05);
    EXPECT_DOUBLE_EQ(lattice_depth(0.13, {0, 0, 1}, dp), 0.15);
    // A face at 45 degrees: its columns' points lie 0.0707 apart along the normal.
    const double r = std::sqrt(0.5);
    EXPECT_NEAR(lattice_depth(0.05, {r, 0, r}, dp), 0.5 * dp * r, 1e-15);
    EXPECT_NEAR(lattice_depth(0.08, {r, 0, r}, dp), 1.5 * dp * r, 1e-15);
}

TEST(LatticeFill, WaterFillsItsShapeBelowItsLevelAndOutsideSolids) {
    const double dp = 0.1;
    const BoxShape region(Box{{0, 0, 0}, {1, 1, 1}});
    const BoxShape solid(Box{{0.2, 0.2, 0}, {0.4, 0.4, 0.5}});
    std::vector<LatticeSite> water;
    fill_water(region, 0.3, 0.3, {&solid}, dp, [&](const LatticeSite& s) { water.push_back(s); });
    EXPECT_EQ(water.size(), 10u * 10 * 3 - 2u * 2 * 3);
    for (const LatticeSite& s : water) {
        EXPECT_LT(s.at[2], 0.3);
        EXPECT_DOUBLE_EQ(s.depth, 0.3 - s.at[2]);
        EXPECT_FALSE(solid.inside(s.at));
    }
    // The same points as problems/lattice.h visits, in the same order.
    std::vector<Vec3d> expected;
    for_each_lattice_point(Box{{0, 0, 0}, {1, 1, 0.3}}, dp, [&](double x, double y, double z) {
        if (!solid.inside({x, y, z})) expected.push_back({x, y, z});
    });
    ASSERT_EQ(expected.size(), water.size());
    for (std::size_t i = 0; i < water.size(); ++i) EXPECT_EQ(water[i].at, expected[i]);
}

TEST(LatticeFill, PointsAroundAHoleAreThePointsOfTheRegionLessTheHoleInTheSameOrder) {
    const Box holes[] = {{{0.0, 0.0, 0.0}, {3.22, 1.0, 1.0}},
                         {{0.013, -0.4, 0.0}, {0.5, 0.37, 2.0}},
                         {{0.2, 0.2, 0.2}, {0.21, 0.3, 0.3}}};
    for (const double dp : {0.04, 0.0185, 0.01}) {
        for (const Box& hole : holes) {
            const Box region{{-0.12, -0.12, -0.12}, {3.34, 1.12, 1.0}};
            std::vector<Vec3d> expected, around;
            for_each_lattice_point(region, dp, [&](double x, double y, double z) {
                if (!hole.contains(x, y, z)) expected.push_back({x, y, z});
            });
            for_each_lattice_point_around(region, hole, dp, [&](double x, double y, double z) {
                around.push_back({x, y, z});
            });
            EXPECT_EQ(around, expected) << "dp " << dp;
        }
    }
}

TEST(LatticeFill, TheOrderDoesNotDependOnTheThreads) {
    const double dp = 0.0185;
    const BoxShape box(Box{{0.6635, 0.295, 0.0}, {0.8245, 0.698, 0.161}});
    WallFill fill;
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const std::vector<LatticeSite> one = walls_of(box, dp, fill);
    omp_set_num_threads(4);
    const std::vector<LatticeSite> four = walls_of(box, dp, fill);
    omp_set_num_threads(threads);
    ASSERT_EQ(one.size(), four.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
        EXPECT_EQ(one[i].at, four[i].at);
        EXPECT_EQ(one[i].to_ghost, four[i].to_ghost);
    }
}

}  // namespace
}  // namespace sph
