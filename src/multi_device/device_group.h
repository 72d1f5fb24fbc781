// The devices of one simulation and their host threads (docs/design.md: paper section 3.2).
//
// Each device has a worker thread that runs its kernels; the workers meet at barriers to exchange
// particles at rebuilds (migration, external slices) and edge-slice forces after each Forces
// stage, and to take the global dt minimum. The main thread hands each iteration to the workers
// and waits; an error in any worker aborts the barriers, stops the others and is rethrown here.
#pragma once

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cell_grid.h"
#include "common/trace.h"
#include "devices/device.h"
#include "multi_device/barrier.h"
#include "multi_device/slice_map.h"
#include "multi_device/worker_stats.h"

namespace sph {

struct StepRequest {
    long iteration = 0;
    bool rebuild = false;
    double time = 0.0, t_end = 0.0;
    float dt_limit = 0.0f;  // dt bound carried over from the last corrector
};

struct StepResult {
    bool outside_grid = false;  // a particle left the domain (found at the rebuild; nothing moved)
    std::uint64_t removed = 0;  // particles that left the domain and were removed (if allowed)
    bool non_finite = false;    // dt became NaN or not positive (the state is left as it was)
    float dt = 0.0f;            // the step taken
    float next_dt_limit = 0.0f;
    std::uint32_t largest_neighbours = 0;  // at this rebuild, over all devices
};

class DeviceGroup {
public:
    DeviceGroup(std::vector<std::unique_ptr<Device>> devices, SliceMap slices, CellGrid grid);
    ~DeviceGroup();
    DeviceGroup(const DeviceGroup&) = delete;
    DeviceGroup& operator=(const DeviceGroup&) = delete;

    int size() const { return static_cast<int>(devices_.size()); }
    Device& device(int d) { return *devices_[d]; }
    const SliceMap& slices() const { return slices_; }

    // Hands every particle to the device owning its slice (the first rebuild sorts them).
    void upload(const HostParticles& particles);
    // The internal particles of each device.
    std::vector<HostParticles> download();
    // The instruments over every device (Device::measure): the points' sums added in device
    // order, the smallest front key. Call between steps.
    InstrumentSums measure(const std::vector<InstrumentSite>& sites, const FrontSpec* front);
    // One iteration on every device. Throws what a worker threw.
    StepResult step(const StepRequest& request);

    // Particles each device owned at the last rebuild.
    std::vector<std::uint64_t> particle_counts() const;
    // Particles in each device's first and last slice at the last rebuild.
    std::vector<std::uint64_t> first_slice_counts() const;
    std::vector<std::uint64_t> last_slice_counts() const;
    // Each device's Forces seconds (KernelTimes) in the last step, both stages, for the load
    // balancer.
    const std::vector<double>& forces_seconds() const { return forces_seconds_; }
    // Slices move between devices at the next rebuild. Call between steps.
    void set_slices(const SliceMap& slices);
    // Each worker's times, particle counts and traffic so far. Call between steps.
    std::vector<WorkerStats> stats() const;
    // From the next step on, the devices and their workers add their work to `trace` (device d
    // as process d + 1); nullptr stops. Call between steps.
    void trace_into(Trace* trace);

    // Particles found outside the domain at a rebuild are dropped instead of stopping the run.
    void remove_particles_leaving_the_domain(bool remove) { remove_outside_ = remove; }

    // Testing: device `device` fails (Device::inject_fault) in the predictor's Forces stage of
    // iteration `iteration`, while the other workers wait at a barrier.
    void inject_fault(int device, long iteration) { fault_ = {device, iteration}; }

private:
    // --- The thread hand-off (device_group.cpp) ---
    void work(int d);
    void run_step(int d);
    void fail(std::exception_ptr error);

    // --- The rebuild protocol (device_group_rebuild.cpp), one phase between two barriers each ---
    struct Migration {
        std::uint32_t total = 0;  // particles device d holds after migration
        bool moved = false;       // any left it, arrived or changed order
    };
    bool rebuild(int d);
    void sort_and_cut(int d);
    Migration migrate(int d);
    void settle(int d, const Migration& migration);
    LocalRanges pull_external_slices(int d);
    void copy_particles(int dst, std::uint32_t dst_at, int src, std::uint32_t src_at,
                        std::uint32_t count);

    // --- The Forces stage and its sends (device_group_forces.cpp) ---
    // min() that keeps a NaN: a blown-up device must not hide behind the others.
    static float min_keep_nan(float a, float b);
    float stage(int d, Stage stage);
    void plan_sends(int d);
    std::uint32_t left_external(int d) const;
    void euler(int d, Stage stage, float dt);
    void wait_for_neighbour_markers(int d);
    void wait_at_barrier(int d, double& seconds, const char* name);

    std::vector<std::unique_ptr<Device>> devices_;
    SliceMap slices_;
    CellGrid grid_;
    std::vector<std::uint32_t> bounds_;  // device d owns cells [bounds_[d], bounds_[d + 1])

    // Shared by the workers within a step; each writes its own entry before a barrier.
    std::vector<std::vector<std::uint32_t>>
        cuts_;  // cuts_[e][d]: where device e's part for d starts
    std::vector<std::uint32_t> internal_, first_slice_end_, last_slice_start_, largest_;
    // Where device d's edge bands (its `halo` first and last slices) end and start: what its
    // neighbours hold as external slices, and whose forces it sends them.
    std::vector<std::uint32_t> left_band_end_, right_band_start_;
    std::vector<std::uint32_t> outside_;  // particles outside the grid, per device
    bool remove_outside_ = false;
    std::vector<float> local_min_[2];  // per stage: a fast worker's next stage must not overwrite
    std::vector<ForceSends> sends_;
    std::vector<double> forces_seconds_;
    std::vector<WorkerStats> stats_;  // entry d is written by worker d only
    Traffic traffic_;
    std::vector<TraceTrack> host_track_;  // each worker's thread in the trace (or none)

    // Markers recorded per device (one per euler): a device sends forces into a neighbour only
    // after the neighbour has recorded as many as it has.
    std::mutex marker_mutex_;
    std::condition_variable marker_changed_;
    std::vector<long> markers_;

    struct {
        int device = -1;
        long iteration = -1;
    } fault_;
    StepRequest request_;
    StepResult result_;

    // Command hand-off between the main thread and the workers.
    Barrier barrier_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    long command_ = 0;  // incremented per step; workers run when it moves
    int finished_ = 0;
    bool stopping_ = false;
    std::exception_ptr error_;
    std::vector<std::thread> threads_;
};

}  // namespace sph
