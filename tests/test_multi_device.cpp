// The key invariant of the multi-device decomposition: the same problem on 1, 2, 3 or 5 devices
// gives bitwise identical particle states, through rebuilds and migrations.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <unordered_map>

#include "dam_break.h"
#include "driver/simulation.h"
#include "lattice.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

// Still water whose particles are jittered off the lattice: it churns, so particles cross slices.
class RandomBox : public StillWater {
public:
    RandomBox() : StillWater(0.4, 0.2, 0.2) {}
    void fill(double dp, const EmitParticle& emit) const override {
        std::mt19937 random(42);
        std::uniform_real_distribution<double> jitter(-0.4 * dp, 0.4 * dp);
        StillWater::fill(dp, [&](SetupParticle p) {
            if (p.type == kFluid) {
                p.x += jitter(random);
                p.y += jitter(random);
                p.z += jitter(random);
            }
            emit(p);
        });
    }
};

struct Outcome {
    std::unordered_map<std::uint32_t, std::pair<Vec4, Vec4>> state;  // id -> pos, velrho
    std::unordered_map<std::uint32_t, int> first_owner, last_owner;
    double time = 0.0;
};

Outcome run(const Problem& problem, double dp, int devices, int iterations, int split_axis) {
    RunOptions o = testing::small_run(dp, 10.0);
    o.devices = DeviceSelection::cpu(devices);
    o.threads = 1;
    Simulation sim(problem, o, split_axis);
    Outcome out;
    auto owners = [&](std::unordered_map<std::uint32_t, int>& owner) {
        const std::vector<HostParticles> parts = sim.particles_per_device();
        for (int d = 0; d < int(parts.size()); ++d) {
            for (std::uint32_t id : parts[d].id) owner[id] = d;
        }
    };
    sim.step();  // the first rebuild sorts and settles the initial split
    owners(out.first_owner);
    for (int i = 1; i < iterations; ++i) sim.step();
    owners(out.last_owner);
    const HostParticles p = sim.particles();
    for (std::size_t i = 0; i < p.size(); ++i) out.state[p.id[i]] = {p.pos[i], p.velrho[i]};
    out.time = sim.time();
    return out;
}

bool bitwise_equal(const Vec4& a, const Vec4& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

void expect_identical(const Outcome& one, const Outcome& many, int devices) {
    ASSERT_EQ(one.state.size(), many.state.size());
    EXPECT_EQ(one.time, many.time);
    int differing = 0;
    for (const auto& [id, s] : one.state) {
        const auto& t = many.state.at(id);
        if (!bitwise_equal(s.first, t.first) || !bitwise_equal(s.second, t.second)) ++differing;
    }
    EXPECT_EQ(differing, 0) << "particles differing on " << devices << " devices";
    int migrated = 0;
    for (const auto& [id, d] : many.last_owner) migrated += many.first_owner.at(id) != d;
    EXPECT_GT(migrated, 0) << "no particle changed device: the test exercised no migration";
    std::printf("%d devices: %zu particles identical, %d migrated\n", devices, many.state.size(),
                migrated);
}

TEST(MultiDevice, DamBreakIsBitwiseIdenticalOn1235Devices) {
    // Split along x (the default): the surge crosses the slice boundaries.
    const DamBreak problem;
    const Outcome one = run(problem, 0.08, 1, 400, 0);
    for (int devices : {2, 3, 5}) {
        expect_identical(one, run(problem, 0.08, devices, 400, 0), devices);
    }
}

TEST(MultiDevice, RandomBoxIsBitwiseIdenticalOn1235Devices) {
    const RandomBox problem;
    const Outcome one = run(problem, 0.02, 1, 300, 0);
    for (int devices : {2, 3, 5}) {
        expect_identical(one, run(problem, 0.02, devices, 300, 0), devices);
    }
}

}  // namespace
}  // namespace sph
