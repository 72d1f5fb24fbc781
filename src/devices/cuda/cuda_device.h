// The CUDA back end: one GPU, one stream, the kernel bodies launched by kernels/cuda.
#pragma once

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <optional>

#include "cuda/instrument_launchers.h"
#include "devices/cuda/device_memory.h"
#include "devices/cuda/kernel_event_timer.h"
#include "devices/cuda/peer_transport.h"
#include "devices/device.h"
#include "devices/particle_buffers.h"
#include "kernel_args.h"

namespace sph {

template <class T>
using DeviceArray = DeviceMemory;

// The events of one Forces stage, for ordering the three streams and timing the exchange. Each
// stage has its own, so that the host can queue the corrector before the predictor is done.
struct ForcesEvents {
    cudaEvent_t begin = nullptr, walls_done = nullptr, central_done = nullptr, end = nullptr;
    bool walls = false;  // the stage began with the mDBC walls' densities
    cudaEvent_t edge_done[2] = {}, send_begin[2] = {}, send_end[2] = {};
    bool sent[2] = {false, false};
    bool striped[2] = {false, false};  // the side had an edge stripe
};

class CudaDevice final : public Device {
public:
    CudaDevice(int gpu_id, std::uint32_t edge_stripe);
    ~CudaDevice() override;

    std::string description() const override;
    bool computes_apart_from_host() const override { return true; }
    std::size_t bytes_needed(const DeviceLayout& layout) const override;
    void allocate(const DeviceLayout& layout, const SphParams& params) override;
    std::size_t capacity() const override { return layout_.capacity; }
    const DeviceLayout& layout() const override { return layout_; }
    MemoryPool memory_pool() const override;
    void upload(const HostParticles& particles) override;
    void download(HostParticles& particles) override;
    const LocalRanges& ranges() const override { return buffers_.ranges; }

    void sort(std::uint32_t begin, std::uint32_t count, std::uint32_t keep) override;
    void copy_own_into_incoming(std::uint32_t count, std::uint32_t at) override;
    std::vector<std::uint32_t> lower_bounds(std::uint32_t count,
                                            const std::vector<std::uint32_t>& bounds) override;
    ParticleEndpoints current() override { return endpoints_of(buffers_.current); }
    ParticleEndpoints incoming() override { return endpoints_of(buffers_.incoming); }
    void commit_incoming(const LocalRanges& next) override {
        buffers_.commit_incoming(next);
        walls_selected_ = false;
    }
    NeighbourBuild build_lists() override;

    void forces(Stage stage, const ForceSends& sends, const StepClock& clock) override;
    Endpoint force_buffer() override { return Endpoint{gpu_, force_.as<void>()}; }
    void prepare_minima(std::uint32_t devices) override;
    Endpoint minima(Stage stage) override { return Endpoint{gpu_, minima_of(stage)}; }
    void queue_minimum(Stage stage, std::uint32_t slot,
                       const std::vector<Endpoint>& also_to) override;
    void wait_for_minima(Stage stage, const std::vector<Device*>& from) override;
    void set_minima(Stage stage, const std::vector<float>& minima) override;
    std::vector<float> read_minima(Stage stage) override;
    void euler(Stage stage, const StepClock& clock) override;
    void record_marker() override;
    void wait_for_marker() override;
    double forces_seconds(Stage stage) override { return forces_seconds_[index_of(stage)]; }
    void inject_fault() override;
    void hold_measurements_for_testing(std::uint32_t microseconds) override {
        measurement_hold_us_ = microseconds;
    }
    void set_instrument_sites(const std::vector<InstrumentSite>& sites) override;
    void set_bodies(const BodyTable& bodies) override;
    std::vector<unsigned long long> body_loads(const std::vector<FixedPos>& moment_points,
                                               bool predicted) override;
    void set_body_poses(const std::vector<BodyPose>& poses) override;
    void set_damping(const std::vector<DampingZone>& zones) override;
    void start_measuring(const FrontSpec* front) override;
    InstrumentSums finish_measuring() override;
    void wait_for_measurement() override;

    void trace_into(Trace* trace, int process) override;

    KernelTimes kernel_times() override;
    std::size_t bytes_allocated() const override;
    Transport& transport() override { return transport_; }

private:
    // Scalars the host reads back: what a list build found.
    struct Scalars {
        ListBuildCounts list_counts;
        std::uint32_t fitted_walls;  // select_walls
    };
    std::size_t temp_bytes(std::uint32_t capacity) const;
    EulerArgs euler_args() const;
    float* minima_of(Stage stage) const { return minima_.as<float>() + index_of(stage) * devices_; }
    float* minima_readback_of(Stage stage) const {
        return minima_readback_.as<float>() + index_of(stage) * devices_;
    }
    InstrumentArgs instrument_args() const {
        const LocalRanges& r = buffers_.ranges;
        return InstrumentArgs{
            buffers_.current.pos.as<FixedPos>(),
            buffers_.current.velrho.as<Vec4>(),
            buffers_.current.type.as<std::uint8_t>(),
            cell_start_.as<std::uint32_t>(),
            cell_end_.as<std::uint32_t>(),
            r.left,
            r.left + r.internal,
            layout_.grid,
            params_,
            layout_.ghost_offsets ? buffers_.current.to_ghost.as<Vec3>() : nullptr};
    }
    // The walls' densities are set once a step, from the state the predictor starts from (as
    // DualSPHysics does by default); every local particle's, externals' included.
    MdbcArgs mdbc_args() const {
        const LocalRanges& r = buffers_.ranges;
        return MdbcArgs{buffers_.current.pos.as<FixedPos>(),
                        buffers_.current.velrho.as<Vec4>(),
                        buffers_.current.type.as<std::uint8_t>(),
                        buffers_.current.to_ghost.as<Vec3>(),
                        cell_.as<std::uint32_t>(),
                        cell_start_.as<std::uint32_t>(),
                        cell_end_.as<std::uint32_t>(),
                        list_or_null(),
                        list_rows_.as<std::uint32_t>(),
                        layout_.max_neighbours,
                        r.near_begin(),
                        r.near_end(),
                        layout_.grid,
                        params_};
    }
    // The kernels' list, or null when Forces walks the cells (--neighbours cells).
    NeighbourGroup* list_or_null() const {
        return layout_.uses_list() ? list_.as<NeighbourGroup>() : nullptr;
    }
    // The predicted state (positions, velocities and densities) of the predictor-corrector.
    FixedPos* predicted_pos() const { return buffers_.incoming.pos.as<FixedPos>(); }
    Vec4* predicted_velrho() const { return buffers_.incoming.velrho.as<Vec4>(); }
    // Scratch for sorting, in the working arrays force, dt_max and cell (see DeviceLayout).
    struct SortScratch {
        std::uint64_t* keys[2];
        std::uint32_t* permutation[2];
    };
    SortScratch sort_scratch() const;
    ParticleEndpoints endpoints_of(ParticleRecord<DeviceArray>& record) const {
        return buffers_.endpoints_of(record, [this](const DeviceMemory& array) {
            return Endpoint{gpu_, array.as<void>()};
        });
    }

    // The Forces stage's pieces (cuda_forces.cu).
    ForcesArgs forces_args(Stage stage, const StepClock& clock) const;
    void queue_wall_densities();
    void send(const ForceSend& send, int side, bool after_both_edges, ForcesEvents& events);
    void report_landed_sends(const ForceSends& sends, const ForcesEvents& events);
    SiteSums* site_sums_on_device() const;
    void time_stage(Stage stage);  // once the stage's events have completed
    // time_stage, once, for a stage forces() queued (its events must have completed).
    void time_untimed_stage(Stage stage);
    // Waits for the stages whose events are not read yet and reads them.
    void finish_stage_timing();
    bool stores_into(int gpu);  // whether this GPU's kernels can write `gpu`'s memory

    int gpu_;
    cudaStream_t stream_ = nullptr;     // the central stripe and everything else
    cudaStream_t edge_stream_[2] = {};  // the left and right edge stripes and their sends
    std::uint32_t stripe_fill_ = 0;     // particles an edge stripe takes to fill the GPU
    ForcesEvents events_[kStages];
    bool stage_untimed_[kStages] = {};  // forces() queued the stage; time_stage has not read it
    double forces_seconds_[kStages] = {0.0, 0.0};
    cudaEvent_t marker_ = nullptr;
    // The stages' dt minima, one per device of the run (prepare_minima): the predictor's, then the
    // corrector's. minimum_sent_ follows this device's minimum and its copies to the others;
    // minima_here_ the others' arriving; minima_read_ the minima's copy to the host, which runs on
    // a stream of its own beside Euler.
    std::uint32_t devices_ = 0;
    DeviceMemory minima_;
    PinnedMemory minima_readback_;
    cudaStream_t readback_stream_ = nullptr;
    std::map<int, bool> peer_stores_;  // stores_into's answers
    cudaEvent_t minimum_sent_[kStages] = {}, minima_here_[kStages] = {}, minima_read_[kStages] = {};
    DeviceLayout layout_{};
    SphParams params_{};
    ParticleBuffers<DeviceArray> buffers_;
    DeviceMemory force_, dt_max_, cell_;
    DeviceMemory cell_start_, cell_end_, list_, list_rows_, temp_, scalars_;
    DeviceMemory cell_split_;  // kCellSplitBytes a cell (cell_grid.h)
    // Under mDBC, the walls whose densities are fitted (those with ghost nodes among the own
    // particles and the near externals), listed at each rebuild by select_walls into the incoming
    // ids, which are free until the next rebuild: mDBC's kernel then takes a thread a wall.
    void select_walls();
    // The rebuild's pieces (cuda_rebuild.cu).
    void find_cells(std::uint32_t total);
    NeighbourArgs neighbour_args() const;
    void grow_list(std::uint64_t rows);
    std::uint32_t* fitted_walls() const { return buffers_.incoming.id.as<std::uint32_t>(); }
    std::uint32_t fitted_wall_count_ = 0;
    bool walls_selected_ = false;  // fitted_walls() holds the current particles' walls
    // instrument_sums_: the front's minima (cuda::FrontState), then each site's sums per plane.
    DeviceMemory instrument_sites_, instrument_sums_;
    DeviceMemory body_laws_, body_samples_;  // set_bodies: the moving bodies' laws
    DeviceMemory body_poses_;                // set_body_poses: the floating bodies'
    std::uint64_t floating_bits_ = 0;        // set_bodies: bit b where body b floats
    DeviceMemory damping_zones_;             // set_damping
    std::int32_t damping_count_ = 0;
    DeviceMemory body_points_, body_sums_;  // body_loads: moment points in, sums out
    std::uint32_t body_count_ = 0;
    int front_slot_ = 1;  // the FrontState slot of the last measurement of the front
    // How many sites instrument_sites_ holds, and from which on they are walls' tiles (the
    // sites' tail: instruments/device_readings.h).
    std::uint32_t site_count_ = 0, walls_from_ = 0;
    // What a measurement reads back: the front's minima, then the sites' sums (pinned, so that
    // the copies need no staging and run with the stream). measured_ follows the copies.
    PinnedMemory readback_;
    cudaEvent_t measured_ = nullptr;
    // A measurement runs on a stream of its own, from the state as the main stream left it
    // (state_ready_), beside the next iteration's Forces, which only read that state. The main
    // stream waits for it (settle_instruments) before anything that writes what it reads: mDBC's
    // wall densities, the corrector's Euler, an upload; a rebuild's sort runs beside it, and the
    // host waits for it after that sort (wait_for_measurement).
    cudaStream_t instrument_stream_ = nullptr;
    cudaEvent_t state_ready_ = nullptr;
    cudaEvent_t walls_read_ = nullptr;  // the measurement's wall tiles are summed (its first part)
    bool instruments_pending_ = false;
    const FixedPos* measured_pos_ = nullptr;  // the positions the pending measurement reads
    std::uint32_t measurement_hold_us_ = 0;   // hold_measurements_for_testing
    void settle_instruments();
    // The main stream waits for the measurement's wall tiles alone: before mDBC rewrites the wall
    // densities they read.
    void settle_wall_readings();
    // The rest of a measurement, which reads the fluid alone (the points, the front) and copies
    // its sums back: start_measuring launches only the walls' tiles, which the next step's first
    // kernel (mDBC's) waits for, and leaves these to flush_measurement, which the next step's
    // Forces calls once its kernels are queued, so that their launches no longer hold that step
    // back (and finish_measuring or settle_instruments, where no step came first). A mutex: a
    // writer thread may finish a measurement while a worker steps.
    struct DeferredMeasurement {
        bool pending = false;
        bool timed = false;
        InstrumentArgs args{};
        std::optional<FrontSpec> front;
    } deferred_;
    std::mutex deferred_mutex_;
    void flush_measurement();
    struct Measuring {
        bool started = false, front = false;
    } measuring_;
    KernelEventTimer timer_;
    // The measurements' kernels, timed apart (and only for a trace: start_measuring): timer_ is
    // read at every dt minimum, and waiting there for a measurement on its own stream would hold
    // the host back for it.
    KernelEventTimer instrument_timer_;
    int instrument_track_ = 0;
    GpuTraceClock trace_clock_;  // its trace is null outside a trace window
    int main_track_ = 0, edge_track_[2] = {0, 0};
    KernelTimes times_;
    PeerTransport transport_;
};

}  // namespace sph
