// What-if branches (--branches, driver/branch_plan.h): the base runs once, to the last decision
// point, writing a checkpoint at each; then every branch goes on from its decision point's
// checkpoint with its changes, one after another, to --t-end; a branch with decision points of
// its own stops at its last one, and its branches go on from it (a tree). Branches share the base's
// computation up to their decision point; a branch with no change is bitwise the base going on,
// and a branch is bitwise the same scenario run alone (it is a restart with its changes).
//
// Folders under --output-dir: base/ (the base's output, report and decision_<k>.chk) and one per
// branch (its frames from the decision point on, gauges.csv from t = 0, its report);
// branches.csv sums them up.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "driver/branch_plan.h"
#include "driver/run_options.h"
#include "problem.h"

namespace sph {

struct BranchOutcome {
    std::string name;
    double decision_time = 0.0;
    std::string
        status;  // "completed", "branched" (it stopped where its own branches start), "failed"
    std::string error;
    double wall_seconds = 0.0;
    double mips = 0.0;
};

// Runs the base and every branch; a branch that fails is reported and the others still run.
// Throws OptionError for a plan that does not fit the run (a decision point at or past --t-end),
// and what the base throws.
std::vector<BranchOutcome> run_branches(const Problem& problem, const RunOptions& options,
                                        int split_axis, const BranchPlan& plan, std::ostream& log);

// The options of `branch`, going on from decision point `k` of its parent (the base or a
// branch, run with `parent` into parent.output_dir), its folder under `root_dir`.
RunOptions branch_options(const RunOptions& parent, const Branch& branch, std::size_t k,
                          const std::string& root_dir);

}  // namespace sph
