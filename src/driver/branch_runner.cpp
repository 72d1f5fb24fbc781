#include "driver/branch_runner.h"

#include <fstream>

#include "atomic_file.h"
#include "common/clock.h"
#include "common/errors.h"
#include "driver/restart.h"
#include "driver/simulation.h"

namespace sph {

RunOptions branch_options(const RunOptions& options, const Branch& branch, std::size_t k,
                          const std::string& base_dir) {
    RunOptions o = options;
    o.branches_file.clear();
    o.decision_times.clear();
    o.output_dir = options.output_dir + "/" + branch.name;
    o.checkpoint_dir = o.output_dir + "/checkpoints";
    o.restart_from = decision_checkpoint_path(base_dir, k);
    for (const BranchChange& change : branch.changes) {
        if (change.setting == "alpha") o.viscosity_alpha = change.value;
        if (change.setting == "delta") o.diffusion_delta = change.value;
        o.changes_allowed.push_back(change.setting);
    }
    return o;
}

std::vector<BranchOutcome> run_branches(const Problem& problem, const RunOptions& options,
                                        int split_axis, const BranchPlan& plan,
                                        std::ostream& log) {
    RunOptions base = options;
    base.branches_file.clear();
    base.output_dir = options.output_dir + "/base";
    for (const DecisionPoint& d : plan.decisions) {
        if (d.time >= options.t_end) {
            throw OptionError("--branches: the decision point at " + std::to_string(d.time) +
                              " s is not before --t-end " + std::to_string(options.t_end));
        }
        base.decision_times.push_back(d.time);
    }
    log << "base: to the last decision point, t = " << plan.decisions.back().time << " s\n";
    {
        Simulation simulation(problem, base, split_axis);
        simulation.run(log);
    }
    std::vector<BranchOutcome> outcomes;
    for (std::size_t k = 0; k < plan.decisions.size(); ++k) {
        for (const Branch& branch : plan.decisions[k].branches) {
            BranchOutcome outcome{branch.name, plan.decisions[k].time, "completed", "", 0.0, 0.0};
            log << "branch " << branch.name << " (decision point at t = "
                << plan.decisions[k].time << " s, " << branch.changes.size() << " change(s))\n";
            const auto start = SteadyClock::now();
            try {
                Simulation simulation(problem, branch_options(options, branch, k, base.output_dir),
                                      split_axis);
                outcome.mips = simulation.run(log).mips();
            } catch (const std::exception& e) {
                outcome.status = "failed";
                outcome.error = e.what();
                log << "branch " << branch.name << " failed: " << e.what() << "\n";
            }
            outcome.wall_seconds = seconds_since(start);
            outcomes.push_back(outcome);
        }
    }
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
    return outcomes;
}

}  // namespace sph
