#include "simulation.h"

#include <omp.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <sstream>

#include "cpu_device.h"
#include "cuda_support.h"
#include "output_series.h"
#include "run_setup.h"
#include "status_line.h"

namespace sph {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// min() that keeps a NaN: a blown-up stage must not hide behind a finite bound.
float min_keep_nan(float a, float b) {
    return (std::isnan(a) || std::isnan(b)) ? NAN : std::fmin(a, b);
}

std::unique_ptr<Device> make_device(const RunOptions& o, std::string& backend, std::string& note) {
    BackendChoice choice = o.backend;
    const int gpus = visible_gpu_count();
    if (choice == BackendChoice::kAuto) {
        choice = gpus > 0 ? BackendChoice::kCuda : BackendChoice::kCpu;
        note = !cuda_compiled_in() ? "auto: this build has no CUDA back end"
               : gpus > 0          ? "auto: " + std::to_string(gpus) + " GPU(s) visible"
                                   : "auto: no GPU visible";
    } else {
        note = "requested";
    }
    backend = to_string(choice);
    if (choice == BackendChoice::kCpu) {
        if (o.threads > 0) omp_set_num_threads(o.threads);
        return std::make_unique<CpuDevice>();
    }
    if (!cuda_compiled_in()) throw OptionError("--backend cuda: this build has no CUDA back end");
    if (gpus == 0) throw OptionError("--backend cuda: no GPU is visible");
    if (o.gpu >= gpus) {
        throw OptionError("--device " + std::to_string(o.gpu) + ": no such GPU (" +
                          std::to_string(gpus) + " visible, ids 0.." + std::to_string(gpus - 1) +
                          ")");
    }
    return make_cuda_device(o.gpu);
}

}  // namespace

Simulation::Simulation(const Problem& problem, const RunOptions& options, int split_axis)
    : problem_(problem), options_(options), next_dt_limit_(std::numeric_limits<float>::infinity()) {
    const auto start = Clock::now();
    device_ = make_device(options_, backend_, backend_note_);
    params_ = make_sph_params(options_, problem.still_water_depth());
    grid_ = make_grid(problem, params_, options_.dp, split_axis);
    // Count first, so that a run too large for the device is refused before anything is allocated.
    particle_count_ = count_particles(problem, options_.dp);
    if (particle_count_ >= (std::size_t(1) << 32) - 1) {
        throw OptionError("--dp " + std::to_string(options_.dp) +
                          " gives more than 4e9 particles; use a larger --dp");
    }
    DeviceLayout layout;
    layout.capacity = static_cast<std::uint32_t>(particle_count_);
    layout.max_neighbours = static_cast<std::uint32_t>(options_.max_neighbours);
    layout.grid = grid_;
    layout.id_bits = bits_for(particle_count_);
    device_->allocate(layout, params_);  // throws before allocating if it cannot fit
    const HostParticles particles = make_particles(problem, options_, params_);
    fluid_count_ = particles.count(kFluid);
    device_->upload(particles);
    setup_seconds_ = seconds_since(start);
}

HostParticles Simulation::download() {
    HostParticles p;
    device_->download(p);
    return p;
}

std::string Simulation::when() const {
    std::ostringstream s;
    s << "at t = " << time_ << " s (iteration " << iteration_ << ")";
    return s.str();
}

void Simulation::fail_out_of_domain() {
    const HostParticles p = download();
    std::ostringstream msg;
    msg << "a particle left the domain " << when();
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (grid_.cell_of(p.pos[i]) != grid_.outside_cell()) continue;
        const Box d = problem_.domain(options_.dp);
        msg << ": particle " << p.id[i] << " (" << (p.type[i] == kFluid ? "fluid" : "boundary")
            << ") is at (" << p.pos[i].x << ", " << p.pos[i].y << ", " << p.pos[i].z
            << "), outside [" << d.lo[0] << ", " << d.hi[0] << "] x [" << d.lo[1] << ", " << d.hi[1]
            << "] x [" << d.lo[2] << ", " << d.hi[2] << "] m";
        break;
    }
    msg << ". The simulation is probably unstable: try a smaller --cfl or --dp.";
    throw SimulationError(msg.str());
}

void Simulation::fail_non_finite() {
    const HostParticles p = download();
    std::ostringstream msg;
    msg << "the simulation blew up " << when() << ": accelerations or density rates are not finite";
    for (std::size_t i = 0; i < p.size(); ++i) {
        const Vec4 &x = p.pos[i], &v = p.velrho[i];
        if (std::isfinite(x.x + x.y + x.z) && std::isfinite(v.x + v.y + v.z + v.w)) continue;
        msg << "; particle " << p.id[i] << " has position (" << x.x << ", " << x.y << ", " << x.z
            << "), velocity (" << v.x << ", " << v.y << ", " << v.z << "), density " << v.w;
        break;
    }
    msg << ". Try a smaller --cfl or --dp.";
    throw SimulationError(msg.str());
}

void Simulation::check_neighbour_build(const NeighbourBuild& build) {
    if (build.particles_outside_grid) fail_out_of_domain();
    if (build.largest_count == kCellOverflow) {
        throw SimulationError("particles clumped " + when() + ": a cell holds more than " +
                              std::to_string(kMaxCellOccupancy) +
                              " particles. The simulation is unstable: try a smaller --cfl.");
    }
    if (build.largest_count > std::uint32_t(options_.max_neighbours)) {
        throw SimulationError("a particle has " + std::to_string(build.largest_count) +
                              " neighbours " + when() + ", more than --max-neighbours " +
                              std::to_string(options_.max_neighbours) + ": raise it");
    }
    largest_neighbours_ = std::max(largest_neighbours_, build.largest_count);
}

void Simulation::step() {
    if (iteration_ % options_.rebuild_every == 0)
        check_neighbour_build(device_->build_neighbours());
    device_->forces(Stage::kPredictor);
    float dt = min_keep_nan(device_->minimum_dt(), next_dt_limit_);
    if (!(dt > 0.0f) || !std::isfinite(dt)) fail_non_finite();
    // Land exactly on t_end rather than overshoot it.
    if (time_ + dt > options_.t_end) dt = static_cast<float>(options_.t_end - time_);
    device_->euler(Stage::kPredictor, dt);
    device_->forces(Stage::kCorrector);
    next_dt_limit_ = device_->minimum_dt();
    if (std::isnan(next_dt_limit_)) fail_non_finite();
    device_->euler(Stage::kCorrector, dt);
    time_ += dt;
    ++iteration_;
}

RunReport Simulation::base_report() const {
    RunReport r;
    r.problem = problem_.name();
    r.backend = backend_;
    r.device = device_->description();
    r.particles = particle_count_;
    r.fluid_particles = fluid_count_;
    r.boundary_particles = particle_count_ - fluid_count_;
    r.dp = options_.dp;
    r.h = params_.h;
    r.c0 = params_.c0;
    r.setup_seconds = setup_seconds_;
    r.device_bytes = device_->bytes_allocated();
    r.max_neighbours = options_.max_neighbours;
    return r;
}

RunReport Simulation::run(std::ostream& log) {
    ensure_writable_directory(options_.output_dir);
    RunReport report = base_report();
    log << problem_.name() << ": " << particle_count_ << " particles (" << fluid_count_
        << " fluid), dp " << options_.dp << " m, to t = " << options_.t_end << " s\n"
        << "backend: " << backend_ << " (" << backend_note_ << ") on " << report.device << "\n";
    StatusLine status(log, is_terminal(log), options_.status_interval);
    const std::string report_path = options_.output_dir + "/run_report.json";
    const auto loop_start = Clock::now();
    try {
        std::unique_ptr<OutputSeries> output;
        double next_output = 0.0;
        auto write_frame = [&] {
            const auto start = Clock::now();
            output->write(time_, download(), params_);
            report.output_frames = output->frames();
            report.output_seconds += seconds_since(start);
            while (next_output <= time_ * (1.0 + 1e-12)) next_output += options_.output_every;
        };
        if (options_.write_output) {
            output = std::make_unique<OutputSeries>(options_.output_dir, problem_.name());
            write_frame();
        }
        float last_dt = 0.0f;
        while (time_ < options_.t_end) {
            const double before = time_;
            step();
            last_dt = static_cast<float>(time_ - before);
            if (output && (time_ >= next_output || time_ >= options_.t_end)) write_frame();
            const double wall = seconds_since(loop_start);
            status.update(Progress{iteration_, time_, options_.t_end, last_dt,
                                   wall > 0 ? iteration_ * double(particle_count_) / wall / 1e3 : 0,
                                   wall});
        }
        status.finish();
    } catch (const std::exception& e) {
        status.finish();
        report.status = "failed";
        report.error = e.what();
        report.iterations = iteration_;
        report.simulated_time = time_;
        report.loop_seconds = seconds_since(loop_start);
        try {
            write_report_json(report, report_path);
        } catch (const std::exception&) {
            // The original error is the one to report.
        }
        throw;
    }
    report.loop_seconds = seconds_since(loop_start);
    report.iterations = iteration_;
    report.simulated_time = time_;
    report.kernels = device_->kernel_times();
    report.largest_neighbour_count = largest_neighbours_;
    write_report_json(report, report_path);
    return report;
}

}  // namespace sph
