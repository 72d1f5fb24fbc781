// Wall sensors (discs on a wall's face, instruments/gauges.h), load panels (rectangles on it) and
// moment panels on particle fields with known answers, their options and set-up checks; the
// low-pass filter of the gauge series (instruments/low_pass.h) and gauges_filtered.csv.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/instrument_options.h"
#include "common/errors.h"
#include "dam_break.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "instruments/device_readings.h"
#include "instruments/gauges.h"
#include "instruments/low_pass.h"
#include "instruments/streaming_low_pass.h"
#include "instruments_body.h"
#include "tait.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kPi = 3.14159265358979323846;

SphParams params_for(double dp) {
    RunOptions o;
    o.dp = dp;
    return make_sph_params(o, 1.0);
}

// Three layers of floor particles under z = 0 on the lattice (i + 1/2) dp of [0, 1] x [0, 1], each
// at the density of pressure(x, y, z), and one fluid layer above them.
HostParticles floor_with(double dp, const SphParams& params,
                         const std::function<double(double, double, double)>& pressure) {
    HostParticles p;
    const int n = int(std::lround(1.0 / dp));
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            for (int k = -3; k <= 0; ++k) {
                const double x = (i + 0.5) * dp, y = (j + 0.5) * dp, z = (k + 0.5) * dp;
                const float rho = float(
                    tait_density(pressure(x, y, z), params.rho0, params.tait_b, params.gamma));
                p.add(make_vec3(float(x), float(y), float(z)), make_vec3(0, 0, 0), rho,
                      k < 0 ? kBoundary : kFluid);
            }
        }
    }
    return p;
}

WallSensor floor_sensor(double x, double y, double diameter) {
    WallSensor s;
    s.name = "W";
    s.x = x, s.y = y, s.z = 0.0;
    s.axis = 2;
    s.direction = +1;
    s.diameter = diameter;
    return s;
}

TEST(DiscCoverage, IsTheShareOfThePatchInTheDisc) {
    const float dp = 0.01f;
    EXPECT_FLOAT_EQ(disc_coverage(0.0f, 0.0f, 1.0f, dp), 1.0f);  // deep inside
    EXPECT_FLOAT_EQ(disc_coverage(0.5f, 0.0f, 0.1f, dp), 0.0f);  // far outside
    // A disc much smaller than the patch: its own area, to the sampling's resolution.
    EXPECT_NEAR(disc_coverage(0.002f, 0.001f, 0.0004f, dp), kPi * 0.0004 * 0.0004 / (dp * dp),
                0.05 * kPi * 0.0004 * 0.0004 / (dp * dp));
    // A disc as wide as the patch, on it: pi/4 of it, to the 8 x 8 sampling's resolution.
    EXPECT_NEAR(disc_coverage(0.0f, 0.0f, 0.5f * dp, dp), kPi / 4.0, 0.05);
    // Half a patch on the disc's rim (its edge straight through the patch centre, the disc huge).
    EXPECT_NEAR(disc_coverage(1.0f, 0.0f, 1.0f, dp), 0.5, 0.01);
    EXPECT_FLOAT_EQ(disc_coverage(0.003f, -0.004f, 0.02f, dp),
                    disc_coverage(-0.004f, 0.003f, 0.02f, dp));
}

TEST(WallSensors, ReadTheFirstLayersPressure) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    // Hydrostatic under 0.5 m of water: the first layer, dp/2 below the face, at rho g (0.5 +
    // dp/2).
    const auto hydrostatic = [&](double, double, double z) {
        return double(params.rho0) * 9.81 * (0.5 - z);
    };
    const HostParticles p = floor_with(dp, params, hydrostatic);
    const std::vector<double> r =
        wall_readings({floor_sensor(0.5, 0.5, 0.1), floor_sensor(0.31, 0.77, 0.013)}, p, params);
    for (double reading : r) EXPECT_NEAR(reading, hydrostatic(0, 0, -0.5 * dp), 0.5);
}

TEST(WallSensors, AverageALinearFieldToItsValueAtTheCentre) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    const auto ramp = [](double x, double y, double) { return 2000.0 + 3000.0 * x + 1000.0 * y; };
    const HostParticles p = floor_with(dp, params, ramp);
    // Centres on a patch's corner and on a patch's centre: the weights are symmetric about them.
    for (const auto& [x, y, d] :
         {std::tuple{0.5, 0.5, 0.1}, std::tuple{0.31, 0.49, 0.07}, std::tuple{0.3, 0.6, 0.26}}) {
        const double reading = wall_readings({floor_sensor(x, y, d)}, p, params)[0];
        EXPECT_NEAR(reading, ramp(x, y, 0), 2e-4 * ramp(x, y, 0)) << x << ", " << y << ", " << d;
    }
}

TEST(WallSensors, SeeNoWallFacingTheWrongWayOrOffTheFace) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    const HostParticles p = floor_with(dp, params, [](double, double, double) { return 0.0; });
    WallSensor upside_down = floor_sensor(0.5, 0.5, 0.05);
    upside_down.direction = -1;
    WallSensor floating = floor_sensor(0.5, 0.5, 0.05);
    floating.z = 0.3;
    for (const WallSensor& s : {upside_down, floating}) {
        EXPECT_TRUE(std::isnan(wall_readings({s}, p, params)[0]));
        try {
            check_wall_sensors({s}, p, params);
            ADD_FAILURE() << "accepted";
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find("no wall behind it"), std::string::npos);
        }
    }
    EXPECT_NO_THROW(check_wall_sensors({floor_sensor(0.5, 0.5, 0.05)}, p, params));
}

// A sensor's or panel's weights over a floor's first layer: summed tile by tile as the devices
// take them (plan_instruments), and in one piece as the host does; and its number of tiles.
struct TiledWeights {
    double tiled = 0.0, whole = 0.0;
    long tiles = 0;
};

TiledWeights tiled_weights(const WallSensor& sensor, double dp) {
    const SphParams params = params_for(dp);
    Instruments in;
    in.walls = {sensor};
    TiledWeights w;
    const HostParticles p = floor_with(dp, params, [](double, double, double) { return 1.0; });
    const InstrumentPlan plan = plan_instruments(in, params, -0.1, 1.0, p.frame);
    if (plan.wall_tiles.size() != 1u) return w;
    w.tiles = plan.wall_tiles[0];
    const InstrumentSite whole = whole_sensor(sensor, dp, p.frame);
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.type[i] == kFluid) continue;
        const FixedPos x = p.pos[i];
        w.whole += wall_tile_weight(p.frame.between(x, whole.centre), Vec3{}, whole).coverage;
        for (const InstrumentSite& tile : plan.sites) {
            w.tiled += wall_tile_weight(p.frame.between(x, tile.centre), Vec3{}, tile).coverage;
        }
    }
    return w;
}

// A disc wider than a tile is read tile by tile: every wall particle of the disc in exactly one.
TEST(WallSensors, TilesCoverTheDiscOnce) {
    const double dp = 0.02;
    const TiledWeights w = tiled_weights(floor_sensor(0.5, 0.5, 0.4), dp);
    EXPECT_GT(w.tiles, 1);
    EXPECT_NEAR(w.tiled, w.whole, 1e-4 * w.whole);
    EXPECT_NEAR(w.whole * dp * dp, kPi * 0.2 * 0.2, 0.01 * kPi * 0.2 * 0.2);  // the disc's area
}

TEST(RectangleCoverage, IsTheShareOfThePatchInThePanel) {
    const float dp = 0.01f;
    EXPECT_FLOAT_EQ(rectangle_coverage(0.0f, 0.0f, 0.1f, 0.2f, dp), 1.0f);      // inside
    EXPECT_FLOAT_EQ(rectangle_coverage(0.2f, 0.0f, 0.1f, 0.2f, dp), 0.0f);      // beyond u
    EXPECT_FLOAT_EQ(rectangle_coverage(0.0f, 0.3f, 0.1f, 0.2f, dp), 0.0f);      // beyond v
    EXPECT_NEAR(rectangle_coverage(0.1f, 0.0f, 0.1f, 0.2f, dp), 0.5f, 1e-5f);   // on an edge
    EXPECT_NEAR(rectangle_coverage(0.1f, 0.2f, 0.1f, 0.2f, dp), 0.25f, 1e-5f);  // a corner
    EXPECT_NEAR(rectangle_coverage(0.1025f, 0.0f, 0.1f, 0.2f, dp), 0.25f, 1e-4f);
    // A panel narrower than the patch: its own width over dp.
    EXPECT_NEAR(rectangle_coverage(0.0f, 0.0f, 0.001f, 1.0f, dp), 0.2f, 1e-5f);
}

WallSensor floor_panel(double x0, double y0, double x1, double y1) {
    const double lo[3] = {x0, y0, 0.0}, hi[3] = {x1, y1, 0.0};
    return wall_panel("F", lo, hi, 2, +1);
}

// A panel reads the integral of the wall's pressure over it: exactly (the midpoint rule on the
// patches) where its edges are the patches' edges, to the edge patches' first moments otherwise.
TEST(WallPanels, IntegrateALinearFieldOverThePanel) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    const auto ramp = [](double x, double y, double) { return 2000.0 + 3000.0 * x + 1000.0 * y; };
    const HostParticles p = floor_with(dp, params, ramp);
    // The integral of the ramp over [x0, x1] x [y0, y1].
    const auto integral = [&](double x0, double y0, double x1, double y1) {
        return (x1 - x0) * (y1 - y0) * ramp(0.5 * (x0 + x1), 0.5 * (y0 + y1), 0.0);
    };
    const double aligned = wall_readings({floor_panel(0.2, 0.3, 0.6, 0.5)}, p, params)[0];
    // To the rounding of the float densities the pressures come from (as the discs' 2e-4).
    EXPECT_NEAR(aligned, integral(0.2, 0.3, 0.6, 0.5), 1e-4 * integral(0.2, 0.3, 0.6, 0.5));
    // Corners given either way round.
    EXPECT_NEAR(wall_readings({floor_panel(0.6, 0.5, 0.2, 0.3)}, p, params)[0], aligned,
                1e-6 * aligned);
    const double cut = wall_readings({floor_panel(0.213, 0.305, 0.587, 0.471)}, p, params)[0];
    EXPECT_NEAR(cut, integral(0.213, 0.305, 0.587, 0.471),
                1e-3 * integral(0.213, 0.305, 0.587, 0.471));
    // A disc of the same wall reads a pressure, the panel a force: Pa times m^2.
    EXPECT_NEAR(aligned / (0.4 * 0.2), wall_readings({floor_sensor(0.4, 0.4, 0.1)}, p, params)[0],
                1.0);
}

TEST(WallPanels, TilesCoverThePanelOnceAndAnOffWallPanelIsRefused) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    const TiledWeights w = tiled_weights(floor_panel(0.11, 0.2, 0.93, 0.47), dp);
    EXPECT_GT(w.tiles, 4);
    EXPECT_NEAR(w.tiled, w.whole, 1e-4 * w.whole);
    EXPECT_NEAR(w.whole * dp * dp, 0.82 * 0.27, 1e-5);  // the panel's area, exactly
    const HostParticles p = floor_with(dp, params, [](double, double, double) { return 1.0; });
    WallSensor floating = floor_panel(0.2, 0.2, 0.4, 0.4);
    floating.z = 0.3;
    try {
        check_wall_sensors({floating}, p, params);
        ADD_FAILURE() << "accepted";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find("wall panel F"), std::string::npos) << e.what();
    }
}

TEST(PanelArm, IsTheDistanceFromTheEdgeToTheCoveredPartsCentroid) {
    const float dp = 0.02f;
    EXPECT_NEAR(panel_arm(0.0f, 0.1f, dp, +1.0f), 0.1f, 1e-6f);  // a patch in the middle
    EXPECT_NEAR(panel_arm(0.0f, 0.1f, dp, -1.0f), 0.1f, 1e-6f);
    EXPECT_NEAR(panel_arm(-0.09f, 0.1f, dp, +1.0f), 0.01f, 1e-6f);  // the first patch, whole
    EXPECT_NEAR(panel_arm(-0.09f, 0.1f, dp, -1.0f), 0.19f, 1e-6f);
    EXPECT_NEAR(panel_arm(-0.1f, 0.1f, dp, +1.0f), 0.005f, 1e-6f);  // half of it inside
    EXPECT_NEAR(panel_arm(0.1f, 0.1f, dp, -1.0f), 0.005f, 1e-6f);
}

WallSensor floor_moment(double x0, double y0, double x1, double y1, int arm_axis,
                        int arm_direction) {
    const double lo[3] = {x0, y0, 0.0}, hi[3] = {x1, y1, 0.0};
    return wall_moment("M", lo, hi, 2, +1, arm_axis, arm_direction);
}

// A moment panel reads the integral of pressure times the distance from its edge: exactly for a
// pressure constant over each patch, edges cut or not; for one linear across the edge, short by the
// midpoint rule's b dp^2 / 12 per unit area (gauges.h). About opposite edges the two moments add up
// to the force times the panel's length, the centroids' arms adding up to it.
TEST(WallMoments, IntegratePressureTimesTheArmAboutAnEdge) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    const double p0 = 3000.0;
    const HostParticles flat = floor_with(dp, params, [&](double, double, double) { return p0; });
    const double x0 = 0.213, y0 = 0.305, x1 = 0.587, y1 = 0.471, L = x1 - x0, W = y1 - y0;
    const double about_x0 = wall_readings({floor_moment(x0, y0, x1, y1, 0, +1)}, flat, params)[0];
    EXPECT_NEAR(about_x0, p0 * W * L * L / 2.0, 2e-4 * p0 * W * L * L / 2.0);
    const double about_y1 = wall_readings({floor_moment(x0, y0, x1, y1, 1, -1)}, flat, params)[0];
    EXPECT_NEAR(about_y1, p0 * L * W * W / 2.0, 2e-4 * p0 * L * W * W / 2.0);

    // p = a + b x on patches five times as wide, the midpoint rule's error well above rounding.
    const double a = 2000.0, b = 20000.0, coarse = 0.05;
    const SphParams coarse_params = params_for(coarse);
    const HostParticles ramp =
        floor_with(coarse, coarse_params, [&](double x, double, double) { return a + b * x; });
    const double lo = 0.2, hi = 0.6, length = hi - lo, width = 0.2;  // edges on the patches'
    const double exact = width * (a * length * length / 2.0 +
                                  b * (lo * length * length / 2.0 + std::pow(length, 3) / 3.0));
    const double midpoint = exact - width * b * length * coarse * coarse / 12.0;
    const auto read = [&](const WallSensor& w) {
        return wall_readings({w}, ramp, coarse_params)[0];
    };
    const double low = read(floor_moment(lo, 0.3, hi, 0.5, 0, +1));
    EXPECT_NEAR(low, midpoint, 1e-4 * midpoint);
    EXPECT_GT(std::fabs(low - exact), 10.0 * std::fabs(low - midpoint));  // the rule's error shows
    const double high = read(floor_moment(lo, 0.3, hi, 0.5, 0, -1));
    const double force = read(floor_panel(lo, 0.3, hi, 0.5));
    EXPECT_NEAR(low + high, force * length, 1e-5 * force * length);
    // The centre of pressure, moment / force from the edge: past the middle, where p is higher.
    EXPECT_GT(low / force, 0.5 * length);
}

// Its tiles add up to the whole moment, each patch's arm measured from the panel's edge.
TEST(WallMoments, TilesAddUpToTheWholeMoment) {
    const double dp = 0.02;
    const SphParams params = params_for(dp);
    const WallSensor moment = floor_moment(0.11, 0.2, 0.93, 0.47, 1, +1);
    Instruments in;
    in.walls = {moment};
    const HostParticles p =
        floor_with(dp, params, [](double x, double y, double) { return 1000.0 + 500.0 * x * y; });
    const InstrumentPlan plan = plan_instruments(in, params, -0.1, 1.0, p.frame);
    ASSERT_EQ(plan.wall_tiles.size(), 1u);
    EXPECT_GT(plan.wall_tiles[0], 4);
    double tiled = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p.type[i] == kFluid) continue;
        const float pressure = tait_pressure(p.velrho[i].w, params);
        for (const InstrumentSite& tile : plan.sites) {
            tiled += double(pressure) *
                     wall_tile_weight(p.frame.between(p.pos[i], tile.centre), Vec3{}, tile).load;
        }
    }
    const double whole = wall_readings({moment}, p, params)[0];
    EXPECT_NEAR(tiled * dp * dp, whole, 1e-4 * whole);
}

// --- options ---------------------------------------------------------------------------------

std::optional<RunOptions> parse(const std::vector<std::string>& args) {
    DamBreak problem;
    return testing::parse_options(problem, args);
}

TEST(WallSensorOptions, ParseNameAndCheck) {
    const auto o = parse({"--wall-sensor", "3.22,0.5,0.1,-x,0.02", "--wall-sensor",
                          "1.0,0.2,0,+z,0.05", "--gauge-filter", "500"});
    ASSERT_TRUE(o.has_value());
    ASSERT_EQ(o->walls.size(), 2u);
    EXPECT_EQ(o->walls[0].name, "W1");
    EXPECT_EQ(o->walls[0].axis, 0);
    EXPECT_EQ(o->walls[0].direction, -1);
    EXPECT_DOUBLE_EQ(o->walls[0].diameter, 0.02);
    EXPECT_EQ(o->walls[1].name, "W2");
    EXPECT_EQ(o->walls[1].axis, 2);
    EXPECT_EQ(o->walls[1].direction, 1);
    EXPECT_DOUBLE_EQ(o->gauge_filter_hz, 500.0);
    EXPECT_DOUBLE_EQ(parse({})->gauge_filter_hz, 0.0);
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"--wall-sensor", "3.22,0.5,0.1,x,0.02"},
          {"--wall-sensor", "3.22,0.5,0.1,-x"},
          {"--wall-sensor", "3.22,0.5,0.1,-x,0"},
          {"--wall-sensor", "3.22,0.5,0.1,-w,0.02"},
          {"--wall-sensor", "3.22,0.5,0.1,-x,0.02,"},
          {"--wall-sensor", "99,0.5,0.1,-x,0.02"},
          {"--gauge-filter", "-5"}}) {
        try {
            parse(bad);
            ADD_FAILURE() << bad[1] << " was accepted";
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find(bad[0]), std::string::npos) << e.what();
        }
    }
}

TEST(WallPanelOptions, ParseNameAndCheck) {
    const auto o =
        parse({"--wall-sensor", "3.22,0.5,0.1,-x,0.02", "--wall-panel",
               "0.8245,0.295,0,0.8245,0.698,0.161,+x", "--wall-panel", "2.5,0.9,0,2.0,0.1,0,+z"});
    ASSERT_TRUE(o.has_value());
    ASSERT_EQ(o->walls.size(), 3u);
    EXPECT_EQ(o->walls[0].name, "W1");
    const WallSensor& face = o->walls[1];
    EXPECT_EQ(face.name, "F1");
    EXPECT_TRUE(face.panel());
    EXPECT_EQ(face.axis, 0);
    EXPECT_EQ(face.direction, 1);
    EXPECT_DOUBLE_EQ(face.x, 0.8245);
    EXPECT_DOUBLE_EQ(face.y, 0.4965);
    EXPECT_DOUBLE_EQ(face.z, 0.0805);
    EXPECT_NEAR(face.side_u, 0.403, 1e-12);  // along y
    EXPECT_NEAR(face.side_v, 0.161, 1e-12);  // along z
    const WallSensor& floor = o->walls[2];
    EXPECT_EQ(floor.name, "F2");
    EXPECT_EQ(floor.axis, 2);
    EXPECT_NEAR(floor.side_u, 0.5, 1e-12);  // along x
    EXPECT_NEAR(floor.side_v, 0.8, 1e-12);  // along y
    for (const char* bad :
         {"0.8245,0.295,0,0.8245,0.698,+x",        // six values
          "0.8245,0.295,0,0.83,0.698,0.161,+x",    // off the face's plane
          "0.8245,0.295,0,0.8245,0.295,0.161,+x",  // no width
          "0.8245,0.295,0,0.8245,0.698,0.161,x",   // no direction
          "0.8245,0.295,0,0.8245,0.698,0.161,+x,", "0.8245,0.295,0,0.8245,0.698,a,+x",
          "0.8245,0.295,0,0.8245,0.698,7,+x"}) {  // above the domain
        try {
            parse({"--wall-panel", bad});
            ADD_FAILURE() << bad << " was accepted";
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find("--wall-panel"), std::string::npos) << e.what();
        }
    }
}

TEST(WallMomentOptions, ParseNameAndCheck) {
    const auto o = parse({"--wall-panel", "0.8245,0.295,0,0.8245,0.698,0.161,+x", "--wall-moment",
                          "0.8245,0.295,0,0.8245,0.698,0.161,+x,+z", "--wall-moment",
                          "2.5,0.9,0,2.0,0.1,0,+z,-y"});
    ASSERT_TRUE(o.has_value());
    ASSERT_EQ(o->walls.size(), 3u);
    EXPECT_EQ(o->walls[0].name, "F1");
    EXPECT_FALSE(o->walls[0].moment());
    const WallSensor& foot = o->walls[1];
    EXPECT_EQ(foot.name, "M1");
    EXPECT_TRUE(foot.panel());
    EXPECT_TRUE(foot.moment());
    EXPECT_EQ(foot.axis, 0);
    EXPECT_EQ(foot.arm_axis, 2);
    EXPECT_EQ(foot.arm_direction, 1);
    EXPECT_NEAR(foot.side_v, 0.161, 1e-12);  // along z
    const WallSensor& floor = o->walls[2];
    EXPECT_EQ(floor.name, "M2");
    EXPECT_EQ(floor.arm_axis, 1);
    EXPECT_EQ(floor.arm_direction, -1);
    for (const char* bad :
         {"0.8245,0.295,0,0.8245,0.698,0.161,+x",      // no arm
          "0.8245,0.295,0,0.8245,0.698,0.161,+x,+x",   // the arm along the face's normal
          "0.8245,0.295,0,0.8245,0.698,0.161,+x,z",    // no direction
          "0.8245,0.295,0,0.8245,0.698,0.161,+x,+z,",  // a ninth value
          "0.8245,0.295,0,0.83,0.698,0.161,+x,+z",     // off the face's plane
          "0.8245,0.295,0,0.8245,0.698,7,+x,+z"}) {    // above the domain
        try {
            parse({"--wall-moment", bad});
            ADD_FAILURE() << bad << " was accepted";
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find("--wall-moment"), std::string::npos) << e.what();
        }
    }
}

TEST(WallSensorOptions, ASensorOffTheWallsIsRefused) {
    RunOptions o = testing::small_run(0.08, 0.02);
    o.walls = {parse_wall_sensor("2.0,0.5,0.3,+z,0.05", "W1")};  // in mid-air
    DamBreak problem;
    try {
        Simulation sim(problem, o, 0);
        ADD_FAILURE() << "accepted";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find("W1"), std::string::npos) << e.what();
    }
}

// --- low-pass filter -------------------------------------------------------------------------

std::vector<double> even_times(double dt, int n) {
    std::vector<double> t(n);
    for (int i = 0; i < n; ++i) t[i] = i * dt;
    return t;
}

// The amplitude of a filtered sine of frequency f in the middle of a long series.
double gain_at(double f, double cutoff) {
    const std::vector<double> t = even_times(1e-4, 4000);
    std::vector<double> v(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) v[i] = std::sin(2 * kPi * f * t[i]);
    const std::vector<double> y = gaussian_low_pass(t, v, cutoff);
    double peak = 0.0;
    for (std::size_t i = 1000; i < 3000; ++i) peak = std::max(peak, std::fabs(y[i]));
    return peak;
}

TEST(LowPass, IsMinusThreeDecibelsAtTheCutOff) {
    EXPECT_NEAR(gain_at(200.0, 200.0), 1.0 / std::sqrt(2.0), 0.01);
    EXPECT_GT(gain_at(20.0, 200.0), 0.99);
    EXPECT_NEAR(gain_at(400.0, 200.0), 0.25, 0.01);  // 2^(-(f / f_c)^2 / 2)
    EXPECT_NEAR(gain_at(600.0, 200.0), 0.044, 0.005);
}

TEST(LowPass, KeepsConstantsAndPeakTimesAndSkipsNaN) {
    // Unevenly spaced samples, as rows every iteration are.
    std::vector<double> t, v, pulse;
    double time = 0.0;
    for (int i = 0; i < 2000; ++i) {
        t.push_back(time);
        time += 1e-5 * (1.0 + 0.5 * std::sin(0.37 * i));
    }
    const double middle = t[1000];
    for (double ti : t) {
        v.push_back(3.5);
        pulse.push_back(std::exp(-std::pow((ti - middle) / 2e-4, 2)));
    }
    v[500] = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> flat = gaussian_low_pass(t, v, 1000.0);
    for (double y : flat) EXPECT_NEAR(y, 3.5, 1e-12);
    const std::vector<double> smooth = gaussian_low_pass(t, pulse, 1000.0);
    std::size_t at = 0;
    for (std::size_t i = 0; i < smooth.size(); ++i) at = smooth[i] > smooth[at] ? i : at;
    EXPECT_NEAR(t[at], middle, 2e-5);
    EXPECT_LT(smooth[at], 1.0);
    const std::vector<double> none =
        gaussian_low_pass({0.0, 1.0}, {std::numeric_limits<double>::quiet_NaN(), 2.0}, 1000.0);
    EXPECT_TRUE(std::isnan(none[0]));  // 1 s away is far beyond the window
    EXPECT_DOUBLE_EQ(none[1], 2.0);
    EXPECT_THROW(gaussian_low_pass({0.0}, {1.0}, 0.0), std::invalid_argument);
}

// The readings' filter as it streams (--gauge-average --gauge-filter) gives at each row the very
// numbers the whole series' filter gives there, through a NaN, one-sided ends and a state taken
// and resumed as a checkpoint's, and the peaks of that filter over every reading; it keeps only
// the readings a row or reading still to filter can reach.
TEST(StreamingLowPass, IsTheWholeSeriesFilterAtTheRows) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double cutoff = 500.0;  // sigma 0.27 ms, reach 1.06 ms: about 90 readings
    std::vector<double> t;
    std::vector<std::vector<double>> columns(2);
    double time = 0.0;
    for (int i = 0; i < 3000; ++i) {
        t.push_back(time);
        columns[0].push_back(std::sin(700.0 * time) + 0.3 * std::sin(9000.0 * time));
        columns[1].push_back(i >= 1000 && i < 1100 ? nan : std::cos(300.0 * time));  // leaves
        time += 1e-5 * (1.0 + 0.5 * std::sin(0.37 * i));
    }
    const std::vector<double> whole[2] = {gaussian_low_pass(t, columns[0], cutoff),
                                          gaussian_low_pass(t, columns[1], cutoff)};
    const auto is_row = [](std::size_t i) { return i % 37 == 0 || i == 2999; };
    StreamingLowPass stream(cutoff);
    std::optional<StreamingLowPass> resumed;
    std::size_t largest = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        stream.add(t[i], {columns[0][i], columns[1][i]});
        if (is_row(i)) stream.mark_row();
        if (i == 1500) {
            stream.add(t[i], {9.0, 9.0});  // the same state read again: nothing added
            stream.mark_row();
            stream.mark_row();  // a row once, however often marked
            resumed.emplace(cutoff, stream.state());
        } else if (resumed) {
            resumed->add(t[i], {columns[0][i], columns[1][i]});
            if (is_row(i)) resumed->mark_row();
        }
        largest = std::max(largest, stream.state().times.size());
    }
    const std::vector<std::vector<double>> rows = stream.rows();
    ASSERT_EQ(rows, resumed->rows());
    std::size_t r = 0, nan_rows = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (!is_row(i) && i != 1500) continue;
        ASSERT_LT(r, rows.size());
        EXPECT_EQ(rows[r][0], whole[0][i]) << "row at reading " << i;  // the same bits
        if (std::isnan(whole[1][i])) {
            EXPECT_TRUE(std::isnan(rows[r][1])) << i;
            ++nan_rows;
        } else {
            EXPECT_EQ(rows[r][1], whole[1][i]) << "row at reading " << i;
        }
        ++r;
    }
    EXPECT_EQ(r, rows.size());
    EXPECT_EQ(nan_rows, 0u);  // the gap is shorter than the window: its rows read around it
    // The peaks: each column's largest and smallest of the whole series' filter, and when.
    const FilteredPeaks peaks = stream.peaks();
    for (std::size_t c = 0; c < 2; ++c) {
        std::size_t high = 0, low = 0;
        for (std::size_t i = 1; i < t.size(); ++i) {
            if (whole[c][i] > whole[c][high]) high = i;
            if (whole[c][i] < whole[c][low]) low = i;
        }
        EXPECT_EQ(peaks.largest[c], whole[c][high]) << c;
        EXPECT_EQ(peaks.largest_time[c], t[high]) << c;
        EXPECT_EQ(peaks.smallest[c], whole[c][low]) << c;
        EXPECT_EQ(peaks.smallest_time[c], t[low]) << c;
    }
    const FilteredPeaks resumed_peaks = resumed->peaks();
    EXPECT_EQ(resumed_peaks.largest, peaks.largest);
    EXPECT_EQ(resumed_peaks.smallest_time, peaks.smallest_time);
    EXPECT_LT(largest, 300u);  // three reaches of readings, not the whole run's
    EXPECT_THROW(stream.add(t[10], {0.0, 0.0}), std::invalid_argument);
    EXPECT_THROW(stream.add(1.0, {0.0}), std::invalid_argument);
    EXPECT_THROW(StreamingLowPass(0.0), std::invalid_argument);
}

using testing::read_lines;

TEST(LowPass, ARunWritesTheFilteredSeriesBesideTheRawOne) {
    testing::TempDir dir("gauge_filter");
    RunOptions o = testing::small_run(0.08, 0.02);
    o.output_dir = dir.path();
    o.write_output = true;
    o.write_frames = false;
    o.gauge_every = 0.002;
    o.gauge_filter_hz = 100.0;
    o.walls = {parse_wall_sensor("3.22,0.5,0.1,-x,0.1", "W1")};
    // A filtered file of an earlier run in the folder goes.
    { std::ofstream(dir.path() + "/gauges_filtered.csv") << "stale\n"; }
    DamBreak problem;
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    sim.run(log);
    const std::vector<std::string> raw = read_lines(dir.path() + "/gauges.csv");
    const std::vector<std::string> filtered = read_lines(dir.path() + "/gauges_filtered.csv");
    ASSERT_GE(raw.size(), 11u);
    ASSERT_EQ(filtered.size(), raw.size());
    EXPECT_EQ(filtered[0], raw[0]);
    EXPECT_NE(raw[0].find(",W1,"), std::string::npos) << raw[0];
    EXPECT_NE(filtered[5], raw[5]);  // smoothed
    EXPECT_EQ(filtered[5].substr(0, filtered[5].find(',')), raw[5].substr(0, raw[5].find(',')));
}

}  // namespace
}  // namespace sph
