// What each device's worker did, for the run report: its host-side times, particles and slices
// sampled at rebuilds, and the bytes it exchanged with the other devices.
#pragma once

#include <cstdint>
#include <vector>

namespace sph {

// What one device's worker did since the group was made, timed on its host thread.
struct WorkerStats {
    double migration_seconds = 0.0;     // copying particles in at rebuilds (migration, externals)
    double rebuild_wait_seconds = 0.0;  // at the rebuild's barriers, for the other devices
    // For the other devices' dt minima after each Forces stage: at a barrier across ranks, or
    // until they have queued theirs in one process.
    double dt_wait_seconds = 0.0;
    double marker_wait_seconds = 0.0;  // for the neighbours' Euler before sending them forces
    // Edge forces with neighbours on other MPI ranks, after the Forces stage: sending the staged
    // forces, waiting for the neighbours', copying them into the external slots.
    double rank_forces_seconds = 0.0;
    double forces_seconds = 0.0;  // Forces seconds (KernelTimes), both stages
    long iterations = 0;
    // Its particles and slices, sampled at each rebuild.
    long rebuilds = 0;
    std::uint64_t particles_min = 0, particles_max = 0;
    double particles_sum = 0.0;
    int slices_min = 0, slices_max = 0;
    // Particle and edge-force bytes to and from the other devices.
    std::uint64_t bytes_sent = 0, bytes_received = 0;
    std::uint64_t particles_migrated_in = 0;  // taken over from other devices at rebuilds
    long force_sends = 0;                     // edge-slice force copies to neighbours

    // Samples the device's particles and slices at a rebuild.
    void sample(std::uint64_t particles, int slices);
};

// Bytes copied between the devices of a group, for each worker's bytes sent and received.
class Traffic {
public:
    explicit Traffic(int devices)
        : particles_(devices, std::vector<std::uint64_t>(devices, 0)),
          forces_(devices, std::vector<std::uint64_t>(devices, 0)) {}
    // Particles pulled into device `to` from `from` (counted by `to`'s worker).
    void particles(int to, int from, std::uint64_t bytes) { particles_[to][from] += bytes; }
    // Edge forces sent by device `from` to `to` (counted by `from`'s worker).
    void forces(int from, int to, std::uint64_t bytes) { forces_[from][to] += bytes; }
    // Adds each device's bytes to and from the others (not its own) to `stats`.
    void add_to(std::vector<WorkerStats>& stats) const;

private:
    // particles_[d][e]: into d from e; forces_[d][e]: from d to e. Row d is written by worker d.
    std::vector<std::vector<std::uint64_t>> particles_, forces_;
};

}  // namespace sph
