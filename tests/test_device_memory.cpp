// A device's memory, as it reports it, is what it allocated: the bytes its buffers hold (counted
// by their allocators) equal bytes_allocated(), the figure of the run report, and bytes_needed(),
// the figure its run was sized with. One test body, every back end.
#include <gtest/gtest.h>

#include <memory>

#include "dam_break.h"
#include "devices/cpu/cpu_device.h"
#include "devices/cuda/cuda_support.h"
#include "driver/run_setup.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

class DeviceMemoryAccounting : public testing::EveryBackend {
protected:
    // Bytes the back end's buffers hold right now, process-wide.
    std::size_t bytes_in_use() const {
        return backend() == BackendChoice::kCuda ? gpu_bytes_in_use() : host_array_bytes.load();
    }
    std::unique_ptr<Device> make_device() const {
        if (backend() == BackendChoice::kCuda) return make_cuda_device(0, 0);
        return std::make_unique<CpuDevice>(1);
    }
};

// With a list and without one (--neighbours cells), with mDBC's ghost offsets and without.
TEST_P(DeviceMemoryAccounting, ADeviceReportsTheBytesItAllocatedAndWasSizedFor) {
    const DamBreak problem;
    const RunOptions o = testing::small_run(0.04, 1.0, backend());
    const SphParams params = make_sph_params(o, problem.still_water_depth());
    for (const std::uint32_t max_neighbours : {96u, 0u}) {
        for (const bool ghost_offsets : {false, true}) {
            SCOPED_TRACE("max_neighbours " + std::to_string(max_neighbours) +
                         (ghost_offsets ? ", ghost offsets" : ""));
            DeviceLayout layout;
            layout.capacity = 12345;
            layout.max_neighbours = max_neighbours;
            layout.ghost_offsets = ghost_offsets;
            layout.grid = make_grid(problem, params, o.dp, 0);
            layout.id_bits = bits_for(layout.capacity);

            std::unique_ptr<Device> device = make_device();
            const std::size_t before = bytes_in_use();
            device->allocate(layout, params);
            const std::size_t allocated = bytes_in_use() - before;
            EXPECT_GT(allocated, std::size_t(layout.capacity) * layout.particle_bytes());
            EXPECT_EQ(device->bytes_allocated(), allocated);
            EXPECT_EQ(device->bytes_needed(layout), allocated);
            device.reset();
            EXPECT_EQ(bytes_in_use(), before) << "the device's buffers outlive it";
        }
    }
}

// The run report's memory is the sum over the devices of what they allocated.
TEST_P(DeviceMemoryAccounting, ARunOfSeveralDevicesReportsWhatTheyAllocated) {
    const DamBreak problem;
    RunOptions o = testing::small_run(0.04, 1.0, backend());
    o.devices =
        backend() == BackendChoice::kCuda ? DeviceSelection::gpus({0, 0}) : DeviceSelection::cpu(2);
    const std::size_t before = bytes_in_use();
    Simulation sim(problem, o, 0);
    std::size_t reported = 0;
    for (int d = 0; d < sim.device_count(); ++d)
        reported += sim.group().device(d).bytes_allocated();
    EXPECT_EQ(bytes_in_use() - before, reported);
}

SPH_ON_EVERY_BACKEND(DeviceMemoryAccounting);

}  // namespace
}  // namespace sph
