#include "multi_device/worker_stats.h"

#include <algorithm>

namespace sph {

void WorkerStats::sample(std::uint64_t particles, int slices) {
    if (rebuilds == 0) {
        particles_min = particles_max = particles;
        slices_min = slices_max = slices;
    }
    particles_min = std::min(particles_min, particles);
    particles_max = std::max(particles_max, particles);
    particles_sum += double(particles);
    slices_min = std::min(slices_min, slices);
    slices_max = std::max(slices_max, slices);
    ++rebuilds;
}

void Traffic::add_to(std::vector<WorkerStats>& stats) const {
    const int n = int(stats.size());
    for (int d = 0; d < n; ++d) {
        for (int e = 0; e < n; ++e) {
            if (e == d) continue;  // a device's own particles, moved within it
            stats[d].bytes_received += particles_[d][e] + forces_[e][d];
            stats[e].bytes_sent += particles_[d][e];
            stats[d].bytes_sent += forces_[d][e];
        }
    }
}

}  // namespace sph
