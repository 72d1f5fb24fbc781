// Floating bodies in whole runs (cases/floating_box.yaml, docs/bodies.md): a box of half the
// water's density laid out at its draught stays there; a box dropped in air falls as gravity
// alone moves it and comes to rest on the floor; bodies.csv is the same bytes on one device and on
// three (balanced), and after a restart; bad floating bodies in a case file are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

const std::string kFloating = "floating: {density: 500}";

// cases/floating_box.yaml with its floating line replaced; `dry`: the box low in the tank and the
// water kept still in a pit at its far end, behind a solid wall, away from it.
std::string floating_box_text(const std::string& floating, bool dry = false) {
    std::string text = testing::read_text(std::string(SPH_CASES_DIR) + "/floating_box.yaml");
    const auto replace = [&](const std::string& was, const std::string& now) {
        text.replace(text.find(was), was.size(), now);
    };
    replace(kFloating, floating);
    if (dry) {
        replace("box: {lo: [0.2, 0.05, 0.17], hi: [0.4, 0.15, 0.23]}",
                "box: {lo: [0.2, 0.05, 0.05], hi: [0.4, 0.15, 0.11]}");
        replace("region: {lo: [0, 0, 0], hi: [0.6, 0.2, 0.35]}",
                "region: {lo: [0.5, 0, 0], hi: [0.6, 0.2, 0.35]}");
        replace("below: 0.2", "below: 0.06");
        replace("solids:\n", "solids:\n  - box: {lo: [0.46, 0, 0], hi: [0.5, 0.2, 0.12]}\n");
    }
    return text;
}

CaseProblem floating_box(const std::string& floating, bool dry = false) {
    return CaseProblem(parse_case_text(floating_box_text(floating, dry),
                                       std::string(SPH_CASES_DIR) + "/floating.yaml"));
}

RunOptions run_into(const std::string& dir, double dp, double t_end,
                    BackendChoice backend = BackendChoice::kCpu, int devices = 1) {
    const bool cuda = backend == BackendChoice::kCuda;
    RunOptions o = testing::small_run(dp, t_end, backend);
    o.devices =
        cuda ? DeviceSelection::gpus(std::vector<int>(devices, 0)) : DeviceSelection::cpu(devices);
    o.threads = 1;
    o.write_output = true;
    o.write_frames = false;
    o.output_dir = dir;
    o.gauge_every = 0.02;
    return o;
}

void run(const Problem& problem, const RunOptions& o) {
    testing::run_reported(problem, o);
}

// The metric, chosen before the run: at dp 0.01 (the box six particles high), every row within
// 2 mm of where the box was laid out (its draught is 30 mm), and the water's mean vertical force
// over the rows from 0.02 s on within 5 % of the box's weight, 0.2 x 0.1 x 0.06 m at 500 kg/m^3.
TEST(FloatingBodies, ABoxOfHalfTheWatersDensityStaysAtItsDraught) {
    testing::TempDir dir("floating-still");
    run(floating_box(kFloating), run_into(dir.path(), 0.01, 0.1));
    const std::string csv = dir.path() + "/bodies.csv";
    const std::vector<double> t = testing::csv_column(csv, "time"),
                              dz = testing::csv_column(csv, "box_dz"),
                              fz = testing::csv_column(csv, "box_Fz");
    ASSERT_GE(t.size(), 6u);
    double mean = 0.0;
    int rows = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
        EXPECT_LT(std::fabs(dz[k]), 0.002) << "at t = " << t[k];
        if (t[k] < 0.02) continue;
        mean += fz[k];
        ++rows;
    }
    const double weight = 0.2 * 0.1 * 0.06 * 500.0 * 9.81;
    EXPECT_NEAR(mean / rows, weight, 0.05 * weight);
}

// In air, held to fall straight: gravity alone until it meets the floor (the first rows to the
// rounding of its double sums), then it rests there, its lowest particles a spacing above the
// floor's top ones (contact: kernels/body_loads_body.h): 0.06 m of gap less dp 0.02 m.
TEST(FloatingBodies, ABoxDroppedInAirFallsFreelyAndRestsOnTheFloor) {
    testing::TempDir dir("floating-drop");
    run(floating_box("floating: {density: 500, move: [z], turn: []}", true),
        run_into(dir.path(), 0.02, 0.3));
    const std::string csv = dir.path() + "/bodies.csv";
    const std::vector<double> t = testing::csv_column(csv, "time"),
                              dz = testing::csv_column(csv, "box_dz"),
                              vz = testing::csv_column(csv, "box_vz");
    ASSERT_GE(t.size(), 10u);
    const double g = double(9.81f);  // as the run holds it
    for (std::size_t k = 0; k < t.size() && t[k] < 0.07; ++k) {
        EXPECT_NEAR(dz[k], -0.5 * g * t[k] * t[k], 1e-9) << "at t = " << t[k];
        EXPECT_NEAR(vz[k], -g * t[k], 1e-9);
    }
    EXPECT_NEAR(dz.back(), -0.04, 0.003);
    EXPECT_LT(std::fabs(vz.back()), 0.01);
    for (const char* held : {"box_dx", "box_dy", "box_angle", "box_omega"}) {
        for (double v : testing::csv_column(csv, held)) EXPECT_EQ(v, 0.0) << held;
    }
}

// The complete elliptic integral of the first kind K(k), by the arithmetic-geometric mean.
double elliptic_k(double k) {
    double a = 1.0, b = std::sqrt(1.0 - k * k);
    for (int i = 0; i < 20; ++i) {
        const double next = 0.5 * (a + b);
        b = std::sqrt(a * b);
        a = next;
    }
    return M_PI / (2.0 * a);
}

// In air, hinged along y at (0.2, 0.33): a cube of side 0.1 m, its mass (1 kg), centre (0.3,
// 0.13) and inertia (m a^2 / 6) given, released 0.4636 rad from hanging. A compound pendulum:
// period 2 pi sqrt(I_h / (m g d)) (2 / pi) K(sin(theta0 / 2)), I_h = m (a^2 / 6 + d^2),
// d = sqrt(0.05) m. The metric, chosen before the run: the period between the first and third
// zero crossings of its angle in bodies.csv (rows every 2 ms) within 0.5 %.
TEST(FloatingBodies, AHingedBoxSwingsAsACompoundPendulum) {
    testing::TempDir dir("floating-hinged");
    const double d = std::sqrt(0.05), theta0 = std::atan(0.5);
    std::string text = floating_box_text(
        "floating: {mass: 1, centre: [0.3, 0.1, 0.13], inertia: [0.0016666666666666668, "
        "0.0016666666666666668, 0.0016666666666666668], hinge: {axis: y, at: [0.2, 0.1, 0.33]}}",
        true);
    const std::string was = "box: {lo: [0.2, 0.05, 0.05], hi: [0.4, 0.15, 0.11]}";
    text.replace(text.find(was), was.size(),
                 "box: {lo: [0.25, 0.05, 0.08], hi: [0.35, 0.15, 0.18]}");
    RunOptions o = run_into(dir.path(), 0.02, 1.3);
    o.gauge_every = 0.002;
    run(CaseProblem(parse_case_text(text, std::string(SPH_CASES_DIR) + "/hinged.yaml")), o);
    const std::string csv = dir.path() + "/bodies.csv";
    const std::vector<double> t = testing::csv_column(csv, "time"),
                              angle = testing::csv_column(csv, "box_angle");
    std::vector<double> crossings;
    for (std::size_t k = 1; k < t.size(); ++k) {
        // Its angle is from where it was laid out: it hangs at theta0.
        const double now = angle[k] - theta0, before = angle[k - 1] - theta0;
        if ((now < 0.0) == (before < 0.0)) continue;
        crossings.push_back(t[k] - (t[k] - t[k - 1]) * now / (now - before));
    }
    ASSERT_GE(crossings.size(), 3u);
    const double small = 2.0 * M_PI * std::sqrt((0.01 / 6.0 + d * d) / (double(9.81f) * d));
    const double period = small * 2.0 / M_PI * elliptic_k(std::sin(0.5 * theta0));
    EXPECT_NEAR(crossings[2] - crossings[0], period, 0.005 * period);
}

class FloatingBodiesDevices : public testing::EveryBackend {};

TEST_P(FloatingBodiesDevices, TheSameBytesOnThreeBalancedDevicesAsOnOne) {
    testing::TempDir one("floating-one"), three("floating-three");
    const CaseProblem box = floating_box("floating: {density: 1200}");
    const double dp = backend() == BackendChoice::kCuda ? 0.01 : 0.02;
    RunOptions o = run_into(one.path(), dp, 0.1, backend());
    o.boundary = BoundaryModel::kMdbc;
    run(box, o);
    o = run_into(three.path(), dp, 0.1, backend(), 3);
    o.boundary = BoundaryModel::kMdbc;
    o.balancing = RunOptions::Balancing::kOn;
    run(box, o);
    const std::string csv = one.path() + "/bodies.csv";
    EXPECT_LT(testing::csv_column(csv, "box_dz").back(), 0.0);  // heavier than the water: it sinks
    EXPECT_EQ(testing::read_text(csv), testing::read_text(three.path() + "/bodies.csv"));
}

SPH_ON_EVERY_BACKEND(FloatingBodiesDevices);

TEST(FloatingBodiesRestart, ARestartEndsWithTheSameBodiesCsv) {
    testing::TempDir straight("floating-straight"), split("floating-split");
    const CaseProblem box = floating_box("floating: {density: 700}");
    run(box, run_into(straight.path(), 0.02, 0.1));
    RunOptions first = run_into(split.path(), 0.02, 0.05);
    first.checkpoint_every = 0.05;
    first.checkpoint_dir = split.path() + "/checkpoints";
    run(box, first);
    RunOptions second = first;
    second.t_end = 0.1;
    second.restart_from = "latest";
    run(box, second);
    EXPECT_EQ(testing::read_text(straight.path() + "/bodies.csv"),
              testing::read_text(split.path() + "/bodies.csv"));
}

TEST(FloatingBodiesCase, BadFloatingBodiesAreRefusedNamingTheLine) {
    const auto refused = [](const std::string& floating, const std::string& says) {
        try {
            CaseProblem p(parse_case_text(floating_box_text(floating),
                                          std::string(SPH_CASES_DIR) + "/floating.yaml"));
            ADD_FAILURE() << "accepted " << floating;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    refused("floating: {move: [z]}", "floating.yaml:23: a floating body needs exactly one of");
    refused("floating: {density: -3}", "density must be positive");
    refused("floating: {mass: 0}", "mass must be positive");
    refused("floating: {density: 500, move: [w]}", "an axis is x, y or z");
    refused("floating: {density: 500, turn: [y, y]}", "listed twice");
    refused("floating: {density: 500, inertia: [1, 2]}", "inertia is [Ixx, Iyy, Izz]");
    refused("floating: {density: 500, spin: 1}", "spin");
    refused("floating: {density: 500, hinge: {axis: y, at: [0, 0, 0]}, turn: [x]}",
            "a hinged body turns about its hinge alone");
    refused("floating: {density: 500, centre: [0, 0]}", "floating body's centre");
    refused("floating: {density: 500}\n    motion: {velocity: [0, 0, 1]}",
            "exactly one of motion (a law) or floating");
}

}  // namespace
}  // namespace sph
