// The CUDA back end: one GPU, one stream, the kernel bodies launched by kernels/cuda.
#pragma once

#include <cuda_runtime.h>

#include "device.h"
#include "device_memory.h"
#include "kernel_args.h"
#include "kernel_event_timer.h"

namespace sph {

class CudaDevice final : public Device {
public:
    explicit CudaDevice(int gpu_id);
    ~CudaDevice() override;

    std::string description() const override;
    std::size_t bytes_needed(const DeviceLayout& layout) const override;
    void allocate(const DeviceLayout& layout, const SphParams& params) override;
    void upload(const HostParticles& particles) override;
    void download(HostParticles& particles) override;

    NeighbourBuild build_neighbours() override;
    void forces(Stage stage) override;
    float minimum_dt() override;
    void euler(Stage stage, float dt) override;

    KernelTimes kernel_times() override;
    std::size_t bytes_allocated() const override;

private:
    std::size_t temp_bytes(std::uint32_t capacity) const;
    EulerArgs euler_args(float dt) const;
    // Scratch for sorting, carved out of the neighbour list's memory (see DeviceLayout).
    struct SortScratch {
        std::uint64_t* keys[2];
        std::uint32_t* permutation[2];
        std::uint32_t* id;
        std::uint8_t* type;
    };
    SortScratch sort_scratch() const;

    int gpu_;
    cudaStream_t stream_ = nullptr;
    DeviceLayout layout_{};
    SphParams params_{};
    std::uint32_t count_ = 0;
    DeviceMemory pos_, velrho_, pos_pred_, velrho_pred_, force_, dt_max_, id_, cell_, type_;
    DeviceMemory cell_start_, cell_end_, list_, temp_, scalars_;
    KernelEventTimer timer_;
    KernelTimes times_;
};

}  // namespace sph
