// The end-of-run report: printed as a table and written as JSON (run_report.json).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "device.h"

namespace sph {

struct RunReport {
    std::string status = "completed";  // or "failed"
    std::string error;                 // why, when failed
    std::string problem, backend, device;
    std::size_t particles = 0, fluid_particles = 0, boundary_particles = 0;
    double dp = 0.0, h = 0.0, c0 = 0.0;
    long iterations = 0;
    double particle_iterations = 0.0;     // sum over iterations of the particles in the run then
    std::uint64_t removed_particles = 0;  // left the domain and were removed
    double simulated_time = 0.0;
    double setup_seconds = 0.0;  // set-up and upload, before the first iteration
    double loop_seconds = 0.0;   // the time loop, output included
    double output_seconds = 0.0;
    int output_frames = 0;
    KernelTimes kernels;
    std::size_t device_bytes = 0;
    std::uint32_t largest_neighbour_count = 0;
    int max_neighbours = 0;

    // Thousands of iterations x particles per second of the time loop (paper section 4.1).
    double kips() const;
    double mips() const { return kips() / 1000.0; }
    double bytes_per_particle() const;
    // Of the edge-force copy time, the share that overlapped the forces still computing.
    double exchange_hidden_fraction() const {
        return kernels.exchange_copy > 0.0 ? kernels.exchange_hidden / kernels.exchange_copy : 0.0;
    }
};

void print_report(const RunReport& report, std::ostream& out);
// Written atomically; throws naming the path on failure.
void write_report_json(const RunReport& report, const std::string& path);

}  // namespace sph
