// The neighbour list's margin between rebuilds (driver/list_margin.h): the bound from the time
// steps, its intervals, and what a run reports and warns when a flow outruns the list.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "dam_break.h"
#include "driver/list_margin.h"
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

testing::ReportedRun dam_break(double skin, int rebuild_every) {
    RunOptions o = testing::small_run(0.08, 0.4);
    o.threads = 1;
    o.write_output = false;
    o.list_skin = skin;
    o.rebuild_every = rebuild_every;
    return testing::run_reported(DamBreak(), o);
}

// DamBreak's surge runs at about 2 m/s by 0.4 s: over 8 iterations it outruns a list an eighth
// as thick as the default (a 2 mm margin at dp 0.08), and the run says so once, naming the
// options that fix it; rebuilt every iteration, the default list keeps up.
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

}  // namespace
}  // namespace sph
