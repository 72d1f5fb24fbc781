// bodies.csv (bodies/body_log.h): the water's load on a gate held still is the hydrostatic thrust;
// a gate that rises reads its law's displacement; the file is the same bytes on one device and on
// three, and a run restarted from a checkpoint ends with the same bytes as one that never stopped.
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

// cases/gate_release.yaml with its motion replaced.
CaseProblem gate_with(const std::string& motion) {
    std::string text = testing::read_text(std::string(SPH_CASES_DIR) + "/gate_release.yaml");
    const std::string was = "motion: {velocity: [0, 0, 1.5], start: 0, stop: 0.2}";
    text.replace(text.find(was), was.size(), motion);
    return CaseProblem(parse_case_text(text, std::string(SPH_CASES_DIR) + "/gate.yaml"));
}

RunOptions run_into(const std::string& dir, int devices, double t_end,
                    BackendChoice backend = BackendChoice::kCpu) {
    const bool cuda = backend == BackendChoice::kCuda;
    RunOptions o = testing::small_run(cuda ? 0.01 : 0.02, t_end, backend);
    o.devices =
        cuda ? DeviceSelection::gpus(std::vector<int>(devices, 0)) : DeviceSelection::cpu(devices);
    o.threads = 1;
    o.boundary = BoundaryModel::kMdbc;
    o.write_output = true;
    o.write_frames = false;
    o.output_dir = dir;
    o.gauge_every = 0.02;
    return o;
}

void run(const Problem& problem, const RunOptions& o) {
    testing::run_reported(problem, o);
}

// The metric, chosen before the run: the mean of Fx over the rows from 0.02 s to 0.1 s against
// rho g H^2 W / 2 for the column of H = 0.2 m, W = 0.1 m held by the gate (19.62 N), within 15 %;
// the gate's other force components and its displacement near zero.
class BodyLoads : public testing::EveryBackend {};

TEST_P(BodyLoads, AGateHeldStillBearsTheHydrostaticThrust) {
    testing::TempDir dir("held-gate");
    run(gate_with("motion: {velocity: [0, 0, 1.5], start: 5, stop: 6}"),
        run_into(dir.path(), 1, 0.1, backend()));
    const std::string csv = dir.path() + "/bodies.csv";
    const std::vector<double> fx = testing::csv_column(csv, "gate_Fx"),
                              dz = testing::csv_column(csv, "gate_dz");
    ASSERT_GE(fx.size(), 5u);
    double mean = 0.0;
    for (std::size_t k = 1; k < fx.size(); ++k) mean += fx[k] / double(fx.size() - 1);
    EXPECT_NEAR(mean, 0.5 * 1000.0 * 9.81 * 0.2 * 0.2 * 0.1, 0.15 * 19.62);
    for (double d : dz) EXPECT_EQ(d, 0.0);
    const std::vector<double> fy = testing::csv_column(csv, "gate_Fy");
    for (double f : fy) EXPECT_LT(std::fabs(f), 0.05 * 19.62);
}

TEST_P(BodyLoads, ARisingGatesRowsFollowItsLawTheSameBytesOnThreeDevices) {
    testing::TempDir one("gate-one"), three("gate-three");
    const CaseProblem gate = gate_with("motion: {velocity: [0, 0, 1.5], start: 0, stop: 0.2}");
    run(gate, run_into(one.path(), 1, 0.1, backend()));
    run(gate, run_into(three.path(), 3, 0.1, backend()));
    const std::string csv = one.path() + "/bodies.csv";
    const std::vector<double> t = testing::csv_column(csv, "time"),
                              dz = testing::csv_column(csv, "gate_dz");
    ASSERT_GE(t.size(), 6u);
    EXPECT_EQ(t.front(), 0.0);
    EXPECT_DOUBLE_EQ(t.back(), 0.1);
    for (std::size_t k = 0; k < t.size(); ++k) EXPECT_NEAR(dz[k], 1.5 * t[k], 1e-8);
    for (double v : testing::csv_column(csv, "gate_vz")) EXPECT_EQ(v, 1.5);
    EXPECT_EQ(testing::read_text(csv), testing::read_text(three.path() + "/bodies.csv"));
}

SPH_ON_EVERY_BACKEND(BodyLoads);

TEST(BodyLoadsRestart, ARestartEndsWithTheSameBodiesCsv) {
    testing::TempDir straight("gate-straight"), split("gate-split");
    const CaseProblem gate = gate_with("motion: {velocity: [0, 0, 1.5], start: 0, stop: 0.2}");
    run(gate, run_into(straight.path(), 1, 0.1));
    RunOptions first = run_into(split.path(), 1, 0.05);
    first.checkpoint_every = 0.05;
    first.checkpoint_dir = split.path() + "/checkpoints";
    run(gate, first);
    RunOptions second = first;
    second.t_end = 0.1;
    second.restart_from = "latest";
    run(gate, second);
    EXPECT_EQ(testing::read_text(straight.path() + "/bodies.csv"),
              testing::read_text(split.path() + "/bodies.csv"));
}

}  // namespace
}  // namespace sph
