// The end-of-run report: printed as a table and written as JSON (run_report.json). The JSON
// schema is documented in docs/run-report.md; keep the two in step.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "devices/device.h"
#include "multi_device/device_group.h"

namespace sph {

// One device's share of the run.
struct DeviceReport {
    std::string description;
    KernelTimes kernels;
    WorkerStats worker;
    int first_slice = 0, end_slice = 0;  // owned at the end of the run
    std::size_t memory_bytes = 0;        // allocated at set-up; the time loop allocates nothing
    // Of which the arrays of its layout (the rest: the sort/reduce library's scratch, scalars).
    std::vector<MemoryPart> memory_parts;

    double particles_mean() const {
        return worker.rebuilds > 0 ? worker.particles_sum / double(worker.rebuilds) : 0.0;
    }
    // Forces seconds (KernelTimes) of one iteration, both stages, averaged: what the balancer
    // compares.
    double forces_seconds_per_iteration() const {
        return worker.iterations > 0 ? worker.forces_seconds / double(worker.iterations) : 0.0;
    }
    // The time loop less what this device's kernels, waits and copies account for, and less the
    // main thread's balancing and output: launches, host-device synchronisation, bookkeeping.
    double other_seconds(double loop_seconds, double main_thread_seconds) const;
};

// What the load balancer did.
struct BalanceCounts {
    bool enabled = false;  // slices may move (else decisions are only logged)
    long decisions = 0;    // balancing steps (rebuilds with k iterations of timings)
    long moves = 0;        // slice boundaries shifted, one slice each
    long dropped = 0;      // moves refused because the taker would run out of room
};

// Throughput over consecutive windows of wall time.
struct ThroughputWindows {
    double window_seconds = 0.0;
    int windows = 0;  // complete windows; with none, last = min = max = the average
    double last_kips = 0.0, min_kips = 0.0, max_kips = 0.0;
};

struct RunReport {
    std::string status = "completed";  // or "failed", "interrupted" (a checkpoint was written),
                                       // or "branched" (a --branches base at its last decision)
    std::string error;                 // why, when failed
    std::string problem, backend, device;
    std::size_t particles = 0, fluid_particles = 0, boundary_particles = 0;
    double dp = 0.0, h = 0.0, c0 = 0.0;
    // The settings that fix the run's physics (driver/restart.h, physics_settings: what a restart
    // must find as it was), name and value as text, so that a report says how its run was made.
    std::vector<std::pair<std::string, std::string>> physics;
    long iterations = 0;
    double particle_iterations = 0.0;     // sum over iterations of the particles in the run then
    std::uint64_t removed_particles = 0;  // left the domain and were removed
    double simulated_time = 0.0;
    double setup_seconds = 0.0;  // set-up and upload, before the first iteration
    double loop_seconds = 0.0;   // the time loop, output included, the runs restarted from too
    // Of loop_seconds, the runs this one went on from (0 without a restart). The devices' times,
    // output and balancing are this run's own: its breakdown is of the rest (own_loop_seconds).
    double loop_seconds_before = 0.0;
    double output_seconds = 0.0;
    double balance_seconds = 0.0;  // the load balancer's decisions (the moves are in BuildNeibs)
    BalanceCounts balancing;
    int output_frames = 0;
    ThroughputWindows instantaneous;
    std::vector<DeviceReport> devices;
    std::string neighbour_search = "list";      // --neighbours: list | cells
    std::uint32_t largest_neighbour_count = 0;  // list entries used at most (list only)
    int max_neighbours = 0;                     // list entries per particle; 0: no list
    // The list's margin for motion between rebuilds (driver/list_margin.h): 2h x the skin [m],
    // the largest bound of the fastest particle's travel in a rebuild interval over it, and the
    // intervals whose bound passed it, of all.
    double list_margin = 0.0, list_margin_largest_share = 0.0;
    long list_margin_intervals_over = 0, list_margin_intervals = 0;
    // List rebuilds, and those sooner than --rebuild-every for the margin (--early-rebuild).
    long rebuilds = 0, early_rebuilds = 0;
    std::string trace_file;           // written by --trace, or empty
    int restarts = 0;                 // checkpoints this run went on from, in a chain
    int checkpoints_written = 0;      // by this run
    double checkpoint_seconds = 0.0;  // wall time writing them (inside the time loop)
    std::string last_checkpoint;      // the newest it wrote, or empty

    // Thousands of iterations x particles per second of the time loop (docs/design.md: paper
    // section 4.1).
    double kips() const;
    double mips() const { return kips() / 1000.0; }
    // This run's own time loop, since its restart if it had one.
    double own_loop_seconds() const { return loop_seconds - loop_seconds_before; }
    std::size_t device_bytes() const;
    double bytes_per_particle() const;
    // Each kernel's time on the slowest device, the copy totals over all devices.
    KernelTimes kernels() const;
    // Of the edge-force copy time, the share that overlapped the forces still computing.
    double exchange_hidden_fraction() const;
};

void print_report(const RunReport& report, std::ostream& out);

// A physics setting's value as a number where the text is one (the settings are text, exact to
// the last bit: 0.05 is 0.050000000000000003), else nothing: the table prints it short, the JSON
// writes it as a number.
std::optional<double> setting_number(const std::string& text);

// What a run_report.json says of how a run ended: enough for --branches --restart latest to
// keep a branch that ended and to know the base's rate.
struct ReportSummary {
    std::string status;
    double loop_seconds = 0.0, simulated_time = 0.0, mips = 0.0;
    std::size_t device_bytes = 0;
};
// Nothing when `path` is missing or not a run report.
std::optional<ReportSummary> read_report_summary(const std::string& path);
// Written atomically; throws naming the path on failure.
void write_report_json(const RunReport& report, const std::string& path);

}  // namespace sph
