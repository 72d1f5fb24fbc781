// Damping zones (kernels/damping_zone.h, boundaries/damping_zones.h): the factor the corrector
// scales the water's velocity by, zone by zone; a run with a zone downstream of a released column
// slows the water there and is the same bytes on one device and on three; bad zones are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "boundaries/damping_zones.h"
#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "test_support.h"

namespace sph {
namespace {

TEST(DampingZone, TheFactorRampsAsTheSquareFromStartToEnd) {
    const double origin[3] = {0.0, 0.0, 0.0};
    const PositionFrame frame = position_frame(origin, -20);
    const std::vector<DampingZone> one = checked_damping_zones({DampingZone{0, 3.0f, 4.0f, 10.0f}});
    const DampingZones zones{one.data(), 1};
    const auto at = [&](double x) {
        return damping_factor(zones, frame.fixed(x, 0.1, 0.1, 0.0f), frame, 0.01f);
    };
    EXPECT_EQ(at(2.0), 1.0f);
    EXPECT_EQ(at(3.0), 1.0f);
    EXPECT_NEAR(at(3.5), 1.0 - 0.01 * 10.0 * 0.25, 1e-6);
    EXPECT_NEAR(at(4.0), 0.9, 1e-6);
    EXPECT_NEAR(at(4.5), 0.9, 1e-6);  // beyond the end: full
    // Reversed: full at 3, none from 4 on; zones multiply; never below 0.
    const std::vector<DampingZone> both = checked_damping_zones(
        {DampingZone{0, 4.0f, 3.0f, 10.0f}, DampingZone{1, 0.0f, 0.2f, 1e6f}});
    const DampingZones two{both.data(), 2};
    EXPECT_NEAR(damping_factor(two, frame.fixed(3.0, 0.0, 0.0, 0.0f), frame, 0.01f), 0.9, 1e-6);
    EXPECT_EQ(damping_factor(two, frame.fixed(3.0, 0.1, 0.0, 0.0f), frame, 0.01f), 0.0f);
}

TEST(DampingZone, ZonesThatCannotBeAreRefused) {
    const auto refused = [](const std::vector<DampingZone>& zones, const std::string& says) {
        try {
            checked_damping_zones(zones);
            ADD_FAILURE() << "accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    refused({DampingZone{3, 0.0f, 1.0f, 1.0f}}, "damping zone 1: its axis");
    refused({DampingZone{0, 1.0f, 1.0f, 1.0f}}, "must be finite and differ");
    refused({DampingZone{0, 0.0f, 1.0f, -1.0f}}, "strength must be finite and >= 0");
    refused(std::vector<DampingZone>(5, DampingZone{0, 0.0f, 1.0f, 1.0f}), "at most 4");
}

// cases/gate_release.yaml with `extra` added at its top level.
CaseProblem gate_release(const std::string& extra) {
    const std::string text =
        testing::read_text(std::string(SPH_CASES_DIR) + "/gate_release.yaml") + extra;
    return CaseProblem(parse_case_text(text, std::string(SPH_CASES_DIR) + "/gate.yaml"));
}

RunOptions run_into(const std::string& dir, int devices,
                    BackendChoice backend = BackendChoice::kCpu) {
    const bool cuda = backend == BackendChoice::kCuda;
    RunOptions o = testing::small_run(0.02, 0.4, backend);
    o.devices =
        cuda ? DeviceSelection::gpus(std::vector<int>(devices, 0)) : DeviceSelection::cpu(devices);
    o.threads = 1;
    o.write_output = true;
    o.write_frames = false;
    o.output_dir = dir;
    o.gauge_every = 0.01;
    return o;
}

double mean_from(const std::vector<double>& t, const std::vector<double>& v, double from) {
    double sum = 0.0;
    int n = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k] < from) continue;
        sum += v[k];
        ++n;
    }
    return sum / n;
}

// The metric, chosen before the run: the column released at 0 s runs into a zone from x = 0.3 m
// to 0.8 m; slowed there, the water at x = 0.5 m stands deeper over 0.3-0.4 s than without it.
class DampingZoneRuns : public testing::EveryBackend {};

TEST_P(DampingZoneRuns, AZoneSlowsTheWaterTheSameBytesOnThreeDevices) {
    testing::TempDir plain("damping-plain"), one("damping-one"), three("damping-three");
    const std::string zone = "damping:\n  - {axis: x, from: 0.3, to: 0.8, strength: 100}\n";
    testing::run_reported(gate_release(""), run_into(plain.path(), 1, backend()));
    testing::run_reported(gate_release(zone), run_into(one.path(), 1, backend()));
    testing::run_reported(gate_release(zone), run_into(three.path(), 3, backend()));
    const std::string damped = one.path() + "/gauges.csv", free = plain.path() + "/gauges.csv";
    const std::vector<double> t = testing::csv_column(damped, "time");
    ASSERT_GE(t.size(), 30u);
    EXPECT_GT(mean_from(t, testing::csv_column(damped, "H_downstream"), 0.3),
              mean_from(t, testing::csv_column(free, "H_downstream"), 0.3));
    EXPECT_EQ(testing::read_text(damped), testing::read_text(three.path() + "/gauges.csv"));
}

SPH_ON_EVERY_BACKEND(DampingZoneRuns);

}  // namespace
}  // namespace sph
