// Simulation::run: the time loop with its output, gauges and status lines, the trace window and
// the run report.
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

#include "common/clock.h"
#include "driver/output_series.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "gauge_csv.h"
#include "instruments/gauges.h"
#include "report/status_line.h"
#include "report/throughput_meter.h"

namespace sph {

void Simulation::start_trace() {
    trace_->name_process(0, "run");
    main_track_ = TraceTrack{trace_.get(), 0, trace_->track(0, "main thread")};
    group_->trace_into(trace_.get());
    trace_began_ = iteration_;
}

void Simulation::finish_trace() {
    group_->trace_into(nullptr);  // collects what the devices still hold
    main_track_ = TraceTrack{};
    trace_->write(options_.trace_file, trace_began_, iteration_);
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
    r.device = group_->device(0).description();
    bool identical = true;
    for (int d = 1; d < group_->size(); ++d) {
        const std::string other = group_->device(d).description();
        identical = identical && other == r.device;
    }
    if (identical && group_->size() > 1) {
        r.device = std::to_string(group_->size()) + " x " + r.device;
    } else {
        for (int d = 1; d < group_->size(); ++d)
            r.device += " + " + group_->device(d).description();
    }
    r.particles = particle_count_;
    r.fluid_particles = fluid_count_;
    r.boundary_particles = particle_count_ - fluid_count_;
    r.dp = options_.dp;
    r.h = params_.h;
    r.c0 = params_.c0;
    r.setup_seconds = setup_seconds_;
    r.max_neighbours = options_.max_neighbours;
    return r;
}

// Each device's kernel times, waits, particles, slices, traffic and memory.
void Simulation::add_device_reports(RunReport& report) {
    const std::vector<WorkerStats> stats = group_->stats();
    report.devices.clear();
    for (int d = 0; d < group_->size(); ++d) {
        Device& device = group_->device(d);
        DeviceReport r;
        r.description = device.description();
        r.kernels = device.kernel_times();
        r.worker = stats[d];
        r.first_slice = group_->slices().first_slice(d);
        r.end_slice = group_->slices().end_slice(d);
        r.memory_bytes = device.bytes_allocated();
        report.devices.push_back(r);
    }
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

RunReport Simulation::run(std::ostream& log) {
    ensure_writable_directory(options_.output_dir);
    if (!options_.trace_file.empty()) {
        check_trace_path(options_.trace_file);
        trace_ = std::make_unique<Trace>();
    }
    RunReport report = base_report();
    log << problem_.name() << ": " << particle_count_ << " particles (" << fluid_count_
        << " fluid), dp " << options_.dp << " m, to t = " << options_.t_end << " s\n"
        << "backend: " << backend_ << " (" << backend_note_ << ") on " << report.device << "\n";
    StatusLine status(log, is_terminal(log), options_.status_interval);
    ThroughputMeter throughput(std::max(options_.status_interval, 0.1));
    log_ = &log;
    const std::string report_path = options_.output_dir + "/run_report.json";
    const auto loop_start = SteadyClock::now();
    // What the report says of the time loop, however it ended.
    auto finish_report = [&] {
        report.loop_seconds = seconds_since(loop_start);
        report.iterations = iteration_;
        report.particle_iterations = particle_iterations_;
        report.removed_particles = removed_;
        report.simulated_time = time_;
        report.balance_seconds = balance_seconds_;
        report.balancing = balance_counts_;
        report.balancing.enabled = balancing_;
        report.instantaneous = throughput.result(report.kips());
        report.largest_neighbour_count = largest_neighbours_;
    };
    try {
        std::unique_ptr<OutputSeries> output;
        double next_output = 0.0;
        auto write_frame = [&] {
            TimedRegion region(report.output_seconds, main_track_, "output", "output");
            output->write(time_, group_->download(), params_);
            report.output_frames = output->frames();
            while (next_output <= time_ * (1.0 + 1e-12)) next_output += options_.output_every;
        };
        // Gauges and probes, every gauge_every simulated seconds (with the particle output).
        const Instruments instruments = run_instruments(problem_.instruments(), options_);
        std::unique_ptr<GaugeCsv> gauges;
        double next_gauge = 0.0;
        auto measure_instruments = [&] {
            TimedRegion region(report.output_seconds, main_track_, "gauges", "output");
            const InstrumentReadings readings = measure(instruments, download(), params_);
            gauges->append(time_, instrument_row(instruments, readings));
            while (next_gauge <= time_ * (1.0 + 1e-12)) next_gauge += options_.gauge_every;
        };
        if (options_.write_output && !instruments.empty()) {
            gauges =
                std::make_unique<GaugeCsv>(options_.output_dir, instrument_columns(instruments));
            measure_instruments();
        }
        if (balancer_) {
            balance_log_ =
                std::make_unique<LoadBalanceLog>(options_.output_dir + "/load_balance.csv");
        }
        if (options_.write_output && options_.write_frames) {
            output = std::make_unique<OutputSeries>(options_.output_dir, problem_.name());
            write_frame();
        }
        float last_dt = 0.0f;
        while (time_ < options_.t_end) {
            const double before = time_;
            step();
            last_dt = static_cast<float>(time_ - before);
            if (output && (time_ >= next_output || time_ >= options_.t_end)) write_frame();
            if (gauges && (time_ >= next_gauge || time_ >= options_.t_end)) measure_instruments();
            const double wall = seconds_since(loop_start);
            throughput.update(wall, particle_iterations_);
            status.update(Progress{iteration_, time_, options_.t_end, last_dt,
                                   wall > 0 ? particle_iterations_ / wall / 1e3 : 0, wall});
        }
        status.finish();
        finish_report();
        if (trace_began_ >= 0) finish_trace();  // the run ended inside the window
        if (trace_) {
            log << "warning: no trace written: the run ended at iteration " << iteration_
                << ", before --trace-iterations began (" << options_.trace_first << ")\n";
            trace_.reset();
        }
    } catch (const std::exception& e) {
        status.finish();
        report.status = "failed";
        report.error = e.what();
        finish_report();
        try {
            // What led up to the failure is worth having, if the devices still answer.
            if (trace_began_ >= 0) finish_trace();
            report.trace_file = trace_written_;
            add_device_reports(report);
        } catch (const std::exception&) {
            // The original error is the one to report.
        }
        try {
            write_report_json(report, report_path);
        } catch (const std::exception&) {
            // The original error is the one to report.
        }
        throw;
    }
    report.trace_file = trace_written_;
    add_device_reports(report);
    write_report_json(report, report_path);
    return report;
}

}  // namespace sph
