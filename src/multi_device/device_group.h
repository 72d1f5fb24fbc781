// The devices of one simulation and their host threads (docs/design.md: paper section 3.2).
//
// Each device has a worker thread that runs its kernels; the workers meet at barriers to exchange
// particles at rebuilds (migration, external slices) and edge-slice forces after each Forces
// stage, and to take the global dt minimum. The main thread hands each iteration to the workers
// and waits; an error in any worker aborts the barriers, stops the others and is rethrown here.
//
// The devices may be spread over MPI ranks (RankSpan): each rank holds a contiguous range of the
// group's devices and drives them as above; device numbers are the group's, on every rank. What
// the workers share at a barrier is then gathered from every rank as the barrier opens, the
// particles and edge forces of a device on another rank travel as MPI messages staged in host
// memory (device_group_ranks.cpp), and an error in a worker ends the job (MPI_Abort) with its
// message, since the other ranks cannot be reached to stop them.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cell_grid.h"
#include "common/trace.h"
#include "devices/device.h"
#include "multi_device/barrier.h"
#include "multi_device/rank_span.h"
#include "multi_device/slice_map.h"
#include "multi_device/worker_stats.h"

namespace sph {

struct StepRequest {
    long iteration = 0;
    bool rebuild = false;
    double time = 0.0, t_end = 0.0;
    float dt_limit = 0.0f;      // dt bound carried over from the last corrector
    bool rebuild_only = false;  // sort, migrate and list, and take no step (the state as it was)
};

struct StepResult {
    bool outside_grid = false;  // a particle left the domain (found at the rebuild; nothing moved)
    std::uint64_t removed = 0;  // particles that left the domain and were removed (if allowed)
    bool non_finite = false;    // dt became NaN or not positive (the state is left as it was)
    float dt = 0.0f;            // the step taken
    float next_dt_limit = 0.0f;
    std::uint32_t largest_neighbours = 0;  // at this rebuild, over all devices
    bool list_grown = false;  // a device of this rank grew its neighbour list at this rebuild
};

class DeviceGroup {
public:
    // `devices`: this rank's devices, span.first_local() onwards (every device of a group in one
    // process: RankSpan(devices.size())).
    DeviceGroup(std::vector<std::unique_ptr<Device>> devices, SliceMap slices, CellGrid grid,
                RankSpan span);
    DeviceGroup(std::vector<std::unique_ptr<Device>> devices, SliceMap slices, CellGrid grid)
        : DeviceGroup(std::move(devices), std::move(slices), grid, RankSpan(0)) {}
    ~DeviceGroup();
    DeviceGroup(const DeviceGroup&) = delete;
    DeviceGroup& operator=(const DeviceGroup&) = delete;

    // Devices of the group, on every rank.
    int size() const { return static_cast<int>(devices_.size()); }
    const RankSpan& span() const { return span_; }
    // Whether device d is in this process; device(d) only for those.
    bool local(int d) const { return span_.local(d); }
    Device& device(int d) { return *devices_[d]; }
    // Particles each device may hold (every device has the same layout).
    std::size_t capacity() const { return capacity_; }
    const SliceMap& slices() const { return slices_; }

    // Hands every particle to the device owning its slice (the first rebuild sorts them); across
    // ranks, each rank's devices take theirs.
    void upload(const HostParticles& particles);
    // The internal particles of each device. Across ranks a collective: rank 0 receives every
    // device's, the other ranks their own (the others' parts are empty).
    std::vector<HostParticles> download();
    // The internal particles of this rank's devices (the others' parts empty).
    std::vector<HostParticles> download_here();
    // The instruments over every device (Device::measure) at the sites set (once, on every
    // device here): the points' sums added in device order, the smallest front key; across
    // ranks a collective, the same on every rank. Started between steps; finished then or after
    // later steps (the reading is of the particles as they were when it started), a collective
    // across ranks.
    void set_instrument_sites(const std::vector<InstrumentSite>& sites);
    // The moving bodies' laws, on every local device.
    void set_bodies(const BodyTable& bodies);
    // The loads on the bodies summed over the local devices (Device::body_loads).
    std::vector<unsigned long long> body_loads(const std::vector<FixedPos>& moment_points);
    // Floating bodies (none unless set): before each Euler, every device's loads on the bodies
    // of the stage (about hook.moment_points(stage)) are summed and handed to hook.advance with
    // the step's dt (0 where it is unusable), as a barrier opens; the poses it returns go to every
    // device for that Euler (device_group_floating.cpp). The host waits for each stage.
    struct FloatingHook {
        std::function<std::vector<FixedPos>(Stage)> moment_points;
        std::function<std::vector<BodyPose>(Stage, const std::vector<unsigned long long>&, double)>
            advance;
    };
    void set_floating(FloatingHook hook);
    // Where every device's corrector damps the water (damping_zone.h).
    void set_damping(const std::vector<DampingZone>& zones);
    void start_measuring(const FrontSpec* front);
    InstrumentSums finish_measuring();
    InstrumentSums measure(const FrontSpec* front) {
        start_measuring(front);
        return finish_measuring();
    }
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
    // Each worker's times, particle counts and traffic so far (this rank's devices; the others'
    // entries empty). Call between steps.
    std::vector<WorkerStats> stats() const;
    // From the next step on, the devices and their workers add their work to `trace` (device d
    // as process d + 1); nullptr stops. Call between steps.
    void trace_into(Trace* trace);

    // Messages to devices on other ranks read and write the devices' memory directly (for GPUs,
    // a CUDA-aware MPI) instead of going through host staging. Call before the first step.
    void exchange_device_memory(bool direct) { direct_ = direct; }

    // Particles found outside the domain at a rebuild are dropped instead of stopping the run.
    void remove_particles_leaving_the_domain(bool remove) { remove_outside_ = remove; }

    // Testing: device `device` fails (Device::inject_fault) in the predictor's Forces stage of
    // iteration `iteration`, while the other workers wait for its dt minimum.
    void inject_fault(int device, long iteration) { fault_ = {device, iteration}; }
    // Testing: migrations go through the incoming arrays even where the current ones have room
    // for the arrivals (the way a device nearly full takes).
    void migrate_through_incoming() { through_incoming_ = true; }

private:
    // --- The thread hand-off (device_group.cpp) ---
    void work(int d);
    void run_step(int d);
    void fail(std::exception_ptr error);

    // --- The rebuild protocol (device_group_rebuild.cpp), one phase between two barriers each ---
    // Where particles arriving at a device land: in its incoming arrays (assembled there, then
    // made current), or in its current arrays past its internal particles, where no other device
    // reads (a migration sorted in place).
    enum class Landing { kIncoming, kCurrent };
    struct Migration {
        std::uint32_t total = 0;  // particles device d holds after migration
        bool moved = false;       // any left it, arrived or changed order
        // In place: the total are among [sort_begin, sort_begin + sort_count) of the current
        // arrays (d's own where they were, the arrivals past them, between them the particles
        // d sent on, whose cells sort after d's); else the first total of the incoming arrays.
        bool in_place = false;
        std::uint32_t sort_begin = 0, sort_count = 0;
    };
    bool rebuild(int d);
    // The rebuild's figures over every device of this rank, into the step's result.
    void report_rebuild();
    void sort_and_cut(int d);
    Migration migrate(int d);
    void settle(int d, const Migration& migration);
    LocalRanges pull_external_slices(int d);
    // Starts copying particles [src_at, src_at + count) of device src's current arrays into
    // device dst's arrays at dst_at (`into`); done once dst's transport has finished its copies.
    void copy_particles(int dst, std::uint32_t dst_at, int src, std::uint32_t src_at,
                        std::uint32_t count, Landing into);

    // --- Devices on other ranks (device_group_ranks.cpp) ---
    // What the workers share (cuts_, internal_, the bands, minima, Forces seconds): this rank's
    // devices' entries to every rank, the others' from theirs. Run as a barrier opens.
    void share_across_ranks();
    // Particles [at, at + count) of device d's current arrays to `to`'s rank, and into device
    // d's arrays (`into`) at `at` from `from`'s (unpack_particles once waited for). Posted on
    // `messages`; staged messages go through `staging`, direct ones (one per field) need none.
    void send_particles(MessageBatch& messages, RankSpan::Message kind, int d, std::uint32_t at,
                        std::uint32_t count, int to, HostStaging& staging);
    void receive_particles(MessageBatch& messages, RankSpan::Message kind, int d, int from,
                           std::uint32_t at, std::uint32_t count, Landing into,
                           HostStaging& staging);
    void unpack_particles(int d, std::uint32_t at, std::uint32_t count, Landing into,
                          const HostStaging& staging);
    // Device d's arrays that particles arriving `into` them land in.
    ParticleEndpoints landing_arrays(int d, Landing into) {
        return into == Landing::kCurrent ? devices_[d]->current() : devices_[d]->incoming();
    }
    // Edge forces with neighbours on other ranks: their receipt posted before the stage, each
    // staged band sent as soon as it has landed (side 0 left, 1 right), then, once the stage is
    // done, what arrived put into the external slots.
    void receive_remote_forces(int d);
    void send_remote_forces(int d, int side);
    void finish_remote_forces(int d);
    // Each device's instrument sums of the measurement started, in device order (gathered
    // from every rank).
    std::vector<InstrumentSums> finish_each();
    std::size_t measured_sites_ = 0;  // set_instrument_sites
    // A worker's error when the devices span ranks: printed, then every rank ends.
    [[noreturn]] void end_job(int d, const std::string& message);

    // --- The Forces stage, its sends and the dt minima (device_group_forces.cpp) ---
    // The stage's forces with their sends, then its dt minimum into every device's memory
    // (Device: "The step's dt, where the devices are"): in one process device to device, each
    // device waiting for the others' on its own; across ranks through the host.
    void stage(int d, Stage stage, const StepClock& clock);
    void share_minimum_here(int d, Stage stage);
    void share_minimum_across_ranks(int d, Stage stage);
    void plan_sends(int d);
    std::uint32_t left_external(int d) const;
    void euler(int d, Stage stage, const StepClock& clock);
    // --- Floating bodies (device_group_floating.cpp) ---
    // Device d's loads for the stage, then the poses from every device's, before its Euler.
    void move_floating_bodies(int d, Stage stage, const StepClock& clock);
    // As the barrier opens: across ranks what the workers share, then the floating bodies.
    void open_barrier();
    void advance_floating_bodies();
    FloatingHook floating_;
    std::vector<std::vector<unsigned long long>> floating_sums_;  // per device: the stage's loads
    std::vector<double> floating_dt_;  // per device: the step's dt, as it read it
    std::vector<int> floating_due_;    // per device: 1 + the stage's index when due, else 0
    std::vector<BodyPose> floating_poses_;
    void wait_for_neighbour_markers(int d);
    void wait_at_barrier(int d, double& seconds, const char* name);
    // Blocks until `ready` (called under marker_mutex_) holds, or throws BarrierAborted.
    void wait_for_workers(int d, double& seconds, const char* name,
                          const std::function<bool()>& ready);

    RankSpan span_;
    bool direct_ = false;                           // exchange_device_memory
    std::vector<std::unique_ptr<Device>> devices_;  // null where on another rank
    std::size_t capacity_ = 0;
    SliceMap slices_;
    CellGrid grid_;
    std::vector<std::uint32_t> bounds_;  // device d owns cells [bounds_[d], bounds_[d + 1])

    // Shared by the workers within a step; each writes its own entry before a barrier.
    std::vector<std::vector<std::uint32_t>>
        cuts_;  // cuts_[e][d]: where device e's part for d starts
    std::vector<std::uint32_t> internal_, first_slice_end_, last_slice_start_, largest_;
    std::vector<char> list_grown_;  // device d grew its list at this rebuild
    // Where device d's edge bands (its `halo` first and last slices) end and start: what its
    // neighbours hold as external slices, and whose forces it sends them.
    std::vector<std::uint32_t> left_band_end_, right_band_start_;
    std::vector<std::uint32_t> outside_;  // particles outside the grid, per device
    bool remove_outside_ = false;
    // Per stage, across ranks: every device's minimum, gathered at the stage's barrier.
    std::vector<float> local_min_[kStages];
    // In one process: where device d copies its minimum (the other devices' slots d), and whose
    // it waits for.
    std::vector<std::vector<Endpoint>> minimum_copies_[kStages];
    std::vector<std::vector<Device*>> minimum_sources_;
    std::vector<ForceSends> sends_;
    std::vector<double> forces_seconds_;
    std::vector<WorkerStats> stats_;  // entry d is written by worker d only
    Traffic traffic_;
    std::vector<TraceTrack> host_track_;  // each worker's thread in the trace (or none)

    // Markers recorded per device (one per euler): a device sends forces into a neighbour only
    // after the neighbour has recorded as many as it has. Minima queued per device (one per
    // stage): a device waits for another's minimum on the GPU only once it has been queued.
    std::mutex marker_mutex_;
    std::condition_variable marker_changed_;
    std::vector<long> markers_, minima_queued_;

    struct {
        int device = -1;
        long iteration = -1;
    } fault_;
    bool through_incoming_ = false;
    StepRequest request_;
    StepResult result_;
    // What the workers do when command_ moves: a step (request_, into result_) or the start of a
    // measurement (measured_front_).
    enum class Command { kStep, kMeasure };
    Command command_kind_ = Command::kStep;
    const FrontSpec* measured_front_ = nullptr;  // of the measurement Command::kMeasure starts
    // Hands `command` to every local device's worker and waits for all of them; throws what a
    // worker threw.
    void run_on_workers(Command command);

    // Command hand-off between the main thread and the workers. Where every device here is a GPU,
    // which leaves the host idle while it computes, each side polls for up to handoff_spin_
    // (while no more than half the cores' worth of the process's threads poll) before it sleeps: a
    // thread woken from sleep takes tens to hundreds of microseconds to run, which a GPU would
    // spend waiting for its next launch.
    std::chrono::microseconds handoff_spin_{0};
    Barrier barrier_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::atomic<long> command_{0};  // incremented per command; workers run when it moves
    std::atomic<int> finished_{0};
    std::atomic<bool> stopping_{false};
    std::exception_ptr error_;
    std::vector<std::thread> threads_;

    // Per local device: its messages to and from other ranks, with their host staging (from the
    // device's transport: page-locked for a GPU).
    struct RemoteLink {
        std::unique_ptr<MessageBatch> messages;
        std::vector<HostStaging> migration_out, migration_in;  // one per device of the group
        // [0]: to or from the left neighbour, [1]: the right.
        HostStaging bands_out[2], bands_in[2], forces_out[2], forces_in[2];
        std::uint32_t forces_in_count[2] = {0, 0};
    };
    std::vector<RemoteLink> remote_;
};

}  // namespace sph
