// Positions in fixed point (kernels/fixed_position.h): a pair's displacement is as good anywhere in
// a domain as near its origin, moves shorter than a float's spacing still move, a particle that
// blows up lands outside every grid, and a problem moved far from the origin runs as it does at
// the origin, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "cell_grid.h"
#include "driver/simulation.h"
#include "fixed_position.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

TEST(FixedPosition, TheDomainsFrameSpansItsLongestSideInAtMostTwoToTheThirtySteps) {
    for (const double longest : {0.3, 1.0, 1.61, 3.22, 20.0, 1000.0}) {
        const double lo[3] = {-0.5, 2.0, 0.0}, hi[3] = {-0.5 + longest, 2.1, 0.4};
        const PositionFrame f = frame_for_domain(lo, hi);
        int exponent = 0;
        EXPECT_EQ(std::frexp(double(f.unit), &exponent), 0.5) << "a power of two";
        EXPECT_EQ(double(f.unit) * double(f.inv_unit), 1.0);
        EXPECT_LE(longest / double(f.unit), std::ldexp(1.0, 30)) << longest << " m";
        EXPECT_GT(longest / double(f.unit), std::ldexp(1.0, 29)) << "not the finest step";
        EXPECT_EQ(f.origin[0], lo[0]);
    }
    const double lo[3] = {0, 0, 0}, flat[3] = {0, 0, 0};
    EXPECT_THROW(frame_for_domain(lo, flat), std::invalid_argument);
}

TEST(FixedPosition, APositionComesBackWithinHalfAStep) {
    const double lo[3] = {-1.0, -1.0, -1.0}, hi[3] = {19.0, 3.0, 2.0};
    const PositionFrame f = frame_for_domain(lo, hi);
    for (const double x : {-1.0, -0.3, 0.0, 1e-9, 7.123456789, 18.99999}) {
        const FixedPos p = f.fixed(x, 0.5 * x, 0.1, 2.0f);
        double back[3];
        f.metres(p, back);
        EXPECT_LE(std::fabs(back[0] - x), 0.5 * f.unit) << x;
        EXPECT_LE(std::fabs(back[1] - 0.5 * x), 0.5 * f.unit) << x;
        EXPECT_EQ(p.w, 2.0f);
    }
}

// Two particles dp apart 19 m from the origin: their displacement is dp to the step (3e-8 m) and
// a float's rounding of it, where float positions 19 m out are 1.9e-6 m apart (a part in 5e3 of
// dp = 1 cm).
TEST(FixedPosition, APairsDisplacementIsAsGoodFarFromTheOriginAsNearIt) {
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {20.0, 2.0, 2.0};
    const PositionFrame f = frame_for_domain(lo, hi);
    const double dp = 0.0123456;
    for (const double x : {0.01, 1.0, 19.0}) {
        const FixedPos a = f.fixed(x + dp, 1.0, 1.0, 0.0f), b = f.fixed(x, 1.0, 1.0, 0.0f);
        const Vec3 r = f.between(a, b);
        const double error = std::fabs(double(r.x) - dp);
        EXPECT_LE(error, double(f.unit) + 1e-7 * dp) << "at x = " << x;
        // A twentieth of the spacing of float positions 19 m out.
        EXPECT_LT(error, 0.05 * double(std::nextafter(19.0f, 100.0f) - 19.0f)) << "at x = " << x;
        EXPECT_EQ(r.y, 0.0f);
    }
}

// Still water 19 m out moves by 1e-7 m a step, less than a float's spacing there (1.9e-6 m): a
// float position would never move; a fixed one moves by the nearest whole steps.
TEST(FixedPosition, MovesShorterThanAFloatsSpacingStillMove) {
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {20.0, 2.0, 2.0};
    const PositionFrame f = frame_for_domain(lo, hi);
    FixedPos p = f.fixed(19.0, 1.0, 1.0, 0.0f);
    const FixedPos start = p;
    const float step = 1e-7f;
    EXPECT_EQ(19.0f + step, 19.0f) << "a float does not move";
    for (int k = 0; k < 1000; ++k) p = f.moved(p, make_vec3(step, -step, 0.0f));
    const Vec3 moved = f.between(p, start);
    EXPECT_NEAR(moved.x, 1000.0 * step, 1000.0 * 0.5 * f.unit);
    EXPECT_NEAR(moved.y, -1000.0 * step, 1000.0 * 0.5 * f.unit);
    EXPECT_EQ(moved.z, 0.0f);
}

// A move too long for the frame, or not finite, ends at the frame's edge: outside every grid,
// never wrapped round into the domain.
TEST(FixedPosition, AParticleThatBlewUpEndsOutsideTheGrid) {
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {1.0, 1.0, 1.0};
    const PositionFrame f = frame_for_domain(lo, hi);
    const CellGrid grid = make_cell_grid(lo, hi, 0.03, 0, f);
    const FixedPos p = f.fixed(0.5, 0.5, 0.5, 0.0f);
    ASSERT_NE(grid.cell_of(p), grid.outside_cell());
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const float d : {1e30f, -1e30f, inf, -inf, nan, 3.0f, -2.0f}) {
        for (int axis = 0; axis < 3; ++axis) {
            float v[3] = {0.0f, 0.0f, 0.0f};
            v[axis] = d;
            const FixedPos q = f.moved(p, make_vec3(v[0], v[1], v[2]));
            EXPECT_EQ(grid.cell_of(q), grid.outside_cell()) << "moved by " << d << " along "
                                                            << "xyz"[axis];
        }
    }
    // Saturated, not wrapped: a coordinate near the top moved further up stays at the top.
    EXPECT_EQ(f.moved(INT32_MAX - 10, 1e3f * f.unit), INT32_MAX);
    EXPECT_EQ(f.moved(INT32_MIN + 10, -1e3f * f.unit), INT32_MIN);
}

// A problem and the same problem moved by `offset` along x and y, domain and all.
class Translated : public Problem {
public:
    Translated(const Problem& problem, double offset) : problem_(problem), offset_(offset) {}
    std::string name() const override { return problem_.name(); }
    double default_dp() const override { return problem_.default_dp(); }
    double default_t_end() const override { return problem_.default_t_end(); }
    int default_split_axis() const override { return problem_.default_split_axis(); }
    double still_water_depth() const override { return problem_.still_water_depth(); }
    Box domain(double dp) const override {
        Box b = problem_.domain(dp);
        for (int a = 0; a < 2; ++a) b.lo[a] += offset_, b.hi[a] += offset_;
        return b;
    }
    void check_resolution(double dp) const override { problem_.check_resolution(dp); }
    void fill(double dp, const EmitParticle& emit) const override {
        problem_.fill(dp, [&](SetupParticle p) {
            p.x += offset_;
            p.y += offset_;
            emit(p);
        });
    }

private:
    const Problem& problem_;
    double offset_;
};

// Still water under mDBC, at the origin and moved by 2 m and 1 km: positions are held from the
// domain's corner, so the runs are the same to the bit (each particle's position in steps from
// the corner, its velocity and density). Float positions 2 m out kept the same tank from ever
// settling (validation/results/cpu-tank-offset/).
TEST(FixedPosition, StillWaterRunsTheSameFarFromTheOrigin) {
    const StillWater tank(0.15, 0.1, 0.2);
    RunOptions o = testing::small_run(0.02, 10.0, BackendChoice::kCpu);
    o.boundary = BoundaryModel::kMdbc;
    o.threads = 1;
    const auto run = [&](double offset) {
        const Translated moved(tank, offset);
        Simulation sim(moved, o, 0);
        for (int k = 0; k < 150; ++k) sim.step();
        return sim.particles();
    };
    const HostParticles at_origin = run(0.0);
    for (const double offset : {2.0, 1000.0}) {
        SCOPED_TRACE("moved by " + std::to_string(offset) + " m");
        const HostParticles moved = run(offset);
        ASSERT_EQ(moved.size(), at_origin.size());
        EXPECT_EQ(moved.frame.unit, at_origin.frame.unit);
        EXPECT_EQ(moved.frame.origin[0], at_origin.frame.origin[0] + offset);
        EXPECT_EQ(testing::count_bitwise_differences(testing::states_by_id(at_origin),
                                                     testing::states_by_id(moved)),
                  0);
    }
    // And the water moved: the comparison is of a flow, not of a lattice at rest.
    const StillWater same(0.15, 0.1, 0.2);
    Simulation start(same, o, 0);
    EXPECT_GT(testing::count_bitwise_differences(testing::states_by_id(start.particles()),
                                                 testing::states_by_id(at_origin)),
              int(at_origin.count(kFluid) / 2));
}

}  // namespace
}  // namespace sph
