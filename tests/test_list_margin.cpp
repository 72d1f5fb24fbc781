// The neighbour list's margin between rebuilds (driver/list_margin.h): the bound from the time
// steps, its intervals, and what a run reports and warns when a flow outruns the list.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "dam_break.h"
#include "driver/list_margin.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

TEST(ListMargin, BoundsEachIntervalsTravelByTheTimeSteps) {
    // cfl h = 0.003 m, c0 = 10 m/s: a stable dt of 2e-4 s bounds the speed by 5 m/s.
    const double inf = std::numeric_limits<double>::infinity();
    ListMargin m(0.3, 0.01, 10.0, 0.0025);
    m.at_rebuild();  // before any iteration: no interval
    EXPECT_EQ(m.intervals(), 0);
    m.add_iteration(2e-4, inf, 2e-4);   // 1 mm (at rest as it began, 5 m/s as it ended)
    m.add_iteration(1e-4, 2e-4, 3e-4);  // 0.5 mm: a step cut short moves less
    EXPECT_NEAR(m.largest_share(), 0.0015 / 0.0025, 1e-12);  // the open interval counts
    m.at_rebuild();
    EXPECT_EQ(m.intervals(), 1);
    EXPECT_EQ(m.exceeded(), 0);
    for (int i = 0; i < 3; ++i) m.add_iteration(2e-4, 2e-4, 2e-4);  // 3 mm: over
    m.at_rebuild();
    m.add_iteration(3e-4, 3e-4, 3e-4);  // the acoustic limit itself: nothing moves
    m.at_rebuild();
    EXPECT_EQ(m.intervals(), 3);
    EXPECT_EQ(m.exceeded(), 1);
    EXPECT_NEAR(m.largest_share(), 0.003 / 0.0025, 1e-12);
}

TEST(ListMargin, SaysWhetherTheNextIterationCouldPassTheMargin) {
    // cfl h = 0.003 m, c0 = 10 m/s; at a stable dt of 2e-4 s a step may move 1 mm, 1.1 mm
    // with the safety factor.
    ListMargin m(0.3, 0.01, 10.0, 0.0025);
    EXPECT_FALSE(m.next_iteration_may_pass(std::numeric_limits<double>::infinity()));
    EXPECT_FALSE(m.next_iteration_may_pass(2e-4));
    EXPECT_FALSE(m.next_iteration_may_pass(3e-4));    // the acoustic limit: nothing moves
    m.add_iteration(2e-4, 2e-4, 2e-4);                // 1 mm of 2.5
    EXPECT_FALSE(m.next_iteration_may_pass(2e-4));    // 2.1 mm
    m.add_iteration(1e-4, 2e-4, 2e-4);                // 1.5 mm
    EXPECT_TRUE(m.next_iteration_may_pass(2e-4));     // 2.6 mm
    EXPECT_FALSE(m.next_iteration_may_pass(2.5e-4));  // 2 m/s for 0.25 ms: 2.05 mm
    m.at_rebuild();
    EXPECT_FALSE(m.next_iteration_may_pass(2e-4));
    EXPECT_EQ(m.exceeded(), 0);
}

RunOptions dam_break_options(double skin, int rebuild_every, bool early_rebuild) {
    RunOptions o = testing::small_run(0.08, 0.4);
    o.threads = 1;
    o.write_output = false;
    o.list_skin = skin;
    o.rebuild_every = rebuild_every;
    o.early_rebuild = early_rebuild;
    return o;
}

testing::ReportedRun dam_break(double skin, int rebuild_every, bool early_rebuild = false) {
    return testing::run_reported(DamBreak(), dam_break_options(skin, rebuild_every, early_rebuild));
}

// DamBreak's surge runs at about 2 m/s by 0.4 s: over 8 iterations it outruns a list an eighth
// as thick as the default (a 2 mm margin at dp 0.08), and a run that rebuilds every 8 whatever
// the flow (--early-rebuild off) says so once, naming the options that fix it; rebuilt every
// iteration, the default list keeps up.
TEST(ListMargin, ARunWhoseFlowOutrunsTheListWarnsAndCountsIt) {
    const testing::ReportedRun thin = dam_break(0.01, 8);
    EXPECT_GT(thin.report.list_margin_intervals_over, 0);
    EXPECT_GT(thin.report.list_margin_largest_share, 1.0);
    EXPECT_EQ(thin.report.list_margin_intervals, (thin.report.iterations - 1) / 8);
    const std::size_t warning = thin.log.find("warning: before the rebuild");
    ASSERT_NE(warning, std::string::npos) << thin.log;
    EXPECT_EQ(thin.log.find("warning: before the rebuild", warning + 1), std::string::npos);
    EXPECT_NE(thin.log.find("--list-skin", warning), std::string::npos);
    EXPECT_NE(thin.log.find("list margin"), std::string::npos) << thin.log;

    const testing::ReportedRun thick = dam_break(RunOptions::kDefaultListSkin, 1);
    EXPECT_EQ(thick.report.list_margin_intervals, thick.report.iterations - 1);
    EXPECT_EQ(thick.report.list_margin_intervals_over, 0);
    EXPECT_LT(thick.report.list_margin_largest_share, 1.0);
    EXPECT_EQ(thick.log.find("warning: before the rebuild"), std::string::npos) << thick.log;
}

// The same thin list, rebuilt early where the next iteration could outrun it: no interval
// passes the margin, and the run rebuilds more often than every 8 iterations only for that.
TEST(EarlyRebuild, KeepsAFastFlowWithinTheMargin) {
    const testing::ReportedRun thin = dam_break(0.01, 8, true);
    EXPECT_EQ(thin.report.list_margin_intervals_over, 0);
    EXPECT_LE(thin.report.list_margin_largest_share, 1.0);
    EXPECT_GT(thin.report.early_rebuilds, 0);
    EXPECT_EQ(thin.report.rebuilds, thin.report.list_margin_intervals + 1);
    EXPECT_GT(thin.report.rebuilds, (thin.report.iterations + 7) / 8);
    EXPECT_EQ(thin.log.find("warning: before the rebuild"), std::string::npos) << thin.log;
    EXPECT_NE(thin.log.find("early for the list's margin"), std::string::npos) << thin.log;
}

// The decision rests on the global dt alone: three devices rebuild where one does, and their
// particles stay bitwise the same through the early rebuilds.
TEST(EarlyRebuild, ThreeDevicesRebuildWhereOneDoesBitwise) {
    auto run = [](int devices) {
        RunOptions o = dam_break_options(0.01, 8, true);
        o.devices = DeviceSelection::cpu(devices);
        Simulation sim(DamBreak(), o, 0);
        while (sim.early_rebuilds() < 5) sim.step();
        for (int i = 0; i < 20; ++i) sim.step();
        return std::make_pair(sim.iteration(), testing::states_by_id(sim.particles()));
    };
    const auto [one_iterations, one] = run(1);
    const auto [three_iterations, three] = run(3);
    EXPECT_EQ(one_iterations, three_iterations);
    ASSERT_EQ(one.size(), three.size());
    EXPECT_EQ(testing::count_bitwise_differences(one, three), 0);
}

// A checkpoint between early rebuilds (one is taken only where the next iteration rebuilds)
// goes on bitwise, early rebuilds after it included.
TEST(EarlyRebuild, ARestartAmongEarlyRebuildsGoesOnBitwise) {
    testing::TempDir dir("early-rebuild-restart");
    RunOptions o = dam_break_options(0.01, 8, true);
    o.checkpoint_dir = dir.path();
    Simulation straight(DamBreak(), o, 0);
    while (straight.early_rebuilds() < 3) straight.step();
    while (!straight.at_rebuild()) straight.step();
    const std::string path = straight.write_checkpoint_now(OutputPositions{}, 0.0);
    const long early_before = straight.early_rebuilds(), rebuilds_before = straight.rebuilds();
    for (int i = 0; i < 40; ++i) straight.step();
    EXPECT_GT(straight.early_rebuilds(), early_before + 1);

    RunOptions after = o;
    after.restart_from = path;
    Simulation restarted(DamBreak(), after, 0);
    while (restarted.iteration() < straight.iteration()) restarted.step();
    // The same rebuilds at the same iterations (the first, at the checkpoint, counts as early
    // only in the run that got there early).
    EXPECT_EQ(restarted.rebuilds(), straight.rebuilds() - rebuilds_before);
    EXPECT_GT(restarted.early_rebuilds(), 0);
    EXPECT_EQ(restarted.time(), straight.time());
    EXPECT_EQ(testing::count_bitwise_differences(testing::states_by_id(straight.particles()),
                                                 testing::states_by_id(restarted.particles())),
              0);
}

}  // namespace
}  // namespace sph
