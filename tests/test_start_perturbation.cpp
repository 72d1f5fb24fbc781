// --perturb: ensemble members start the fluid a little off its lattice, by amounts drawn from the
// seed and each particle's place in the set-up alone; walls stay where the geometry puts them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "dam_break.h"
#include "driver/restart.h"
#include "driver/run_setup.h"
#include "driver/start_perturbation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kDp = 0.04;

HostParticles laid_out(std::int64_t seed, double size = 1e-3) {
    RunOptions o = testing::small_run(kDp, 0.1, BackendChoice::kCpu);
    o.perturb_seed = seed;
    o.perturb_size = size;
    return make_particles(DamBreak(), o, make_sph_params(o, 0.55));
}

bool same_place(const FixedPos& a, const FixedPos& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

// How far each fluid particle of `moved` lies from its place in `lattice`, in steps, at most;
// and how many moved at all.
struct Moves {
    std::int64_t largest = 0;
    std::size_t moved = 0, fluid = 0;
    double mean[3] = {0.0, 0.0, 0.0};
};

Moves moves(const HostParticles& lattice, const HostParticles& moved) {
    Moves m;
    for (std::size_t i = 0; i < lattice.size(); ++i) {
        if (lattice.type[i] != kFluid) continue;
        ++m.fluid;
        const std::int64_t d[3] = {std::int64_t(moved.pos[i].x) - lattice.pos[i].x,
                                   std::int64_t(moved.pos[i].y) - lattice.pos[i].y,
                                   std::int64_t(moved.pos[i].z) - lattice.pos[i].z};
        for (int a = 0; a < 3; ++a) {
            m.largest = std::max<std::int64_t>(m.largest, std::llabs(d[a]));
            m.mean[a] += double(d[a]);
        }
        m.moved += !same_place(lattice.pos[i], moved.pos[i]);
    }
    for (double& mean : m.mean) mean /= double(m.fluid);
    return m;
}

TEST(StartPerturbation, MovesTheFluidWithinItsSizeAndLeavesTheWalls) {
    const HostParticles lattice = laid_out(0), moved = laid_out(7, 1e-3);
    ASSERT_EQ(lattice.size(), moved.size());
    for (std::size_t i = 0; i < lattice.size(); ++i) {
        EXPECT_EQ(lattice.type[i], moved.type[i]);
        if (lattice.type[i] != kFluid) {
            EXPECT_TRUE(same_place(lattice.pos[i], moved.pos[i])) << "wall " << i << " moved";
        }
    }
    const Moves m = moves(lattice, moved);
    const std::int64_t reach = std::int64_t(std::floor(1e-3 * kDp / double(lattice.frame.unit)));
    EXPECT_LE(m.largest, reach);
    EXPECT_GT(m.largest, reach * 9 / 10) << "the moves should span their range";
    EXPECT_GE(m.moved, m.fluid - 1);
    // Drawn evenly from [-reach, reach]: no drift of the whole water.
    for (double mean : m.mean) EXPECT_LT(std::fabs(mean), 0.05 * double(reach));
}

TEST(StartPerturbation, TheSameSeedStartsTheSameAndAnotherSeedElsewhere) {
    const HostParticles a = laid_out(7), again = laid_out(7), other = laid_out(8);
    std::size_t differ_again = 0, differ_other = 0, fluid = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        differ_again += !same_place(a.pos[i], again.pos[i]);
        if (a.type[i] != kFluid) continue;
        ++fluid;
        differ_other += !same_place(a.pos[i], other.pos[i]);
    }
    EXPECT_EQ(differ_again, 0u);
    EXPECT_GE(differ_other, fluid - 1);
    EXPECT_EQ(moves(laid_out(0), laid_out(0, 0.1)).moved, 0u) << "seed 0 moves nothing";
}

TEST(StartPerturbation, TheSizeScalesTheMoves) {
    const HostParticles lattice = laid_out(0);
    const Moves small = moves(lattice, laid_out(3, 1e-4)), large = moves(lattice, laid_out(3, 0.1));
    const double unit = double(lattice.frame.unit);
    EXPECT_LE(double(small.largest) * unit, 1e-4 * kDp);
    EXPECT_LE(double(large.largest) * unit, 0.1 * kDp);
    EXPECT_GT(double(large.largest) * unit, 0.09 * kDp);
}

// A restart must start from the same ensemble member's settings: the seed is among them.
TEST(StartPerturbation, TheSeedIsAmongTheRunsSettings) {
    RunOptions o = testing::small_run(kDp, 0.1, BackendChoice::kCpu);
    const DamBreak problem;
    const CellGrid grid = make_grid(problem, make_sph_params(o, 0.55), kDp, 0);
    auto settings_text = [&](const RunOptions& options) {
        std::ostringstream text;
        for (const auto& s : physics_settings(problem, options, grid, 1000))
            text << s.first << "=" << s.second << ";";
        return text.str();
    };
    const std::string none = settings_text(o);
    o.perturb_seed = 5;
    const std::string five = settings_text(o);
    o.perturb_seed = 6;
    EXPECT_EQ(none.find("perturb"), std::string::npos);
    EXPECT_NE(five.find("perturb=5"), std::string::npos) << five;
    EXPECT_NE(five, settings_text(o));
}

}  // namespace
}  // namespace sph
