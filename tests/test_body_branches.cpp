// What-if branches that change a body (bodies/body_changes.h, `body NAME ...` in a branch file):
// a gate released earlier in one branch than in the base, a floating box made heavier in another;
// a branch that changes nothing ends as the base does; changes that do not fit are refused.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "branches/branch_plan.h"
#include "branches/branch_runner.h"
#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "test_support.h"

namespace sph {
namespace {

// cases/NAME.yaml with `was` replaced by `now`.
CaseProblem case_with(const std::string& name, const std::string& was, const std::string& now) {
    std::string text = testing::read_text(std::string(SPH_CASES_DIR) + "/" + name + ".yaml");
    text.replace(text.find(was), was.size(), now);
    return CaseProblem(parse_case_text(text, std::string(SPH_CASES_DIR) + "/" + name + ".yaml"));
}

const std::string kGateLaw = "motion: {velocity: [0, 0, 1.5], start: 0, stop: 0.2}";

RunOptions small(const std::string& dir, double t_end) {
    RunOptions o = testing::small_run(0.02, t_end);
    o.devices = DeviceSelection::cpu(1);
    o.threads = 1;
    o.write_output = true;
    o.write_frames = false;
    o.output_dir = dir;
    o.gauge_every = 0.01;
    return o;
}

std::string last_line(const std::string& path) {
    const std::vector<std::string> lines = testing::read_lines(path);
    return lines.empty() ? "" : lines.back();
}

BranchRun run_plan(const Problem& problem, const RunOptions& o, const std::string& plan) {
    std::ostringstream log;
    return run_branches(problem, o, problem.default_split_axis(), parse_branch_plan(plan, "b.txt"),
                        log);
}

// The base holds its gate until 0.5 s; branch `early` releases it at 0.05 s from the decision
// point at 0.03 s: its gate then rises by its law, and its last row of bodies.csv is the bytes of
// a run with that release from the start (the gate rested until then in both); branch `as_is`
// ends as a run that never branched.
TEST(BodyBranches, AGateReleasedEarlierInABranchIsTheRunReleasedSoFromTheStart) {
    testing::TempDir dir("body-branches");
    const CaseProblem held = case_with("gate_release", kGateLaw,
                                       "motion: {velocity: [0, 0, 1.5], start: 0.5, stop: 0.7}");
    RunOptions o = small(dir.path() + "/tree", 0.1);
    const BranchRun run =
        run_plan(held, o, "at 0.03\nbranch early\n  body gate start 0.05\nbranch as_is\n");
    ASSERT_EQ(run.outcomes.size(), 2u);
    for (const BranchOutcome& b : run.outcomes) EXPECT_NE(b.status, "failed") << b.error;
    const std::string early = dir.path() + "/tree/early/bodies.csv";
    const std::vector<double> t = testing::csv_column(early, "time"),
                              dz = testing::csv_column(early, "gate_dz");
    ASSERT_GE(t.size(), 3u);
    for (std::size_t k = 0; k < t.size(); ++k) {
        EXPECT_NEAR(dz[k], t[k] > 0.05 ? 1.5 * (t[k] - 0.05) : 0.0, 1e-8) << "at t = " << t[k];
    }
    const CaseProblem released = case_with(
        "gate_release", kGateLaw, "motion: {velocity: [0, 0, 1.5], start: 0.05, stop: 0.25}");
    testing::run_reported(released, small(dir.path() + "/straight", 0.1));
    EXPECT_EQ(last_line(early), last_line(dir.path() + "/straight/bodies.csv"));
    testing::run_reported(held, small(dir.path() + "/held", 0.1));
    EXPECT_EQ(last_line(dir.path() + "/tree/as_is/bodies.csv"),
              last_line(dir.path() + "/held/bodies.csv"));
}

// The floating box made 1200 kg/m^3 at 0.03 s sinks below where the base's stays.
TEST(BodyBranches, AFloatingBoxMadeHeavierInABranchSinks) {
    testing::TempDir dir("body-branches-floating");
    const CaseProblem box =
        case_with("floating_box", "floating: {density: 500}", "floating: {density: 500}");
    const BranchRun run =
        run_plan(box, small(dir.path(), 0.1),
                 "at 0.03\nbranch heavy\n  body box density 1200\nbranch as_is\n");
    ASSERT_EQ(run.outcomes.size(), 2u);
    for (const BranchOutcome& b : run.outcomes) EXPECT_NE(b.status, "failed") << b.error;
    const double base = testing::csv_column(dir.path() + "/as_is/bodies.csv", "box_vz").back(),
                 heavy = testing::csv_column(dir.path() + "/heavy/bodies.csv", "box_vz").back();
    EXPECT_LT(heavy, base - 0.05);
}

TEST(BodyBranches, ChangesThatDoNotFitAreRefusedNamingTheLine) {
    testing::TempDir dir("body-branches-refused");
    const CaseProblem gate = case_with("gate_release", kGateLaw, kGateLaw);
    const auto refused = [&](const std::string& change, const std::string& says) {
        try {
            run_plan(gate, small(dir.path(), 0.1), "at 0.03\nbranch b\n" + change + "\n");
            ADD_FAILURE() << "accepted " << change;
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    refused("body door start 0.1", "line 3: body door start: the run has no body of that name");
    refused("body gate density 900", "it moves by a law: change its start or velocity");
    refused("body gate start", "'body' takes a body's name");
    refused("body gate speed 2", "'body' takes a body's name");
    refused("body gate velocity 0 1", "'body' takes a body's name");
}

// The gate rises from 0 s: at 0.03 s a branch that changes its velocity would move it at once.
TEST(BodyBranches, ALawChangedWhileTheBodyMovesFailsTheBranchNamingWhy) {
    testing::TempDir dir("body-branches-jump");
    const CaseProblem gate = case_with("gate_release", kGateLaw, kGateLaw);
    const BranchRun run = run_plan(gate, small(dir.path(), 0.06),
                                   "at 0.03\nbranch faster\n  body gate velocity 0 0 3\n");
    ASSERT_EQ(run.outcomes.size(), 1u);
    EXPECT_EQ(run.outcomes[0].status, "failed");
    EXPECT_NE(run.outcomes[0].error.find("a jump"), std::string::npos) << run.outcomes[0].error;
}

}  // namespace
}  // namespace sph
