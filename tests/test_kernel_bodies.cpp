// Unit tests of host-side kernel bodies: the Wendland kernel, the cell grid and the step's dt rule
// (all also compiled for the GPU; their float arithmetic is checked here, where it can be
// enumerated exactly). The launchers that chain them are checked on every back end in
// test_neighbour_list.cpp and test_wall_forces.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "cell_grid.h"
#include "kernels/kernel_test_support.h"
#include "step_dt.h"
#include "wendland.h"

namespace sph {
namespace {

using namespace sph::testing;

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------------------------------------
// Wendland C2

TEST(Wendland, IntegratesToOneOverItsSupport) {
    for (double dp : {0.01, 0.05}) {
        const SphParams p = params_for_dp(dp);
        SCOPED_TRACE("h = " + std::to_string(p.h));
        // Midpoint rule in double on the float kernel: with 2e5 points the quadrature error is far
        // below the float rounding of W, so what is left is the kernel's own normalisation.
        const int n = 200000;
        const double support = 2.0 * double(p.h);
        const double dr = support / n;
        double integral = 0.0;
        for (int k = 0; k < n; ++k) {
            const double r = (k + 0.5) * dr;
            integral += 4.0 * kPi * r * r * double(wendland_w(float(r), p)) * dr;
        }
        EXPECT_NEAR(integral, 1.0, 1e-4);
    }
}

TEST(Wendland, GradientMatchesFiniteDifferences) {
    for (double dp : {0.01, 0.05}) {
        const SphParams p = params_for_dp(dp);
        SCOPED_TRACE("h = " + std::to_string(p.h));
        const double h = p.h;
        // A step of 1e-3 h balances truncation (worst near q = 2, where W varies on the scale of
        // 2h (1 - q/2)) against float rounding of W and of q = r / h inside the kernel.
        const double step = 1e-3 * h;
        for (double q : {0.05, 0.25, 0.5, 1.0, 1.5, 1.75, 1.9}) {
            SCOPED_TRACE("q = " + std::to_string(q));
            const float r = float(q * h);
            const float rp = float(r + step), rm = float(r - step);
            // Divide by the step the float arguments really took, not the one asked for.
            const double fd =
                (double(wendland_w(rp, p)) - double(wendland_w(rm, p))) / (double(rp) - double(rm));
            const double analytic = double(wendland_f(r, p)) * double(r);
            EXPECT_LT(analytic, 0.0);
            EXPECT_NEAR(analytic, fd, 1e-3 * std::abs(fd));
        }
        // Both vanish exactly at and beyond the support, so pairs kept only by the list skin
        // contribute nothing.
        const float two_h = 2.0f * p.h;
        for (float r : {two_h, std::nextafter(two_h, 1e9f), 2.5f * p.h, 10.0f * p.h, 1e30f,
                        std::numeric_limits<float>::infinity()}) {
            EXPECT_EQ(wendland_w(r, p), 0.0f) << "r = " << r;
            EXPECT_EQ(wendland_f(r, p), 0.0f) << "r = " << r;
        }
        EXPECT_GT(wendland_w(0.0f, p), 0.0f);
        EXPECT_TRUE(std::isfinite(wendland_f(0.0f, p)));
    }
}

// ---------------------------------------------------------------------------------------------
// Cell grid

// Non-representable bounds: the grid's origin and side are whole steps of the frame near them.
constexpr double kLo[3] = {-0.1, 0.05, 0.0};
constexpr double kHi[3] = {1.3, 0.6, 0.75};

FixedPos at_steps(std::int32_t x, std::int32_t y, std::int32_t z) {
    return FixedPos{x, y, z, 0.0f};
}

void check_grid(const double lo[3], const double hi[3], double min_side, int split) {
    const PositionFrame frame = frame_for_domain(lo, hi);
    const CellGrid g = make_cell_grid(lo, hi, min_side, split, frame);

    EXPECT_GE(double(g.side) * double(frame.unit), min_side) << "cells narrower than asked for";
    EXPECT_EQ(g.cell_side, float(double(g.side) * double(frame.unit)));
    EXPECT_EQ(g.split_axis(), split);
    std::uint64_t product = 1;
    std::int32_t first[3], last[3];  // the domain's first and last step along each axis
    const FixedPos lo_at = frame.fixed(lo[0], lo[1], lo[2], 0.0f);
    const FixedPos hi_at = frame.fixed(hi[0], hi[1], hi[2], 0.0f);
    for (int a = 0; a < 3; ++a) {
        ASSERT_GE(g.dims[a], 1);
        first[a] = fixed_component(lo_at, a);
        last[a] = fixed_component(hi_at, a) - 1;
        // Covers every step in [lo, hi).
        EXPECT_LE(g.origin[a], first[a]) << "axis " << a;
        EXPECT_LT(std::int64_t(last[a]),
                  std::int64_t(g.origin[a]) + std::int64_t(g.dims[a]) * g.side)
            << "axis " << a;
        // Not by a whole extra cell either; the tolerance allows for (hi - lo) / min_side landing
        // just above a whole number in double, which rounds the count up by one.
        EXPECT_LT((g.dims[a] - 1) * min_side, (hi[a] - lo[a]) * (1.0 + 1e-12)) << "axis " << a;
        product *= std::uint64_t(g.dims[a]);
    }
    ASSERT_EQ(std::uint64_t(g.cell_count()), product);
    EXPECT_EQ(g.slice_count(), g.dims[split]);
    EXPECT_EQ(std::uint64_t(g.cells_per_slice()) * std::uint64_t(g.dims[split]), product);

    // Every cell index decodes to in-range coordinates, re-encodes to itself, lies in its slice's
    // contiguous range, and is what cell_of gives for the cell's centre and its corners.
    for (std::uint32_t cell = 0; cell < g.cell_count(); ++cell) {
        int c[3];
        g.coordinates(cell, c);
        std::uint32_t back = 0;
        for (int a = 0; a < 3; ++a) {
            ASSERT_GE(c[a], 0);
            ASSERT_LT(c[a], g.dims[a]);
            back += std::uint32_t(c[a]) * g.stride[a];
        }
        ASSERT_EQ(back, cell);
        const std::uint32_t s = std::uint32_t(c[split]);
        ASSERT_GE(cell, s * g.cells_per_slice());
        ASSERT_LT(cell, (s + 1) * g.cells_per_slice());
        std::int32_t centre[3], low[3], high[3];
        for (int a = 0; a < 3; ++a) {
            low[a] = g.origin[a] + c[a] * g.side;
            high[a] = low[a] + g.side - 1;
            centre[a] = low[a] + g.side / 2;
            ASSERT_EQ(g.coordinate(centre[a], a), c[a]);
            ASSERT_EQ(g.coordinate(low[a], a), c[a]);
            ASSERT_EQ(g.coordinate(high[a], a), c[a]);
        }
        ASSERT_EQ(g.cell_of(at_steps(centre[0], centre[1], centre[2])), cell);
        ASSERT_EQ(g.cell_of(at_steps(low[0], low[1], low[2])), cell);
        ASSERT_EQ(g.cell_of(at_steps(high[0], high[1], high[2])), cell);
    }

    // The domain's extreme steps hash to the first and last cells.
    const FixedPos lo4 = at_steps(first[0], first[1], first[2]);
    EXPECT_EQ(g.cell_of(lo4), 0u) << "position " << describe(lo4);
    for (int a = 0; a < 3; ++a) {
        std::int32_t v[3] = {first[0], first[1], first[2]};
        v[a] = last[a];
        const FixedPos p = at_steps(v[0], v[1], v[2]);
        EXPECT_EQ(g.cell_of(p), (std::uint32_t(g.dims[a]) - 1) * g.stride[a])
            << "last step below hi along axis " << a << ": position " << describe(p)
            << " (outside_cell = " << g.outside_cell() << ")";
    }

    // Outside along each axis, on either side, and at the frame's edges (where a particle that
    // blew up ends, fixed_position.h).
    for (int a = 0; a < 3; ++a) {
        for (const std::int32_t bad :
             {g.origin[a] - 1, g.origin[a] + g.dims[a] * g.side, INT32_MIN, INT32_MAX}) {
            std::int32_t v[3] = {first[0], first[1], first[2]};
            v[a] = bad;
            EXPECT_EQ(g.cell_of(at_steps(v[0], v[1], v[2])), g.outside_cell())
                << "axis " << a << " step " << bad;
            EXPECT_TRUE(g.coordinate(bad, a) < 0 || g.coordinate(bad, a) >= g.dims[a]);
        }
    }
}

TEST(CellGrid, CoversDomainWithSplitAxisMostSignificant) {
    // The app's cell side for dp = 0.01 (make_grid's computation), and round numbers: 0.0286 is
    // that list radius rounded, and it rounds down to float; 0.1 rounds up; with 0.07 the x extent
    // (1.4) is a whole number of cells, leaving no slack at hi.
    const double app_side = cell_side_for(params_for_dp(0.01));
    for (double min_side : {app_side, 0.0286, 0.1, 0.07}) {
        for (int split = 0; split < 3; ++split) {
            SCOPED_TRACE("min_side = " + std::to_string(min_side) +
                         ", split axis = " + std::to_string(split));
            check_grid(kLo, kHi, min_side, split);
        }
    }
    // The neighbour-list scene's domain: hi = lo + whole cells of the app's side, in double.
    double hi[3];
    for (int a = 0; a < 3; ++a) hi[a] = kSceneLo[a] + kSceneCells[a] * app_side;
    for (int split = 0; split < 3; ++split) {
        SCOPED_TRACE("whole-cell domain, split axis = " + std::to_string(split));
        check_grid(kSceneLo, hi, app_side, split);
    }
}

// The dt every device computes from the minima in its memory: the smallest, bounded by the last
// corrector's, cut to end at t_end; unusable where any device's is NaN or the result is not
// positive and finite.
TEST(StepDt, IsTheSmallestMinimumBoundedByTheLimit) {
    const float minima[3] = {3e-4f, 1e-4f, 2e-4f};
    StepDt s = step_dt(minima, 3, StepClock{5e-4f, 0.0, 1.0});
    EXPECT_TRUE(s.usable);
    EXPECT_EQ(s.dt, 1e-4f);
    s = step_dt(minima, 3, StepClock{5e-5f, 0.0, 1.0});
    EXPECT_EQ(s.dt, 5e-5f);
}

TEST(StepDt, EndsTheRunAtTEnd) {
    const float minima[1] = {1e-3f};
    const StepDt s = step_dt(minima, 1, StepClock{1.0f, 0.9995, 1.0});
    EXPECT_TRUE(s.usable);
    EXPECT_EQ(s.dt, static_cast<float>(1.0 - 0.9995));
}

TEST(StepDt, IsUnusableWhereAnyDeviceBlewUp) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (const auto& minima : {std::array<float, 2>{nan, 1e-4f}, std::array<float, 2>{1e-4f, nan},
                               std::array<float, 2>{0.0f, 1e-4f}, std::array<float, 2>{-1.0f, 1.0f},
                               std::array<float, 2>{inf, inf}}) {
        EXPECT_FALSE(step_dt(minima.data(), 2, StepClock{inf, 0.0, 1.0}).usable)
            << minima[0] << ", " << minima[1];
    }
    // The corrector also stops where a corrector minimum is NaN.
    const float predictor[2] = {1e-4f, 2e-4f}, corrector[2] = {1e-4f, nan};
    EXPECT_TRUE(euler_dt(EulerDt{predictor, nullptr, 2, StepClock{1.0f, 0.0, 1.0}}).usable);
    EXPECT_FALSE(euler_dt(EulerDt{predictor, corrector, 2, StepClock{1.0f, 0.0, 1.0}}).usable);
}

}  // namespace
}  // namespace sph
