// Simulation::run: the time loop with its output, gauges and status lines, the trace window and
// the run report (run_report.json and report.html).
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
#include "driver/rank_reports.h"
#include "driver/run_outputs.h"
#include "driver/run_report_files.h"
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

RunReport Simulation::base_report() const {
    RunReport r;
    r.problem = problem_.name();
    r.backend = backend_;
    // "GPU 0 (NVIDIA H200) + GPU 1 (NVIDIA H200)", or "3 x CPU (...)" for identical devices.
    r.device = descriptions_[0];
    bool identical = true;
    for (const std::string& other : descriptions_) identical = identical && other == r.device;
    if (identical && descriptions_.size() > 1) {
        r.device = std::to_string(descriptions_.size()) + " x " + r.device;
    } else {
        for (std::size_t d = 1; d < descriptions_.size(); ++d) r.device += " + " + descriptions_[d];
    }
    if (span_.spread()) r.device += " over " + std::to_string(ranks_->size()) + " MPI ranks";
    r.particles = particle_count_;
    r.fluid_particles = fluid_count_;
    r.boundary_particles = particle_count_ - fluid_count_;
    r.dp = options_.dp;
    r.h = params_.h;
    r.c0 = params_.c0;
    r.physics = physics_settings(problem_, options_, grid_, setup_count_);
    r.setup_seconds = setup_seconds_;
    const bool listed = options_.neighbours == RunOptions::NeighbourSearch::kList;
    r.neighbour_search = listed ? "list" : "cells";
    r.max_neighbours = listed ? options_.max_neighbours : 0;
    return r;
}

// Each device's kernel times, waits, particles, slices, traffic and memory.
void Simulation::add_device_reports(RunReport& report) {
    report.devices = gathered_device_reports();
}

std::vector<DeviceReport> Simulation::gathered_device_reports() {
    const std::vector<WorkerStats> stats = group_->stats();
    std::vector<DeviceReport> reports;
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        Device& device = group_->device(d);
        DeviceReport r;
        r.description = device.description();
        r.kernels = device.kernel_times();
        r.worker = stats[d];
        r.first_slice = group_->slices().first_slice(d);
        r.end_slice = group_->slices().end_slice(d);
        r.memory_bytes = device.bytes_allocated();
        r.memory_parts = device.layout().parts();
        reports.push_back(r);
    }
    return span_.spread() ? gather_device_reports(reports, *ranks_) : reports;
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

// The time loop, with output, status lines, checkpoints and the trace window; fills what the
// report says of the loop however it ends. Checkpoints are taken where the next iteration
// rebuilds; an interrupting signal runs the loop on to that point, then writes one and throws
// Interrupted.
void Simulation::time_loop(std::ostream& log, RunReport& report) {
    StatusLine status(log, is_terminal(log), options_.status_interval);
    // After a restart the counts go on from the checkpoint's: this run's rates count from there.
    const double particle_iterations_before = particle_iterations_;
    ThroughputMeter throughput(std::max(options_.status_interval, 0.1), particle_iterations_before);
    const auto loop_start = SteadyClock::now();
    auto close_report = [&] {
        status.finish();
        report.loop_seconds = loop_seconds_before_ + seconds_since(loop_start);
        report.loop_seconds_before = loop_seconds_before_;
        report.iterations = iteration_;
        report.particle_iterations = particle_iterations_;
        report.removed_particles = removed_;
        report.simulated_time = time_;
        report.balance_seconds = balance_seconds_;
        report.balancing = balance_counts_;
        report.balancing.enabled = balancing_;
        report.instantaneous = throughput.result(report.kips());
        report.largest_neighbour_count = largest_neighbours_;
        report.list_margin = list_margin_.margin();
        report.list_margin_largest_share = list_margin_.largest_share();
        report.list_margin_intervals_over = list_margin_.exceeded();
        report.list_margin_intervals = list_margin_.intervals();
        report.rebuilds = rebuilds_;
        report.early_rebuilds = early_rebuilds_;
        report.restarts = restarts_;
    };
    std::unique_ptr<RunOutputs> outputs;
    try {
        outputs = !writes_files() ? RunOutputs::follower(options_, instruments_,
                                                         saved_ ? &saved_->outputs : nullptr)
                  : saved_ ? std::make_unique<RunOutputs>(options_, problem_.name(), instruments_,
                                                          saved_->outputs, restarts_)
                           : std::make_unique<RunOutputs>(options_, problem_.name(), instruments_);
        saved_.reset();
        // Rows are written in the background except across ranks, where reading the devices'
        // sums is a collective of every rank's main thread.
        outputs->read_instruments_with(
            InstrumentReader{[this] { start_measuring(); }, [this] { return finish_measuring(); }},
            !span_.spread());
        if (balancer_ && writes_files()) {
            balance_log_ = std::make_unique<LoadBalanceLog>(
                options_.output_dir + "/load_balance.csv", restarts_ > 0);
        }
        schedule_checkpoints();
        outputs->write_due(time_, false, *group_, params_, main_track_, report.output_seconds);
        open_body_log();
        report.output_frames = outputs->frames();
        // A failed write (a full disk, a folder gone) stops the output; with checkpoints
        // configured, the run goes on to the next rebuild without it, writes a last checkpoint
        // and only then fails.
        std::exception_ptr output_failure;
        const bool checkpointing = options_.checkpoint_every > 0.0 ||
                                   options_.checkpoint_wall_seconds > 0.0 ||
                                   !options_.checkpoint_dir.empty();
        while (time_ < options_.t_end) {
            const double before = time_;
            keep_end_candidate(*outputs, seconds_since(loop_start), report, log);
            step();
            try {
                if (!output_failure) {
                    outputs->write_due(time_, time_ >= options_.t_end, *group_, params_,
                                       main_track_, report.output_seconds);
                    log_bodies(before, time_ >= options_.t_end);
                }
            } catch (const std::runtime_error& e) {
                // Across ranks the failure is rank 0's alone: it cannot gather a checkpoint.
                if (!checkpointing || span_.spread()) throw;
                log << "error: " << e.what() << " " << when()
                    << "; running on to the next rebuild for a last checkpoint\n";
                output_failure = std::current_exception();
            }
            report.output_frames = outputs->frames();
            if (output_failure && at_rebuild()) {
                rethrow_after_last_checkpoint(output_failure, *outputs, seconds_since(loop_start),
                                              report, log);
            }
            if (take_decision_point(*outputs, seconds_since(loop_start), log)) {
                report.status = "branched";  // the last one: the branches go on from here
                break;
            }
            int signal = interrupt_signal();
            bool due = signal != 0 || checkpoint_due();
            if (at_rebuild() && span_.spread())
                std::tie(signal, due) = agree_on_checkpoint(signal, due);
            if (at_rebuild() && time_ < options_.t_end && due) {
                status.finish();
                checkpoint(*outputs, seconds_since(loop_start), report, log);
                if (signal != 0) {
                    throw Interrupted(std::string("interrupted by ") + interrupt_name(signal) +
                                          " " + when() + "; checkpoint written to " +
                                          report.last_checkpoint,
                                      signal, report.last_checkpoint);
                }
            }
            const double wall = seconds_since(loop_start);
            throughput.update(wall, particle_iterations_);
            status.update(Progress{
                iteration_, time_, options_.t_end, float(time_ - before),
                wall > 0 ? (particle_iterations_ - particle_iterations_before) / wall / 1e3 : 0,
                wall});
        }
        if (output_failure) std::rethrow_exception(output_failure);  // the run ended first
        status.finish();
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

// report.html beside run_report.json, drawn from the files the run wrote.
void Simulation::write_report_page(const RunReport& report, std::ostream& log) const {
    const std::string balance_log = balance_log_ ? balance_log_->path() : std::string();
    write_report_html_or_warn(report, report_html_sources(options_, instruments_, balance_log),
                              options_.output_dir, log);
}

// The report of a run that failed, with what led up to the failure where the devices still
// answer. Nothing here may hide the original error.
void Simulation::write_failed_report(RunReport& report, const std::string& path) {
    if (!writes_files()) return;
    try {
        // Across ranks the others may not be there to gather from.
        if (trace_began_ >= 0 && !span_.spread()) finish_trace();
        report.trace_file = trace_written_;
        // Across ranks the others may not be there to gather from: this rank's devices only.
        if (!span_.spread()) add_device_reports(report);
    } catch (const std::exception&) {
        // The original error is the one to report.
    }
    try {
        write_report_json(report, path);
    } catch (const std::exception&) {
        // The original error is the one to report.
    }
    std::ostream silent(nullptr);
    write_report_page(report, log_ != nullptr ? *log_ : silent);  // warns, never throws
}

}  // namespace sph
