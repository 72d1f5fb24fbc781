// Laying out a run's particles (driver/run_setup.h, lay_out): the fill's particles become the
// run's a chunk at a time, side by side on the host's cores; any number of threads lays out the
// same bits, perturbed starts and slice counts included, across chunks.
#include <gtest/gtest.h>

#include <omp.h>

#include "dam_break.h"
#include "driver/run_setup.h"
#include "test_support.h"

namespace sph {
namespace {

LaidOut laid_out_on(int threads, const RunOptions& o) {
    const DamBreak problem;
    const SphParams params = make_sph_params(o, problem.still_water_depth());
    const CellGrid grid = make_grid(problem, params, o.dp, 0);
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    LaidOut out = lay_out(problem, o, params, grid, std::size_t(-1));
    omp_set_num_threads(before);
    return out;
}

TEST(LayOut, AnyThreadCountLaysOutTheSameBits) {
    RunOptions o = testing::small_run(0.0095, 0.1);
    o.perturb_seed = 7;
    o.perturb_size = 0.1;
    const LaidOut one = laid_out_on(1, o), four = laid_out_on(4, o);
    ASSERT_GT(one.count, std::uint64_t(1) << 20) << "a whole chunk of 2^20 and part of the next";
    ASSERT_EQ(four.particles.size(), one.particles.size());
    EXPECT_EQ(four.count, one.count);
    EXPECT_EQ(four.fluid, one.fluid);
    EXPECT_EQ(four.per_slice.all, one.per_slice.all);
    EXPECT_EQ(four.per_slice.fluid, one.per_slice.fluid);
    EXPECT_EQ(four.particles.id, one.particles.id);
    EXPECT_EQ(four.particles.type, one.particles.type);
    RunOptions plain_options = o;
    plain_options.perturb_seed = 0;
    const LaidOut plain = laid_out_on(1, plain_options);
    ASSERT_EQ(plain.particles.size(), one.particles.size());
    std::size_t differ = 0, moved = 0;
    for (std::size_t i = 0; i < one.particles.size(); ++i) {
        const FixedPos a = one.particles.pos[i], b = four.particles.pos[i];
        const Vec4 u = one.particles.velrho[i], v = four.particles.velrho[i];
        const Vec3 g = one.particles.to_ghost[i], h = four.particles.to_ghost[i];
        differ += !(a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w && u.w == v.w &&
                    g.x == h.x && g.y == h.y && g.z == h.z);
        const FixedPos c = plain.particles.pos[i];
        moved += one.particles.type[i] == kFluid && !(a.x == c.x && a.y == c.y && a.z == c.z);
    }
    EXPECT_EQ(differ, 0u);
    EXPECT_GT(moved, 0u) << "the perturbation moved the water off its lattice";
    for (std::size_t i = 0; i < one.particles.size(); ++i) {
        ASSERT_EQ(one.particles.id[i], i);
    }
}

}  // namespace
}  // namespace sph
