#include "driver/branch_runner.h"

#include <omp.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

#include "atomic_file.h"
#include "common/clock.h"
#include "common/errors.h"
#include "common/prefixed_lines.h"
#include "devices/cuda/cuda_support.h"
#include "driver/branch_changes.h"
#include "driver/restart.h"
#include "driver/simulation.h"
#include "report/tree_report.h"

namespace sph {

namespace {

std::vector<double> decision_times(const BranchPlan& plan, const std::string& parent) {
    std::vector<double> times;
    for (const DecisionPoint* d : plan.decisions_of(parent)) times.push_back(d->time);
    return times;
}

// The branches below `parent`, each followed by its own, in the plan's order.
std::vector<std::string> tree_order(const BranchPlan& plan, const std::string& parent) {
    std::vector<std::string> names;
    for (const DecisionPoint* point : plan.decisions_of(parent)) {
        for (const Branch& branch : point->branches) {
            names.push_back(branch.name);
            const std::vector<std::string> below = tree_order(plan, branch.name);
            names.insert(names.end(), below.begin(), below.end());
        }
    }
    return names;
}

// Where a branch runs: one device of the run's, or a share of one.
struct Slot {
    DeviceSelection devices;
    BackendChoice backend;
    int threads = 0;
    std::string label;
};

bool on_gpus(const RunOptions& o) {
    if (o.backend == BackendChoice::kAuto) return cuda_compiled_in() && visible_gpu_count() > 0;
    return o.backend == BackendChoice::kCuda;
}

// --branch-slots per device of the run; on a GPU only as many as its free memory holds, each
// branch taking about what the base took on all its devices (`branch_bytes`).
std::vector<Slot> make_slots(const RunOptions& o, std::size_t branch_bytes, std::ostream& log) {
    std::vector<Slot> slots;
    const int per_device = std::max(1, o.branch_slots);
    if (!on_gpus(o)) {
        const int count = std::max(1, o.devices.cpu_devices) * per_device;
        const int threads = o.threads > 0 ? o.threads : std::max(1, omp_get_max_threads() / count);
        for (int s = 0; s < count; ++s) {
            slots.push_back(
                {DeviceSelection::cpu(1), BackendChoice::kCpu, threads, "cpu" + std::to_string(s)});
        }
        return slots;
    }
    std::map<int, int> listed;  // GPU id -> devices of the run on it
    for (int id : o.devices.gpu_ids) ++listed[id];
    for (const auto& [gpu, devices] : listed) {
        int wanted = devices * per_device;
        const std::uint64_t free = make_cuda_device(gpu, 0)->memory_pool().free_bytes;
        const std::uint64_t need = branch_bytes + branch_bytes / 10;  // room for added walls
        const int fit = branches_that_fit(wanted, free, need);
        if (fit < wanted) {
            log << "GPU " << gpu << ": memory for " << fit << " branch(es) at once (" << free / 1e9
                << " GB free, about " << need / 1e9 << " GB each), not " << wanted
                << "; the others wait their turn\n";
            wanted = fit;
        }
        for (int s = 0; s < wanted; ++s) {
            slots.push_back(
                {DeviceSelection::gpus({gpu}), BackendChoice::kCuda, o.threads,
                 "gpu" + std::to_string(gpu) + (s > 0 ? "#" + std::to_string(s + 1) : "")});
        }
    }
    return slots;
}

}  // namespace

int branches_that_fit(int wanted, std::uint64_t free_bytes, std::uint64_t bytes_each) {
    if (bytes_each == 0) return wanted;
    const std::uint64_t fit = free_bytes / bytes_each;
    return int(std::max<std::uint64_t>(1, std::min<std::uint64_t>(fit, std::uint64_t(wanted))));
}

namespace {

// A branch ready to go on from its parent's decision point.
struct Task {
    RunOptions options;  // its own, made from its parent's
    std::string name, parent;
    double start = 0.0, end = 0.0;  // simulated: its decision time, and where it stops
    double priority = 0.0;          // the wall time of the longest road through it, estimated
};

class TreeRun {
public:
    TreeRun(const Problem& problem, const BranchPlan& plan, int split_axis,
            const std::string& root_dir, double t_end, std::ostream& log)
        : problem_(problem),
          plan_(plan),
          split_axis_(split_axis),
          root_dir_(root_dir),
          t_end_(t_end),
          log_(log) {}

    // Queues the branches of `parent_name` (run with `parent`), at `rate` wall seconds per
    // simulated second.
    void add_branches_of(const RunOptions& parent, const std::string& parent_name, double rate) {
        const std::vector<const DecisionPoint*> points = plan_.decisions_of(parent_name);
        for (std::size_t k = 0; k < points.size(); ++k) {
            for (const Branch& branch : points[k]->branches) {
                Task task;
                task.options = branch_options(parent, branch, k, root_dir_);
                task.options.decision_times = decision_times(plan_, branch.name);
                task.name = branch.name;
                task.parent = parent_name.empty() ? "base" : parent_name;
                task.start = points[k]->time;
                task.end = task.options.decision_times.empty() ? t_end_
                                                               : task.options.decision_times.back();
                task.priority = rate * road_ahead(branch.name, task.start);
                ready_.push_back(std::move(task));
            }
        }
    }

    void run(const std::vector<Slot>& slots) {
        began_ = SteadyClock::now();
        std::vector<std::thread> workers;
        for (const Slot& slot : slots) workers.emplace_back([this, slot] { work(slot); });
        for (std::thread& w : workers) w.join();
        if (interrupted_) std::rethrow_exception(interrupted_);
    }

    std::vector<BranchOutcome> outcomes;

private:
    // Simulated seconds from `start` to the end of the longest road down the tree from `name`.
    double road_ahead(const std::string& name, double start) const {
        const std::vector<const DecisionPoint*> points = plan_.decisions_of(name);
        if (points.empty()) return t_end_ - start;
        double longest = 0.0;
        for (const DecisionPoint* p : points) {
            for (const Branch& b : p->branches) {
                longest = std::max(longest, road_ahead(b.name, p->time));
            }
        }
        return points.back()->time - start + longest;
    }

    void work(const Slot& slot) {
        std::unique_lock<std::mutex> hold(lock_);
        for (;;) {
            changed_.wait(hold, [&] { return !ready_.empty() || running_ == 0 || interrupted_; });
            if (interrupted_ || ready_.empty()) {
                if (interrupted_ || running_ == 0) return;
                continue;
            }
            const auto next = std::max_element(
                ready_.begin(), ready_.end(),
                [](const Task& a, const Task& b) { return a.priority < b.priority; });
            Task task = std::move(*next);
            ready_.erase(next);
            ++running_;
            hold.unlock();
            std::exception_ptr interrupted;
            BranchOutcome outcome = run_one(task, slot, interrupted);
            hold.lock();
            --running_;
            if (interrupted && !interrupted_) interrupted_ = interrupted;
            if (outcome.status == "branched") {
                const double rate = outcome.wall_seconds / std::max(task.end - task.start, 1e-9);
                add_branches_of(task.options, task.name, rate);
            }
            outcomes.push_back(std::move(outcome));
            changed_.notify_all();
        }
    }

    BranchOutcome run_one(Task& task, const Slot& slot, std::exception_ptr& interrupted) {
        RunOptions o = task.options;
        o.backend = slot.backend;
        o.devices = slot.devices;
        o.threads = slot.threads;
        BranchOutcome outcome;
        outcome.name = task.name;
        outcome.parent = task.parent;
        outcome.decision_time = task.start;
        outcome.status = "completed";
        outcome.device = slot.label;
        outcome.started_seconds = seconds_since(began_);
        PrefixedLines lines(log_, log_lock_, "[" + task.name + "] ");
        std::ostream log(&lines);
        log << "branch " << task.name << " of " << task.parent << " from t = " << task.start
            << " s on " << slot.label << "\n";
        const auto start = SteadyClock::now();
        try {
            Simulation simulation(problem_, o, split_axis_);
            const RunReport report = simulation.run(log);
            outcome.status = report.status;
            outcome.mips = report.mips();
            outcome.device_bytes = report.device_bytes();
        } catch (const Interrupted&) {
            interrupted = std::current_exception();
            outcome.status = "interrupted";
        } catch (const std::exception& e) {
            outcome.status = "failed";
            outcome.error = e.what();
            log << "failed: " << e.what() << "\n";
        }
        outcome.wall_seconds = seconds_since(start);
        task.options = o;  // its children go on from its folder, on whatever slot they get
        return outcome;
    }

    const Problem& problem_;
    const BranchPlan& plan_;
    int split_axis_;
    std::string root_dir_;
    double t_end_;
    std::ostream& log_;
    std::mutex log_lock_;
    std::mutex lock_;
    std::condition_variable changed_;
    std::vector<Task> ready_;
    int running_ = 0;
    std::exception_ptr interrupted_;
    SteadyClock::time_point began_;
};

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
        "branch,parent,decision_time_s,status,device,started_s,wall_s,mips,device_bytes,error\n";
    char numbers[160];
    for (const BranchOutcome& o : run.outcomes) {
        std::string error = o.error;
        for (char& c : error) {
            if (c == ',' || c == '\n' || c == '"') c = ';';
        }
        std::snprintf(numbers, sizeof numbers, "%f,%s,%s,%.3f,%.3f,%.2f,%zu", o.decision_time,
                      o.status.c_str(), o.device.c_str(), o.started_seconds, o.wall_seconds, o.mips,
                      o.device_bytes);
        csv += o.name + "," + o.parent + "," + numbers + "," + error + "\n";
    }
    return csv;
}

}  // namespace

BranchRun run_branches(const Problem& problem, const RunOptions& options, int split_axis,
                       const BranchPlan& plan, std::ostream& log) {
    check_branch_plan(plan, problem, options);
    BranchRun result;
    RunOptions base = options;
    base.branches_file.clear();
    base.output_dir = options.output_dir + "/base";
    base.decision_times = decision_times(plan, "");
    log << "base: to the last decision point, t = " << base.decision_times.back() << " s\n";
    const auto base_start = SteadyClock::now();
    double rate = 0.0;  // wall seconds per simulated second
    {
        Simulation simulation(problem, base, split_axis);
        const RunReport report = simulation.run(log);
        result.base_device_bytes = report.device_bytes();
        rate = report.loop_seconds / std::max(report.simulated_time, 1e-9);
    }
    result.base_seconds = seconds_since(base_start);

    const std::vector<Slot> slots = make_slots(options, result.base_device_bytes, log);
    result.slots = int(slots.size());
    log << "branches: " << slots.size() << " at once (";
    for (std::size_t s = 0; s < slots.size(); ++s) log << (s ? ", " : "") << slots[s].label;
    log << ")\n";
    TreeRun tree(problem, plan, split_axis, options.output_dir, options.t_end, log);
    tree.add_branches_of(base, "", rate);
    const auto branches_start = SteadyClock::now();
    tree.run(slots);
    result.branches_seconds = seconds_since(branches_start);
    result.outcomes = std::move(tree.outcomes);
    result.peak_branch_bytes = peak_bytes(result.outcomes);
    write_text_file_atomically(options.output_dir + "/branches.csv", csv_text(result));

    std::vector<TreeNode> nodes{{"base", "", 0.0, "branched"}};
    for (const std::string& name : tree_order(plan, "")) {  // each branch under its parent
        for (const BranchOutcome& o : result.outcomes) {
            if (o.name == name) nodes.push_back({o.name, o.parent, o.decision_time, o.status});
        }
    }
    if (options.write_output) write_tree_report(options.output_dir, nodes);
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
