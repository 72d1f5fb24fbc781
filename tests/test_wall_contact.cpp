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

TEST(ContactVelocityChange, LeavesARecedingParticleEdgesCornersAndDeeperLayersAlone) {
    const Vec3 on_surface = make_vec3(0.0f, 0.0f, 0.5f * kDp);
    const Vec3 face = make_vec3(0.0f, 0.0f, kDp);
    const Vec3 rising = make_vec3(0.0f, 0.0f, 2.0f), falling = make_vec3(0.0f, 0.0f, -2.0f);
    EXPECT_EQ(length_squared(contact_velocity_change(on_surface, rising, face, kDp)), 0.0f);
    const Vec3 edge = make_vec3(kDp, 0.0f, kDp), corner = make_vec3(kDp, kDp, kDp);
    const Vec3 second_layer = make_vec3(0.0f, 0.0f, 3.0f * kDp), none = make_vec3(0, 0, 0);
    for (const Vec3& ghost : {edge, corner, second_layer, none}) {
        EXPECT_EQ(length_squared(contact_velocity_change(on_surface, falling, ghost, kDp)), 0.0f);
    }
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
                                   ghost_outside(above, p);
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
