// What-if branches on every back end: a tree whose branches run two at a time on one device
// (--branch-slots 2: on a GPU, side by side in its memory) gives each scenario bitwise as run
// alone from t = 0 on that back end.
#include <gtest/gtest.h>

#include <sstream>

#include "branches/branch_runner.h"
#include "dam_break.h"
#include "test_support.h"

namespace sph {
namespace {

class BranchesOn : public testing::EveryBackend {};

TEST_P(BranchesOn, BranchesSideBySideEqualTheirScenariosAlone) {
    testing::TempDir dir("branch-backends");
    DamBreak problem;
    RunOptions o = testing::small_run(0.08, 0.2, backend());
    o.write_output = true;
    o.write_frames = false;
    o.output_dir = dir.path() + "/tree";
    o.branches_file = "tree.txt";
    o.branch_slots = 2;
    const BranchPlan plan = parse_branch_plan(
        "at 0.05\n"
        "branch no_obstacle\n  remove obstacle\n"
        "branch wall\n  add_box 1.6 0 0 1.84 1 0.16\n  sensor S 1.84 0.5 0.08 +x 0.1\n"
        "at 0.1 in wall\n"
        "branch wall_viscous\n  alpha 0.1\n  gauge G 1.9 0.5\n"
        "branch wall_same\n",
        "tree.txt");
    std::ostringstream log;
    const BranchRun run = run_branches(problem, o, problem.default_split_axis(), plan, log);
    ASSERT_EQ(run.outcomes.size(), 4u) << log.str();
    for (const BranchOutcome& b : run.outcomes) {
        EXPECT_NE(b.status, "failed") << b.name << ": " << b.error;
    }
    EXPECT_EQ(run.slots, 2);
    for (const std::string name : {"no_obstacle", "wall_viscous", "wall_same"}) {
        RunOptions alone = o;
        alone.output_dir = dir.path() + "/alone_" + name;
        run_scenario(problem, alone, problem.default_split_axis(), plan, name, log);
        EXPECT_EQ(testing::read_text(alone.output_dir + "/gauges.csv"),
                  testing::read_text(o.output_dir + "/" + name + "/gauges.csv"))
            << name;
    }
}

SPH_ON_EVERY_BACKEND(BranchesOn);

}  // namespace
}  // namespace sph
