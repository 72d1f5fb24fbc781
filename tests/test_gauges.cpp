// Gauges, probes and the surge front on synthetic particle fields with known answers (their
// options, CSV and DamBreak's instruments: test_gauge_runs.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/command_line.h"
#include "dam_break.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "gauge_csv.h"
#include "instruments/gauges.h"
#include "tait.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kG = 9.81;
constexpr double kRho0 = 1000.0;

SphParams params_for(double dp, double depth) {
    RunOptions o;
    o.dp = dp;
    return make_sph_params(o, depth);
}

// Fluid on the lattice (i + 1/2) dp of [0, lx] x [0, ly] x [0, surface(x, y)), in hydrostatic
// equilibrium under that surface, and `floor_layers` of boundary particles below z = 0.
HostParticles water(double dp, double lx, double ly, const std::function<double(double)>& surface,
                    const SphParams& params, int floor_layers = 3) {
    HostParticles p;
    const int nx = int(std::lround(lx / dp)), ny = int(std::lround(ly / dp));
    for (int i = 0; i < nx; ++i) {
        for (int j = 0; j < ny; ++j) {
            const double x = (i + 0.5) * dp, y = (j + 0.5) * dp, top = surface(x);
            for (int k = -floor_layers; (k + 0.5) * dp < top || k < 0; ++k) {
                const double z = (k + 0.5) * dp;
                const double pressure = kRho0 * kG * std::max(0.0, top - z);
                const float rho = float(tait_density(pressure, kRho0, params.tait_b, params.gamma));
                p.add(make_vec3(float(x), float(y), float(z)), make_vec3(0, 0, 0), rho,
                      k < 0 ? kBoundary : kFluid);
            }
        }
    }
    return p;
}

// The same under a flat surface at z = depth.
HostParticles water(double dp, double lx, double ly, double depth, const SphParams& params) {
    return water(
        dp, lx, ly, [&](double) { return depth; }, params);
}

// --- Gauges -----------------------------------------------------------------------------------

TEST(Gauges, FlatSurfaceReadsItsHeight) {
    const double dp = 0.02;
    for (double depth : {0.2, 0.3, 0.33}) {  // surface on and between lattice layers
        const SphParams params = params_for(dp, depth);
        HostParticles p = water(dp, 0.6, 0.4, depth, params);
        // A droplet far above is skipped over, not sampled every dp/2.
        p.add(make_vec3(0.3f, 0.2f, 1000.0f), make_vec3(0, 0, 0), 1000.0f, kFluid);
        // The geometric surface of the lattice: the top layer's centre plus dp/2.
        const double surface = (std::ceil(depth / dp - 0.5) + 0.5) * dp - dp / 2;
        const std::vector<double> h =
            gauge_heights({{"a", 0.3, 0.2}, {"b", 0.31, 0.215}, {"c", 0.1, 0.1}}, p, params);
        for (double v : h) EXPECT_NEAR(v, surface, 0.05 * dp) << "depth " << depth;
    }
}

TEST(Gauges, SlopedSurfaceReadsItsLocalHeight) {
    // The lattice's staircase departs from the line by up to dp/2 column by column; the gauge
    // smooths it over 2h and reads within 0.39 dp of the line (0.2 dp on average), at any slope.
    // (The intercept is off the lattice so that the staircase is not systematically below it.)
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.3);
    for (double slope : {0.1, 0.25, 0.5, 1.0}) {
        auto surface = [&](double x) { return 0.1 + 0.37 * dp + slope * x; };
        const HostParticles p = water(dp, 0.5, 0.4, surface, params);
        double bias = 0.0;
        int n = 0;
        for (double x = 0.2; x <= 0.3; x += 0.00237, ++n) {
            const double h = gauge_heights({{"g", x, 0.2}}, p, params)[0];
            EXPECT_NEAR(h, surface(x), 0.4 * dp) << "slope " << slope << " x " << x;
            bias += h - surface(x);
        }
        EXPECT_LT(std::abs(bias / n), 0.2 * dp) << "slope " << slope;
    }
}

TEST(Gauges, DrySpotsReadZero) {
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.2);
    // Water only in x < 0.4; the floor (boundary particles) runs everywhere under it.
    HostParticles p = water(
        dp, 1.0, 0.4, [](double x) { return x < 0.4 ? 0.2 : 0.0; }, params);
    const std::vector<double> h =
        gauge_heights({{"wet", 0.2, 0.2}, {"dry", 0.8, 0.2}, {"far", 5.0, 5.0}}, p, params);
    EXPECT_NEAR(h[0], 0.2, 0.05 * dp);
    EXPECT_EQ(h[1], 0.0);
    EXPECT_EQ(h[2], 0.0);
    // One droplet above the dry floor is spray, not water.
    p.add(make_vec3(0.8f, 0.2f, 0.05f), make_vec3(0, 0, 0), 1000.0f, kFluid);
    EXPECT_EQ(gauge_heights({{"dry", 0.8, 0.2}}, p, params)[0], 0.0);
}

TEST(Gauges, SprayAboveTheWaterIsNotRead) {
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.2);
    HostParticles p = water(dp, 0.6, 0.4, 0.2, params);
    // A blob of 4 x 4 x 4 particles 0.3 m above the surface, over the gauge: dense enough to
    // reach c = 1/2 itself, so a top-down scan would read its top (about 0.58 m).
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            for (int k = 0; k < 4; ++k) {
                p.add(make_vec3(float(0.27 + i * dp), float(0.17 + j * dp), float(0.5 + k * dp)),
                      make_vec3(0, 0, 0), 1000.0f, kFluid);
            }
        }
    }
    EXPECT_NEAR(gauge_heights({{"g", 0.3, 0.2}}, p, params)[0], 0.2, 0.05 * dp);
    // With no water below, the blob is all the gauge sees: it reads the blob's top.
    HostParticles blob_only;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.position(i).z > 0.45f)
            blob_only.add(p.position(i), make_vec3(0, 0, 0), 1000.0f, kFluid);
    }
    const double blob = gauge_heights({{"g", 0.3, 0.2}}, blob_only, params)[0];
    EXPECT_GT(blob, 0.5);
    EXPECT_LT(blob, 0.5 + 4 * dp);
}

// The reading rules on a colour profile with an air pocket: rises through 1/2 at 1.5 and 6.5,
// falls at 4.5 and 8.5 (linear between samples a unit apart).
TEST(Gauges, TheSurfaceStopsAtAnAirPocketAndTheWettedLengthAddsTheWaterAboveIt) {
    const std::vector<double> colour = {0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0};
    auto read = [&](GaugeReading reading) {
        GaugeScan scan(1.0, reading);
        for (std::size_t k = 0; k < colour.size(); ++k)
            if (scan.add(double(k), colour[k])) break;
        return scan.height();
    };
    EXPECT_DOUBLE_EQ(read(GaugeReading::kSurface), 4.5);
    EXPECT_DOUBLE_EQ(read(GaugeReading::kWetted), 3.0 + 2.0);
    // Water up to the last sample: the open segment counts up to it.
    GaugeScan open(1.0, GaugeReading::kWetted);
    for (double z : {0.0, 1.0, 2.0}) open.add(z, z > 0.5 ? 1.0 : 0.0);
    EXPECT_DOUBLE_EQ(open.height(), 1.5);
}

// Standing water reads the same either way (its bottom edge is the floor, z = 0); a layer of water
// resting on air (over a pocket) adds its thickness to the wetted length alone.
TEST(Gauges, TheWettedLengthOfStandingWaterIsItsDepthAndCountsWaterAboveAPocket) {
    const double dp = 0.02, depth = 0.2;
    const SphParams params = params_for(dp, depth);
    HostParticles p = water(dp, 0.6, 0.4, depth, params);
    const double surface = gauge_heights({{"g", 0.3, 0.2}}, p, params)[0];
    const double wetted = gauge_heights({{"g", 0.3, 0.2}}, p, params, GaugeReading::kWetted)[0];
    EXPECT_NEAR(surface, depth, 0.05 * dp);
    EXPECT_NEAR(wetted, depth, 0.05 * dp);
    // A slab 5 dp thick, 10 dp above the water, wide enough that the gauge sees no edge.
    for (int i = 0; i < 20; ++i) {
        for (int j = 0; j < 20; ++j) {
            for (int k = 0; k < 5; ++k) {
                p.add(make_vec3(float(0.1 + (i + 0.5) * dp), float(0.0 + (j + 0.5) * dp),
                                float(depth + 10 * dp + (k + 0.5) * dp)),
                      make_vec3(0, 0, 0), 1000.0f, kFluid);
            }
        }
    }
    EXPECT_NEAR(gauge_heights({{"g", 0.3, 0.2}}, p, params)[0], depth, 0.05 * dp);
    EXPECT_NEAR(gauge_heights({{"g", 0.3, 0.2}}, p, params, GaugeReading::kWetted)[0],
                depth + 5 * dp, 0.1 * dp);
}

TEST(Gauges, ThinFilmDownToOneLayerIsSeen) {
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.2);
    // Two layers or more read within 0.01 dp; a single layer reads 0.8 dp.
    for (int layers : {1, 2, 4}) {
        const double depth = layers * dp;
        const HostParticles p = water(dp, 0.6, 0.4, depth, params);
        EXPECT_NEAR(gauge_heights({{"g", 0.3, 0.2}}, p, params)[0], depth, 0.25 * dp)
            << layers << " layers";
    }
}

// --- Probes -----------------------------------------------------------------------------------

TEST(Probes, HydrostaticPressure) {
    const double dp = 0.02, depth = 0.4;
    const SphParams params = params_for(dp, depth);
    const HostParticles p = water(dp, 0.6, 0.4, depth, params);
    const double rho_g = kRho0 * kG;
    // 2h or more from the floor and the surface, the kernel sees a full lattice: exact.
    for (double z : {0.06, 0.1, 0.2, 0.3, 0.34}) {
        const double expected = rho_g * (depth - z);
        const double got = probe_pressures({{"p", 0.3, 0.2, z}}, p, params)[0];
        EXPECT_NEAR(got, expected, 1e-3 * expected) << "z " << z;
    }
    // On the floor's face (z = 0) the support holds fluid on one side only, and the boundary
    // particles' pressure does not enter: the probe reads the fluid 0.6 dp above the face.
    const double at_floor = probe_pressures({{"p", 0.3, 0.2, 0.0}}, p, params)[0];
    EXPECT_NEAR(at_floor, rho_g * (depth - 0.6 * dp), 0.05 * rho_g * dp);
    EXPECT_NEAR(at_floor, rho_g * depth, 0.031 * rho_g * depth);
    // Likewise at the free surface: 0.6 dp below it.
    const double at_surface = probe_pressures({{"p", 0.3, 0.2, depth}}, p, params)[0];
    EXPECT_NEAR(at_surface, rho_g * 0.6 * dp, 0.05 * rho_g * dp);
}

TEST(Probes, OutsideTheFluidReadZero) {
    const double dp = 0.02, depth = 0.2;
    const SphParams params = params_for(dp, depth);
    const HostParticles p = water(dp, 0.6, 0.4, depth, params);
    const double support = 2.0 * params.h;
    const std::vector<double> got = probe_pressures(
        {{"air", 0.3, 0.2, depth + support}, {"side", 0.6 + support, 0.2, 0.1}}, p, params);
    EXPECT_EQ(got[0], 0.0);
    EXPECT_EQ(got[1], 0.0);
}

// --- Surge front ------------------------------------------------------------------------------

TEST(SurgeFront, IgnoresDropletsAndParticlesAboveTheBand) {
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.1);
    // A surge x in [0, 1], 0.1 m deep; its leading particles sit at x = 0.99.
    HostParticles p = water(dp, 1.0, 0.2, 0.1, params);
    auto add_fluid = [&](double x, double y, double z) {
        p.add(make_vec3(float(x), float(y), float(z)), make_vec3(0, 0, 0), 1000.0f, kFluid);
    };
    add_fluid(1.3, 0.1, 0.01);  // a droplet ahead
    add_fluid(1.5, 0.1, 0.01);  // and a pair: each has one neighbour only
    add_fluid(1.5 + dp, 0.1, 0.01);
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) add_fluid(1.6 + i * dp, 0.05 + j * dp, 0.3);  // spray, high
    }
    FrontTracker tracker;  // +x, floor 0, band 0.04, at least 3 neighbours
    EXPECT_NEAR(surge_front(tracker, p, params), 0.99, 1e-6);
    tracker.min_neighbours = 1;
    EXPECT_NEAR(surge_front(tracker, p, params), 1.5 + dp, 1e-6);
    tracker.min_neighbours = 0;
    EXPECT_NEAR(surge_front(tracker, p, params), 1.5 + dp, 1e-6);
    tracker.band = 0.5;
    EXPECT_NEAR(surge_front(tracker, p, params), 1.6 + 4 * dp, 1e-6);

    FrontTracker backwards;
    backwards.direction = -1;
    EXPECT_NEAR(surge_front(backwards, p, params), 0.01, 1e-6);
    backwards.floor = 1.0;  // nothing in the band: no front
    backwards.band = 0.1;
    EXPECT_TRUE(std::isnan(surge_front(backwards, p, params)));
}

TEST(SurgeFront, FarAheadDropletsNeedWidening) {
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.1);
    HostParticles p = water(dp, 0.4, 0.2, 0.06, params);
    for (int i = 0; i < 40; ++i) {  // isolated droplets spread far ahead, 3 dp apart
        p.add(make_vec3(float(0.5 + i * 3 * dp), 0.1f, 0.01f), make_vec3(0, 0, 0), 1000.0f, kFluid);
    }
    EXPECT_NEAR(surge_front(FrontTracker{}, p, params), 0.39, 1e-6);
}

// --- All at once, and speed -------------------------------------------------------------------

TEST(Measure, MatchesTheSingleInstrumentFunctions) {
    const double dp = 0.02;
    const SphParams params = params_for(dp, 0.3);
    const HostParticles p = water(
        dp, 0.8, 0.4, [](double x) { return 0.2 + 0.1 * x; }, params);
    Instruments in;
    in.gauges = {{"H1", 0.2, 0.2}, {"H2", 0.6, 0.2}};
    in.probes = {{"P1", 0.3, 0.2, 0.05}};
    in.front = FrontTracker{};
    const InstrumentReadings r = measure(in, p, params);
    EXPECT_EQ(r.heights, gauge_heights(in.gauges, p, params));
    EXPECT_EQ(r.pressures, probe_pressures(in.probes, p, params));
    EXPECT_EQ(r.front, surge_front(*in.front, p, params));
    EXPECT_EQ(instrument_columns(in), (std::vector<std::string>{"H1", "H2", "P1", "front_x"}));
    EXPECT_EQ(instrument_row(in, r),
              (std::vector<double>{r.heights[0], r.heights[1], r.pressures[0], r.front}));
}

// At production size (the cell-binned search, not a toy field): every instrument still reads the
// surface it should.
TEST(Measure, MillionParticleFieldReadsItsSurface) {
    const double dp = 0.01;
    const SphParams params = params_for(dp, 0.5);
    // 200 x 100 x 50 fluid + 3 floor layers: 1.3 million particles.
    const HostParticles p = water(dp, 2.0, 1.0, 0.5, params);
    ASSERT_GT(p.size(), 1000000u);
    DamBreak problem;
    const Instruments in = problem.instruments();
    const InstrumentReadings r = measure(in, p, params);
    int inside = 0;
    for (std::size_t g = 0; g < in.gauges.size(); ++g) {
        if (in.gauges[g].x > 2.0) continue;  // H4 lies beyond this 2 m field
        EXPECT_NEAR(r.heights[g], 0.5, 0.05 * dp) << in.gauges[g].name;
        ++inside;
    }
    EXPECT_EQ(inside, 3);
}

// At a coarse spacing a surge one particle deep rides above the default 0.04 m band; the band
// widens to h (0.104 m at dp 0.08) so that the front is still seen.
TEST(SurgeFront, CoarseThinSurgeIsSeen) {
    const double dp = 0.08;
    const SphParams params = params_for(dp, 0.1);
    HostParticles p;
    for (int i = 0; i < 10; ++i) {  // one layer, x in [1.0, 1.72], lifted a little off the floor
        for (int j = 0; j < 3; ++j) {
            p.add(make_vec3(float(1.0 + i * dp), float(0.5 + j * dp), 0.06f), make_vec3(0, 0, 0),
                  1000.0f, kFluid);
        }
    }
    FrontTracker tracker;  // +x, floor 0, band 0.04
    EXPECT_NEAR(surge_front(tracker, p, params), 1.0 + 9 * dp, 1e-6);
    tracker.direction = -1;
    EXPECT_NEAR(surge_front(tracker, p, params), 1.0, 1e-6);
}

}  // namespace
}  // namespace sph
