// What-if branches (--branches): the branch file is read or refused naming its line; a branch
// with no change is bitwise the base going on; a branch's result does not depend on the other
// branches sharing its base.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "common/errors.h"
#include "dam_break.h"
#include "driver/branch_plan.h"
#include "test_support.h"

namespace sph {
namespace {

TEST(BranchPlan, ReadsDecisionPointsBranchesAndChanges) {
    const BranchPlan plan = parse_branch_plan(
        "# settle, then decide\n"
        "at 0.5\n"
        "branch as_is\n"
        "branch more-viscous   # a comment\n"
        "  alpha 0.1\n"
        "  delta 0.05\n"
        "at 1.5\n"
        "branch late\n",
        "plan.txt");
    ASSERT_EQ(plan.decisions.size(), 2u);
    EXPECT_EQ(plan.decisions[0].time, 0.5);
    ASSERT_EQ(plan.decisions[0].branches.size(), 2u);
    EXPECT_TRUE(plan.decisions[0].branches[0].changes.empty());
    const Branch& viscous = plan.decisions[0].branches[1];
    EXPECT_EQ(viscous.name, "more-viscous");
    ASSERT_EQ(viscous.changes.size(), 2u);
    EXPECT_EQ(viscous.changes[0].setting, "alpha");
    EXPECT_EQ(viscous.changes[1].value, 0.05);
    EXPECT_EQ(plan.decisions[1].branches[0].name, "late");
}

std::string refusal(const std::string& text) {
    try {
        parse_branch_plan(text, "plan.txt");
    } catch (const OptionError& e) {
        return e.what();
    }
    return "";
}

TEST(BranchPlan, MalformedFilesAreRefusedNamingTheLine) {
    EXPECT_NE(refusal("at 0.5\nbranch a\n  viscosity 2\n").find("line 3: unknown statement"),
              std::string::npos);
    EXPECT_NE(refusal("branch a\n").find("line 1: a branch before any decision point"),
              std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nbranch a\n").find("line 3: branch name 'a' is taken"),
              std::string::npos);
    EXPECT_NE(refusal("at 1\nbranch a\nat 0.5\n")
                  .find("line 3: decision points must come in "
                        "increasing time"),
              std::string::npos);
    EXPECT_NE(refusal("at x\n").find("line 1: 'at' takes"), std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch ../up\n").find("line 2"), std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nalpha -1\n").find("line 3: 'alpha' takes one number"),
              std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nalpha nan\n").find("line 3"), std::string::npos);
    EXPECT_NE(refusal("at 0.5\n").find("has no branch"), std::string::npos);
    EXPECT_NE(refusal("# nothing\n").find("no decision point"), std::string::npos);
}

testing::AppResult run_dambreak(const std::string& out, const std::vector<std::string>& more) {
    DamBreak problem;
    std::vector<std::string> args = {"--backend",      "cpu",  "--threads",    "1",
                                     "--dp",           "0.08", "--t-end",      "0.2",
                                     "--output-every", "0.05", "--output-dir", out};
    args.insert(args.end(), more.begin(), more.end());
    return testing::run_program(problem, args, 0);
}

std::string write_plan(const std::string& dir, const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

TEST(Branches, AnEmptyBranchIsTheBaseGoingOnAndSharingChangesNothing) {
    testing::TempDir dir("branches");
    ASSERT_EQ(run_dambreak(dir.path() + "/straight", {}).code, 0);
    const std::string two = write_plan(dir.path(), "two.txt",
                                       "at 0.05\nbranch early\n  delta 0.2\n"
                                       "at 0.1\nbranch same\nbranch viscous\n  alpha 0.1\n");
    const testing::AppResult r = run_dambreak(dir.path() + "/tree", {"--branches", two});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string straight = testing::read_text(dir.path() + "/straight/gauges.csv");
    // No change: the base going on, byte for byte.
    EXPECT_EQ(testing::read_text(dir.path() + "/tree/same/gauges.csv"), straight);
    // A change changes the result...
    const std::string viscous = testing::read_text(dir.path() + "/tree/viscous/gauges.csv");
    EXPECT_NE(viscous, straight);
    EXPECT_NE(testing::read_text(dir.path() + "/tree/early/gauges.csv"), straight);
    // ... and does not depend on the other branches of the run.
    const std::string one =
        write_plan(dir.path(), "one.txt", "at 0.1\nbranch viscous\nalpha 0.1\n");
    ASSERT_EQ(run_dambreak(dir.path() + "/alone", {"--branches", one}).code, 0);
    EXPECT_EQ(testing::read_text(dir.path() + "/alone/viscous/gauges.csv"), viscous);
    const std::string summary = testing::read_text(dir.path() + "/tree/branches.csv");
    EXPECT_NE(summary.find("early,0.050000,completed"), std::string::npos) << summary;
    EXPECT_NE(summary.find("viscous,0.100000,completed"), std::string::npos) << summary;
}

// Two levels: a branch with decision points of its own stops there, and its branches go on from
// it with its changes and theirs. A child with no change is its parent going on.
TEST(Branches, ATreeOfTwoLevelsGoesOnFromEachBranch) {
    testing::TempDir dir("tree");
    const std::string tree = write_plan(dir.path(), "tree.txt",
                                        "at 0.05\nbranch viscous\nalpha 0.1\n"
                                        "at 0.1 in viscous\nbranch viscous_same\n"
                                        "branch viscous_diffusive\ndelta 0.2\n");
    const testing::AppResult r = run_dambreak(dir.path() + "/tree", {"--branches", tree});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string one =
        write_plan(dir.path(), "one.txt", "at 0.05\nbranch viscous\nalpha 0.1\n");
    ASSERT_EQ(run_dambreak(dir.path() + "/one", {"--branches", one}).code, 0);
    const std::string viscous = testing::read_text(dir.path() + "/one/viscous/gauges.csv");
    EXPECT_EQ(testing::read_text(dir.path() + "/tree/viscous_same/gauges.csv"), viscous);
    EXPECT_NE(testing::read_text(dir.path() + "/tree/viscous_diffusive/gauges.csv"), viscous);
    const std::string summary = testing::read_text(dir.path() + "/tree/branches.csv");
    EXPECT_NE(summary.find("viscous,0.050000,branched"), std::string::npos) << summary;
    EXPECT_NE(summary.find("viscous_diffusive,0.100000,completed"), std::string::npos) << summary;
}

TEST(BranchPlan, ANestedDecisionPointNeedsItsBranchBeforeIt) {
    EXPECT_NE(refusal("at 0.5\nbranch a\nat 1 in b\n").find("line 3: no branch 'b'"),
              std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nat 0.4 in a\n")
                  .find("line 3: a decision point of branch 'a' must come after"),
              std::string::npos);
}

TEST(Branches, ADecisionPointAtOrPastTheEndIsRefused) {
    testing::TempDir dir("late-branch");
    const std::string plan = write_plan(dir.path(), "late.txt", "at 0.3\nbranch a\n");
    const testing::AppResult r = run_dambreak(dir.path() + "/out", {"--branches", plan});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not before --t-end"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sph
