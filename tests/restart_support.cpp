#include "restart_support.h"

#include "dam_break.h"

namespace sph::restart_testing {

Finish finish(Simulation& sim) {
    return Finish{testing::states_by_id(sim.particles()), sim.time(), sim.iteration()};
}

RunOptions options_on(const DeviceSelection& devices, BackendChoice backend) {
    RunOptions o =
        testing::small_run(backend == BackendChoice::kCuda ? kGpuDp : kDp, 10.0, backend);
    o.devices = devices;
    o.threads = 1;
    return o;
}

RunOptions options_on(int cpu_devices) {
    return options_on(DeviceSelection::cpu(cpu_devices));
}

Finish straight(const RunOptions& o, int iterations) {
    return straight(DamBreak(), o, iterations);
}

Finish straight(const Problem& problem, const RunOptions& o, int iterations) {
    Simulation sim(problem, o, 0);
    for (int i = 0; i < iterations; ++i) sim.step();
    return finish(sim);
}

Finish restarted(RunOptions before, RunOptions after, int first, int total,
                 const std::string& dir) {
    return restarted(DamBreak(), before, after, first, total, dir);
}

Finish restarted(const Problem& problem, RunOptions before, RunOptions after, int first, int total,
                 const std::string& dir) {
    before.checkpoint_dir = dir;
    std::string path;
    long checkpointed = 0;
    {
        Simulation sim(problem, before, 0);
        for (int i = 0; i < first; ++i) sim.step();
        while (!sim.at_rebuild()) sim.step();  // checkpoints are taken only there
        checkpointed = sim.iteration();
        path = sim.write_checkpoint_now(OutputPositions{}, 0.0);
    }
    after.restart_from = path;
    Simulation sim(problem, after, 0);
    EXPECT_EQ(sim.iteration(), checkpointed);
    EXPECT_EQ(sim.restarts(), 1);
    while (sim.iteration() < total) sim.step();
    return finish(sim);
}

void expect_bitwise(const Finish& straight, const Finish& restarted) {
    EXPECT_EQ(straight.iteration, restarted.iteration);
    EXPECT_EQ(straight.time, restarted.time);
    ASSERT_EQ(straight.state.size(), restarted.state.size());
    EXPECT_EQ(testing::count_bitwise_differences(straight.state, restarted.state), 0);
}

}  // namespace sph::restart_testing
