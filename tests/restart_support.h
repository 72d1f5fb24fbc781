// What the checkpoint and restart tests share: DamBreak runs straight and restarted from a
// checkpoint, their particle states compared bit for bit.
#pragma once

#include <string>

#include "devices/cuda/cuda_support.h"
#include "driver/run_options.h"
#include "driver/simulation.h"
#include "test_support.h"

namespace sph::restart_testing {

constexpr double kDp = 0.08;     // DamBreak on the CPU, coarse: the suite's time
constexpr double kGpuDp = 0.03;  // on CUDA: enough particles for several thread blocks

// Where a run ended: its particles by id, time and iteration.
struct Finish {
    testing::ParticleStates state;
    double time = 0.0;
    long iteration = 0;
};
Finish finish(Simulation& sim);

// A small quiet DamBreak run on `devices` (kGpuDp on CUDA, kDp on the CPU), one thread each.
RunOptions options_on(const DeviceSelection& devices, BackendChoice backend = BackendChoice::kCpu);
RunOptions options_on(int cpu_devices);

// `iterations` of DamBreak with `o`.
Finish straight(const RunOptions& o, int iterations);
Finish straight(const Problem& problem, const RunOptions& o, int iterations);

// `first` iterations with `before` and on to the next rebuild, a checkpoint into `dir`, then a
// new run from it with `after` to `total` iterations.
Finish restarted(RunOptions before, RunOptions after, int first, int total, const std::string& dir);
Finish restarted(const Problem& problem, RunOptions before, RunOptions after, int first, int total,
                 const std::string& dir);

// The same iteration, time and particle states, bit for bit.
void expect_bitwise(const Finish& straight, const Finish& restarted);

}  // namespace sph::restart_testing
