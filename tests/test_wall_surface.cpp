// Surface panels (--wall-surface, problems/instruments.h: wall_surface): the force the water
// exerts on a wall's surface of any shape inside a box. On a submerged slope given as a mesh the
// laid-out state reads the hydrostatic force along x and z; the option and the case key are read
// and checked like the other panels'.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "app/instrument_options.h"
#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "common/errors.h"
#include "driver/run_setup.h"
#include "instruments/gauges.h"
#include "mesh_samples.h"
#include "test_support.h"

namespace sph {
namespace {

// A wedge across a tank 0.4 m wide: its slope rises from the floor at x = 0.5 to 0.3 m high at
// the tank's end wall (x = 1.2), 23.2 degrees, under 0.5 m of still water.
constexpr double kWidth = 0.4, kDepth = 0.5, kHigh = 0.3, kFoot = 0.5, kEnd = 1.2;

TriangleMesh wedge() {
    TriangleMesh m;
    m.vertices = {{kFoot, 0, 0},      {kEnd, 0, 0},      {kEnd, 0, kHigh},
                  {kFoot, kWidth, 0}, {kEnd, kWidth, 0}, {kEnd, kWidth, kHigh}};
    m.triangles = {{0, 2, 1}, {3, 4, 5},   // the sides
                   {0, 1, 4}, {0, 4, 3},   // the bottom
                   {1, 2, 5}, {1, 5, 4},   // the end
                   {0, 3, 5}, {0, 5, 2}};  // the slope
    return m;
}

std::string wedge_case(const testing::TempDir& dir) {
    testing::write_stl_ascii(wedge(), dir.path() + "/wedge.stl");
    const std::string path = dir.path() + "/slope.yaml";
    std::ofstream(path) << "name: Slope\n"
                           "domain:\n  inside: {lo: [0, 0, 0], hi: [1.2, 0.4, 0.8]}\n"
                           "  margin: 0.05\n"
                           "tanks:\n  - inside: {lo: [0, 0, 0], hi: [1.2, 0.4, 0.8]}\n"
                           "    top: 0.8\n"
                           "solids:\n  - mesh: wedge.stl\n"
                           "water:\n  - below: 0.5\n"
                           "    region: {lo: [0, 0, 0], hi: [1.2, 0.4, 0.8]}\n"
                           "wet-walls:\n  - region: {lo: [-.inf, -.inf, -.inf], hi: [.inf, .inf, "
                           ".inf]}\n    surface: 0.5\n"
                           "instruments:\n  wall-surface:\n"
                           "    FS_x: \"0.4, 0, 0, 1.2, 0.4, 0.35, +x\"\n"
                           "    FS_z: \"0.4, 0, 0, 1.2, 0.4, 0.35, -z\"\n"
                           "settings:\n  dp: 0.01\n  boundary: mdbc\n";
    return path;
}

// The wedge's case laid out at spacing dp under mDBC.
struct Laid {
    SphParams params;
    HostParticles particles;
    std::vector<WallSensor> sensors;
};

Laid laid_wedge(const std::string& name, double dp) {
    testing::TempDir dir(name);
    const CaseProblem problem(read_case_file(wedge_case(dir)));
    RunOptions o = testing::small_run(dp, 0.1);
    o.boundary = BoundaryModel::kMdbc;
    Laid laid{make_sph_params(o, 0.55), {}, problem.instruments().walls};
    laid.particles = make_particles(problem, o, laid.params);
    return laid;
}

// The hydrostatic force on the slope: along x rho g W (D H - H^2 / 2), down rho g W L (D - H / 2),
// L its horizontal length. Measured 0.4 % low on both at dp 0.01 (the first layer's pressures are
// those of its particles' own depths, and the slope's ends are cut by the lattice's columns).
TEST(WallSurface, ASubmergedSlopeReadsTheHydrostaticForce) {
    const Laid laid = laid_wedge("wall_surface", 0.01);
    ASSERT_EQ(laid.sensors.size(), 2u);
    const std::vector<double> force = wall_readings(laid.sensors, laid.particles, laid.params);
    const double rho_g = double(laid.params.rho0) * 9.81, length = kEnd - kFoot;
    const double along_x = rho_g * kWidth * (kDepth * kHigh - 0.5 * kHigh * kHigh);
    const double down = rho_g * kWidth * length * (kDepth - 0.5 * kHigh);
    std::printf("slope: F_x %.2f N (hydrostatic %.2f), F_down %.2f N (%.2f)\n", force[0], along_x,
                force[1], down);
    EXPECT_NEAR(force[0] / along_x, 1.0, 0.01);
    EXPECT_NEAR(force[1] / down, 1.0, 0.01);
    EXPECT_NO_THROW(check_wall_sensors(laid.sensors, laid.particles, laid.params));
}

TEST(WallSurface, NeedsMdbcAndAWallInItsBox) {
    const Laid laid = laid_wedge("wall_surface_refused", 0.02);
    const SphParams& params = laid.params;
    const auto refusal = [&](const WallSensor& w, const SphParams& p) {
        try {
            check_wall_sensors({w}, laid.particles, p);
        } catch (const OptionError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    const WallSensor in_water = parse_wall_surface("0.1,0.1,0.1,0.2,0.2,0.2,+x", "FS_water");
    EXPECT_NE(refusal(in_water, params).find("FS_water around (0.15, 0.15, 0.15) m holds no wall"),
              std::string::npos);
    SphParams dbc = params;
    dbc.boundary = BoundaryModel::kDbc;
    const WallSensor slope = parse_wall_surface("0.4,0,0,1.2,0.4,0.35,+x", "FS_slope");
    EXPECT_NE(refusal(slope, dbc).find("--boundary mdbc"), std::string::npos);
    EXPECT_EQ(refusal(slope, params), "accepted");
}

TEST(WallSurface, MalformedOptionsAreRefused) {
    const auto refusal = [](const std::string& text) {
        try {
            parse_wall_surface(text, "FS1");
        } catch (const OptionError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal("0,0,0,1,1,1").find("seven values"), std::string::npos);
    EXPECT_NE(refusal("0,0,0,1,1,1,x").find("AXIS must be"), std::string::npos);
    EXPECT_NE(refusal("0,0,0,1,0,1,+x").find("no width along y"), std::string::npos);
    EXPECT_NE(refusal("0,0,a,1,1,1,+x").find("numbers"), std::string::npos);
    const WallSensor w = parse_wall_surface("1,0.4,0,0.5,0,0.3,-z", "FS1");
    EXPECT_TRUE(w.surface());
    EXPECT_TRUE(w.panel());
    EXPECT_FALSE(w.moment());
    EXPECT_DOUBLE_EQ(w.x, 0.75);
    EXPECT_DOUBLE_EQ(w.extent[1], 0.4);
    EXPECT_EQ(w.axis, 2);
    EXPECT_EQ(w.direction, -1);
}

}  // namespace
}  // namespace sph
