// What Simulation's run report says of the set-up and of each device (across ranks, every
// rank's), the report of a run that failed, and report.html beside run_report.json. The time loop
// fills in the rest (simulation_run.cpp).
#include <string>
#include <vector>

#include "driver/rank_reports.h"
#include "driver/run_report_files.h"
#include "driver/simulation.h"

namespace sph {

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
