// Still water in a tank with dynamic-boundary walls must stay still and hydrostatic. One test
// body, every back end.
#include <gtest/gtest.h>

#include <cmath>

#include "app/instrument_options.h"
#include "driver/simulation.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

// The tank of the CPU test. The CUDA test had a 0.3 m square one, checked on the bottom pressure
// alone; there the walls' settling reaches 0.087 m/s (measured on the CPU), just over the speed
// bound below, which the CUDA test never checked. The narrow tank also keeps the CPU run short.
constexpr double kWidth = 0.15;
constexpr double kDepth = 0.3;
constexpr double kDp = 0.0125;
constexpr double kSettled = 0.6;  // [s]: dynamic boundaries settle within ~0.5 s at this size

class StillWaterTank : public testing::EveryBackend {};

TEST_P(StillWaterTank, StaysStillAndHydrostatic) {
    const StillWater tank(kWidth, kWidth, kDepth);
    Simulation sim(tank, testing::small_run(kDp, kSettled, backend()), 0);
    const HostParticles before = sim.particles();
    while (sim.time() < kSettled) sim.step();
    const HostParticles after = sim.particles();

    // Mass is carried by particles of fixed mass: the count of each type must not change.
    ASSERT_EQ(after.size(), before.size());
    EXPECT_EQ(after.count(kFluid), before.count(kFluid));
    EXPECT_EQ(after.count(kBoundary), before.count(kBoundary));

    // The bottom layer of fluid (z < dp) against rho0 g (H - z): all of it, and the part away from
    // the side walls by more than the kernel's reach (2h = 2.6 dp).
    const std::vector<float> p = pressures(after, sim.params());
    const double reach = 2.6 * kDp;
    double measured = 0.0, expected = 0.0, measured_all = 0.0, expected_all = 0.0;
    double max_speed = 0.0;
    int bottom = 0, bottom_all = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (after.type[i] != kFluid) continue;
        const Vec3 x = after.position(i);
        const Vec4 v = after.velrho[i];
        max_speed = std::max(max_speed, std::sqrt(double(v.x * v.x + v.y * v.y + v.z * v.z)));
        if (x.z >= kDp) continue;
        const double hydrostatic = 1000.0 * 9.81 * (kDepth - x.z);
        measured_all += p[i];
        expected_all += hydrostatic;
        ++bottom_all;
        const bool interior =
            x.x > reach && x.x < kWidth - reach && x.y > reach && x.y < kWidth - reach;
        if (interior) {
            measured += p[i];
            expected += hydrostatic;
            ++bottom;
        }
    }
    ASSERT_GT(bottom, 0);
    std::printf(
        "%s: bottom pressure %.1f Pa vs hydrostatic %.1f Pa (%d interior particles; "
        "ratio over all %d: %.4f); max speed %.4f m/s\n",
        to_string(backend()).c_str(), measured / bottom, expected / bottom, bottom, bottom_all,
        measured_all / expected_all, max_speed);
    // The CPU test bounded the interior's ratio, the CUDA test the whole layer's, both within 2 %:
    // with the same bound there is no looser one to take, and both are checked on each back end.
    EXPECT_NEAR(measured / expected, 1.0, 0.02);
    EXPECT_NEAR(measured_all / expected_all, 1.0, 0.02);
    // Small against the water's natural speed scale sqrt(g H) = 1.7 m/s: the walls' settling.
    EXPECT_LT(max_speed, 0.05 * std::sqrt(9.81 * kDepth));
}

// What the mDBC test reads from a state: the lowest fluid layer's height above the floor's
// surface (z = 0), away from the side walls, and the pressure of the first wall layer (the floor,
// and the x = 0 wall up to 0.7 H) over rho0 g (H - z) at its particles.
struct WallReading {
    double lowest_dp = 0.0, pressure_ratio = 0.0;
    int floor_count = 0, side_count = 0;
};

WallReading read_walls(const HostParticles& particles, const SphParams& params) {
    const std::vector<float> p = pressures(particles, params);
    const double reach = 2.6 * kDp;
    auto interior = [&](double a) { return a > reach && a < kWidth - reach; };
    double lowest = 0.0, measured = 0.0, expected = 0.0;
    int lowest_count = 0;
    WallReading r;
    for (std::size_t i = 0; i < particles.size(); ++i) {
        const Vec3 x = particles.position(i);
        if (particles.type[i] == kFluid) {
            if (x.z < kDp && interior(x.x) && interior(x.y)) {
                lowest += x.z;
                ++lowest_count;
            }
            continue;
        }
        const bool floor = std::fabs(x.z + 0.5 * kDp) < 0.1 * kDp && interior(x.x) && interior(x.y);
        const bool side = std::fabs(x.x + 0.5 * kDp) < 0.1 * kDp && interior(x.y) && x.z > reach &&
                          x.z < 0.7 * kDepth;
        if (!floor && !side) continue;
        r.floor_count += floor;
        r.side_count += side;
        measured += p[i];
        expected += 1000.0 * 9.81 * (kDepth - x.z);
    }
    r.lowest_dp = lowest_count > 0 ? lowest / lowest_count / kDp : 0.0;
    r.pressure_ratio = expected > 0.0 ? measured / expected : 0.0;
    return r;
}

// Under mDBC the fluid meets the wall at dp/2, where the lattice put it, instead of being held
// off by about h; and the walls' own pressure, which the wall particles now carry, is the
// hydrostatic pressure at their places. With h = 1.5 dp: at the default 1.3 dp the lattice sum of
// the kernel gradient's first moment is 0.979, so the water itself (fluid and walls alike) settles
// about 2 % above rho0 g (H - z) (validation/hydrostatic.py); at 1.5 dp it is 1.0006. The column
// rings at its acoustic period 4 H / c0 (about 0.04 s) from the start: the wall pressure is
// sampled every 4 ms over four periods and its mean compared.
TEST_P(StillWaterTank, UnderMdbcTouchesTheWallsAndTheyReadHydrostaticPressure) {
    const StillWater tank(kWidth, kWidth, kDepth);
    constexpr double kFirstSample = 0.1, kEvery = 0.004, kEnd = 0.26;
    RunOptions options = testing::small_run(kDp, kEnd, backend());
    options.boundary = BoundaryModel::kMdbc;
    options.h_factor = 1.5;
    options.max_neighbours = 192;
    // A flush sensor on a side wall (instruments/gauges.h), read on the devices.
    const double sensor_z = 0.35 * kDepth;
    // And a load panel over the whole of that wall's face, past the surface: the water's force
    // on it is rho0 g H^2 W / 2. It reads about 1.5 % more: the wall's pressures below the
    // surface are the water's, about 0.9 % high at this h and dp (as the sensor reads them), and
    // the wall's first rows above the surface, whose ghost nodes see the surface's water, add
    // about 0.6 % (a panel over the wall from the surface up reads 0.39 N here, the CPU). The
    // moment of the force about the wall's foot, rho0 g H^3 W / 6, reads about 3 % more: those
    // rows above the surface act at about three times the mean arm (1.0302 on the CPU).
    options.walls = {
        parse_wall_sensor("0," + std::to_string(0.5 * kWidth) + "," + std::to_string(sensor_z) +
                              ",+x," + std::to_string(4 * kDp),
                          "W1"),
        parse_wall_panel(
            "0,0,0,0," + std::to_string(kWidth) + "," + std::to_string(1.4 * kDepth) + ",+x", "F1"),
        parse_wall_moment(
            "0,0,0,0," + std::to_string(kWidth) + "," + std::to_string(1.4 * kDepth) + ",+x,+z",
            "M1")};
    const double force_ref = 0.5 * 1000.0 * 9.81 * kDepth * kDepth * kWidth;
    const double moment_ref = force_ref * kDepth / 3.0;  // about the foot
    Simulation sim(tank, options, 0);
    double ratio_sum = 0.0, ratio_min = 1e9, ratio_max = 0.0, sensor_sum = 0.0, force_sum = 0.0,
           moment_sum = 0.0;
    int samples = 0;
    for (double next = kFirstSample; sim.time() < kEnd;) {
        sim.step();
        if (sim.time() < next) continue;
        next += kEvery;
        const WallReading r = read_walls(sim.particles(), sim.params());
        ASSERT_GT(r.floor_count, 0);
        ASSERT_GT(r.side_count, 0);
        EXPECT_NEAR(r.lowest_dp, 0.5, 0.1) << "t = " << sim.time() << " s";
        ratio_sum += r.pressure_ratio;
        const InstrumentReadings readings = sim.measure();
        sensor_sum += readings.walls.at(0) / (1000.0 * 9.81 * (kDepth - sensor_z));
        force_sum += readings.walls.at(1) / force_ref;
        moment_sum += readings.walls.at(2) / moment_ref;
        ratio_min = std::min(ratio_min, r.pressure_ratio);
        ratio_max = std::max(ratio_max, r.pressure_ratio);
        ++samples;
    }
    ASSERT_GT(samples, 30);
    const double mean = ratio_sum / samples, sensor = sensor_sum / samples,
                 force = force_sum / samples, moment = moment_sum / samples;
    std::printf(
        "%s, mDBC: wall pressure / hydrostatic %.4f on average over %d samples (%.4f to "
        "%.4f); side-wall sensor %.4f; the force on that wall / rho0 g H^2 W / 2 %.4f, its moment "
        "about the foot / rho0 g H^3 W / 6 %.4f\n",
        to_string(backend()).c_str(), mean, samples, ratio_min, ratio_max, sensor, force, moment);
    EXPECT_NEAR(mean, 1.0, 0.01);
    EXPECT_NEAR(sensor, 1.0, 0.01);
    EXPECT_NEAR(force, 1.0, 0.02);
    EXPECT_NEAR(moment, 1.0, 0.04);
    EXPECT_NEAR(ratio_max, 1.0, 0.02);  // the ring is small: the start is near the equilibrium
}

SPH_ON_EVERY_BACKEND(StillWaterTank);

}  // namespace
}  // namespace sph
