#include "branches/branch_runner.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <sstream>

#include "atomic_file.h"
#include "branches/branch_changes.h"
#include "branches/branch_tree.h"
#include "checkpoint/checkpoint_folder.h"
#include "common/clock.h"
#include "common/errors.h"
#include "common/interrupt.h"
#include "driver/restart.h"
#include "driver/simulation.h"
#include "report/tree_report.h"

namespace sph {

namespace {

// The most bytes held at once by branches running side by side.
std::size_t peak_bytes(const std::vector<BranchOutcome>& outcomes) {
    std::size_t peak = 0;
    for (const BranchOutcome& o : outcomes) {
        std::size_t held = 0;  // at o's start
        for (const BranchOutcome& other : outcomes) {
            const double end = other.started_seconds + other.wall_seconds;
            if (other.started_seconds <= o.started_seconds && o.started_seconds < end) {
                held += other.device_bytes;
            }
        }
        peak = std::max(peak, held);
    }
    return peak;
}

std::string csv_text(const BranchRun& run) {
    std::string csv =
        "branch,parent,decision_time_s,status,rank,device,started_s,wall_s,mips,device_bytes,"
        "error\n";
    char numbers[200];
    for (const BranchOutcome& o : run.outcomes) {
        std::string error = o.error;
        for (char& c : error) {
            if (c == ',' || c == '\n' || c == '"') c = ';';
        }
        std::snprintf(numbers, sizeof numbers, "%f,%s,%d,%s,%.3f,%.3f,%.2f,%zu", o.decision_time,
                      o.status.c_str(), o.rank, o.device.c_str(), o.started_seconds, o.wall_seconds,
                      o.mips, o.device_bytes);
        csv += o.name + "," + o.parent + "," + numbers + "," + error + "\n";
    }
    return csv;
}

// Outcomes as text for the ranks' all-gather: a line each, fields tab-separated.
std::string encode(const std::vector<BranchOutcome>& outcomes) {
    std::ostringstream text;
    text.precision(17);
    for (const BranchOutcome& o : outcomes) {
        std::string error = o.error;
        for (char& c : error) {
            if (c == '\t' || c == '\n') c = ' ';
        }
        text << o.name << '\t' << o.parent << '\t' << o.decision_time << '\t' << o.status << '\t'
             << o.rank << '\t' << o.device << '\t' << o.started_seconds << '\t' << o.wall_seconds
             << '\t' << o.mips << '\t' << o.device_bytes << '\t' << error << '\n';
    }
    return text.str();
}

std::vector<BranchOutcome> decode(const std::string& text) {
    std::vector<BranchOutcome> outcomes;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string field; std::getline(fields, field, '\t');) f.push_back(field);
        f.resize(11);
        BranchOutcome o;
        o.name = f[0];
        o.parent = f[1];
        o.decision_time = std::stod(f[2]);
        o.status = f[3];
        o.rank = std::stoi(f[4]);
        o.device = f[5];
        o.started_seconds = std::stod(f[6]);
        o.wall_seconds = std::stod(f[7]);
        o.mips = std::stod(f[8]);
        o.device_bytes = std::stoull(f[9]);
        o.error = f[10];
        outcomes.push_back(o);
    }
    return outcomes;
}

// The ranks of an MPI job take the tree a level at a time: each level's ready branches are
// shared out by estimated cost (assign_to_ranks), each rank runs its share in its slots, and
// every rank learns every outcome before the next level (the branches of those that branched).
// A branch's decision checkpoint is read by whichever rank runs its branches: the output folder
// must be one every rank sees.
std::vector<BranchOutcome> run_levels(const Problem& problem, const BranchPlan& plan,
                                      int split_axis, const RunOptions& options,
                                      std::vector<Task> level, const std::vector<Slot>& slots,
                                      const Ranks& ranks, SteadyClock::time_point began,
                                      std::ostream& log) {
    std::vector<BranchOutcome> all;
    while (!level.empty()) {
        std::vector<double> priorities;
        for (const Task& task : level) priorities.push_back(task.priority);
        const std::vector<int> owner = assign_to_ranks(priorities, ranks.size());
        TreeRun tree(problem, plan, split_axis, options.output_dir, options.t_end, log, false,
                     options.restart_from == "latest");
        std::vector<Task> mine;
        for (std::size_t t = 0; t < level.size(); ++t) {
            if (owner[t] == ranks.rank()) mine.push_back(level[t]);
        }
        tree.add(std::move(mine));
        bool interrupted = false;  // every rank must reach the gather, then stop
        try {
            tree.run(slots, began);
        } catch (const Interrupted&) {
            interrupted = true;
        }
        for (BranchOutcome& o : tree.outcomes) o.rank = ranks.rank();
        std::vector<BranchOutcome> outcomes;
        for (const std::string& text : ranks.all_gather(encode(tree.outcomes))) {
            for (BranchOutcome& o : decode(text)) outcomes.push_back(std::move(o));
        }
        for (const BranchOutcome& o : outcomes) interrupted |= o.status == "interrupted";
        if (interrupted) {
            throw Interrupted(
                "a signal stopped the branches (each running branch wrote a "
                "checkpoint in its folder)",
                interrupt_signal() != 0 ? interrupt_signal() : SIGTERM, "");
        }
        std::vector<Task> next;
        for (const BranchOutcome& o : outcomes) {
            if (o.status != "branched") continue;
            for (const Task& task : level) {
                if (task.name != o.name) continue;
                for (Task& child : branches_after(plan, task, o.wall_seconds, options.output_dir,
                                                  options.t_end)) {
                    next.push_back(std::move(child));
                }
            }
        }
        all.insert(all.end(), outcomes.begin(), outcomes.end());
        level = std::move(next);
    }
    return all;
}

}  // namespace

std::vector<int> assign_to_ranks(const std::vector<double>& costs, int ranks) {
    std::vector<std::size_t> order(costs.size());
    for (std::size_t t = 0; t < order.size(); ++t) order[t] = t;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
    std::vector<double> load(std::size_t(std::max(ranks, 1)), 0.0);
    std::vector<int> owner(costs.size(), 0);
    for (std::size_t t : order) {
        const auto least = std::min_element(load.begin(), load.end());
        owner[t] = int(least - load.begin());
        *least += costs[t];
    }
    return owner;
}

namespace {

// The base to the last decision point on this rank (rank 0), or its report kept from before where
// the tree goes on from its folders (`resume`) and the base ended there; what it measured as text
// for the other ranks: wall seconds per simulated second, device bytes, wall seconds. `base`
// takes the restart the base goes on from.
std::string run_base(const Problem& problem, RunOptions& base, int split_axis, bool resume,
                     std::ostream& log) {
    std::ostringstream measured;
    measured.precision(17);
    const auto base_start = SteadyClock::now();
    const std::optional<ReportSummary> before = resume ? ended_before(base) : std::nullopt;
    ReportSummary ran;
    if (before) {
        log << "base: ended before at its last decision point, kept as it is\n";
        ran = *before;
    } else {
        if (resume && !checkpoints_in(base.checkpoint_folder()).empty()) {
            base.restart_from = "latest";
        }
        log << "base: to the last decision point, t = " << base.decision_times.back() << " s\n";
        Simulation simulation(problem, base, split_axis);
        const RunReport report = simulation.run(log);
        ran = ReportSummary{report.status, report.loop_seconds, report.simulated_time,
                            report.mips(), report.device_bytes()};
    }
    measured << ran.loop_seconds / std::max(ran.simulated_time, 1e-9) << ' ' << ran.device_bytes
             << ' ' << seconds_since(base_start);
    return measured.str();
}

void log_slots(const std::vector<Slot>& slots, const Ranks& ranks, std::ostream& log) {
    log << "branches: " << slots.size() << " at once (";
    for (std::size_t s = 0; s < slots.size(); ++s) log << (s ? ", " : "") << slots[s].label;
    log << ")" << (ranks.size() > 1 ? " on each of " + std::to_string(ranks.size()) + " ranks" : "")
        << "\n";
}

// branches.csv, and the tree's report with each branch under its parent.
void write_branch_files(const BranchPlan& plan, const RunOptions& options,
                        const BranchRun& result) {
    write_text_file_atomically(options.output_dir + "/branches.csv", csv_text(result));
    std::vector<TreeNode> nodes{{"base", "", 0.0, "branched"}};
    for (const std::string& name : tree_order(plan, "")) {  // each branch under its parent
        for (const BranchOutcome& o : result.outcomes) {
            if (o.name == name) nodes.push_back({o.name, o.parent, o.decision_time, o.status});
        }
    }
    if (options.write_output) write_tree_report(options.output_dir, nodes);
}

}  // namespace

BranchRun run_branches(const Problem& problem, const RunOptions& options, int split_axis,
                       const BranchPlan& plan, std::ostream& log, const Ranks& ranks) {
    check_branch_plan(plan, problem, options);
    BranchRun result;
    RunOptions base = options;
    base.branches_file.clear();
    base.output_dir = options.output_dir + "/base";
    base.decision_times = decision_times(plan, "");
    // The base on rank 0; the others wait for what it measured (a failure there ends the job).
    const bool resume = options.restart_from == "latest";  // the tree goes on from its folders
    base.restart_from.clear();
    const std::string measured =
        ranks.rank() == 0 ? run_base(problem, base, split_axis, resume, log) : std::string();
    std::istringstream shared(ranks.broadcast(measured, 0));
    double rate = 0.0;
    shared >> rate >> result.base_device_bytes >> result.base_seconds;

    const std::vector<Slot> slots = make_slots(options, result.base_device_bytes, log);
    result.slots = int(slots.size()) * ranks.size();
    log_slots(slots, ranks, log);
    const auto branches_start = SteadyClock::now();
    std::vector<Task> first = branch_tasks(plan, base, "", rate, options.output_dir, options.t_end);
    if (ranks.size() == 1) {
        TreeRun tree(problem, plan, split_axis, options.output_dir, options.t_end, log, true,
                     resume);
        tree.add(std::move(first));
        tree.run(slots);
        result.outcomes = std::move(tree.outcomes);
    } else {
        result.outcomes = run_levels(problem, plan, split_axis, options, std::move(first), slots,
                                     ranks, branches_start, log);
    }
    result.branches_seconds = seconds_since(branches_start);
    result.peak_branch_bytes = peak_bytes(result.outcomes);
    if (ranks.rank() != 0) return result;  // rank 0 sums them up
    write_branch_files(plan, options, result);
    return result;
}

RunReport run_scenario(const Problem& problem, const RunOptions& options, int split_axis,
                       const BranchPlan& plan, const std::string& name, std::ostream& log) {
    check_branch_plan(plan, problem, options);
    std::vector<std::pair<const DecisionPoint*, const Branch*>> path;  // from the base down
    for (std::string at = name; !at.empty();) {
        const DecisionPoint* point = nullptr;
        const Branch* branch = plan.find(at, &point);
        if (branch == nullptr) {
            throw OptionError("--scenario " + name + ": no branch of that name in --branches " +
                              options.branches_file);
        }
        path.insert(path.begin(), {point, branch});
        at = point->parent;
    }
    RunOptions part = options;
    part.branches_file.clear();
    part.keep_decision_in_memory = true;
    part.decision_times = {path.front().first->time};
    std::shared_ptr<const RunState> state;
    RunReport report;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i > 0) {
            const DecisionPoint& point = *path[i - 1].first;
            part = branch_options(part, *path[i - 1].second, 0, options.output_dir);
            part.output_dir = options.output_dir;
            part.checkpoint_dir = options.checkpoint_dir;
            part.restart_state = state;
            part.restart_from = "the state at t = " + std::to_string(point.time) + " s";
            part.keep_decision_in_memory = true;
            part.decision_times.clear();
            if (i < path.size()) part.decision_times = {path[i].first->time};
            log << "scenario " << name << ": " << path[i - 1].second->name
                << " from t = " << point.time << " s\n";
        }
        Simulation simulation(problem, part, split_axis);
        report = simulation.run(log);
        state = simulation.decision_state();
    }
    return report;
}

}  // namespace sph
