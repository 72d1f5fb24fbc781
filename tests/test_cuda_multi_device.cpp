// Multi-device runs on GPUs: two or three devices on one GPU (--devices 0,0) and two GPUs
// (--devices 0,1) give the particle states of one device bit for bit, and a failing GPU worker
// stops the run. Labelled `gpu`: skipped (and reported as skipped) where the GPUs are missing.
#include <gtest/gtest.h>

#include <cstring>
#include <unordered_map>

#include "app/command_line.h"
#include "dam_break.h"
#include "devices/cuda/cuda_support.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

std::unordered_map<std::uint32_t, std::pair<Vec4, Vec4>> run_gpus(const std::string& devices,
                                                                  std::uint32_t edge_stripe,
                                                                  int iterations, double& time) {
    const DamBreak problem;
    RunOptions o = testing::small_run(0.03, 10.0, BackendChoice::kCuda);
    o.devices = parse_devices(devices, BackendChoice::kCuda);
    o.edge_stripe = edge_stripe;
    Simulation sim(problem, o, 0);
    for (int i = 0; i < iterations; ++i) sim.step();
    const HostParticles p = sim.particles();
    std::unordered_map<std::uint32_t, std::pair<Vec4, Vec4>> state;
    for (std::size_t i = 0; i < p.size(); ++i) state[p.id[i]] = {p.pos[i], p.velrho[i]};
    time = sim.time();
    return state;
}

void expect_bitwise_equal(const std::string& one, const std::string& many,
                          std::uint32_t edge_stripe) {
    double t1 = 0, t2 = 0;
    const auto a = run_gpus(one, 0, 400, t1);
    const auto b = run_gpus(many, edge_stripe, 400, t2);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(t1, t2);
    int differing = 0;
    for (const auto& [id, s] : a) {
        const auto& t = b.at(id);
        differing += std::memcmp(&s.first, &t.first, sizeof(Vec4)) != 0 ||
                     std::memcmp(&s.second, &t.second, sizeof(Vec4)) != 0;
    }
    EXPECT_EQ(differing, 0) << "--devices " << many << " --edge-stripe " << edge_stripe;
    std::printf("--devices %s (edge stripe %u) vs %s: %zu particles, %d differ, t = %.6f s\n",
                many.c_str(), edge_stripe, one.c_str(), a.size(), differing, t2);
}

TEST(CudaMultiDevice, DevicesSharingOneGpuMatchOneDeviceBitwise) {
    if (visible_gpu_count() == 0) GTEST_SKIP() << "no GPU visible here";
    // Small stripes leave a central stripe; 0 makes each device's stripes cover it all.
    expect_bitwise_equal("0", "0,0", 2000);
    expect_bitwise_equal("0", "0,0", 0);
    expect_bitwise_equal("0", "0,0,0", 1000);
}

TEST(CudaMultiDevice, TwoGpusMatchOneBitwise) {
    if (visible_gpu_count() < 2) GTEST_SKIP() << "fewer than two GPUs visible here";
    expect_bitwise_equal("0", "0,1", 2000);
    expect_bitwise_equal("0", "0,1", 0);
}

// Devices listed on one GPU draw on one memory pool, so their capacities are cut to split what it
// has free (device_capacity.cpp); devices on different GPUs each have their own.
TEST(CudaMultiDevice, DevicesOnOneGpuShareItsMemoryPool) {
    if (visible_gpu_count() == 0) GTEST_SKIP() << "no GPU visible here";
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

TEST(CudaMultiDevice, AFailingGpuWorkerStopsTheRun) {
    if (visible_gpu_count() == 0) GTEST_SKIP() << "no GPU visible here";
    testing::TempDir dir("gpu-fault");
    const std::string devices = visible_gpu_count() >= 2 ? "0,1" : "0,0";
    DamBreak problem;
    const testing::AppResult r = testing::run_app_or_fail_on_hang(
        problem,
        {"--backend", "cuda", "--devices", devices, "--dp", "0.03", "--no-output", "--output-dir",
         dir.path(), "--inject-fault", "1:15"},
        0, 120);
    const int code = r.code;
    const std::string& err = r.err;
    EXPECT_EQ(code, 1) << err;
    EXPECT_NE(err.find("device 1 (GPU"), std::string::npos) << err;
    EXPECT_NE(err.find("cudaSetDevice"), std::string::npos) << err;
    EXPECT_NE(err.find("iteration 15"), std::string::npos) << err;
}

}  // namespace
}  // namespace sph
