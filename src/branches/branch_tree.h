// The machinery of --branches inside one process (branches/branch_runner.h): the slots branches
// run in (a device of the run, or a share of a GPU), the tasks a decision point makes, and the
// scheduler that runs ready tasks in the slots, longest road ahead first.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "branches/branch_plan.h"
#include "branches/branch_runner.h"
#include "common/clock.h"
#include "driver/run_options.h"
#include "problem.h"
#include "report/run_report.h"

namespace sph {

// The decision times of `parent`'s decision points ("" the base), in order.
std::vector<double> decision_times(const BranchPlan& plan, const std::string& parent);

// The branches below `parent`, each followed by its own, in the plan's order.
std::vector<std::string> tree_order(const BranchPlan& plan, const std::string& parent);

// Where a branch runs: one device of the run's, or a share of one.
struct Slot {
    DeviceSelection devices;
    BackendChoice backend;
    int threads = 0;
    std::string label;
};

// --branch-slots per device of the run; on a GPU only as many as its free memory holds, each
// branch taking about `branch_bytes` (what the base took on all its devices).
std::vector<Slot> make_slots(const RunOptions& o, std::size_t branch_bytes, std::ostream& log);

// A branch ready to go on from its parent's decision point.
struct Task {
    RunOptions options;  // its own, made from its parent's
    std::string name, parent;
    double start = 0.0, end = 0.0;  // simulated: its decision time, and where it stops
    double priority = 0.0;          // the wall time of the longest road through it, estimated
};

// The branches of `parent_name` ("" the base), run with `parent`, as tasks, their priorities
// at `rate` wall seconds per simulated second.
std::vector<Task> branch_tasks(const BranchPlan& plan, const RunOptions& parent,
                               const std::string& parent_name, double rate,
                               const std::string& root_dir, double t_end);

// The branches of `ran`, which stopped at its own decision points after `wall_seconds`: their
// priorities at the rate it measured.
std::vector<Task> branches_after(const BranchPlan& plan, const Task& ran, double wall_seconds,
                                 const std::string& root_dir, double t_end);

// With --restart latest: what the report of the run with options `o` says, when its folder
// shows it ended (completed, or branched with every decision checkpoint there); else nothing.
std::optional<ReportSummary> ended_before(const RunOptions& o);

// Runs tasks in slots, one worker thread per slot; each free slot takes the ready task of
// highest priority. With `expand`, a task that stops at its own decision points queues its
// branches (at the rate it measured); without, the caller schedules them (the ranks of an MPI
// job take the tree a level at a time). With `resume` (--branches with --restart latest), a
// branch whose folder shows it ended (completed, or branched with its decision checkpoints) is
// kept as it is, and one that left a checkpoint goes on from its newest.
class TreeRun {
public:
    TreeRun(const Problem& problem, const BranchPlan& plan, int split_axis,
            const std::string& root_dir, double t_end, std::ostream& log, bool expand,
            bool resume = false);
    void add(std::vector<Task> tasks);
    // Returns when every task (and, with expand, every branch below) has run; rethrows
    // Interrupted when a signal stopped them.
    // Outcomes' start times count from `began`.
    void run(const std::vector<Slot>& slots, SteadyClock::time_point began = SteadyClock::now());

    std::vector<BranchOutcome> outcomes;

private:
    void work(const Slot& slot);
    BranchOutcome run_one(Task& task, const Slot& slot, std::exception_ptr& interrupted);
    bool resumed(RunOptions& o, std::ostream& log, BranchOutcome& outcome) const;

    const Problem& problem_;
    const BranchPlan& plan_;
    int split_axis_;
    std::string root_dir_;
    double t_end_;
    std::ostream& log_;
    bool expand_;
    bool resume_;
    std::mutex log_lock_;
    std::mutex lock_;
    std::condition_variable changed_;
    std::vector<Task> ready_;
    int running_ = 0;
    std::exception_ptr interrupted_;
    SteadyClock::time_point began_;
};

}  // namespace sph
