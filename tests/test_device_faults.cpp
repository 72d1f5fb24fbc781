// A failing device thread stops the whole run with its error (no hang at a barrier), on every back
// end; --device-memory-limit lets a run refused on one device run on two; and devices sharing one
// memory (virtual devices on one GPU, or CPU devices standing in for them) split what it has free.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "dam_break.h"
#include "devices/cpu/cpu_device.h"
#include "devices/cuda/cuda_support.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

using testing::AppResult;

AppResult run_dambreak(const std::vector<std::string>& args, std::chrono::seconds bound) {
    DamBreak problem;
    return testing::run_app_or_fail_on_hang(problem, args, 0, int(bound.count()));
}

// One test body, every back end: each device of a run fails in turn, a CPU device with an
// exception of its own, a GPU with a failed CUDA call.
class WorkerFault : public testing::EveryBackend {
protected:
    struct Devices {
        std::vector<std::string> args;  // --devices and what goes with them
        int count;
        const char* kind;   // as the device's description names it
        const char* cause;  // what the failing device's own error says
    };
    // Three CPU devices (a middle one has two neighbours waiting on it); on CUDA two GPUs where
    // there are two, else two devices sharing GPU 0.
    Devices devices() const {
        if (backend() == BackendChoice::kCuda) {
            return {{"--devices", visible_gpu_count() >= 2 ? "0,1" : "0,0", "--dp", "0.03"},
                    2,
                    "GPU",
                    "cudaSetDevice"};
        }
        return {{"--devices", "3", "--threads", "1", "--dp", "0.05"}, 3, "CPU", "injected fault"};
    }
};

TEST_P(WorkerFault, AFailingWorkerStopsEveryDeviceWithItsError) {
    testing::TempDir dir("fault");
    const Devices devices = this->devices();
    for (int device = 0; device < devices.count; ++device) {
        SCOPED_TRACE("failing device " + std::to_string(device));
        std::vector<std::string> args{"--backend", to_string(backend())};
        args.insert(args.end(), devices.args.begin(), devices.args.end());
        args.insert(args.end(), {"--t-end", "1", "--no-output", "--output-dir", dir.path(),
                                 "--inject-fault", std::to_string(device) + ":25"});
        const AppResult r = run_dambreak(args, std::chrono::seconds(120));
        EXPECT_EQ(r.code, 1) << r.err;
        const std::string who = "device " + std::to_string(device) + " (" + devices.kind;
        EXPECT_NE(r.err.find(who), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(devices.cause), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("iteration 25"), std::string::npos) << r.err;
    }
}

SPH_ON_EVERY_BACKEND(WorkerFault);

TEST(DeviceFaults, InjectingIntoADeviceThatDoesNotExistIsAnOptionError) {
    const AppResult r = run_dambreak({"--backend", "cpu", "--devices", "2", "--dp", "0.05",
                                      "--no-output", "--inject-fault", "2:1"},
                                     std::chrono::seconds(60));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--inject-fault"), std::string::npos) << r.err;
}

TEST(DeviceMemoryLimit, ARunRefusedOnOneDeviceRunsOnTwo) {
    testing::TempDir dir("limit");
    const DamBreak problem;
    RunOptions o = testing::small_run(0.05, 0.02);
    std::size_t one_device_bytes = 0;
    {
        Simulation sim(problem, o, 0);
        one_device_bytes = sim.group().device(0).bytes_allocated();
    }
    // 4/5: at this toy size each of two devices holds more than half (two external bands, and
    // the instruments' buffers, about 60 kB, on each).
    const std::string limit = std::to_string(one_device_bytes * 4 / 5);
    const std::vector<std::string> common{
        "--backend",   "cpu",          "--threads", "1",
        "--dp",        "0.05",         "--t-end",   "0.02",
        "--no-output", "--output-dir", dir.path(),  "--device-memory-limit",
        limit};
    std::vector<std::string> one = common, two = common;
    one.insert(one.end(), {"--devices", "1"});
    two.insert(two.end(), {"--devices", "2"});
    const AppResult refused = run_dambreak(one, std::chrono::seconds(60));
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find("--device-memory-limit"), std::string::npos) << refused.err;
    const AppResult ran = run_dambreak(two, std::chrono::seconds(120));
    EXPECT_EQ(ran.code, 0) << ran.err;

    // Each of the two devices stays under the limit.
    o.devices = DeviceSelection::cpu(2);
    o.device_memory_limit = one_device_bytes * 4 / 5;
    Simulation sim(problem, o, 0);
    for (int d = 0; d < 2; ++d) {
        EXPECT_LE(sim.group().device(d).bytes_allocated(), o.device_memory_limit);
    }
}

// A limit below what any run allocates refuses the run, saying not even one particle fits.
TEST(DeviceMemoryLimit, ALimitBelowTheFixedArraysHoldsNoParticle) {
    const AppResult r = run_dambreak(
        {"--backend", "cpu", "--no-output", "--dp", "0.05", "--device-memory-limit", "1000"},
        std::chrono::seconds(60));
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("--device-memory-limit: the run's 1 device(s) cannot hold a single "
                         "particle"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("within the limit of"), std::string::npos) << r.err;
}

TEST(DeviceMemoryLimit, BadValuesNameTheOption) {
    for (const char* bad : {"-5", "12Q", "G", "0"}) {
        const AppResult r =
            run_dambreak({"--backend", "cpu", "--no-output", "--device-memory-limit", bad},
                         std::chrono::seconds(60));
        EXPECT_EQ(r.code, 2) << bad;
        EXPECT_NE(r.err.find("--device-memory-limit"), std::string::npos) << r.err;
    }
}

// A CPU device that reports `free_bytes` free in memory pool `pool`, as a GPU listed in --devices
// would.
class PoolDevice : public CpuDevice {
public:
    PoolDevice(int pool, std::uint64_t free_bytes, int threads)
        : CpuDevice(threads), pool_(pool), free_bytes_(free_bytes) {}
    MemoryPool memory_pool() const override { return MemoryPool{pool_, free_bytes_}; }

private:
    int pool_;
    std::uint64_t free_bytes_;
};

TEST(DeviceMemory, DevicesAreSizedToTheFreeMemoryOfTheirPool) {
    const DamBreak problem;
    RunOptions o = testing::small_run(0.05, 0.02);
    o.threads = 1;
    std::size_t one_device_bytes = 0, particles = 0;
    {
        Simulation sim(problem, o, 0);
        one_device_bytes = sim.group().device(0).bytes_allocated();
        particles = sim.particles().size();
    }
    o.devices = DeviceSelection::cpu(2);
    const std::uint64_t pool_bytes = one_device_bytes * 7 / 8;

    // Each in a pool of its own: a device gets what its pool has free, which holds fewer than the
    // whole run's particles (what two devices are otherwise sized for), and the run goes on.
    {
        Simulation sim(problem, o, 0, [&](int d, int threads) {
            return std::make_unique<PoolDevice>(d, pool_bytes, threads);
        });
        for (int d = 0; d < 2; ++d) {
            EXPECT_LE(sim.group().device(d).bytes_allocated(), pool_bytes);
            EXPECT_LT(sim.group().device(d).capacity(), particles);
        }
        for (int i = 0; i < 20; ++i) sim.step();
        EXPECT_EQ(sim.particles().size(), particles);
    }
    // Both in one pool (two devices listed on one GPU): each gets half of it, too little for its
    // share and the two external slices, and the error says so.
    try {
        Simulation sim(problem, o, 0, [&](int, int threads) {
            return std::make_unique<PoolDevice>(0, pool_bytes, threads);
        });
        FAIL() << "two devices fitted in a pool that holds seven eighths of one";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("free for its 2 devices"), std::string::npos) << what;
        EXPECT_NE(what.find("use more devices"), std::string::npos) << what;
    }
}

// The same on GPUs: devices listed on one GPU draw on one memory pool, so their capacities are cut
// to split what it has free (device_capacity.cpp); devices on different GPUs each have their own.
TEST(DeviceMemory, DevicesOnOneGpuShareItsMemoryPool) {
    SPH_REQUIRE_GPUS(1);
    const bool two_gpus = visible_gpu_count() >= 2;
    const DamBreak problem;
    RunOptions o = testing::small_run(0.03, 10.0, BackendChoice::kCuda);
    o.devices =
        DeviceSelection::gpus(two_gpus ? std::vector<int>{0, 0, 1} : std::vector<int>{0, 0});
    Simulation sim(problem, o, 0);
    const Device::MemoryPool first = sim.group().device(0).memory_pool();
    const Device::MemoryPool second = sim.group().device(1).memory_pool();
    EXPECT_EQ(first.id, 0);
    EXPECT_EQ(second.id, 0);
    EXPECT_GT(first.free_bytes, sim.group().device(0).bytes_allocated());
    if (two_gpus) {
        EXPECT_EQ(sim.group().device(2).memory_pool().id, 1);
    }
}

}  // namespace
}  // namespace sph
