// Everything a run needs to go on exactly where it stopped: what a checkpoint holds.
//
// Taken between iterations, just before a rebuild (Simulation::capture_state): the next
// iteration sorts every particle by (cell, slab, id) whatever order it arrives in, so a run that
// uploads these particles and goes on is bitwise the run that never stopped, on any number of
// devices (the decomposition never changes the results).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "devices/host_particles.h"
#include "instruments/interval_average.h"
#include "instruments/streaming_low_pass.h"
#include "multi_device/load_balancer.h"

namespace sph {

// Where the run's output series stood: what the restarted run continues.
struct OutputPositions {
    std::vector<std::pair<double, std::string>> frames;  // (time, file) as the .pvd lists them
    double next_frame = 0.0, next_gauge = 0.0;           // simulated times the next are due
    std::vector<std::string> gauge_columns;              // gauges.csv's columns after "time"
    std::vector<double> gauge_times;                     // every row written so far
    std::vector<std::vector<double>> gauge_rows;
    IntervalAverage::State gauge_average;  // --gauge-average: the interval under way
    // --gauge-average with --gauge-filter: the filter of the readings (none where the run
    // filtered its rows afterwards)
    std::optional<StreamingLowPass::State> gauge_filter;
};

// A named setting that fixes the physics (problem, spacing, constants, grid): a restart must
// find each as it was. Values are text, doubles with 17 significant digits.
using Setting = std::pair<std::string, std::string>;

struct RunState {
    std::string problem;
    std::string build_id;
    std::vector<Setting> physics;

    double time = 0.0;
    long iteration = 0;
    float next_dt_limit = 0.0f;  // the dt bound from the last corrector
    std::uint64_t removed = 0;   // particles that left the domain so far
    double particle_iterations = 0.0;
    std::uint32_t largest_neighbours = 0;
    double loop_seconds = 0.0;  // wall time of the time loop before this state, all runs
    int restarts = 0;           // how many restarts led to this state

    HostParticles particles;

    // The slice map when the state was taken, and the balancer's timings (with several devices).
    std::vector<int> first_slices;
    int slice_count = 0, halo = 1;
    std::optional<LoadBalancer::State> balancer;

    OutputPositions outputs;

    // The floating bodies' masses and states (bodies/floating_bodies.h: saved), if any.
    std::vector<double> floating;

    // On the checkpoint a run leaves at its end (Simulation::write_end_checkpoint): the --t-end
    // it went on to from this state and reached. A restart from it must ask for a later one.
    std::optional<double> end_reached;
};

// The settings in `now` that differ from `saved`'s, as "name (checkpoint: a, now: b)", and
// those present in only one of them.
std::vector<std::string> differing_settings(const std::vector<Setting>& saved,
                                            const std::vector<Setting>& now);

}  // namespace sph
