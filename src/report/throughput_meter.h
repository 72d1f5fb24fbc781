// Throughput over consecutive windows of wall time of the time loop: the run report's
// instantaneous kips.
#pragma once

#include <algorithm>

#include "report/run_report.h"

namespace sph {

class ThroughputMeter {
public:
    // `done`: the particle iterations already counted when the loop starts (a restart's).
    ThroughputMeter(double window, double done) : done_(done) { result_.window_seconds = window; }
    void update(double wall, double particle_iterations) {
        if (wall - start_ < result_.window_seconds) return;
        const double kips = (particle_iterations - done_) / (wall - start_) / 1e3;
        result_.last_kips = kips;
        result_.min_kips = result_.windows == 0 ? kips : std::min(result_.min_kips, kips);
        result_.max_kips = std::max(result_.max_kips, kips);
        ++result_.windows;
        start_ = wall;
        done_ = particle_iterations;
    }
    // With no complete window, the run's average stands for all three.
    ThroughputWindows result(double average_kips) const {
        ThroughputWindows r = result_;
        if (r.windows == 0) r.last_kips = r.min_kips = r.max_kips = average_kips;
        return r;
    }

private:
    ThroughputWindows result_;
    double start_ = 0.0, done_ = 0.0;
};

}  // namespace sph
