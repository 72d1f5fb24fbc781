// One compute device (a GPU, or the CPU) holding a share of the particles and running the kernels.
//
// The driver calls, per iteration: build_neighbours (every k iterations), then twice
// forces -> minimum_dt -> euler (predictor, then corrector).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "device_layout.h"
#include "host_particles.h"
#include "sph_params.h"

namespace sph {

enum class Stage { kPredictor, kCorrector };

// Seconds spent in each kernel family since the device was made.
struct KernelTimes {
    double build_neibs = 0.0;
    double forces = 0.0;
    double minimum_scan = 0.0;
    double euler = 0.0;
};

struct NeighbourBuild {
    bool particles_outside_grid = false;
    std::uint32_t largest_count = 0;  // largest neighbour count, or kCellOverflow
};

class Device {
public:
    virtual ~Device() = default;
    Device() = default;
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    virtual std::string description() const = 0;
    // Bytes allocate() would take for this layout, including library scratch.
    virtual std::size_t bytes_needed(const DeviceLayout& layout) const = 0;
    // Throws, before allocating anything, when the layout does not fit.
    virtual void allocate(const DeviceLayout& layout, const SphParams& params) = 0;
    virtual void upload(const HostParticles& particles) = 0;
    virtual void download(HostParticles& particles) = 0;

    virtual NeighbourBuild build_neighbours() = 0;
    virtual void forces(Stage stage) = 0;
    virtual float minimum_dt() = 0;
    virtual void euler(Stage stage, float dt) = 0;

    // Waits for the device and returns the kernel times so far.
    virtual KernelTimes kernel_times() = 0;
    virtual std::size_t bytes_allocated() const = 0;
};

}  // namespace sph
