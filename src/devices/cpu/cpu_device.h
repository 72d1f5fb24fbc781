// The CPU back end: the kernel bodies run by OpenMP threads over host arrays.
#pragma once

#include <vector>

#include "devices/cpu/host_array.h"
#include "devices/device.h"
#include "kernel_args.h"

namespace sph {

// Not final: tests derive instrumented devices from it.
class CpuDevice : public Device {
public:
    // `threads`: OpenMP threads of this device's kernels (0: OpenMP's default).
    explicit CpuDevice(int threads = 0) : threads_(threads) {}

    std::string description() const override;
    std::size_t bytes_needed(const DeviceLayout& layout) const override;
    void allocate(const DeviceLayout& layout, const SphParams& params) override;
    std::size_t capacity() const override { return layout_.capacity; }
    MemoryPool memory_pool() const override;
    void upload(const HostParticles& particles) override;
    void download(HostParticles& particles) override;
    const LocalRanges& ranges() const override { return local_; }

    void sort(std::uint32_t begin, std::uint32_t count) override;
    std::vector<std::uint32_t> lower_bounds(std::uint32_t count,
                                            const std::vector<std::uint32_t>& bounds) override;
    ParticleEndpoints current() override;
    ParticleEndpoints incoming() override;
    void commit_incoming(const LocalRanges& ranges) override;
    NeighbourBuild build_lists() override;

    void forces(Stage stage, const ForceSends& sends) override;
    float minimum_dt() override;
    Endpoint force_buffer() override { return Endpoint{Endpoint::kHostMemory, force_.data()}; }
    void euler(Stage stage, float dt) override;
    void record_marker() override {}  // euler() is done when it returns
    double last_forces_seconds() override { return last_forces_seconds_; }
    void inject_fault() override;

    void trace_into(Trace* trace, int process) override;

    KernelTimes kernel_times() override { return times_; }
    std::size_t bytes_allocated() const override;
    Transport& transport() override { return transport_; }

private:
    EulerArgs euler_args(float dt);
    // The predicted state (positions, velocities and densities) of the predictor-corrector.
    Vec4* predicted_pos() { return incoming_.pos.data(); }
    Vec4* predicted_velrho() { return incoming_.velrho.data(); }
    void use_threads() const;

    int threads_;
    DeviceLayout layout_{};
    SphParams params_{};
    LocalRanges local_{};
    // The particles the kernels work on, and where the next ones are assembled at a rebuild (the
    // sort's gather, migration, external slices). Between rebuilds the incoming arrays are free,
    // and their pos and velrho hold the predicted state.
    ParticleRecord<HostArray> particles_, incoming_;
    HostArray<Vec4> force_;
    HostArray<float> dt_max_;
    HostArray<std::uint32_t> cell_, cell_start_, cell_end_;
    // The sort's keys and permutation: the CPU sorts in arrays of its own, the neighbour list's
    // memory being typed.
    HostArray<std::uint64_t> sort_key_;
    HostArray<std::uint32_t> sort_permutation_;
    HostArray<NeighbourEntry> list_;
    KernelTimes times_;
    double last_forces_seconds_ = 0.0;
    HostTransport transport_;
    TraceTrack trace_;  // kernels and sends run on the calling thread: one track
};

}  // namespace sph
