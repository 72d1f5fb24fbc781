// Load balancing in runs: slices leave a slow device until the Forces times agree within the
// threshold, balancing never changes the particle states, and on BoreInABox's corridor the slices
// follow the water, keeping the devices' work close where it drifts apart without.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "bore_in_a_box.h"
#include "dam_break.h"
#include "devices/cpu/cpu_device.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

// A CPU device whose reported Forces time follows a cost model: 0.1 us a fluid particle and
// `wall_share` of that a wall, of its internal particles, times a cost factor. Deterministic
// timings make the balancing dynamics testable; the factor makes one device "slower" without
// making the test slow.
class ModelledCostDevice : public CpuDevice {
public:
    ModelledCostDevice(double cost_factor, int threads, double wall_share = 1.0)
        : CpuDevice(threads), cost_factor_(cost_factor), wall_share_(wall_share) {}
    double forces_seconds(Stage) override {
        const auto* type = static_cast<const ParticleType*>(current().type.ptr);
        std::uint32_t fluid = 0;
        for (std::uint32_t i = ranges().left; i < ranges().left + ranges().internal; ++i)
            fluid += type[i] == kFluid;
        const double walls = double(ranges().internal - fluid);
        return cost_factor_ * 1e-7 * (double(fluid) + wall_share_ * walls);
    }

private:
    double cost_factor_, wall_share_;
};

struct BalanceRow {
    int step, device, first_slice, end_slice;
    double forces_seconds;
    std::string mark;
    double time = 0.0;
    long particles = 0;
    int new_first_slice = 0, new_end_slice = 0;
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
                                  std::stoi(f[5]), std::stod(f[7]), f[8], std::stod(f[2]),
                                  std::stol(f[6]), std::stoi(f[9]), std::stoi(f[10])});
    }
    return rows;
}

struct Outcome {
    testing::ParticleStates state;
    std::vector<BalanceRow> log;
};

Outcome run_dambreak(bool balancing, const std::string& dir,
                     BoundaryModel boundary = BoundaryModel::kDbc, int slow_device = 1,
                     bool through_incoming = false) {
    const DamBreak problem;
    RunOptions o = testing::small_run(0.05, 0.12);
    o.boundary = boundary;
    o.devices = DeviceSelection::cpu(3);
    o.threads = 1;
    o.output_dir = dir;
    o.balancing = balancing ? RunOptions::Balancing::kOn : RunOptions::Balancing::kOff;
    // The slow device costs three times as much per particle as the others.
    Simulation sim(problem, o, 0, [slow_device](int d, int threads) {
        return std::make_unique<ModelledCostDevice>(d == slow_device ? 3.0 : 1.0, threads);
    });
    if (through_incoming) sim.group().migrate_through_incoming();
    std::ostringstream log;
    sim.run(log);
    Outcome r;
    r.state = testing::states_by_id(sim.particles());
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
    EXPECT_EQ(testing::count_bitwise_differences(off.state, on.state), 0);
}

// Under mDBC each device owns at least the 4 slices its neighbours hold of it (halo_slices); slices
// still move, and the results are still those of the unbalanced run. The slow device is the last:
// the first split by work leaves the middle one no more than those 4 slices, none to give.
TEST(LoadBalancing, UnderMdbcDoesNotChangeTheResultsBitwise) {
    testing::TempDir on_dir("lb-on-mdbc"), off_dir("lb-off-mdbc");
    const Outcome on = run_dambreak(true, on_dir.path(), BoundaryModel::kMdbc, 2);
    const Outcome off = run_dambreak(false, off_dir.path(), BoundaryModel::kMdbc, 2);
    int moved = 0;
    for (const auto& row : on.log) moved += row.mark != "none";
    EXPECT_GT(moved, 0) << "balancing moved no slice: the comparison shows nothing";
    for (const auto& row : on.log) EXPECT_GE(row.end_slice - row.first_slice, 4);
    ASSERT_EQ(on.state.size(), off.state.size());
    EXPECT_EQ(testing::count_bitwise_differences(off.state, on.state), 0);
}

// A device sorts its arrivals in place, past its own particles, where it has room, and through
// its incoming arrays where it is nearly full: the two ways give the same bits, in a run whose
// balancer moves slices (so that particles migrate at many rebuilds).
TEST(Migration, InPlaceAndThroughTheIncomingArraysGiveTheSameBits) {
    testing::TempDir in_place_dir("migrate-in-place"), incoming_dir("migrate-incoming");
    const Outcome in_place = run_dambreak(true, in_place_dir.path());
    const Outcome incoming = run_dambreak(true, incoming_dir.path(), BoundaryModel::kDbc, 1, true);
    int moved = 0;
    for (const auto& row : in_place.log) moved += row.mark != "none";
    EXPECT_GT(moved, 0) << "no slice moved: few particles migrated";
    ASSERT_EQ(in_place.state.size(), incoming.state.size());
    EXPECT_EQ(testing::count_bitwise_differences(in_place.state, incoming.state), 0);
}

TEST(FirstSplit, WeighsAWallAtASixthOfAFluidParticleUnderDbcAndAThirdUnderMdbc) {
    SliceCounts counts;
    counts.all = {10, 7, 0};
    counts.fluid = {4, 0, 0};
    EXPECT_EQ(start_work(counts, BoundaryModel::kDbc),
              (std::vector<std::uint64_t>{4 * 6 + 6, 7, 0}));
    EXPECT_EQ(start_work(counts, BoundaryModel::kMdbc),
              (std::vector<std::uint64_t>{4 * 3 + 6, 7, 0}));
}

// DamBreak's first split on two devices, whose slices hold fluid and walls in very different
// shares: by the slices' work, and by their particles only where the work's split would not fit.
TEST(FirstSplit, FallsOnTheWorkAndOnTheParticlesWhereTheWorkWouldNotFit) {
    const DamBreak problem;
    RunOptions o = testing::small_run(0.05, 0.01);
    o.devices = DeviceSelection::cpu(2);
    o.threads = 1;
    const SphParams params = make_sph_params(o, problem.still_water_depth());
    const SliceCounts counts = particles_per_slice(make_particles(problem, o, params),
                                                   make_grid(problem, params, o.dp, 0));
    const int by_work =
        SliceMap::balanced(start_work(counts, BoundaryModel::kDbc), 2).first_slice(1);
    const int by_particles = SliceMap::balanced(counts.all, 2).first_slice(1);
    ASSERT_NE(by_work, by_particles) << "the two splits agree: the test shows nothing";

    std::size_t one_device_bytes = 0;
    {
        Simulation sim(problem, o, 0);
        EXPECT_EQ(sim.group().slices().first_slice(1), by_work);
        one_device_bytes = sim.group().device(0).bytes_allocated();
    }
    // Limits from where the run is refused to where the work's split fits: each run that starts
    // takes one of the two splits, the work's wherever it fits, and the particles' somewhere.
    int fell_back = 0, refused = 0;
    for (int percent = 40; percent <= 100; ++percent) {
        o.device_memory_limit = one_device_bytes * percent / 100;
        try {
            Simulation sim(problem, o, 0);
            const int split = sim.group().slices().first_slice(1);
            EXPECT_TRUE(split == by_work || split == by_particles) << percent << " %: " << split;
            if (split == by_particles) {
                ++fell_back;
                EXPECT_EQ(fell_back + refused, percent - 40 + 1)
                    << "the particles' split after the work's had fitted, at " << percent << " %";
            }
        } catch (const OptionError&) {
            ++refused;
            EXPECT_EQ(fell_back, 0) << "refused at " << percent << " % after fitting below";
        }
    }
    EXPECT_GT(fell_back, 0) << "no limit that only the particles' split fits";
    EXPECT_GT(refused, 0) << "no limit too small for either split";
}

// BoreInABox, corridor variant, on three CPU devices split along y.
//
// The physics: the water (y in [0, 0.6]) starts against the block's front face (y = 0.6); its only
// way on is the corridor, a quarter of the box's width, so it drains slowly into the last third of
// the box: by t = 1 s about a fifth of it has gone past y = 1.04, into the last device's region.
// The first device (the back of the water) slowly loses work, the last one gains it. The devices'
// Forces times follow a model in which a wall costs a sixth of a fluid particle, the weights of
// the initial split (start_work), which so balances the modelled work to within a slice.
//
// The configuration, chosen to be affordable in CI (two runs of some 60 CPU seconds each) while the
// water moves about one slice's worth of particles between devices:
//   dp 0.05 m       18 522 particles (3456 fluid) in 17 slices 0.143 m thick;
//   c0 10 sqrt(gH)  half the default's iterations (about 1400 to 1 s), Mach ~0.2 at the front;
//   rebuild every 5 the particles move as far between rebuilds as with the defaults (c0 20, every
//                   10), within the list's skin; the balancer decides every 5 iterations;
//   t_end 1 s       long enough for the drift to dominate the initial split's rounding.
// The modelled times make the balancing dynamics deterministic, whatever the load of the machine.
struct CorridorDecision {
    double time = 0.0;
    std::vector<BalanceRow> device;  // the decision's rows, in device order
    double least() const {
        double t = device.at(0).forces_seconds;
        for (const BalanceRow& r : device) t = std::min(t, r.forces_seconds);
        return t;
    }
    double most() const {
        double t = device.at(0).forces_seconds;
        for (const BalanceRow& r : device) t = std::max(t, r.forces_seconds);
        return t;
    }
    double spread() const { return most() - least(); }
    double ratio() const { return most() / least(); }
};

std::vector<CorridorDecision> run_corridor(bool balancing, const std::string& dir) {
    constexpr int kDevices = 3;
    const BoreInABox problem(BoreInABox::Variant::kCorridor);
    RunOptions o = testing::small_run(0.05, 1.0);  // no particle output: load_balance.csv only
    o.devices = DeviceSelection::cpu(kDevices);
    o.threads = 1;
    o.c0_factor = 10.0;
    o.rebuild_every = 5;
    o.output_dir = dir;
    o.balancing = balancing ? RunOptions::Balancing::kOn : RunOptions::Balancing::kOff;
    Simulation sim(problem, o, problem.default_split_axis(), [](int, int threads) {
        return std::make_unique<ModelledCostDevice>(1.0, threads, 1.0 / 6.0);
    });
    std::ostringstream log;
    sim.run(log);

    std::vector<CorridorDecision> decisions;
    for (const BalanceRow& row : read_log(dir + "/load_balance.csv")) {
        if (row.device == 0) decisions.push_back(CorridorDecision{row.time, {}});
        EXPECT_FALSE(decisions.empty());
        if (decisions.empty()) break;
        EXPECT_EQ(row.device, int(decisions.back().device.size()));
        decisions.back().device.push_back(row);
    }
    for (const CorridorDecision& d : decisions) EXPECT_EQ(d.device.size(), std::size_t(kDevices));
    return decisions;
}

void print_counts(const char* name, const std::vector<CorridorDecision>& decisions) {
    // Every 15th decision (0.05 s) and the last, with each device's slices and particles.
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        if (i % 15 != 0 && i + 1 != decisions.size()) continue;
        const CorridorDecision& d = decisions[i];
        std::printf("%s t %.3f s:", name, d.time);
        for (const BalanceRow& r : d.device) {
            std::printf("  [%2d,%2d) %5ld %.3g s", r.first_slice, r.end_slice, r.particles,
                        r.forces_seconds);
        }
        std::printf("   spread %.3g s  max/min %.3f\n", d.spread(), d.ratio());
    }
}

TEST(LoadBalancing, BoreInABoxCorridorWorkDivergesWithoutBalancingAndStaysCloseWithIt) {
    testing::TempDir off_dir("corridor-off"), on_dir("corridor-on");
    const std::vector<CorridorDecision> off = run_corridor(false, off_dir.path());
    const std::vector<CorridorDecision> on = run_corridor(true, on_dir.path());
    print_counts("off", off);
    print_counts("on ", on);
    // Both runs take the same time steps (balancing does not change the results): the same
    // decisions, at the same times.
    ASSERT_GT(off.size(), 100u);
    ASSERT_EQ(on.size(), off.size());
    ASSERT_EQ(off.front().device.size(), 3u);
    ASSERT_EQ(off.back().device.size(), 3u);
    ASSERT_EQ(on.back().device.size(), 3u);

    // The yardstick: one slice's share of the modelled time (the balancer's own T_slice). The
    // initial split cannot be finer than a slice, and the balancer's threshold T_LB is half a
    // slice (H_LB = 0.5).
    double total = 0.0;
    for (const BalanceRow& r : off.front().device) total += r.forces_seconds;
    const double slice = total / off.front().device.back().end_slice;
    auto in_slices = [&](double seconds) { return seconds / slice; };
    const CorridorDecision &off_first = off.front(), &off_last = off.back();
    const CorridorDecision &on_first = on.front(), &on_last = on.back();
    std::printf("one slice's share: %.3g s; spread off %.2f -> %.2f, on %.2f -> %.2f slices\n",
                slice, in_slices(off_first.spread()), in_slices(off_last.spread()),
                in_slices(on_first.spread()), in_slices(on_last.spread()));

    // Balancing off: nothing moves ...
    for (const CorridorDecision& d : off) {
        for (const BalanceRow& r : d.device) {
            ASSERT_EQ(r.mark, "none") << "t " << d.time << " device " << r.device;
            ASSERT_EQ(r.first_slice, off_first.device[r.device].first_slice);
            ASSERT_EQ(r.end_slice, off_first.device[r.device].end_slice);
            ASSERT_EQ(r.new_first_slice, r.first_slice);
            ASSERT_EQ(r.new_end_slice, r.end_slice);
        }
    }
    // ... the water leaves device 0 and gathers in device 2 (seen: -0.43 and +1.95 slices) ...
    EXPECT_LT(in_slices(off_last.device[0].forces_seconds - off_first.device[0].forces_seconds),
              -0.15);
    EXPECT_GT(in_slices(off_last.device[2].forces_seconds - off_first.device[2].forces_seconds),
              0.3);
    // ... and the work diverges: the spread grows by half a slice at least (seen: 3.5 -> 5.9
    // slices, max/min 1.89 -> 2.68; a slice of the water costs several slice shares, so the
    // initial split is that coarse).
    EXPECT_GT(in_slices(off_last.spread() - off_first.spread()), 0.5);

    // Balancing on moves slices: the decisions mark devices and change the map ...
    int moves = 0;
    for (const CorridorDecision& d : on) {
        for (const BalanceRow& r : d.device) {
            moves += r.mark != "none" &&
                     (r.new_first_slice != r.first_slice || r.new_end_slice != r.end_slice);
        }
    }
    EXPECT_GT(moves, 0) << "balancing moved no slice";
    // ... after the water: at the end device 0 owns more slices than at the start (its water has
    // thinned) and device 2 fewer (water gathered there); both boundaries moved towards +y.
    EXPECT_GT(on_last.device[0].new_end_slice, on_first.device[0].end_slice);
    EXPECT_GT(on_last.device[2].new_first_slice, on_first.device[2].first_slice);
    // ... and the work stays close. When the balancer moves nothing, no two devices on opposite
    // sides of the mean are both half a slice (the threshold) off it; after a move the water keeps
    // flowing towards the device it left short (device 2), so the spread shrinks until the next
    // move (seen: 0.43 slices at the end, against 5.9 without balancing). The bound is checked at
    // the end, well after the balancer's first moves: a slice of the water costs several slice
    // shares, so while the balancer learns what the slices at a boundary cost its first moves
    // overshoot and come back (t 0.06-0.12 s here), the spread then being 2-3.6 slices.
    EXPECT_LT(in_slices(on_last.spread()), 1.0);
    EXPECT_LT(on_last.spread(), off_last.spread() / 2);
}

}  // namespace
}  // namespace sph
