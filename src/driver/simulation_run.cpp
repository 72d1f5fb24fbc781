// Simulation::run: the time loop with its output, gauges and status lines, the trace window and
// the run report written (run_report.json and report.html; what it says: simulation_report.cpp).
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

#include "common/clock.h"
#include "common/interrupt.h"
#include "driver/output_series.h"
#include "driver/run_outputs.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "report/status_line.h"
#include "report/throughput_meter.h"

namespace sph {

void Simulation::start_trace() {
    // Devices are processes 1.. of the trace; rank r > 0's main thread, 1000 + r.
    const int process = writes_files() ? 0 : 1000 + ranks_->rank();
    trace_->name_process(process, span_.spread()
                                      ? "run (rank " + std::to_string(ranks_->rank()) + ")"
                                      : std::string("run"));
    main_track_ = TraceTrack{trace_.get(), process, trace_->track(process, "main thread")};
    group_->trace_into(trace_.get());
    trace_began_ = iteration_;
}

void Simulation::finish_trace() {
    group_->trace_into(nullptr);  // collects what the devices still hold
    main_track_ = TraceTrack{};
    if (span_.spread()) {  // rank 0 writes every rank's devices (a collective)
        const std::vector<std::string> traces =
            ranks_->all_gather(writes_files() ? std::string() : trace_->serialized());
        for (std::size_t r = 1; r < traces.size(); ++r) {
            if (writes_files()) trace_->take_in(traces[r]);
        }
    }
    if (writes_files()) trace_->write(options_.trace_file, trace_began_, iteration_);
    trace_written_ = options_.trace_file;
    if (log_ != nullptr) {
        *log_ << "trace of iterations [" << trace_began_ << ", " << iteration_ << ") written to "
              << options_.trace_file << "\n";
    }
    trace_.reset();
    trace_began_ = -1;
}

namespace {

// Makes the trace file's folder and checks that the file can be written, before the run starts.
void check_trace_path(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    const std::string probe = path + ".tmp";
    {
        std::ofstream out(probe);
        if (!ec && (out << "ok")) {
            out.close();
            std::filesystem::remove(probe, ec);
            return;
        }
    }
    throw OptionError("--trace: cannot write '" + path + "'" +
                      (ec ? ": " + ec.message() : std::string()));
}

}  // namespace

// What the time loop's status lines and rates count from. After a restart the counts go on from
// the checkpoint's: this run's rates count from there.
struct Simulation::LoopProgress {
    StatusLine status;
    double particle_iterations_before;
    ThroughputMeter throughput;
    SteadyClock::time_point start;

    double wall_seconds() const { return seconds_since(start); }
};

// The time loop, with output, status lines, checkpoints and the trace window; fills what the
// report says of the loop however it ends. Checkpoints are taken where the next iteration
// rebuilds; an interrupting signal runs the loop on to that point, then writes one and throws
// Interrupted.
void Simulation::time_loop(std::ostream& log, RunReport& report) {
    LoopProgress progress{
        StatusLine(log, is_terminal(log), options_.status_interval), particle_iterations_,
        ThroughputMeter(std::max(options_.status_interval, 0.1), particle_iterations_),
        SteadyClock::now()};
    auto close_report = [&] {
        progress.status.finish();
        fill_loop_report(progress, report);
    };
    std::unique_ptr<RunOutputs> outputs;
    try {
        outputs = make_outputs();
        start_outputs(*outputs, report);
        iterate(*outputs, progress, report, log);
        progress.status.finish();
        write_end_checkpoint(report, log);
    } catch (const std::exception&) {
        // The row of the last measurement, taken before whatever failed, still goes in (across
        // ranks the others may not be there to read it with).
        if (outputs && !span_.spread()) {
            try {
                outputs->settle();
            } catch (const std::exception&) {
                // The original error is the one to report.
            }
        }
        close_report();
        throw;
    }
    close_report();
}

// The run's outputs; after a restart they go on from the checkpoint's, which is then done with.
std::unique_ptr<RunOutputs> Simulation::make_outputs() {
    std::unique_ptr<RunOutputs> outputs =
        !writes_files()
            ? RunOutputs::follower(options_, instruments_, saved_ ? &saved_->outputs : nullptr)
        : saved_ ? std::make_unique<RunOutputs>(options_, problem_.name(), instruments_,
                                                saved_->outputs, restarts_)
                 : std::make_unique<RunOutputs>(options_, problem_.name(), instruments_);
    saved_.reset();
    return outputs;
}

// Before the first iteration: how the gauge rows are read, the balancer's log, the checkpoints'
// schedule, and the output due at the start.
void Simulation::start_outputs(RunOutputs& outputs, RunReport& report) {
    // Rows are written in the background except across ranks, where reading the devices'
    // sums is a collective of every rank's main thread.
    outputs.read_instruments_with(
        InstrumentReader{[this] { start_measuring(); }, [this] { return finish_measuring(); }},
        !span_.spread());
    if (balancer_ && writes_files()) {
        balance_log_ = std::make_unique<LoadBalanceLog>(options_.output_dir + "/load_balance.csv",
                                                        restarts_ > 0);
    }
    schedule_checkpoints();
    outputs.write_due(time_, false, *group_, params_, main_track_, report.output_seconds);
    open_body_log();
    report.output_frames = outputs.frames();
}

// The iterations to --t-end, or to the last decision point, with their output, checkpoints and
// status lines.
void Simulation::iterate(RunOutputs& outputs, LoopProgress& progress, RunReport& report,
                         std::ostream& log) {
    // A failed write stops the output (write_outputs_due); with checkpoints configured, the
    // run goes on to the next rebuild without it, writes a last checkpoint and only then fails.
    std::exception_ptr output_failure;
    const bool checkpointing = options_.checkpoint_every > 0.0 ||
                               options_.checkpoint_wall_seconds > 0.0 ||
                               !options_.checkpoint_dir.empty();
    while (time_ < options_.t_end) {
        const double before = time_;
        keep_end_candidate(outputs, progress.wall_seconds(), report, log);
        step();
        write_outputs_due(outputs, before, checkpointing, output_failure, report, log);
        if (output_failure && at_rebuild()) {
            rethrow_after_last_checkpoint(output_failure, outputs, progress.wall_seconds(), report,
                                          log);
        }
        if (take_decision_point(outputs, progress.wall_seconds(), log)) {
            report.status = "branched";  // the last one: the branches go on from here
            break;
        }
        checkpoint_if_asked(outputs, progress, report, log);
        const double wall = progress.wall_seconds();
        progress.throughput.update(wall, particle_iterations_);
        progress.status.update(Progress{
            iteration_, time_, options_.t_end, float(time_ - before),
            wall > 0 ? (particle_iterations_ - progress.particle_iterations_before) / wall / 1e3
                     : 0,
            wall});
    }
    if (output_failure) std::rethrow_exception(output_failure);  // the run ended first
}

// The output due after an iteration that began at `previous`, unless an earlier write failed. A
// failed write (a full disk, a folder gone) is kept in `failure` where the run goes on to a last
// checkpoint (`checkpointing`), and thrown where it does not.
void Simulation::write_outputs_due(RunOutputs& outputs, double previous, bool checkpointing,
                                   std::exception_ptr& failure, RunReport& report,
                                   std::ostream& log) {
    try {
        if (!failure) {
            outputs.write_due(time_, time_ >= options_.t_end, *group_, params_, main_track_,
                              report.output_seconds);
            log_bodies(previous, time_ >= options_.t_end);
        }
    } catch (const std::runtime_error& e) {
        // Across ranks the failure is rank 0's alone: it cannot gather a checkpoint.
        if (!checkpointing || span_.spread()) throw;
        log << "error: " << e.what() << " " << when()
            << "; running on to the next rebuild for a last checkpoint\n";
        failure = std::current_exception();
    }
    report.output_frames = outputs.frames();
}

// At a rebuild before the end, a checkpoint where one is due or a signal asks for one (across
// ranks, as the ranks agree); after a signal's, Interrupted.
void Simulation::checkpoint_if_asked(RunOutputs& outputs, LoopProgress& progress, RunReport& report,
                                     std::ostream& log) {
    int signal = interrupt_signal();
    bool due = signal != 0 || checkpoint_due();
    if (at_rebuild() && span_.spread()) std::tie(signal, due) = agree_on_checkpoint(signal, due);
    if (at_rebuild() && time_ < options_.t_end && due) {
        progress.status.finish();
        checkpoint(outputs, progress.wall_seconds(), report, log);
        if (signal != 0) {
            throw Interrupted(std::string("interrupted by ") + interrupt_name(signal) + " " +
                                  when() + "; checkpoint written to " + report.last_checkpoint,
                              signal, report.last_checkpoint);
        }
    }
}

// What the report says of the loop, however it ended.
void Simulation::fill_loop_report(const LoopProgress& progress, RunReport& report) const {
    report.loop_seconds = loop_seconds_before_ + progress.wall_seconds();
    report.loop_seconds_before = loop_seconds_before_;
    report.iterations = iteration_;
    report.particle_iterations = particle_iterations_;
    report.removed_particles = removed_;
    report.simulated_time = time_;
    report.balance_seconds = balance_seconds_;
    report.balancing = balance_counts_;
    report.balancing.enabled = balancing_;
    report.instantaneous = progress.throughput.result(report.kips());
    report.largest_neighbour_count = largest_neighbours_;
    report.list_margin = list_margin_.margin();
    report.list_margin_largest_share = list_margin_.largest_share();
    report.list_margin_intervals_over = list_margin_.exceeded();
    report.list_margin_intervals = list_margin_.intervals();
    report.rebuilds = rebuilds_;
    report.early_rebuilds = early_rebuilds_;
    report.restarts = restarts_;
}

RunReport Simulation::run(std::ostream& rank_log) {
    // Across ranks rank 0 speaks for the run; the others' errors reach the caller as exceptions.
    std::ostream silent(nullptr);
    std::ostream& log = writes_files() ? rank_log : silent;
    // Every rank writes its devices' pieces of each frame there.
    ensure_writable_directory(options_.output_dir);
    if (!options_.trace_file.empty()) {
        if (writes_files()) check_trace_path(options_.trace_file);
        trace_ = std::make_unique<Trace>();
    }
    RunReport report = base_report();
    log_run_start(report, log);
    log_ = &log;
    log << restart_notes_;
    const std::string report_path = options_.output_dir + "/run_report.json";
    try {
        time_loop(log, report);
    } catch (const Interrupted& e) {
        report.status = "interrupted";
        report.error = e.what();
        write_failed_report(report, report_path);
        throw;
    } catch (const std::exception& e) {
        report.status = "failed";
        report.error = e.what();
        write_failed_report(report, report_path);
        throw;
    }
    if (trace_began_ >= 0) finish_trace();  // the run ended inside the window
    if (trace_) {
        log << "warning: no trace written: the run ended at iteration " << iteration_
            << ", before --trace-iterations began (" << options_.trace_first << ")\n";
        trace_.reset();
    }
    report.trace_file = trace_written_;
    add_device_reports(report);
    if (writes_files()) {
        write_report_json(report, report_path);
        write_report_page(report, log);
    }
    return report;
}

// What the run is, where it runs, and what its wall sensors read, before it starts.
void Simulation::log_run_start(const RunReport& report, std::ostream& log) const {
    log << problem_.name() << ": " << particle_count_ << " particles (" << fluid_count_
        << " fluid), dp " << options_.dp << " m, to t = " << options_.t_end << " s\n"
        << "backend: " << backend_ << " (" << backend_note_ << ") on " << report.device << "\n";
    if (options_.boundary == BoundaryModel::kDbc && !instruments_.walls.empty()) {
        // DBC's wall particles get their density by continuity, their own rather than the water's.
        log << "note: under --boundary dbc the wall sensors and panels (";
        for (std::size_t w = 0; w < instruments_.walls.size(); ++w) {
            log << (w > 0 ? ", " : "") << instruments_.walls[w].name;
        }
        log << ") read the dynamic boundary particles' own pressures, not the water's (they "
               "overshoot and ring at impacts); --boundary mdbc reads the water's\n";
    }
    if (span_.spread()) {
        const std::string library = Ranks::mpi_library();
        log << "MPI: " << ranks_->size() << " ranks, " << span_.devices() << " devices; "
            << library.substr(0, library.find('\n'))
            << ", CUDA-aware: " << (Ranks::cuda_aware() ? "yes" : "no") << " (messages "
            << (options_.mpi_direct ? "from and into device memory" : "staged in host memory")
            << ")\n";
    }
}

}  // namespace sph
