// A run that blows up or loses a particle stops with an error that says when and where, leaves
// the output written so far valid, and records the failure in its report.
#include <gtest/gtest.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <filesystem>

#include "driver/simulation.h"
#include "lattice.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

// Still water plus one extra fluid particle set up by the test.
class StillWaterPlusOne : public StillWater {
public:
    StillWaterPlusOne(SetupParticle extra) : StillWater(0.2, 0.2, 0.2), extra_(extra) {}
    void fill(double dp, const EmitParticle& emit) const override {
        StillWater::fill(dp, emit);
        emit(extra_);
    }

private:
    SetupParticle extra_;
};

boost::property_tree::ptree read_report(const std::string& dir) {
    boost::property_tree::ptree t;
    boost::property_tree::read_json(dir + "/run_report.json", t);
    return t;
}

// Runs the problem, which must fail with a SimulationError; returns its message.
std::string failure_of(const Problem& problem, const RunOptions& options) {
    Simulation sim(problem, options, 0);
    std::ostringstream log;
    try {
        sim.run(log);
    } catch (const SimulationError& e) {
        return e.what();
    }
    ADD_FAILURE() << "the run should have failed";
    return "";
}

TEST(Failures, NonFiniteStateStopsTheRunAndSaysWhere) {
    testing::TempDir dir("nan");
    // A depth so negative that the inverse Tait law has no real density: the particle is NaN.
    const StillWaterPlusOne problem({0.1, 0.1, 0.1, kFluid, -1e9});
    RunOptions o = testing::small_run(0.025, 0.1);
    o.output_dir = dir.path();
    o.write_output = true;
    const std::string what = failure_of(problem, o);
    EXPECT_NE(what.find("blew up at t = 0 s (iteration 0)"), std::string::npos) << what;
    EXPECT_NE(what.find("position (0.1, 0.1, 0.1)"), std::string::npos) << what;
    EXPECT_EQ(read_report(dir.path()).get<std::string>("status"), "failed");
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/StillWater_000000.vtu"));
}

// Every device takes the step's dt from the minima in its own memory, GPUs without asking the
// host: where that dt is not finite, no device moves anything, on one device or several. The
// failure names the particle where it was (had a corrector stepped with the NaN, its position
// would be NaN too).
class NonFiniteStep : public testing::EveryBackend {};

TEST_P(NonFiniteStep, LeavesTheStateAsItWasOnOneDeviceOrSeveral) {
    const StillWaterPlusOne problem({0.1, 0.1, 0.1, kFluid, -1e9});
    for (int devices : {1, 2, 3}) {
        RunOptions o = testing::small_run(0.025, 0.1, backend());
        o.devices = backend() == BackendChoice::kCpu
                        ? DeviceSelection::cpu(devices)
                        : DeviceSelection::gpus(std::vector<int>(std::size_t(devices), 0));
        const std::string what = failure_of(problem, o);
        EXPECT_NE(what.find("blew up at t = 0 s (iteration 0)"), std::string::npos)
            << devices << " devices: " << what;
        EXPECT_NE(what.find("position (0.1, 0.1, 0.1)"), std::string::npos)
            << devices << " devices: " << what;
    }
}
SPH_ON_EVERY_BACKEND(NonFiniteStep);

// A list radius whose rows of cells the list cannot encode even on the initial lattice stops the
// run at its first rebuild, saying which options to change (it once crashed in Forces).
TEST(Failures, AListRadiusTooLargeForTheListSaysSo) {
    const StillWater problem(0.3, 0.3, 0.3);
    RunOptions o = testing::small_run(0.03, 0.01);
    o.h_factor = 2.0;
    o.list_skin = 1.0;
    o.max_neighbours = 1024;
    const std::string what = failure_of(problem, o);
    EXPECT_NE(what.find("cannot hold the lattice's neighbours at a list radius of 8 dp"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("--neighbours cells"), std::string::npos) << what;
}

TEST(Failures, ParticleOutsideTheDomainStopsTheRunAndSaysWhere) {
    testing::TempDir dir("escape");
    const StillWaterPlusOne problem({0.1, 0.1, 1.5, kFluid, 0.0});  // above the domain
    RunOptions o = testing::small_run(0.025, 0.1);
    o.output_dir = dir.path();
    o.remove_out_of_domain = false;  // --out-of-domain stop
    const std::string what = failure_of(problem, o);
    EXPECT_NE(what.find("left the domain at t = 0 s"), std::string::npos) << what;
    EXPECT_NE(what.find("(0.1, 0.1, 1.5)"), std::string::npos) << what;
    EXPECT_EQ(read_report(dir.path()).get<std::string>("status"), "failed");
}

// Beyond the edge of the positions' frame (kernels/fixed_position.h: a domain 0.45 m across
// holds positions up to 2 m from its corner), a coordinate saturates: the message says so.
TEST(Failures, ParticleBeyondThePositionsFrameSaysHowFarItGotAtLeast) {
    const StillWaterPlusOne problem({0.1, 0.1, 5.0, kFluid, 0.0});  // far above the domain
    RunOptions o = testing::small_run(0.025, 0.1);
    o.write_output = false;
    o.remove_out_of_domain = false;
    const std::string what = failure_of(problem, o);
    EXPECT_NE(what.find("(0.1, 0.1, beyond 1.875)"), std::string::npos) << what;
}

// Where the last fluid particle leaves the domain, the run stops and says so (it once took an
// infinite dt from no particles and reported that it blew up).
TEST(Failures, EveryFluidParticleLeavingTheDomainStopsTheRunAndSaysSo) {
    class EmptyTankPlusOne : public StillWaterPlusOne {
    public:
        using StillWaterPlusOne::StillWaterPlusOne;
        void fill(double dp, const EmitParticle& emit) const override {
            StillWaterPlusOne::fill(dp, [&](SetupParticle p) {
                if (p.type != kFluid || p.z > 1.0) emit(p);  // the walls and the extra one
            });
        }
    };
    testing::TempDir dir("empty");
    const EmptyTankPlusOne problem({0.1, 0.1, 5.0, kFluid, 0.0});  // far above the domain
    RunOptions o = testing::small_run(0.025, 0.01);
    o.output_dir = dir.path();
    const std::string what = failure_of(problem, o);
    EXPECT_NE(what.find("every fluid particle has left the domain or the fluid's reach at t = 0 s"),
              std::string::npos)
        << what;
    EXPECT_EQ(read_report(dir.path()).get<std::string>("status"), "failed");
}

// By default a particle that leaves the domain is removed, said in the log and counted in the
// report, on one device or several, and the run goes on.
TEST(Failures, ParticleOutsideTheDomainIsRemovedByDefault) {
    for (int devices : {1, 3}) {
        testing::TempDir dir("removed");
        const StillWaterPlusOne problem({0.1, 0.1, 5.0, kFluid, 0.0});  // far above the domain
        RunOptions o = testing::small_run(0.025, 0.01);
        o.output_dir = dir.path();
        o.devices = DeviceSelection::cpu(devices);
        Simulation sim(problem, o, 0);
        const std::size_t before = sim.particles().size();
        std::ostringstream log;
        const RunReport report = sim.run(log);
        EXPECT_EQ(report.removed_particles, 1u);
        EXPECT_EQ(sim.particles().size(), before - 1);
        EXPECT_NE(log.str().find("1 particle(s) left the domain or the fluid's reach at t = 0 s "
                                 "(iteration 0)"),
                  std::string::npos)
            << log.str();
        EXPECT_EQ(read_report(dir.path()).get<int>("particles.removed"), 1);
        // kips count the particles actually in the run.
        EXPECT_DOUBLE_EQ(report.particle_iterations, double(report.iterations) * (before - 1));
    }
}

// Fluid more than two layers into a tank's walls, though inside the domain, is removed as fluid
// leaving the domain is (Problem::fluid_reach), on one device or several; a wall particle there
// stays. With --out-of-domain stop, the run says where it went.
class FluidReach : public testing::EveryBackend {};

TEST_P(FluidReach, FluidBeyondItsProblemsReachIsRemoved) {
    // StillWater at dp 0.025 m: the wall x < 0 has layers at x = -0.0125, -0.0375, -0.0625 m,
    // and the fluid's reach ends 2 dp into it, at x = -0.05 m.
    const StillWaterPlusOne deep({-0.056, 0.1, 0.1, kFluid, 0.0});
    const StillWaterPlusOne shallow({-0.044, 0.1, 0.1, kFluid, 0.0});
    for (int devices : {1, 3}) {
        RunOptions o = testing::small_run(0.025, 0.002, backend());
        o.devices = backend() == BackendChoice::kCpu
                        ? DeviceSelection::cpu(devices)
                        : DeviceSelection::gpus(std::vector<int>(std::size_t(devices), 0));
        std::ostringstream log;
        Simulation sim(deep, o, 0);
        const RunReport report = sim.run(log);
        EXPECT_EQ(report.removed_particles, 1u) << devices << " devices";
        EXPECT_NE(log.str().find("1 particle(s) left the domain or the fluid's reach at t = 0 s"),
                  std::string::npos)
            << log.str();
        Simulation kept(shallow, o, 0);
        EXPECT_EQ(kept.run(log).removed_particles, 0u) << devices << " devices";
    }
    RunOptions stop = testing::small_run(0.025, 0.002, backend());
    stop.remove_out_of_domain = false;
    const std::string what = failure_of(deep, stop);
    EXPECT_NE(what.find("(-0.056, 0.1, 0.1), outside the fluid's reach [-0.05, 0.25]"),
              std::string::npos)
        << what;
}
SPH_ON_EVERY_BACKEND(FluidReach);

}  // namespace
}  // namespace sph
