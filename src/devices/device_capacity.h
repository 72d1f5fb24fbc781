// How many particles each device's arrays are sized for, within the memory the device may use.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "devices/device.h"
#include "devices/device_layout.h"

namespace sph {

// Throws OptionError when a one-device run's arrays exceed --device-memory-limit (`limit`, 0:
// none). Whether the GPU has the room is checked by the device when it allocates.
void check_single_device_limit(const Device& device, const DeviceLayout& layout,
                               std::uint64_t limit);

// The most particles `devices` could hold together with arrays shaped as `layout` (its capacity
// aside), within --device-memory-limit (`limit`, 0: none) and the free memory of their pools
// (each device its part, with several): a bound, known before the problem is laid out, above
// which a run is refused whatever its split.
std::uint64_t most_particles_held(const std::vector<std::unique_ptr<Device>>& devices,
                                  const DeviceLayout& layout, std::uint64_t limit);

// Refuses a run with more than `bound` (most_particles_held) particles: an OptionError naming
// --device-memory-limit where that limit binds, else naming the device with the least memory free.
[[noreturn]] void refuse_more_than(const std::vector<std::unique_ptr<Device>>& devices,
                                   std::uint64_t bound, std::uint64_t limit);

// The particles a device holds in the slice split known so far: the largest device share and the
// largest run of `halo` neighbouring slices (an external band).
struct ShareSizes {
    std::uint64_t particles = 0;  // in the whole run
    std::uint64_t largest_share = 0;
    std::uint64_t largest_band = 0;
};

// The capacity every device of a multi-device run gets: room for the largest share to double
// through migration and for two external bands (more room is cheaper than a run stopped by a
// full device), cut to fit both --device-memory-limit (`limit`, 0: none) and each device's equal
// part of the free memory of its pool (devices listed on one GPU split that GPU). Throws when not
// even the share with its two external bands fits, naming what limits it.
std::uint32_t multi_device_capacity(const std::vector<std::unique_ptr<Device>>& devices,
                                    DeviceLayout layout, const ShareSizes& sizes,
                                    std::uint64_t limit);

// Whether multi_device_capacity would give the devices room for `sizes` rather than refuse them.
bool shares_fit(const std::vector<std::unique_ptr<Device>>& devices, const DeviceLayout& layout,
                const ShareSizes& sizes, std::uint64_t limit);

}  // namespace sph
