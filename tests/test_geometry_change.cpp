// A branch's wall changes (driver/geometry_change.h): removing a named region takes exactly its
// wall particles; an added box holds the lattice points inside it, displaces the water there,
// takes new ids, and under mDBC mirrors its particles across the faces the water can reach; an
// added closed mesh of the same box gives the same particles, and a mesh that cannot be a solid or
// does not fit is refused naming its file.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "bore_in_a_box.h"
#include "common/errors.h"
#include "dam_break.h"
#include "driver/geometry_change.h"
#include "driver/run_setup.h"
#include "lattice.h"
#include "mesh_samples.h"
#include "test_support.h"

namespace sph {
namespace {

struct Laid {
    RunOptions options;
    HostParticles particles;
};

Laid dam_break(double dp, BoundaryModel boundary = BoundaryModel::kDbc) {
    DamBreak problem;
    Laid laid{testing::small_run(dp, 0.1), {}};
    laid.options.boundary = boundary;
    laid.particles = make_particles(problem, laid.options, make_sph_params(laid.options, 0.55));
    return laid;
}

std::size_t count_in(const HostParticles& p, const Box& box, bool fluid) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        double at[3];
        p.position(i, at);
        n += (p.type[i] == kFluid) == fluid && box.contains(at[0], at[1], at[2]);
    }
    return n;
}

TEST(GeometryChange, RemovingARegionTakesItsWallParticlesOnly) {
    DamBreak problem;
    Laid laid = dam_break(0.04);
    const Box obstacle = named_region(problem, "obstacle", 0.04).box;
    std::size_t lattice_points = 0;
    for_each_lattice_point(obstacle, 0.04, [&](double, double, double) { ++lattice_points; });
    ASSERT_GT(lattice_points, 0u);
    const std::size_t before = laid.particles.size(), fluid = laid.particles.count(kFluid);
    const GeometryOutcome outcome = apply_geometry_changes({GeometryChange::removing("obstacle")},
                                                           problem, laid.options, laid.particles);
    EXPECT_EQ(outcome.walls_removed, lattice_points);
    EXPECT_EQ(laid.particles.size(), before - lattice_points);
    EXPECT_EQ(laid.particles.count(kFluid), fluid);
    EXPECT_EQ(count_in(laid.particles, obstacle, false), 0u);
}

TEST(GeometryChange, AnAddedBoxDisplacesTheWaterAndTakesNewIds) {
    DamBreak problem;
    Laid laid = dam_break(0.04);
    const Box box{{2.4, 0.2, 0.0}, {2.6, 0.8, 0.2}};  // in the water column
    const std::size_t water_there = count_in(laid.particles, box, true);
    ASSERT_GT(water_there, 0u);
    std::size_t lattice_points = 0;
    for_each_lattice_point(box, 0.04, [&](double, double, double) { ++lattice_points; });
    const std::size_t before = laid.particles.size();
    const GeometryOutcome outcome = apply_geometry_changes({GeometryChange::adding(box)}, problem,
                                                           laid.options, laid.particles);
    EXPECT_EQ(outcome.fluid_removed, water_there);
    EXPECT_EQ(outcome.walls_added, lattice_points);
    EXPECT_EQ(laid.particles.size(), before - water_there + lattice_points);
    EXPECT_EQ(count_in(laid.particles, box, true), 0u);
    EXPECT_EQ(count_in(laid.particles, box, false), lattice_points);
    const std::set<std::uint32_t> ids(laid.particles.id.begin(), laid.particles.id.end());
    EXPECT_EQ(ids.size(), laid.particles.size()) << "every id once";
    EXPECT_EQ(*ids.rbegin(), before - 1 + lattice_points);
}

// Under mDBC: the box stands on the floor, so its bottom face is dry; a particle beside its +x
// face and on the floor is mirrored across +x only.
TEST(GeometryChange, AnAddedBoxMirrorsAcrossTheFacesTheWaterReaches) {
    DamBreak problem;
    Laid laid = dam_break(0.04, BoundaryModel::kMdbc);
    const Box box{{1.6, 0.2, 0.0}, {1.84, 0.8, 0.16}};
    apply_geometry_changes({GeometryChange::adding(box)}, problem, laid.options, laid.particles);
    int checked = 0;
    for (std::size_t i = 0; i < laid.particles.size(); ++i) {
        const Vec3 p = laid.particles.position(i);
        const Vec3 g = laid.particles.to_ghost[i];
        if (std::abs(p.x - 1.82f) < 1e-4f && std::abs(p.y - 0.5f) > 0.1f) continue;
        if (std::abs(p.x - 1.82f) < 1e-4f && std::abs(p.z - 0.02f) < 1e-4f) {  // floor, +x face
            EXPECT_NEAR(g.x, 0.04f, 1e-5f);
            EXPECT_EQ(g.z, 0.0f);
            ++checked;
        }
        if (std::abs(p.x - 1.70f) < 1e-4f && std::abs(p.z - 0.14f) < 1e-4f &&
            std::abs(p.y - 0.5f) < 0.03f) {  // under the top face
            EXPECT_NEAR(g.z, 0.04f, 1e-5f);
            EXPECT_EQ(g.x, 0.0f);
            ++checked;
        }
    }
    EXPECT_GE(checked, 2);
}

TEST(GeometryChange, UnknownRegionsAndBoxesThatDoNotFitAreRefused) {
    DamBreak problem;
    Laid laid = dam_break(0.04);
    try {
        apply_geometry_changes({GeometryChange::removing("gate")}, problem, laid.options,
                               laid.particles);
        FAIL() << "an unknown region was accepted";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find("DamBreak has no region 'gate' (it has: obstacle)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(check_added_box(problem, Box{{1.0, 0, 0}, {1.01, 1, 1}}, 0.04), OptionError);
    EXPECT_THROW(check_added_box(problem, Box{{1.0, 0, 0}, {9, 1, 1}}, 0.04), OptionError);
    BoreInABox wall(BoreInABox::Variant::kWall);
    EXPECT_EQ(wall.regions(0.01).at(0).name, "wall");
    EXPECT_EQ(BoreInABox().regions(0.01).at(0).name, "block");
}

GeometryChange mesh_change(const std::string& path, const Transform& transform = {}) {
    return GeometryChange::adding(path, transform);
}

// A cube given as an STL mesh, standing on the floor beside the water, is added particle for
// particle as the same box is (positions, types, ids, ghost offsets and the water displaced): the
// mesh's faces the floor touches are as dry as the box's.
TEST(GeometryChange, AnAddedMeshOfABoxIsTheBox) {
    testing::TempDir dir("add_mesh");
    const Box box{{1.6, 0.2, 0.0}, {1.84, 0.8, 0.16}};
    const std::string stl = dir.path() + "/block.stl";
    // A unit-ish cube placed by the change's transform: scale, then translate.
    testing::write_stl_binary(testing::box_mesh({0, 0, 0}, {0.24, 0.6, 0.16}), stl);
    Transform place;
    place.scale = 1.0;
    place.translate = Vec3d{1.6, 0.2, 0.0};
    DamBreak problem;
    for (BoundaryModel model : {BoundaryModel::kDbc, BoundaryModel::kMdbc}) {
        Laid with_box = dam_break(0.04, model), with_mesh = dam_break(0.04, model);
        const GeometryOutcome by_box = apply_geometry_changes(
            {GeometryChange::adding(box)}, problem, with_box.options, with_box.particles);
        const GeometryOutcome by_mesh = apply_geometry_changes(
            {mesh_change(stl, place)}, problem, with_mesh.options, with_mesh.particles);
        EXPECT_EQ(by_mesh.walls_added, by_box.walls_added);
        EXPECT_EQ(by_mesh.fluid_removed, by_box.fluid_removed);
        ASSERT_EQ(with_mesh.particles.size(), with_box.particles.size());
        EXPECT_EQ(with_mesh.particles.type, with_box.particles.type);
        EXPECT_EQ(with_mesh.particles.id, with_box.particles.id);
        for (std::size_t i = 0; i < with_box.particles.size(); ++i) {
            const FixedPos p = with_box.particles.pos[i], q = with_mesh.particles.pos[i];
            ASSERT_TRUE(p.x == q.x && p.y == q.y && p.z == q.z) << "particle " << i;
            const Vec3 a = with_box.particles.to_ghost[i], b = with_mesh.particles.to_ghost[i];
            ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z)
                << "particle " << i << " at " << with_box.particles.position(i).x << " "
                << with_box.particles.position(i).y << " " << with_box.particles.position(i).z
                << " box " << a.x << " " << a.y << " " << a.z << " mesh " << b.x << " " << b.y
                << " " << b.z;
        }
    }
}

// A mesh overlapping the floor adds no second particle where the floor's stand.
TEST(GeometryChange, AnAddedMeshLeavesTheWallsItOverlaps) {
    testing::TempDir dir("add_mesh_overlap");
    const std::string stl = dir.path() + "/sunk.stl";
    testing::write_stl_binary(testing::box_mesh({1.6, 0.2, -0.12}, {1.84, 0.8, 0.16}), stl);
    DamBreak problem;
    Laid laid = dam_break(0.04, BoundaryModel::kMdbc);
    const std::size_t walls_before = laid.particles.size() - laid.particles.count(kFluid);
    const GeometryOutcome outcome =
        apply_geometry_changes({mesh_change(stl)}, problem, laid.options, laid.particles);
    EXPECT_EQ(outcome.walls_added, 6u * 15u * 4u) << "only the points above the floor";
    EXPECT_EQ(laid.particles.size() - laid.particles.count(kFluid),
              walls_before + outcome.walls_added);
}

TEST(GeometryChange, MeshesThatAreNoSolidOrDoNotFitAreRefused) {
    testing::TempDir dir("add_mesh_refused");
    DamBreak problem;
    const auto refusal = [&](const GeometryChange& change) {
        try {
            check_added_mesh(problem, change, 0.04);
        } catch (const OptionError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal(mesh_change(dir.path() + "/none.stl")).find("none.stl"), std::string::npos);
    TriangleMesh open = testing::box_mesh({1.6, 0.2, 0.0}, {1.84, 0.8, 0.16});
    open.triangles.pop_back();
    testing::write_stl_binary(open, dir.path() + "/open.stl");
    EXPECT_NE(refusal(mesh_change(dir.path() + "/open.stl")).find("open edge"), std::string::npos);
    testing::write_stl_binary(testing::box_mesh({1.6, 0.2, 0.0}, {9.0, 0.8, 0.16}),
                              dir.path() + "/long.stl");
    EXPECT_NE(refusal(mesh_change(dir.path() + "/long.stl")).find("leaves DamBreak's domain"),
              std::string::npos);
    testing::write_stl_binary(testing::box_mesh({1.601, 0.2, 0.0}, {1.61, 0.8, 0.16}),
                              dir.path() + "/thin.stl");
    EXPECT_NE(refusal(mesh_change(dir.path() + "/thin.stl")).find("no particle fits"),
              std::string::npos);
}

}  // namespace
}  // namespace sph
