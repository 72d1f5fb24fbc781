#include "driver/branch_runner.h"

#include <fstream>

#include "atomic_file.h"
#include "common/clock.h"
#include "common/errors.h"
#include "driver/restart.h"
#include "driver/simulation.h"

namespace sph {

RunOptions branch_options(const RunOptions& parent, const Branch& branch, std::size_t k,
                          const std::string& root_dir) {
    RunOptions o = parent;  // a branch keeps its parent's changes, and adds its own
    o.branches_file.clear();
    o.decision_times.clear();
    o.output_dir = root_dir + "/" + branch.name;
    o.checkpoint_dir = o.output_dir + "/checkpoints";
    o.restart_from = decision_checkpoint_path(parent.output_dir, k);
    for (const BranchChange& change : branch.changes) {
        if (change.setting == "alpha") o.viscosity_alpha = change.value;
        if (change.setting == "delta") o.diffusion_delta = change.value;
        o.changes_allowed.push_back(change.setting);
    }
    return o;
}

namespace {

std::vector<double> decision_times(const BranchPlan& plan, const std::string& parent) {
    std::vector<double> times;
    for (const DecisionPoint* d : plan.decisions_of(parent)) times.push_back(d->time);
    return times;
}

struct Tree {
    const Problem& problem;
    const BranchPlan& plan;
    int split_axis;
    std::string root_dir;
    std::ostream& log;
    std::vector<BranchOutcome> outcomes;

    // The branches of the node (the base, or a branch) that ran with `parent`.
    void go_on_from(const RunOptions& parent, const std::string& parent_name) {
        const std::vector<const DecisionPoint*> points = plan.decisions_of(parent_name);
        for (std::size_t k = 0; k < points.size(); ++k) {
            for (const Branch& branch : points[k]->branches) run(parent, k, *points[k], branch);
        }
    }

    void run(const RunOptions& parent, std::size_t k, const DecisionPoint& point,
             const Branch& branch) {
        RunOptions o = branch_options(parent, branch, k, root_dir);
        o.decision_times = decision_times(plan, branch.name);
        BranchOutcome outcome{branch.name, point.time, "completed", "", 0.0, 0.0};
        log << "branch " << branch.name << " (decision point at t = " << point.time << " s, "
            << branch.changes.size() << " change(s))\n";
        const auto start = SteadyClock::now();
        try {
            Simulation simulation(problem, o, split_axis);
            const RunReport report = simulation.run(log);
            outcome.status = report.status;
            outcome.mips = report.mips();
        } catch (const std::exception& e) {
            outcome.status = "failed";
            outcome.error = e.what();
            log << "branch " << branch.name << " failed: " << e.what() << "\n";
        }
        outcome.wall_seconds = seconds_since(start);
        outcomes.push_back(outcome);
        if (outcome.status == "branched") go_on_from(o, branch.name);
    }
};

}  // namespace

std::vector<BranchOutcome> run_branches(const Problem& problem, const RunOptions& options,
                                        int split_axis, const BranchPlan& plan, std::ostream& log) {
    for (const DecisionPoint& d : plan.decisions) {
        if (d.time >= options.t_end) {
            throw OptionError("--branches: the decision point at " + std::to_string(d.time) +
                              " s is not before --t-end " + std::to_string(options.t_end));
        }
    }
    RunOptions base = options;
    base.branches_file.clear();
    base.output_dir = options.output_dir + "/base";
    base.decision_times = decision_times(plan, "");
    log << "base: to the last decision point, t = " << base.decision_times.back() << " s\n";
    {
        Simulation simulation(problem, base, split_axis);
        simulation.run(log);
    }
    Tree tree{problem, plan, split_axis, options.output_dir, log, {}};
    tree.go_on_from(base, "");
    const std::vector<BranchOutcome>& outcomes = tree.outcomes;
    std::string csv = "branch,decision_time_s,status,wall_s,mips,error\n";
    for (const BranchOutcome& o : outcomes) {
        std::string error = o.error;
        for (char& c : error) {
            if (c == ',' || c == '\n' || c == '"') c = ';';
        }
        csv += o.name + "," + std::to_string(o.decision_time) + "," + o.status + "," +
               std::to_string(o.wall_seconds) + "," + std::to_string(o.mips) + "," + error + "\n";
    }
    write_text_file_atomically(options.output_dir + "/branches.csv", csv);
    return tree.outcomes;
}

}  // namespace sph
