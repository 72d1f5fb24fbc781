// Load balancing in runs: slices leave a slow device until the Forces times agree within the
// threshold, and balancing never changes the particle states.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "cpu_device.h"
#include "dam_break.h"
#include "simulation.h"
#include "test_support.h"

namespace sph {
namespace {

// A CPU device whose reported Forces time follows a cost model: seconds proportional to its
// internal particles, times a cost factor. Deterministic timings make the balancing dynamics
// testable; the factor makes one device "slower" without making the test slow.
class ModelledCostDevice : public CpuDevice {
public:
    ModelledCostDevice(double cost_factor, int threads)
        : CpuDevice(threads), cost_factor_(cost_factor) {}
    double last_forces_seconds() override {
        return cost_factor_ * 1e-7 * double(layout().internal);
    }

private:
    double cost_factor_;
};

struct BalanceRow {
    int step, device, first_slice, end_slice;
    double forces_seconds;
    std::string mark;
};

std::vector<BalanceRow> read_log(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, LoadBalanceLog::kHeader);
    std::vector<BalanceRow> rows;
    while (std::getline(in, line)) {
        std::stringstream s(line);
        std::vector<std::string> f;
        std::string item;
        while (std::getline(s, item, ',')) f.push_back(item);
        EXPECT_EQ(f.size(), 11u) << line;
        if (f.size() != 11u) continue;
        rows.push_back(BalanceRow{std::stoi(f[0]), std::stoi(f[3]), std::stoi(f[4]),
                                  std::stoi(f[5]), std::stod(f[7]), f[8]});
    }
    return rows;
}

struct Outcome {
    std::unordered_map<std::uint32_t, std::pair<Vec4, Vec4>> state;
    std::vector<BalanceRow> log;
};

Outcome run_dambreak(bool balancing, const std::string& dir) {
    const DamBreak problem;
    RunOptions o = testing::small_run(0.05, 0.12);
    o.devices = "3";
    o.threads = 1;
    o.output_dir = dir;
    o.balancing = balancing ? RunOptions::Balancing::kOn : RunOptions::Balancing::kOff;
    // Device 1 costs three times as much per particle as the others.
    Simulation sim(problem, o, 0, [](int d, int threads) {
        return std::make_unique<ModelledCostDevice>(d == 1 ? 3.0 : 1.0, threads);
    });
    std::ostringstream log;
    sim.run(log);
    Outcome r;
    const HostParticles p = sim.particles();
    for (std::size_t i = 0; i < p.size(); ++i) r.state[p.id[i]] = {p.pos[i], p.velrho[i]};
    r.log = read_log(dir + "/load_balance.csv");
    return r;
}

TEST(LoadBalancing, SlicesLeaveTheSlowDeviceAndTheTimesConverge) {
    testing::TempDir dir("lb");
    const Outcome r = run_dambreak(true, dir.path());
    ASSERT_GT(r.log.size(), 30u);
    const int steps = r.log.back().step + 1;
    auto at = [&](int step, int device) {
        for (const auto& row : r.log) {
            if (row.step == step && row.device == device) return row;
        }
        ADD_FAILURE() << "no row for step " << step << " device " << device;
        return BalanceRow{};
    };
    const BalanceRow slow_first = at(0, 1), slow_last = at(steps - 1, 1);
    EXPECT_EQ(slow_first.mark, "giving");
    EXPECT_LT(slow_last.end_slice - slow_last.first_slice,
              slow_first.end_slice - slow_first.first_slice)
        << "the slow device kept its slices";
    // The spread of the average Forces times shrinks to about the threshold (half a slice's
    // time): far below where it started.
    auto spread = [&](int step) {
        double lo = 1e30, hi = 0;
        for (int d = 0; d < 3; ++d) {
            lo = std::min(lo, at(step, d).forces_seconds);
            hi = std::max(hi, at(step, d).forces_seconds);
        }
        return hi - lo;
    };
    const double first = spread(0), last = spread(steps - 1);
    std::printf(
        "Forces-time spread: %.3g s at the first balancing step, %.3g s at the last (%d "
        "steps); slow device slices %d -> %d\n",
        first, last, steps, slow_first.end_slice - slow_first.first_slice,
        slow_last.end_slice - slow_last.first_slice);
    EXPECT_LT(last, 0.25 * first);
}

TEST(LoadBalancing, DoesNotChangeTheResultsBitwise) {
    testing::TempDir on_dir("lb-on"), off_dir("lb-off");
    const Outcome on = run_dambreak(true, on_dir.path());
    const Outcome off = run_dambreak(false, off_dir.path());
    int moved = 0;
    for (const auto& row : on.log) moved += row.mark != "none";
    EXPECT_GT(moved, 0) << "balancing moved no slice: the comparison shows nothing";
    for (const auto& row : off.log) EXPECT_EQ(row.mark, "none");
    ASSERT_EQ(on.state.size(), off.state.size());
    int differing = 0;
    for (const auto& [id, s] : off.state) {
        const auto& t = on.state.at(id);
        differing += std::memcmp(&s.first, &t.first, sizeof(Vec4)) != 0 ||
                     std::memcmp(&s.second, &t.second, sizeof(Vec4)) != 0;
    }
    EXPECT_EQ(differing, 0);
}

}  // namespace
}  // namespace sph
