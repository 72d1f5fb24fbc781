// Simulation's checkpoints: resuming from one, capturing the state, writing one when due (by
// simulated or wall time, on a signal, after an output failure), at the end (to extend the run
// from) and at --branches' decision points. Every checkpoint is taken where the next iteration
// rebuilds (at_rebuild).
#include <cmath>
#include <filesystem>

#include "checkpoint/checkpoint_file.h"
#include "driver/restart.h"
#include "driver/simulation.h"

namespace sph {

namespace {

// The first multiple of `every` after `time` (computed, not stepped to: a tiny interval would
// take millions of steps).
double next_multiple_after(double time, double every) {
    double next = every * (std::floor(time / every) + 1.0);
    if (next <= time) next += every;  // rounding
    return next;
}

}  // namespace

// The counters, dt bound and balancer timings of the checkpoint this run goes on from.
void Simulation::resume(const RunState& saved, bool same_split) {
    time_ = saved.time;
    iteration_ = saved.iteration;
    next_dt_limit_ = saved.next_dt_limit;
    since_rebuild_ = options_.rebuild_every;  // every checkpoint is taken before a rebuild
    removed_ = saved.removed;
    particle_iterations_ = saved.particle_iterations;
    largest_neighbours_ = saved.largest_neighbours;
    restarts_ = saved.restarts + 1;
    loop_seconds_before_ = saved.loop_seconds;
    if (balancer_ && saved.balancer && same_split) {
        try {
            balancer_->restore(*saved.balancer);
        } catch (const std::invalid_argument&) {
            // Timings of another window: the balancer starts afresh, as on other device counts.
        }
    }
}

RunState Simulation::capture_state(const OutputPositions& outputs, double loop_seconds) {
    RunState s;
    s.problem = problem_.name();
    s.build_id = build_id();
    s.physics = physics_settings(problem_, options_, grid_, setup_count_);
    s.time = time_;
    s.iteration = iteration_;
    s.next_dt_limit = next_dt_limit_;
    s.removed = removed_;
    s.particle_iterations = particle_iterations_;
    s.largest_neighbours = largest_neighbours_;
    s.loop_seconds = loop_seconds_before_ + loop_seconds;
    s.restarts = restarts_;
    s.particles = download();
    const SliceMap& map = group_->slices();
    for (int d = 0; d < map.devices(); ++d) s.first_slices.push_back(map.first_slice(d));
    s.slice_count = map.slice_count();
    s.halo = map.halo();
    if (balancer_) s.balancer = balancer_->state();
    s.outputs = outputs;
    s.floating = floating_.saved();
    return s;
}

std::string Simulation::write_checkpoint_now(const OutputPositions& outputs, double loop_seconds,
                                             double* gather_seconds) {
    const auto start = SteadyClock::now();
    const RunState state = capture_state(outputs, loop_seconds);  // across ranks, collective
    if (gather_seconds != nullptr) *gather_seconds = seconds_since(start);
    return write_into_folder(state);
}

// Rank 0 writes; the others return nothing.
std::string Simulation::write_into_folder(const RunState& state) {
    if (!writes_files()) return std::string();
    if (!checkpoints_) {
        checkpoints_ = std::make_unique<CheckpointFolder>(options_.checkpoint_folder());
    }
    return checkpoints_->write(state);
}

void Simulation::schedule_checkpoints() {
    last_checkpoint_wall_ = SteadyClock::now();
    if (options_.checkpoint_every > 0.0) {
        next_checkpoint_ = next_multiple_after(time_, options_.checkpoint_every);
    }
}

bool Simulation::checkpoint_due() const {
    const bool by_time = options_.checkpoint_every > 0.0 && time_ >= next_checkpoint_;
    const bool by_wall = options_.checkpoint_wall_seconds > 0.0 &&
                         seconds_since(last_checkpoint_wall_) >= options_.checkpoint_wall_seconds;
    return by_time || by_wall;
}

void Simulation::settle_for_checkpoint(RunOutputs& outputs, double loop_seconds, RunReport& report,
                                       std::ostream& log) {
    try {
        outputs.settle();  // the row under way belongs to the state saved
    } catch (const std::runtime_error&) {
        // A frame written in the background failed: as for one written at once, the failure
        // comes after a last checkpoint, which lists that frame as due (the settle is done).
        rethrow_after_last_checkpoint(std::current_exception(), outputs, loop_seconds, report, log);
    }
}

void Simulation::checkpoint(RunOutputs& outputs, double loop_seconds, RunReport& report,
                            std::ostream& log) {
    settle_for_checkpoint(outputs, loop_seconds, report, log);
    const auto writing = SteadyClock::now();
    double gathering = 0.0;
    report.last_checkpoint = write_checkpoint_now(outputs.positions(), loop_seconds, &gathering);
    const double seconds = seconds_since(writing);
    report.checkpoint_seconds += seconds;
    ++report.checkpoints_written;
    schedule_checkpoints();
    if (!writes_files()) return;
    log << "checkpoint " << report.last_checkpoint << " " << when() << ": "
        << std::filesystem::file_size(report.last_checkpoint) / 1e6 << " MB in " << seconds
        << " s (" << gathering << " s gathering it from the devices, " << seconds - gathering
        << " s encoding and writing it)\n";
}

// --- The end checkpoint ---
//
// A run that reaches --t-end leaves a checkpoint that --restart latest with a later --t-end goes
// on from, bitwise as a run straight to that later end. Its state is not the one at --t-end:
// the last step was cut to land on --t-end (kernels/step_dt.h), which the straight run's step
// there is not, and the end falls anywhere in a rebuild interval, where no restart goes on
// bitwise. It is the state at the last rebuild before the end, which the straight run passed
// through too: the extension runs that tail again. Which rebuild is the last is known only once
// the end is reached, so the state is held at each rebuild from which the end may come before
// the next (one or two, near the end) and written once the run has ended. It records the end
// reached: a restart from it to that end or an earlier one is refused (restart.cpp), there
// being nothing left to run. Only with periodic checkpoints (--checkpoint-every, in simulated
// or wall time): a run that asked for none, or a branch given only a folder for them, writes
// none at its end either.

bool Simulation::periodic_checkpoints() const {
    return options_.checkpoint_every > 0.0 || options_.checkpoint_wall_seconds > 0.0;
}

// Each step's dt is at most cfl h / c0 (particle_dt_max, kernels/forces_body.h), and the next
// rebuild is at most --rebuild-every steps away; the margin covers float and double rounding.
bool Simulation::end_may_come_before_next_rebuild() const {
    const double largest_dt = double(params_.cfl) * double(params_.h) / double(params_.c0);
    const double reach = options_.rebuild_every * largest_dt * (1.0 + 1e-3);
    return time_ + reach >= options_.t_end;
}

void Simulation::keep_end_candidate(RunOutputs& outputs, double loop_seconds, RunReport& report,
                                    std::ostream& log) {
    if (!periodic_checkpoints() || !at_rebuild() || !end_may_come_before_next_rebuild()) return;
    end_candidate_.reset();  // the one before is superseded: no two held at once
    settle_for_checkpoint(outputs, loop_seconds, report, log);
    end_candidate_ = std::make_unique<RunState>(capture_state(outputs.positions(), loop_seconds));
}

// Once the run has reached --t-end (not where it stopped before, at a --branches decision).
void Simulation::write_end_checkpoint(RunReport& report, std::ostream& log) {
    if (!end_candidate_ || time_ < options_.t_end) return;
    const auto writing = SteadyClock::now();
    end_candidate_->end_reached = options_.t_end;
    report.last_checkpoint = write_into_folder(*end_candidate_);
    report.checkpoint_seconds += seconds_since(writing);
    ++report.checkpoints_written;
    const double held_time = end_candidate_->time;
    const long held_iteration = end_candidate_->iteration;
    end_candidate_.reset();
    if (!writes_files()) return;
    log << "end checkpoint " << report.last_checkpoint << ": the state at t = " << held_time
        << " s (iteration " << held_iteration << "), the last rebuild before the end; "
        << "--restart latest with a later --t-end goes on from it\n";
}

bool Simulation::take_decision_point(RunOutputs& outputs, double loop_seconds, std::ostream& log) {
    const std::vector<double>& times = options_.decision_times;
    if (!at_rebuild() || next_decision_ >= times.size() || time_ < times[next_decision_]) {
        return false;
    }
    outputs.settle();  // the row under way belongs to the state saved
    if (options_.keep_decision_in_memory) {
        decision_state_ =
            std::make_shared<RunState>(capture_state(outputs.positions(), loop_seconds));
        log << "decision point " << next_decision_ << " " << when() << "\n";
    } else {
        const std::string path = decision_checkpoint_path(options_.output_dir, next_decision_);
        write_checkpoint(path, capture_state(outputs.positions(), loop_seconds));
        log << "decision point " << next_decision_ << " " << when() << ": " << path << "\n";
    }
    return ++next_decision_ == times.size();
}

// After an output failure: a last checkpoint (where the output series stood before it), then
// the failure, saying where that checkpoint is or why it could not be written either.
void Simulation::rethrow_after_last_checkpoint(std::exception_ptr failure, RunOutputs& outputs,
                                               double loop_seconds, RunReport& report,
                                               std::ostream& log) {
    try {
        std::rethrow_exception(failure);
    } catch (const std::exception& e) {
        std::string what = e.what();
        try {
            checkpoint(outputs, loop_seconds, report, log);
            what += "; a last checkpoint was written " + when() + " to " + report.last_checkpoint +
                    " (go on with --restart, once the output can be written)";
        } catch (const std::exception& second) {
            what +=
                std::string("; the last checkpoint could not be written either: ") + second.what();
        }
        throw std::runtime_error(what);
    }
}

}  // namespace sph
