// A case with a mesh and a terrain (cases/flood_street.yaml: a house as a binary STL, a street as
// an elevation grid, water below a level) runs to the same particle states bit for bit on one
// device and on several: 2 and 3 CPU devices, --devices 0,0 on a GPU, under mDBC, whose ghost
// nodes come from the shapes. And the case program runs it end to end, writing its report.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kDp = 0.08;

CaseProblem flood_street() {
    return CaseProblem(read_case_file(std::string(SPH_CASES_DIR) + "/flood_street.yaml"));
}

struct Outcome {
    testing::ParticleStates state;
    int migrated = 0;  // particles that ended on another device than after the first rebuild
    double time = 0.0;
};

// The device each particle is on, by id.
std::unordered_map<std::uint32_t, int> owners(Simulation& sim) {
    std::unordered_map<std::uint32_t, int> owner;
    const std::vector<HostParticles> parts = sim.particles_per_device();
    for (int d = 0; d < int(parts.size()); ++d) {
        for (std::uint32_t id : parts[d].id) owner[id] = d;
    }
    return owner;
}

Outcome run(const Problem& problem, BackendChoice backend, const DeviceSelection& devices,
            int iterations) {
    RunOptions o = testing::small_run(kDp, 10.0, backend);
    o.boundary = BoundaryModel::kMdbc;
    o.no_penetration = true;
    o.devices = devices;
    o.threads = 1;
    Simulation sim(problem, o, 0);
    sim.step();
    const std::unordered_map<std::uint32_t, int> first = owners(sim);
    for (int i = 1; i < iterations; ++i) sim.step();
    Outcome out;
    for (const auto& [id, d] : owners(sim)) out.migrated += first.at(id) != d;
    out.state = testing::states_by_id(sim.particles());
    out.time = sim.time();
    return out;
}

class CaseRuns : public testing::EveryBackend {};

TEST_P(CaseRuns, AMeshAndTerrainCaseMatchesOneDeviceBitwiseOnSeveral) {
    const CaseProblem problem = flood_street();
    const bool cuda = backend() == BackendChoice::kCuda;
    const int iterations = 300;
    const Outcome one =
        run(problem, backend(), cuda ? DeviceSelection::gpus({0}) : DeviceSelection::cpu(1),
            iterations);
    EXPECT_GT(one.state.size(), 10000u);
    const std::vector<DeviceSelection> lists =
        cuda ? std::vector<DeviceSelection>{DeviceSelection::gpus({0, 0})}
             : std::vector<DeviceSelection>{DeviceSelection::cpu(2), DeviceSelection::cpu(3)};
    int migrated = 0;
    for (const DeviceSelection& devices : lists) {
        const Outcome many = run(problem, backend(), devices, iterations);
        EXPECT_EQ(one.time, many.time);
        const std::string where = cuda ? "--devices " + devices.gpu_list()
                                       : std::to_string(devices.cpu_devices) + " CPU devices";
        EXPECT_EQ(testing::count_bitwise_differences(one.state, many.state), 0) << "on " << where;
        std::printf("%s: %zu particles, %d migrated, t = %.6f s\n", where.c_str(),
                    many.state.size(), many.migrated, many.time);
        migrated += many.migrated;
    }
    EXPECT_GT(migrated, 0) << "no particle changed device: the test exercised no migration";
}

SPH_ON_EVERY_BACKEND(CaseRuns);

TEST(CaseProgram, RunsTheFloodCaseAndReadsItsPanels) {
    const testing::TempDir dir("case_program");
    const std::string file = std::string(SPH_CASES_DIR) + "/flood_street.yaml";
    const char* argv[] = {"case", "--case", file.c_str()};
    std::unique_ptr<Problem> problem = case_problem_from_arguments(3, argv, 0);
    const testing::AppResult r = testing::run_app_or_fail_on_hang(
        *problem,
        {"--case", file, "--backend", "cpu", "--dp", "0.08", "--t-end", "0.05", "--no-frames",
         "--output-dir", dir.path()},
        0, 600);
    EXPECT_EQ(r.code, 0) << r.err;
    const std::vector<std::string> rows = testing::read_lines(dir.path() + "/gauges.csv");
    ASSERT_GE(rows.size(), 2u);
    EXPECT_NE(rows[0].find("F_house"), std::string::npos) << rows[0];
    EXPECT_NE(rows[0].find("M_house"), std::string::npos) << rows[0];
}

}  // namespace
}  // namespace sph
