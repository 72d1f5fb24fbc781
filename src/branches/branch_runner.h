// What-if branches (--branches, branches/branch_plan.h): the base runs once, on every device of the
// run, to its last decision point, writing a checkpoint at each; then the branches go on from
// their decision points' checkpoints with their changes (branches/branch_changes.h), to --t-end,
// each on one device, as many at once as there are branch slots (--branch-slots per device of
// the run, fewer where a GPU's memory is short). A branch with decision points of its own stops
// at its last one and its branches go on from there (a tree). The slots take the ready branch
// with the longest road ahead first: its simulated time to go, and its branches', at the
// wall-clock rate measured on the run it goes on from (critical path first, as list schedulers
// do), so the tree's last branch ends as early as it can.
//
// Sharing changes nothing but the cost: a branch with no change is bitwise the base going on,
// and a branch is bitwise the same scenario run alone from t = 0 (run_scenario), whatever the
// device it runs on and whatever runs beside it.
//
// Folders under --output-dir: base/ (the base's output, report and decision_<k>.chk) and one per
// branch (its frames from the decision point on, gauges.csv from t = 0, its report);
// branches.csv sums them up, and tree_report.md compares their instruments
// (report/tree_report.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "branches/branch_plan.h"
#include "driver/run_options.h"
#include "problem.h"
#include "ranks/ranks.h"
#include "report/run_report.h"

namespace sph {

struct BranchOutcome {
    std::string name, parent;  // parent: "base" or a branch
    double decision_time = 0.0;
    // "completed", "branched" (it stopped where its own branches start), "failed"
    std::string status;
    std::string error;
    int rank = 0;                  // the MPI rank it ran on (0 without mpirun)
    std::string device;            // the slot it ran on ("gpu0", "cpu1", "gpu0#2")
    double started_seconds = 0.0;  // after the branches began
    double wall_seconds = 0.0;
    double mips = 0.0;
    std::size_t device_bytes = 0;
};

struct BranchRun {
    std::vector<BranchOutcome> outcomes;
    double base_seconds = 0.0;      // the base's run
    double branches_seconds = 0.0;  // from the first branch's start to the last's end
    std::size_t base_device_bytes = 0;
    // The most device memory the branches held at once, from their reports' sizes and times.
    std::size_t peak_branch_bytes = 0;
    int slots = 0;  // over every rank
};

// Runs the base and every branch; a branch that fails is reported and the others still run.
// Throws OptionError for a plan that does not fit the problem or the run (check_branch_plan),
// what the base throws, and Interrupted when a signal stopped the branches.
// Under mpirun (`ranks`), rank 0 runs the base, the ranks share out the branches a level of the
// tree at a time, and rank 0 writes branches.csv and the tree report; every rank returns every
// outcome.
BranchRun run_branches(const Problem& problem, const RunOptions& options, int split_axis,
                       const BranchPlan& plan, std::ostream& log,
                       const Ranks& ranks = one_process());

// Of tasks of estimated `costs`, the rank each goes to: the costliest first, each to the rank
// with the least so far (the same on every rank).
std::vector<int> assign_to_ranks(const std::vector<double>& costs, int ranks);

// Of `wanted` branches at once on a GPU with `free_bytes` free, each taking `bytes_each`: as many
// as fit, at least one (it waits for nothing; if it does not fit either, its set-up says so).
int branches_that_fit(int wanted, std::uint64_t free_bytes, std::uint64_t bytes_each);

// The scenario of branch `name` alone, from t = 0 into options.output_dir: one run that applies
// the changes of the branch and of the branches above it at their decision points, the state
// handed over in memory (no shared base, no checkpoint file). Its output is that of a run
// restarted at each decision point: frames after the n-th are <Problem>_restart<n>_*. Returns
// the last part's report; throws OptionError for an unknown name or a plan that does not fit.
RunReport run_scenario(const Problem& problem, const RunOptions& options, int split_axis,
                       const BranchPlan& plan, const std::string& name, std::ostream& log);

}  // namespace sph
