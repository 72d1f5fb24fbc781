// Still water in a tank with dynamic-boundary walls must stay still and hydrostatic.
#include <gtest/gtest.h>

#include <cmath>

#include "driver/simulation.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kWidth = 0.15;
constexpr double kDepth = 0.3;
constexpr double kDp = 0.0125;
constexpr double kSettled = 0.6;  // [s]: dynamic boundaries settle within ~0.5 s at this size

TEST(StillWater, StaysStillAndHydrostatic) {
    const StillWater tank(kWidth, kWidth, kDepth);
    Simulation sim(tank, testing::small_run(kDp, kSettled), 0);
    const HostParticles before = sim.particles();
    while (sim.time() < kSettled) sim.step();
    const HostParticles after = sim.particles();

    // Mass is carried by particles of fixed mass: the count of each type must not change.
    ASSERT_EQ(after.size(), before.size());
    EXPECT_EQ(after.count(kFluid), before.count(kFluid));
    EXPECT_EQ(after.count(kBoundary), before.count(kBoundary));

    // The bottom layer of fluid (z < dp), away from the side walls by more than the kernel's
    // reach (2h = 2.6 dp), against rho0 g (H - z).
    const std::vector<float> p = pressures(after, sim.params());
    const double reach = 2.6 * kDp;
    double measured = 0.0, expected = 0.0, max_speed = 0.0;
    int bottom = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (after.type[i] != kFluid) continue;
        const Vec4 x = after.pos[i], v = after.velrho[i];
        max_speed = std::max(max_speed, std::sqrt(double(v.x * v.x + v.y * v.y + v.z * v.z)));
        const bool interior =
            x.x > reach && x.x < kWidth - reach && x.y > reach && x.y < kWidth - reach;
        if (x.z < kDp && interior) {
            measured += p[i];
            expected += 1000.0 * 9.81 * (kDepth - x.z);
            ++bottom;
        }
    }
    ASSERT_GT(bottom, 0);
    std::printf(
        "bottom pressure %.1f Pa vs hydrostatic %.1f Pa (%d particles); max speed %.4f m/s\n",
        measured / bottom, expected / bottom, bottom, max_speed);
    EXPECT_NEAR(measured / expected, 1.0, 0.02);
    // Small against the water's natural speed scale sqrt(g H) = 1.7 m/s: the walls' settling.
    EXPECT_LT(max_speed, 0.05 * std::sqrt(9.81 * kDepth));
}

}  // namespace
}  // namespace sph
