// The CPU back end: the kernel bodies run by OpenMP threads over host arrays.
#pragma once

#include <vector>

#include "device.h"
#include "kernel_args.h"

namespace sph {

class CpuDevice final : public Device {
public:
    std::string description() const override;
    std::size_t bytes_needed(const DeviceLayout& layout) const override;
    void allocate(const DeviceLayout& layout, const SphParams& params) override;
    void upload(const HostParticles& particles) override;
    void download(HostParticles& particles) override;

    NeighbourBuild build_neighbours() override;
    void forces(Stage stage) override;
    float minimum_dt() override;
    void euler(Stage stage, float dt) override;

    KernelTimes kernel_times() override { return times_; }
    std::size_t bytes_allocated() const override { return bytes_; }

private:
    EulerArgs euler_args(float dt);

    DeviceLayout layout_{};
    SphParams params_{};
    std::uint32_t count_ = 0;
    std::size_t bytes_ = 0;
    std::vector<Vec4> pos_, velrho_, pos_pred_, velrho_pred_, force_;
    std::vector<float> dt_max_;
    std::vector<std::uint32_t> id_, id_scratch_, cell_, cell_start_, cell_end_, permutation_;
    std::vector<std::uint8_t> type_, type_scratch_;
    std::vector<std::uint64_t> key_;
    std::vector<NeighbourEntry> list_;
    KernelTimes times_;
};

}  // namespace sph
