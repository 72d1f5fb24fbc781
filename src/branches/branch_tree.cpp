#include "branches/branch_tree.h"

#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <thread>

#include "branches/branch_changes.h"
#include "checkpoint/checkpoint_folder.h"
#include "common/errors.h"
#include "common/prefixed_lines.h"
#include "devices/cuda/cuda_support.h"
#include "driver/restart.h"
#include "driver/simulation.h"

namespace sph {

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

namespace {

bool on_gpus(const RunOptions& o) {
    if (o.backend == BackendChoice::kAuto) return cuda_compiled_in() && visible_gpu_count() > 0;
    return o.backend == BackendChoice::kCuda;
}

}  // namespace

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

int branches_that_fit(int wanted, std::uint64_t free_bytes, std::uint64_t bytes_each) {
    if (bytes_each == 0) return wanted;
    const std::uint64_t fit = free_bytes / bytes_each;
    return int(std::max<std::uint64_t>(1, std::min<std::uint64_t>(fit, std::uint64_t(wanted))));
}

namespace {

// Simulated seconds from `start` to the end of the longest road down the tree from `name`.
double road_ahead(const BranchPlan& plan, const std::string& name, double start, double t_end) {
    const std::vector<const DecisionPoint*> points = plan.decisions_of(name);
    if (points.empty()) return t_end - start;
    double longest = 0.0;
    for (const DecisionPoint* p : points) {
        for (const Branch& b : p->branches) {
            longest = std::max(longest, road_ahead(plan, b.name, p->time, t_end));
        }
    }
    return points.back()->time - start + longest;
}

}  // namespace

std::vector<Task> branch_tasks(const BranchPlan& plan, const RunOptions& parent,
                               const std::string& parent_name, double rate,
                               const std::string& root_dir, double t_end) {
    std::vector<Task> tasks;
    const std::vector<const DecisionPoint*> points = plan.decisions_of(parent_name);
    for (std::size_t k = 0; k < points.size(); ++k) {
        for (const Branch& branch : points[k]->branches) {
            Task task;
            task.options = branch_options(parent, branch, k, root_dir);
            task.options.decision_times = decision_times(plan, branch.name);
            task.name = branch.name;
            task.parent = parent_name.empty() ? "base" : parent_name;
            task.start = points[k]->time;
            task.end =
                task.options.decision_times.empty() ? t_end : task.options.decision_times.back();
            task.priority = rate * road_ahead(plan, branch.name, task.start, t_end);
            tasks.push_back(std::move(task));
        }
    }
    return tasks;
}

std::vector<Task> branches_after(const BranchPlan& plan, const Task& ran, double wall_seconds,
                                 const std::string& root_dir, double t_end) {
    const double rate = wall_seconds / std::max(ran.end - ran.start, 1e-9);
    return branch_tasks(plan, ran.options, ran.name, rate, root_dir, t_end);
}

std::optional<ReportSummary> ended_before(const RunOptions& o) {
    const std::optional<ReportSummary> before =
        read_report_summary(o.output_dir + "/run_report.json");
    if (!before) return std::nullopt;
    if (before->status == "completed") return before;
    if (before->status != "branched") return std::nullopt;
    for (std::size_t k = 0; k < o.decision_times.size(); ++k) {
        if (!std::filesystem::exists(decision_checkpoint_path(o.output_dir, k))) {
            return std::nullopt;
        }
    }
    return before;
}

TreeRun::TreeRun(const Problem& problem, const BranchPlan& plan, int split_axis,
                 const std::string& root_dir, double t_end, std::ostream& log, bool expand,
                 bool resume)
    : problem_(problem),
      plan_(plan),
      split_axis_(split_axis),
      root_dir_(root_dir),
      t_end_(t_end),
      log_(log),
      expand_(expand),
      resume_(resume) {}

void TreeRun::add(std::vector<Task> tasks) {
    std::lock_guard<std::mutex> hold(lock_);
    for (Task& task : tasks) ready_.push_back(std::move(task));
}

void TreeRun::run(const std::vector<Slot>& slots, SteadyClock::time_point began) {
    began_ = began;
    std::vector<std::thread> workers;
    for (const Slot& slot : slots) workers.emplace_back([this, slot] { work(slot); });
    for (std::thread& w : workers) w.join();
    if (interrupted_) std::rethrow_exception(interrupted_);
}

void TreeRun::work(const Slot& slot) {
    std::unique_lock<std::mutex> hold(lock_);
    for (;;) {
        changed_.wait(hold, [&] { return !ready_.empty() || running_ == 0 || interrupted_; });
        if (interrupted_ || ready_.empty()) {
            if (interrupted_ || running_ == 0) return;
            continue;
        }
        const auto next =
            std::max_element(ready_.begin(), ready_.end(),
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
        if (expand_ && outcome.status == "branched") {
            for (Task& child :
                 branches_after(plan_, task, outcome.wall_seconds, root_dir_, t_end_)) {
                ready_.push_back(std::move(child));
            }
        }
        outcomes.push_back(std::move(outcome));
        changed_.notify_all();
    }
}

// A branch of a tree that goes on: true, with its outcome, when its folder shows it ended;
// else `o` goes on from its newest checkpoint if it left one (its wall changes are in it).
bool TreeRun::resumed(RunOptions& o, std::ostream& log, BranchOutcome& outcome) const {
    if (const std::optional<ReportSummary> before = ended_before(o)) {
        outcome.status = before->status;
        outcome.mips = before->mips;
        outcome.device_bytes = before->device_bytes;
        log << "ended before (" << before->status << "): kept as it is\n";
        return true;
    }
    if (!checkpoints_in(o.checkpoint_folder()).empty()) {
        o.restart_from = "latest";
        o.geometry_changes.clear();
        log << "goes on from its newest checkpoint in " << o.checkpoint_folder() << "\n";
    }
    return false;
}

BranchOutcome TreeRun::run_one(Task& task, const Slot& slot, std::exception_ptr& interrupted) {
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
    log << "branch " << task.name << " of " << task.parent << " from t = " << task.start << " s on "
        << slot.label << "\n";
    const auto start = SteadyClock::now();
    if (resume_ && resumed(o, log, outcome)) {
        task.options = o;
        return outcome;
    }
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

}  // namespace sph
