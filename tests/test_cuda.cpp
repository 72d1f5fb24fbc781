// The CUDA back end against the CPU back end, and its refusals: what only CUDA has. Tests that hold
// on every back end are written once, on testing::EveryBackend (test_support.h), beside the others
// of their kind. Labelled `gpu`: skipped (and reported as skipped) where no GPU is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "app/run_app.h"
#include "dam_break.h"
#include "devices/cuda/cuda_support.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

HostParticles run_iterations(BackendChoice backend, int iterations, BoundaryModel boundary) {
    const DamBreak problem;  // the simulation refers to it
    RunOptions o = testing::small_run(0.04, 10.0, backend);
    o.boundary = boundary;
    Simulation sim(problem, o, 0);
    for (int i = 0; i < iterations; ++i) sim.step();
    return sim.particles();
}

// The same DamBreak iterations on the CPU and on CUDA.
struct CpuAndGpu {
    HostParticles cpu, gpu;
    explicit CpuAndGpu(int iterations, BoundaryModel boundary = BoundaryModel::kDbc)
        : cpu(run_iterations(BackendChoice::kCpu, iterations, boundary)),
          gpu(run_iterations(BackendChoice::kCuda, iterations, boundary)) {}
};

// The largest differences between the back ends' particles, by id.
struct Differences {
    double dx = 0.0, fluid_drho = 0.0, wall_drho = 0.0, max_speed = 0.0;
};

Differences differences(const CpuAndGpu& run) {
    const HostParticles &cpu = run.cpu, &gpu = run.gpu;
    EXPECT_EQ(cpu.size(), gpu.size());
    std::unordered_map<std::uint32_t, std::size_t> gpu_index;
    for (std::size_t i = 0; i < gpu.size(); ++i) gpu_index[gpu.id[i]] = i;
    Differences d;
    for (std::size_t i = 0; i < cpu.size(); ++i) {
        const std::size_t j = gpu_index.at(cpu.id[i]);
        const Vec3 a = cpu.position(i), b = gpu.position(j);
        d.dx = std::max({d.dx, double(std::fabs(a.x - b.x)), double(std::fabs(a.y - b.y)),
                         double(std::fabs(a.z - b.z))});
        const double drho =
            std::fabs(double(cpu.velrho[i].w - gpu.velrho[j].w)) / double(cpu.velrho[i].w);
        double& worst = cpu.type[i] == kFluid ? d.fluid_drho : d.wall_drho;
        worst = std::max(worst, drho);
        const Vec4 v = cpu.velrho[i];
        d.max_speed = std::max(d.max_speed, std::sqrt(double(v.x * v.x + v.y * v.y + v.z * v.z)));
    }
    return d;
}

TEST(Cuda, SortsParticlesInTheSameOrderAsTheCpu) {
    SPH_REQUIRE_GPUS(1);
    const CpuAndGpu run(1);
    EXPECT_EQ(run.cpu.id,
              run.gpu.id);  // sorted by (cell, slab, id) from bitwise equal initial positions
}

// Both back ends evaluate the same bodies, but nvcc contracts a*b+c into fused multiply-adds and
// the host compiler does not, so results drift apart by rounding. 100 iterations of the dam
// break must stay within 1e-5 m (0.025 % of dp) in position and 1e-5 in relative density.
TEST(Cuda, AgreesWithTheCpuOnAShortDamBreak) {
    SPH_REQUIRE_GPUS(1);
    const Differences d = differences(CpuAndGpu(100));
    std::printf(
        "CPU vs CUDA after 100 iterations: max |dx| %.3e m, max |drho|/rho %.3e fluid, %.3e walls "
        "(max speed %.3f m/s)\n",
        d.dx, d.fluid_drho, d.wall_drho, d.max_speed);
    EXPECT_GT(d.max_speed, 0.1);  // the column is really moving
    EXPECT_LT(d.dx, 1e-5);
    EXPECT_LT(std::max(d.fluid_drho, d.wall_drho), 1e-5);
}

// The same under mDBC, whose walls solve a 4x4 system from float sums: the fluid within the same
// bounds; a wall's density within 1e-4 (rounding can tip a ghost node's determinant across the
// limit where the fit gives way to the Shepard average).
TEST(Cuda, AgreesWithTheCpuOnAShortDamBreakUnderMdbc) {
    SPH_REQUIRE_GPUS(1);
    const Differences d = differences(CpuAndGpu(100, BoundaryModel::kMdbc));
    std::printf(
        "CPU vs CUDA under mDBC after 100 iterations: max |dx| %.3e m, max |drho|/rho %.3e "
        "fluid, %.3e walls (max speed %.3f m/s)\n",
        d.dx, d.fluid_drho, d.wall_drho, d.max_speed);
    EXPECT_GT(d.max_speed, 0.1);
    EXPECT_LT(d.dx, 1e-5);
    EXPECT_LT(d.fluid_drho, 1e-5);
    EXPECT_LT(d.wall_drho, 1e-4);
}

int run_dambreak(const std::vector<std::string>& args, std::string& err) {
    DamBreak problem;
    const testing::AppResult r = testing::run_program(problem, args, 0);
    err = r.err;
    return r.code;
}

TEST(Cuda, RefusesAGpuThatDoesNotExist) {
    SPH_REQUIRE_GPUS(1);
    std::string err;
    EXPECT_EQ(run_dambreak({"--backend", "cuda", "--devices", "99", "--no-output"}, err), 2);
    EXPECT_NE(err.find("--devices 99"), std::string::npos) << err;
}

TEST(Cuda, RefusesARunTooLargeForTheGpuBeforeAllocating) {
    SPH_REQUIRE_GPUS(1);
    std::string err;
    // About 7e8 particles with lists for a radius twice the default (some 700 bytes each, 500
    // GB): more than any single GPU holds (at the default list, 140 GB would fit an H200).
    EXPECT_EQ(run_dambreak({"--backend", "cuda", "--dp", "0.001", "--list-skin", "1",
                            "--max-neighbours", "1024", "--no-output"},
                           err),
              1);
    EXPECT_NE(err.find("MiB"), std::string::npos) << err;
    EXPECT_NE(err.find("free"), std::string::npos) << err;
}

}  // namespace
}  // namespace sph
