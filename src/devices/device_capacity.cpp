#include "devices/device_capacity.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

#include "common/errors.h"

namespace sph {

namespace {

std::string bytes_text(std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

// The largest capacity, at most `most`, whose arrays fit in `budget` bytes on `device`.
std::uint32_t capacity_within(const Device& device, DeviceLayout layout, std::uint64_t budget,
                              std::uint32_t most) {
    std::uint32_t lo = 0, hi = most;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo + 1) / 2;
        layout.capacity = mid;
        if (device.bytes_needed(layout) <= budget) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    return lo;
}

// The tightest device's part of its pool's free memory, and which device that is.
struct PoolShare {
    std::uint64_t bytes = std::numeric_limits<std::uint64_t>::max();
    const Device* device = nullptr;
    int sharers = 0;
    std::uint64_t pool_free = 0;
};

PoolShare smallest_pool_share(const std::vector<std::unique_ptr<Device>>& devices) {
    std::map<int, int> sharers;
    std::vector<Device::MemoryPool> pools;
    for (const auto& device : devices) {
        pools.push_back(device->memory_pool());
        ++sharers[pools.back().id];
    }
    PoolShare smallest;
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const int n = sharers[pools[d].id];
        std::uint64_t share = pools[d].free_bytes / std::uint64_t(n);
        share -= share / 64;  // slack for allocation granularity and fragmentation
        if (share < smallest.bytes)
            smallest = PoolShare{share, devices[d].get(), n, pools[d].free_bytes};
    }
    return smallest;
}

// One device is refused only past its pool's free memory (Device::allocate); several past their
// part of it, less slack (multi_device_capacity).
PoolShare budget_of(const std::vector<std::unique_ptr<Device>>& devices) {
    if (devices.size() > 1) return smallest_pool_share(devices);
    const std::uint64_t free_bytes = devices[0]->memory_pool().free_bytes;
    return PoolShare{free_bytes, devices[0].get(), 1, free_bytes};
}

// Why the run does not fit, as far as the devices' memory goes.
std::string memory_short(const PoolShare& pool) {
    return pool.device->description() + " has " + bytes_text(pool.pool_free) + " free" +
           (pool.sharers > 1 ? " for its " + std::to_string(pool.sharers) + " devices"
                             : std::string()) +
           "; use more devices or a larger --dp";
}

}  // namespace

std::uint64_t most_particles_held(const std::vector<std::unique_ptr<Device>>& devices,
                                  const DeviceLayout& layout, std::uint64_t limit) {
    std::uint64_t budget = budget_of(devices).bytes;
    if (limit > 0) budget = std::min(budget, limit);
    const std::uint32_t most =
        capacity_within(*devices[0], layout, budget, std::numeric_limits<std::uint32_t>::max() - 1);
    return std::uint64_t(most) * devices.size();
}

void refuse_more_than(const std::vector<std::unique_ptr<Device>>& devices, std::uint64_t bound,
                      std::uint64_t limit) {
    const PoolShare pool = budget_of(devices);
    // Bound 0: what every run allocates whatever its size (the cell grid, the instruments) takes
    // the whole memory.
    const std::string what =
        bound == 0
            ? "the run's " + std::to_string(devices.size()) +
                  " device(s) cannot hold a single particle beside the arrays every run "
                  "allocates (its cell grid's among them)"
            : "the run has more than " + std::to_string(bound) + " particles, more than its " +
                  std::to_string(devices.size()) + " device(s) can hold";
    if (limit > 0 && limit <= pool.bytes) {
        throw OptionError("--device-memory-limit: " + what + " within the limit of " +
                          bytes_text(limit) + " each; raise the limit or use more devices");
    }
    throw std::runtime_error(what + ": " + memory_short(pool));
}

void check_single_device_limit(const Device& device, const DeviceLayout& layout,
                               std::uint64_t limit) {
    const std::size_t needed = device.bytes_needed(layout);
    if (limit > 0 && needed > limit) {
        throw OptionError("--device-memory-limit: the run needs " + bytes_text(needed) +
                          " on one device, above the limit of " + bytes_text(limit) +
                          "; use more devices (--devices) or a larger --dp");
    }
}

namespace {

// What multi_device_capacity weighs: the particles a device should hold and must hold, and the
// memory it may use.
struct ShareRoom {
    std::uint64_t wanted, needed, budget;
    PoolShare pool;
    bool user_limit_binds;
};

ShareRoom share_room(const std::vector<std::unique_ptr<Device>>& devices, const ShareSizes& sizes,
                     std::uint64_t limit) {
    ShareRoom room;
    room.wanted = std::min<std::uint64_t>(sizes.particles,
                                          2 * sizes.largest_share + 4 * sizes.largest_band + 1024);
    room.needed = std::min<std::uint64_t>(sizes.particles,
                                          sizes.largest_share + 2 * sizes.largest_band + 1024);
    room.pool = smallest_pool_share(devices);
    room.user_limit_binds = limit > 0 && limit <= room.pool.bytes;
    room.budget = room.user_limit_binds ? limit : room.pool.bytes;
    return room;
}

}  // namespace

bool shares_fit(const std::vector<std::unique_ptr<Device>>& devices, const DeviceLayout& layout,
                const ShareSizes& sizes, std::uint64_t limit) {
    const ShareRoom room = share_room(devices, sizes, limit);
    return capacity_within(*room.pool.device, layout, room.budget,
                           static_cast<std::uint32_t>(room.wanted)) >= room.needed;
}

std::uint32_t multi_device_capacity(const std::vector<std::unique_ptr<Device>>& devices,
                                    DeviceLayout layout, const ShareSizes& sizes,
                                    std::uint64_t limit) {
    const ShareRoom room = share_room(devices, sizes, limit);
    const Device& device = *room.pool.device;  // all devices are of one kind: any sizes the arrays
    const std::uint32_t capacity =
        capacity_within(device, layout, room.budget, static_cast<std::uint32_t>(room.wanted));
    if (capacity >= room.needed) return capacity;

    layout.capacity = static_cast<std::uint32_t>(room.needed);
    const std::string what = "a device must hold " + std::to_string(room.needed) +
                             " particles (its share and two external bands), which takes " +
                             bytes_text(device.bytes_needed(layout));
    if (room.user_limit_binds) {
        throw OptionError("--device-memory-limit: " + what + ", above the limit of " +
                          bytes_text(limit) + "; raise the limit or use more devices");
    }
    throw std::runtime_error(what + ", but " + memory_short(room.pool));
}

}  // namespace sph
