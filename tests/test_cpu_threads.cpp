// The CPU back end gives the same bits on any number of OpenMP threads: each particle's sums are
// taken by one thread, in its neighbour list's order, and the reductions across particles (the
// time step's minima) are exact. The suite runs each test on one thread (CMakePresets.json's test
// presets set OMP_NUM_THREADS=1, as ctest runs a test per core), so this is where several threads
// share one device's loops.
#include <gtest/gtest.h>

#include <cstdio>

#include "dam_break.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kDp = 0.054;    // DamBreak as the several-device mDBC test runs it
constexpr int kIterations = 80;  // ten list rebuilds (every 8 iterations by default)

testing::ParticleStates run_on_threads(BoundaryModel boundary, int threads, double& time) {
    RunOptions o = testing::small_run(kDp, 10.0);
    o.boundary = boundary;
    o.threads = threads;
    Simulation sim(DamBreak(), o, 0);
    for (int i = 0; i < kIterations; ++i) sim.step();
    time = sim.time();
    return testing::states_by_id(sim.particles());
}

TEST(CpuThreads, AnyThreadCountGivesTheSameBits) {
    for (BoundaryModel boundary : {BoundaryModel::kDbc, BoundaryModel::kMdbc}) {
        const char* name = boundary == BoundaryModel::kMdbc ? "mDBC" : "DBC";
        double one_time = 0.0;
        const testing::ParticleStates one = run_on_threads(boundary, 1, one_time);
        for (int threads : {2, 3}) {
            double time = 0.0;
            const testing::ParticleStates many = run_on_threads(boundary, threads, time);
            ASSERT_EQ(many.size(), one.size());
            EXPECT_EQ(time, one_time);
            const int differing = testing::count_bitwise_differences(one, many);
            EXPECT_EQ(differing, 0) << threads << " threads, " << name;
            std::printf("%s, %d threads: %zu particles, %d differ from one thread, t = %.6f s\n",
                        name, threads, many.size(), differing, time);
        }
    }
}

}  // namespace
}  // namespace sph
