// --no-penetration (kernels/wall_contact.h): the velocity change on its own, lone droplets dropped
// on an mDBC floor with and without it, its bits on several devices, and water it leaves alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "driver/simulation.h"
#include "lattice.h"
#include "problem.h"
#include "still_water.h"
#include "test_support.h"
#include "wall_contact.h"

namespace sph {
namespace {

constexpr float kDp = 0.02f;

TEST(ContactVelocityChange, StopsAParticleClosingOnAFaceOnItsSurface) {
    const Vec3 face = make_vec3(0.0f, 0.0f, kDp);  // a floor's first layer: its ghost dp above
    // On the surface (dp/2 above the wall particle), falling at 3 m/s and sliding at 1 m/s.
    const Vec3 dv = contact_velocity_change(make_vec3(0.3f * kDp, 0.0f, 0.5f * kDp),
                                            make_vec3(1.0f, 0.0f, -3.0f), face, kDp);
    EXPECT_FLOAT_EQ(dv.z, 3.0f);  // it stops closing
    EXPECT_EQ(dv.x, 0.0f);        // and slides on
    EXPECT_EQ(dv.y, 0.0f);
}

TEST(ContactVelocityChange, RampsFromNothingAtAQuarterDpToABounceInside) {
    const Vec3 face = make_vec3(0.0f, 0.0f, kDp);
    const Vec3 falling = make_vec3(0.0f, 0.0f, -2.0f);
    auto change_at = [&](float s_in_dp) {  // s: from the surface, in dp
        return contact_velocity_change(make_vec3(0.0f, 0.0f, (0.5f + s_in_dp) * kDp), falling, face,
                                       kDp)
            .z;
    };
    EXPECT_EQ(change_at(0.5f), 0.0f);  // where the water rests on an mDBC wall
    EXPECT_EQ(change_at(0.26f), 0.0f);
    EXPECT_NEAR(change_at(0.125f), 1.0f, 1e-5f);  // half the closing speed, half way in
    EXPECT_NEAR(change_at(-0.125f), 3.0f, 1e-5f);
    EXPECT_NEAR(change_at(-0.4f), 4.0f, 1e-5f);  // at most a bounce: twice the closing speed
}

TEST(ContactVelocityChange, LeavesARecedingParticleAndDeeperLayersAlone) {
    const Vec3 on_surface = make_vec3(0.0f, 0.0f, 0.5f * kDp);
    const Vec3 face = make_vec3(0.0f, 0.0f, kDp);
    const Vec3 rising = make_vec3(0.0f, 0.0f, 2.0f), falling = make_vec3(0.0f, 0.0f, -2.0f);
    EXPECT_EQ(length_squared(contact_velocity_change(on_surface, rising, face, kDp)), 0.0f);
    const Vec3 second_layer = make_vec3(0.0f, 0.0f, 3.0f * kDp);
    const Vec3 edge_second_layer = make_vec3(kDp, 0.0f, 3.0f * kDp);
    const Vec3 edge_deeper = make_vec3(3.0f * kDp, 3.0f * kDp, 0.0f), none = make_vec3(0, 0, 0);
    for (const Vec3& ghost : {second_layer, edge_second_layer, edge_deeper, none}) {
        EXPECT_EQ(length_squared(contact_velocity_change(on_surface, falling, ghost, kDp)), 0.0f);
    }
}

// An edge's first-layer particle b, its ghost node dp along +x and +z: the edge of a block that
// fills x < 0, z < 0 (taking b's edge as the origin), b at (-dp/2, -dp/2). Positions below are
// from b, in dp.
Vec3 from_edge_particle(float x, float z) {
    return make_vec3(x * kDp, 0.0f, z * kDp);
}
const Vec3 kEdge = make_vec3(kDp, 0.0f, kDp);

TEST(ContactVelocityChange, StopsAParticleClosingOnAnEdgesFaces) {
    // Falling onto the top face 0.3 dp from the edge, 0.1 dp above it: straight up.
    const Vec3 dv = contact_velocity_change(from_edge_particle(0.2f, 0.6f),
                                            make_vec3(0.5f, 0.0f, -2.0f), kEdge, kDp);
    EXPECT_NEAR(dv.z, 0.6f * 2.0f, 1e-5f);  // phi = 1 - 0.1 / 0.25
    EXPECT_EQ(dv.x, 0.0f);
    // The same over a corner's top face (ghost node diagonal in all three axes).
    const Vec3 corner = make_vec3(kDp, kDp, kDp);
    const Vec3 dv_corner = contact_velocity_change(make_vec3(0.2f * kDp, 0.3f * kDp, 0.6f * kDp),
                                                   make_vec3(0.0f, 0.0f, -2.0f), corner, kDp);
    EXPECT_NEAR(dv_corner.z, 1.2f, 1e-5f);
    EXPECT_EQ(dv_corner.x, 0.0f);
    EXPECT_EQ(dv_corner.y, 0.0f);
}

TEST(ContactVelocityChange, StopsAParticleClosingOnAnEdgeRadially) {
    // 0.1 dp out along both faces' normals: 0.1 sqrt 2 dp from the edge, closing along the
    // diagonal at sqrt 2 m/s.
    const Vec3 dv = contact_velocity_change(from_edge_particle(0.6f, 0.6f),
                                            make_vec3(-1.0f, 0.0f, -1.0f), kEdge, kDp);
    const float phi = 1.0f - 0.1f * std::sqrt(2.0f) / 0.25f;
    EXPECT_NEAR(dv.x, phi, 1e-5f);
    EXPECT_NEAR(dv.z, phi, 1e-5f);
    EXPECT_EQ(dv.y, 0.0f);
}

TEST(ContactVelocityChange, LetsAParticleFlowPastAnEdge) {
    // Sliding down the side face 0.2 dp from it, just below the edge: the plane half-way to the
    // diagonal ghost node would have it inside and stop it.
    EXPECT_EQ(length_squared(contact_velocity_change(from_edge_particle(0.7f, 0.2f),
                                                     make_vec3(0.0f, 0.0f, -3.0f), kEdge, kDp)),
              0.0f);
    // Turning round the edge, across its radius.
    EXPECT_EQ(length_squared(contact_velocity_change(from_edge_particle(0.6f, 0.6f),
                                                     make_vec3(1.0f, 0.0f, -1.0f), kEdge, kDp)),
              0.0f);
}

TEST(ContactVelocityChange, PushesAParticleInsideAnEdgeOutAcrossItsNearestFace) {
    // 0.1 dp inside the side face and 0.3 dp inside the top one (or, for a tank's concave corner,
    // inside both walls): out along +x, a bounce of 1.4 times its closing speed.
    const Vec3 dv = contact_velocity_change(from_edge_particle(0.4f, 0.2f),
                                            make_vec3(-2.0f, 0.0f, -1.0f), kEdge, kDp);
    EXPECT_NEAR(dv.x, 2.8f, 1e-5f);
    EXPECT_EQ(dv.y, 0.0f);
    EXPECT_EQ(dv.z, 0.0f);
}

// Lone fluid particles dropped from 3.3 m onto an mDBC floor, one every 0.2 m along x (each
// device gets some), reaching it at about 8 m/s, as SPHERIC's spray meets its walls. They start
// expanded to 0.63 rho0 (the density of water 5.5 m above a hydrostatic zero, with this run's c0
// of 19.8 m/s), as SPHERIC's lone particles were (0.32-0.62 rho0, bench/NOTES.md entry 36): their
// pressure, near -B, pulls them towards the wall particles. At rho0 the same droplets stop 0.4 dp
// above the floor without any correction.
class DropletsOverAFloor : public Problem {
public:
    static constexpr double kLength = 1.2, kWidth = 0.2, kHeight = 3.3, kExpandedDepth = -5.5;
    std::string name() const override { return "DropletsOverAFloor"; }
    double default_dp() const override { return kDp; }
    double default_t_end() const override { return 1.0; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return 0.1; }
    Box domain(double) const override {
        return Box{{-0.1, -0.1, -0.2}, {kLength + 0.1, kWidth + 0.1, kHeight + 0.2}};
    }
    void check_resolution(double) const override {}
    void fill(double dp, const EmitParticle& emit) const override {
        const Box above{{-1e300, -1e300, 0.0}, {1e300, 1e300, 1e300}};
        for_each_lattice_point(Box{{0, 0, -3 * dp}, {kLength, kWidth, 0}}, dp,
                               [&](double x, double y, double z) {
                                   SetupParticle p{x, y, z, kBoundary, 0.0};
                                   ghost_outside(above, dp, p);
                                   emit(p);
                               });
        // Off the floor's lattice, so that each meets it between wall particles.
        for (int k = 0; k < 6; ++k) {
            emit(SetupParticle{0.1 + 0.2 * k + 0.3 * dp, 0.1 + 0.2 * dp, kHeight - 0.05 * k, kFluid,
                               kExpandedDepth});
        }
    }
};

RunOptions droplet_run(BackendChoice backend, bool no_penetration) {
    RunOptions o = testing::small_run(kDp, 10.0, backend);
    o.boundary = BoundaryModel::kMdbc;
    o.no_penetration = no_penetration;
    o.threads = 1;
    return o;
}

class WallContact : public testing::EveryBackend {};

// How far below the floor's surface the droplets got, over `iterations` [m] (negative: they
// stayed above it), and their largest speed after the first bounce [m/s].
struct DropOutcome {
    double deepest = -1e300, fastest_rising = 0.0;
};

DropOutcome drop(BackendChoice backend, bool no_penetration, int iterations) {
    const DropletsOverAFloor problem;
    Simulation sim(problem, droplet_run(backend, no_penetration), 0);
    DropOutcome out;
    for (int i = 0; i < iterations; ++i) {
        sim.step();
        const HostParticles p = sim.particles();
        for (std::size_t k = 0; k < p.size(); ++k) {
            if (p.type[k] != kFluid) continue;
            out.deepest = std::max(out.deepest, -double(p.position(k).z));
            out.fastest_rising = std::max(out.fastest_rising, double(p.velrho[k].z));
        }
    }
    return out;
}

TEST_P(WallContact, LoneDropletsStayOutOfAnMdbcFloor) {
    constexpr int kIterations = 3600;  // about 0.95 s: each droplet lands and bounces
    const DropOutcome off = drop(backend(), false, kIterations);
    const DropOutcome on = drop(backend(), true, kIterations);
    std::printf(
        "deepest below the surface: %.2f dp without, %.2f dp with; fastest rising: %.2f "
        "and %.2f m/s\n",
        off.deepest / kDp, on.deepest / kDp, off.fastest_rising, on.fastest_rising);
    EXPECT_GT(off.deepest, 0.1 * kDp) << "without the correction the droplets stayed out too";
    EXPECT_LT(on.deepest, 0.0) << "a droplet went into the floor";
}

// The same droplets dropped onto the top of a block standing in the air (an obstacle's edges and
// corners, which its face particles do not cover): within dp of its edges and corners on top,
// and just outside two of its side faces, falling past their edges.
class DropletsOverABlock : public Problem {
public:
    static constexpr double kHeight = 3.3;
    static Box block() { return Box{{0.2, 0.2, 0.0}, {0.6, 0.4, 0.12}}; }
    std::string name() const override { return "DropletsOverABlock"; }
    double default_dp() const override { return kDp; }
    double default_t_end() const override { return 1.0; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return 0.1; }
    Box domain(double) const override { return Box{{0.0, 0.0, -2.0}, {0.8, 0.6, kHeight + 0.2}}; }
    void check_resolution(double) const override {}
    void fill(double dp, const EmitParticle& emit) const override {
        const Box solid = block();
        const Faces wet{{true, true, true, true, false, true}};  // all but its foot
        for_each_lattice_point(solid, dp, [&](double x, double y, double z) {
            SetupParticle p{x, y, z, kBoundary, 0.0};
            ghost_inside(solid, wet, dp, 3, p);
            emit(p);
        });
        const double at[][2] = {
            {0.6 - 0.3 * dp, 0.25 + 0.2 * dp},   // on top, 0.3 dp from the +x edge
            {0.6 + 0.15 * dp, 0.32 + 0.2 * dp},  // just outside the +x face
            {0.2 + 0.3 * dp, 0.2 + 0.3 * dp},    // on top, by the corner at -x, -y
            {0.2 - 0.15 * dp, 0.32},             // just outside the -x face
            {0.4 + 0.3 * dp, 0.4 - 0.3 * dp},    // on top, 0.3 dp from the +y edge
        };
        for (int k = 0; k < 5; ++k) {
            emit(SetupParticle{at[k][0], at[k][1], kHeight - 0.05 * k, kFluid,
                               DropletsOverAFloor::kExpandedDepth});
        }
    }
};

// The largest depth(position) [m] of any droplet over `iterations` steps of `problem`.
template <class Depth>
double deepest_droplet(const Problem& problem, BackendChoice backend, bool no_penetration,
                       int iterations, Depth depth) {
    Simulation sim(problem, droplet_run(backend, no_penetration), 0);
    double deepest = -1e300;
    for (int i = 0; i < iterations; ++i) {
        sim.step();
        const HostParticles p = sim.particles();
        for (std::size_t k = 0; k < p.size(); ++k) {
            if (p.type[k] != kFluid) continue;
            double at[3];
            p.position(k, at);
            deepest = std::max(deepest, depth(at));
        }
    }
    return deepest;
}

// How far into the block a droplet got [m] (negative: it stayed out).
double deepest_in_block(BackendChoice backend, bool no_penetration, int iterations) {
    const Box b = DropletsOverABlock::block();
    return deepest_droplet(DropletsOverABlock(), backend, no_penetration, iterations,
                           [&b](const double* at) {
                               double inside = 1e300;  // to the nearest face, negative outside
                               for (int a = 0; a < 3; ++a) {
                                   inside = std::min({inside, at[a] - b.lo[a], b.hi[a] - at[a]});
                               }
                               return inside;
                           });
}

TEST_P(WallContact, LoneDropletsStayOutOfABlocksEdgesAndCorners) {
    // They land at about 2,400-2,460 iterations; without the correction, thrown back out of the
    // block, all have left the domain by 2,870.
    constexpr int kIterations = 2700;
    const double off = deepest_in_block(backend(), false, kIterations);
    const double on = deepest_in_block(backend(), true, kIterations);
    std::printf("deepest into the block: %.2f dp without, %.2f dp with\n", off / kDp, on / kDp);
    EXPECT_GT(off, 0.1 * kDp) << "without the correction the droplets stayed out too";
    EXPECT_LT(on, 0.0) << "a droplet went into the block";
}

// The same droplets dropped onto the top of a tank's wall (water thrown over the walls lands
// there): in the wall's first, second and third layer's columns.
class DropletsOntoAWallTop : public Problem {
public:
    static constexpr double kTop = 0.1;
    std::string name() const override { return "DropletsOntoAWallTop"; }
    double default_dp() const override { return kDp; }
    double default_t_end() const override { return 1.0; }
    int default_split_axis() const override { return 1; }
    double still_water_depth() const override { return 0.1; }
    Box domain(double) const override { return Box{{-0.3, -0.1, -0.1}, {0.5, 0.3, 3.5}}; }
    void check_resolution(double) const override {}
    void fill(double dp, const EmitParticle& emit) const override {
        add_open_tank(
            Box{{0, 0, 0}, {0.4, 0.2, kTop}}, kTop, dp, kWallLayers,
            [](double, double, double) { return 0.0; }, emit);
        const double x[] = {-0.3 * dp, -1.3 * dp, -2.4 * dp}, y[] = {0.03, 0.1, 0.17};
        for (int k = 0; k < 3; ++k) {
            emit(SetupParticle{x[k], y[k] + 0.2 * dp, 3.3 - 0.05 * k, kFluid,
                               DropletsOverAFloor::kExpandedDepth});
        }
    }
};

// How far below the wall's top a droplet got while over the wall [m] (negative: it stayed on
// or above it).
double deepest_in_wall_top(BackendChoice backend, bool no_penetration, int iterations) {
    const double wall_lo = -kWallLayers * double(kDp);
    return deepest_droplet(DropletsOntoAWallTop(), backend, no_penetration, iterations,
                           [wall_lo](const double* at) {
                               const bool over_the_wall = at[0] >= wall_lo && at[0] <= 0.0;
                               return over_the_wall ? DropletsOntoAWallTop::kTop - at[2] : -1e300;
                           });
}

TEST_P(WallContact, LoneDropletsStayOnAWallsTop) {
    constexpr int kIterations = 2700;  // they land at about 2,450
    const double off = deepest_in_wall_top(backend(), false, kIterations);
    const double on = deepest_in_wall_top(backend(), true, kIterations);
    std::printf("deepest below the wall's top: %.2f dp without, %.2f dp with\n", off / kDp,
                on / kDp);
    EXPECT_GT(off, 0.1 * kDp) << "without the correction the droplets stayed out too";
    EXPECT_LT(on, 0.0) << "a droplet went into the wall's top";
}

TEST_P(WallContact, DropletsMatchOneDeviceBitwise) {
    const DropletsOverAFloor problem;
    auto states = [&](const DeviceSelection& devices) {
        RunOptions o = droplet_run(backend(), true);
        o.devices = devices;
        Simulation sim(problem, o, 0);
        for (int i = 0; i < 3600; ++i) sim.step();
        return testing::states_by_id(sim.particles());
    };
    const bool cuda = backend() == BackendChoice::kCuda;
    const testing::ParticleStates one =
        states(cuda ? DeviceSelection::gpus({0}) : DeviceSelection::cpu(1));
    const std::vector<DeviceSelection> many =
        cuda ? std::vector<DeviceSelection>{DeviceSelection::gpus({0, 0}),
                                            DeviceSelection::gpus({0, 0, 0})}
             : std::vector<DeviceSelection>{DeviceSelection::cpu(2), DeviceSelection::cpu(3)};
    for (const DeviceSelection& devices : many) {
        EXPECT_EQ(testing::count_bitwise_differences(one, states(devices)), 0)
            << (cuda ? "--devices " + devices.gpu_list()
                     : std::to_string(devices.cpu_devices) + " CPU devices");
    }
}

// Water at rest on mDBC walls sits dp/2 off them and never closes on them: the same bits.
TEST_P(WallContact, StillWaterIsTheSameToTheBit) {
    StillWater problem(0.4, 0.2, 0.3);
    auto states = [&](bool no_penetration) {
        RunOptions o = testing::small_run(0.03, 10.0, backend());
        o.boundary = BoundaryModel::kMdbc;
        o.no_penetration = no_penetration;
        o.threads = 1;
        Simulation sim(problem, o, 0);
        for (int i = 0; i < 300; ++i) sim.step();
        return testing::states_by_id(sim.particles());
    };
    const testing::ParticleStates off = states(false);
    EXPECT_EQ(testing::count_bitwise_differences(off, states(true)), 0);
}

SPH_ON_EVERY_BACKEND(WallContact);

}  // namespace
}  // namespace sph
