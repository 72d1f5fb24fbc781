// The CPU back end: the kernel bodies run by OpenMP threads over host arrays.
#pragma once

#include <optional>
#include <vector>

#include "devices/cpu/host_array.h"
#include "devices/device.h"
#include "devices/particle_buffers.h"
#include "kernel_args.h"

namespace sph {

// Not final: tests derive instrumented devices from it.
class CpuDevice : public Device {
public:
    // `threads`: OpenMP threads of this device's kernels (0: OpenMP's default).
    explicit CpuDevice(int threads = 0) : threads_(threads) {}

    std::string description() const override;
    bool computes_apart_from_host() const override { return false; }
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
    void commit_incoming(const LocalRanges& next) override { buffers_.commit_incoming(next); }
    NeighbourBuild build_lists() override;

    void forces(Stage stage, const ForceSends& sends, const StepClock& clock) override;
    Endpoint force_buffer() override { return Endpoint{Endpoint::kHostMemory, force_.data()}; }
    void prepare_minima(std::uint32_t devices) override;
    Endpoint minima(Stage stage) override {
        return Endpoint{Endpoint::kHostMemory, minima_[index_of(stage)].data()};
    }
    void queue_minimum(Stage stage, std::uint32_t slot,
                       const std::vector<Endpoint>& also_to) override;
    // The others' minima are written when their queue_minimum returns.
    void wait_for_minima(Stage, const std::vector<Device*>&) override {}
    void set_minima(Stage stage, const std::vector<float>& minima) override;
    std::vector<float> read_minima(Stage stage) override { return minima_[index_of(stage)]; }
    void euler(Stage stage, const StepClock& clock) override;
    void record_marker() override {}  // euler() is done when it returns
    void wait_for_marker() override {}
    double forces_seconds(Stage stage) override { return forces_seconds_[index_of(stage)]; }
    void inject_fault() override;
    // Measures at once; finish_measuring hands the result over.
    void set_instrument_sites(const std::vector<InstrumentSite>& sites) override;
    void set_bodies(const BodyTable& bodies) override { bodies_ = bodies; }
    std::vector<unsigned long long> body_loads(const std::vector<FixedPos>& moment_points,
                                               bool predicted) override;
    void set_body_poses(const std::vector<BodyPose>& poses) override { body_poses_ = poses; }
    void set_damping(const std::vector<DampingZone>& zones) override { damping_ = zones; }
    void start_measuring(const FrontSpec* front) override;
    InstrumentSums finish_measuring() override;

    void trace_into(Trace* trace, int process) override;

    KernelTimes kernel_times() override { return times_; }
    std::size_t bytes_allocated() const override;
    Transport& transport() override { return transport_; }

private:
    ForcesArgs forces_args(Stage stage, const StepClock& clock);
    EulerArgs euler_args();
    InstrumentSums measured(const FrontSpec* front);
    // The walls' densities are set once a step, from the state the predictor starts from (as
    // DualSPHysics does by default); every local particle's, externals' included.
    MdbcArgs mdbc_args() {
        const LocalRanges& r = buffers_.ranges;
        return MdbcArgs{buffers_.current.pos.data(),
                        buffers_.current.velrho.data(),
                        buffers_.current.type.data(),
                        buffers_.current.to_ghost.data(),
                        cell_.data(),
                        cell_start_.data(),
                        cell_end_.data(),
                        list_or_null(),
                        list_rows_.data(),
                        layout_.max_neighbours,
                        r.near_begin(),
                        r.near_end(),
                        layout_.grid,
                        params_};
    }
    InstrumentArgs instrument_args() const {
        const LocalRanges& r = buffers_.ranges;
        return InstrumentArgs{buffers_.current.pos.data(),
                              buffers_.current.velrho.data(),
                              buffers_.current.type.data(),
                              cell_start_.data(),
                              cell_end_.data(),
                              r.left,
                              r.left + r.internal,
                              layout_.grid,
                              params_,
                              layout_.ghost_offsets ? buffers_.current.to_ghost.data() : nullptr};
    }
    static ParticleEndpoints endpoints_of(ParticleRecord<HostArray>& record) {
        return ParticleBuffers<HostArray>::endpoints_of(record, [](auto& array) {
            return Endpoint{Endpoint::kHostMemory, array.data()};
        });
    }
    // The kernels' list, or null when Forces walks the cells (--neighbours cells).
    NeighbourGroup* list_or_null() { return layout_.uses_list() ? list_.data() : nullptr; }
    // The predicted state (positions, velocities and densities) of the predictor-corrector.
    FixedPos* predicted_pos() { return buffers_.incoming.pos.data(); }
    Vec4* predicted_velrho() { return buffers_.incoming.velrho.data(); }
    void use_threads() const;

    int threads_;
    DeviceLayout layout_{};
    SphParams params_{};
    ParticleBuffers<HostArray> buffers_;
    HostArray<Vec4> force_;
    HostArray<float> dt_max_;
    HostArray<std::uint32_t> cell_, cell_start_, cell_end_;
    HostArray<std::uint8_t> cell_split_;  // kCellSplitBytes a cell (cell_grid.h)
    // The sort's keys and permutation: the CPU sorts in arrays of its own, the neighbour list's
    // memory being typed.
    HostArray<std::uint64_t> sort_key_;
    HostArray<std::uint32_t> sort_permutation_;
    HostArray<NeighbourGroup> list_;
    HostArray<std::uint32_t> list_rows_;  // each list warp's first row (neighbour_list.h)
    HostArray<InstrumentSite> instrument_sites_;
    BodyTable bodies_;                         // the moving bodies' laws (set_bodies)
    std::vector<BodyPose> body_poses_;         // the floating bodies' (set_body_poses)
    std::vector<DampingZone> damping_;         // set_damping
    std::uint32_t instrument_site_count_ = 0;  // of instrument_sites_, set
    HostArray<SiteSums> instrument_sums_;
    std::optional<InstrumentSums> measurement_;  // started, not yet finished
    KernelTimes times_;
    double forces_seconds_[kStages] = {0.0, 0.0};
    std::vector<float> minima_[kStages];  // prepare_minima
    HostTransport transport_;
    TraceTrack trace_;  // kernels and sends run on the calling thread: one track
};

}  // namespace sph
