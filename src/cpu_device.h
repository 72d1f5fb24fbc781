// The CPU back end: the kernel bodies run by OpenMP threads over host arrays.
#pragma once

#include <vector>

#include "device.h"
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
    const LocalLayout& layout() const override { return local_; }

    void sort(std::uint32_t begin, std::uint32_t count) override;
    std::vector<std::uint32_t> lower_bounds(std::uint32_t count,
                                            const std::vector<std::uint32_t>& bounds) override;
    ParticleBuffers current() override;
    ParticleBuffers incoming() override;
    void commit_incoming(const LocalLayout& layout) override;
    NeighbourBuild build_lists() override;

    void forces(Stage stage, const ForceSends& sends) override;
    float minimum_dt() override;
    Endpoint force_buffer() override { return Endpoint{Endpoint::kHostMemory, force_.data()}; }
    void euler(Stage stage, float dt) override;
    void record_marker() override {}  // euler() is done when it returns
    double last_forces_seconds() override { return last_forces_seconds_; }
    void inject_fault() override;

    void trace_into(Trace* trace, int process) override;

    void synchronize() override {}
    KernelTimes kernel_times() override { return times_; }
    std::size_t bytes_allocated() const override { return bytes_; }
    Transport& transport() override { return transport_; }

private:
    EulerArgs euler_args(float dt);
    void use_threads() const;

    int threads_;
    DeviceLayout layout_{};
    SphParams params_{};
    LocalLayout local_{};
    std::size_t bytes_ = 0;
    std::vector<Vec4> pos_, velrho_, pos_pred_, velrho_pred_, force_;
    std::vector<float> dt_max_;
    std::vector<std::uint32_t> id_, id_scratch_, cell_, cell_start_, cell_end_, permutation_;
    std::vector<std::uint8_t> type_, type_scratch_;
    std::vector<std::uint64_t> key_;
    std::vector<NeighbourEntry> list_;
    KernelTimes times_;
    double last_forces_seconds_ = 0.0;
    HostTransport transport_;
    TraceTrack trace_;  // kernels and sends run on the calling thread: one track
};

}  // namespace sph
