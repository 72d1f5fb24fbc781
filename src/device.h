// One compute device (a GPU, or the CPU) holding a share of the particles and running the kernels.
//
// A device's local arrays hold, in global sorted order, [left external | internal | right
// external]: its own particles (internal) between read-only copies of the neighbouring devices'
// edge slices. DeviceGroup drives the primitives below; a single device is a group of one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device_layout.h"
#include "host_particles.h"
#include "sph_params.h"
#include "transport.h"

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
    std::uint32_t largest_count = 0;  // largest neighbour count, or kCellOverflow
};

// How the local arrays are divided.
struct LocalLayout {
    std::uint32_t left = 0, internal = 0, right = 0;
    std::uint32_t total() const { return left + internal + right; }
};

// Where one device keeps the arrays that travel between devices.
struct ParticleBuffers {
    Endpoint pos, velrho, id, type;
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
    virtual std::size_t capacity() const = 0;
    // Makes `particles` the internal particles (in any order; the next rebuild sorts them).
    virtual void upload(const HostParticles& particles) = 0;
    // Copies the internal particles to the host.
    virtual void download(HostParticles& particles) = 0;
    virtual const LocalLayout& layout() const = 0;

    // --- BuildNeibs, in the order DeviceGroup calls them ---
    // Sorts local particles [begin, begin + count) by (cell, id) into [0, count) and computes their
    // cells; the rest are dropped.
    virtual void sort(std::uint32_t begin, std::uint32_t count) = 0;
    // For each cell bound, the first of the `count` sorted particles whose cell is not below it.
    virtual std::vector<std::uint32_t> lower_bounds(std::uint32_t count,
                                                    const std::vector<std::uint32_t>& bounds) = 0;
    virtual ParticleBuffers current() = 0;   // the arrays the kernels use
    virtual ParticleBuffers incoming() = 0;  // where the next local arrays are assembled
    // Makes the incoming arrays current, laid out as given.
    virtual void commit_incoming(const LocalLayout& layout) = 0;
    // Cells, cell ranges and the neighbour lists of the internal particles.
    virtual NeighbourBuild build_lists() = 0;

    // --- Time stepping ---
    virtual void forces(Stage stage) = 0;  // internal particles
    virtual float minimum_dt() = 0;        // over internal particles; NaN if any is NaN
    virtual Endpoint force_buffer() = 0;   // Vec4 per local particle: external ones are received
    virtual void euler(Stage stage, float dt) = 0;  // every local particle

    // Waits for the device's queued work.
    virtual void synchronize() = 0;
    // Waits for the device and returns the kernel times so far.
    virtual KernelTimes kernel_times() = 0;
    virtual std::size_t bytes_allocated() const = 0;
    virtual Transport& transport() = 0;
};

}  // namespace sph
