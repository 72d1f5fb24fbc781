// Instruments evaluated on the devices (Device::measure) read what the host evaluation of the
// same particles reads (instruments/gauges.h), to rounding: on one device and on several, on
// every back end; and several devices read the same bits as one, balanced or not.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/instrument_options.h"
#include "dam_break.h"
#include "driver/simulation.h"
#include "instruments/gauges.h"
#include "lattice.h"
#include "test_support.h"

namespace sph {
namespace {

// How many gauges, probes and wall sensors (or panels) read water, of a comparison's host
// readings.
struct Wet {
    int gauges = 0, probes = 0, walls = 0;
};

// The device's readings against the host evaluation of the same particles, to rounding.
Wet expect_readings_near(const InstrumentReadings& device, const InstrumentReadings& host) {
    Wet wet;
    EXPECT_EQ(device.heights.size(), host.heights.size());
    EXPECT_EQ(device.pressures.size(), host.pressures.size());
    for (std::size_t g = 0; g < std::min(host.heights.size(), device.heights.size()); ++g) {
        EXPECT_NEAR(device.heights[g], host.heights[g], 1e-4) << "gauge " << g;
        wet.gauges += host.heights[g] > 0.0;
    }
    for (std::size_t p = 0; p < std::min(host.pressures.size(), device.pressures.size()); ++p) {
        EXPECT_NEAR(device.pressures[p], host.pressures[p],
                    1e-4 * std::fabs(host.pressures[p]) + 1e-2)
            << "probe " << p;
        wet.probes += host.pressures[p] > 0.0;
    }
    EXPECT_EQ(device.walls.size(), host.walls.size());
    for (std::size_t w = 0; w < std::min(host.walls.size(), device.walls.size()); ++w) {
        wet.walls += host.walls[w] > 100.0;  // Pa, N or N m: under the column
        EXPECT_NEAR(device.walls[w], host.walls[w], 1e-4 * std::fabs(host.walls[w]) + 1e-2)
            << "wall sensor " << w;
    }
    EXPECT_TRUE(std::isfinite(host.front));
    EXPECT_DOUBLE_EQ(device.front, host.front);
    return wet;
}

class DeviceInstruments : public testing::EveryBackend {
protected:
    // DamBreak once the column has begun to fall (the particles off their lattice), with its
    // instruments and more in and beside the column, across the devices' slices; the gauges read
    // as `reading` says.
    void expect_device_equals_host(const DeviceSelection& devices,
                                   GaugeReading reading = GaugeReading::kSurface) {
        const DamBreak problem;
        RunOptions o = testing::small_run(0.05, 10.0, backend());
        o.devices = devices;
        o.gauge_reading = reading;
        o.threads = 1;
        o.gauges = {{"G1", 2.2, 0.5}, {"G2", 3.0, 0.3}, {"G3", 1.9, 0.5}};
        o.probes = {{"Q1", 2.5, 0.5, 0.1}, {"Q2", 3.22, 0.5, 0.05}, {"Q3", 2.0, 0.2, 0.02}};
        // Wall sensors behind and under the column: one disc wider than a tile, one narrower;
        // and a panel on the wall behind it, many tiles across, with its moment about its foot.
        o.walls = {parse_wall_sensor("3.22,0.5,0.2,-x,0.3", "W1"),
                   parse_wall_sensor("2.8,0.4,0,+z,0.06", "W2"),
                   parse_wall_panel("3.22,0.2,0,3.22,0.8,0.4,-x", "F1"),
                   parse_wall_moment("3.22,0.2,0,3.22,0.8,0.4,-x,+z", "M1")};
        Simulation sim(problem, o, 0);
        for (int i = 0; i < 149; ++i) sim.step();
        sim.measure();  // a GPU seeks the front behind this measurement's lead next
        sim.step();
        const InstrumentReadings device = sim.measure();
        const InstrumentReadings host = measure(sim.instruments(), sim.particles(), sim.params());
        const Wet wet = expect_readings_near(device, host);
        std::printf(
            "%s on %d device(s), t = %.3f s: %d of %zu gauges and %d of %zu probes wet, "
            "front at x = %.4f m\n",
            to_string(backend()).c_str(), sim.device_count(), sim.time(), wet.gauges,
            host.heights.size(), wet.probes, host.pressures.size(), host.front);
        EXPECT_GE(wet.gauges, 3);  // H4 and G1-G3 in and at the column
        EXPECT_GE(wet.probes, 3);  // Q1-Q3 in it and on the wall behind it
        EXPECT_EQ(wet.walls, 4);   // W1, W2, F1 and M1 under it; F_obstacle and M_obstacle dry
    }
    // The readings every 10 iterations over 150, with DamBreak's instruments and wall sensors,
    // the slices moving at every rebuild where balancing is on.
    std::vector<InstrumentReadings> readings(const DeviceSelection& devices, bool balancing) {
        const DamBreak problem;
        RunOptions o = testing::small_run(0.05, 10.0, backend());
        o.devices = devices;
        o.threads = 1;
        o.balancing = balancing ? RunOptions::Balancing::kOn : RunOptions::Balancing::kOff;
        o.lb_threshold = 0.0;  // any difference in Forces time moves a slice
        o.walls = {parse_wall_sensor("3.22,0.5,0.2,-x,0.3", "W1"),
                   parse_wall_sensor("2.8,0.4,0,+z,0.06", "W2"),
                   parse_wall_panel("2.9,0.1,0,2.1,0.9,0,+z", "F1"),  // across the slices
                   parse_wall_moment("2.9,0.1,0,2.1,0.9,0,+z,-x", "M1")};
        for (int g = 0; g < 24; ++g) {  // across the column, where the slices' bounds move
            const double x = 2.0 + 0.05 * g;
            o.gauges.push_back({"G" + std::to_string(g), x, 0.5});
            o.probes.push_back({"Q" + std::to_string(g), x + 0.013, 0.3, 0.1});
        }
        Simulation sim(problem, o, 0);
        std::vector<InstrumentReadings> all{sim.measure()};  // t = 0: the devices sort for it
        for (int i = 1; i <= 150; ++i) {
            sim.step();
            if (i % 10 == 0) all.push_back(sim.measure());
        }
        return all;
    }
    DeviceSelection several() const {
        return backend() == BackendChoice::kCuda ? DeviceSelection::gpus({0, 0, 0})
                                                 : DeviceSelection::cpu(3);
    }
    DeviceSelection one() const {
        return backend() == BackendChoice::kCuda ? DeviceSelection::gpus({0})
                                                 : DeviceSelection::cpu(1);
    }
};

// The reading before the first step comes from the devices too, which sort their particles into
// cells for it (no copy of every particle on the host): the host's evaluation to rounding.
TEST_P(DeviceInstruments, TheInitialStateIsRead) {
    const DamBreak problem;
    Simulation sim(problem, testing::small_run(0.05, 1.0, backend()), 0);
    const InstrumentReadings r = sim.measure();
    const InstrumentReadings host = measure(sim.instruments(), sim.particles(), sim.params());
    ASSERT_EQ(r.heights.size(), host.heights.size());
    for (std::size_t g = 0; g < host.heights.size(); ++g) {
        EXPECT_NEAR(r.heights[g], host.heights[g], 1e-4) << "gauge " << g;
    }
    ASSERT_EQ(r.pressures.size(), host.pressures.size());
    for (std::size_t p = 0; p < host.pressures.size(); ++p) {
        EXPECT_NEAR(r.pressures[p], host.pressures[p], 1e-4 * std::fabs(host.pressures[p]) + 1e-2)
            << "probe " << p;
    }
    ASSERT_EQ(r.walls.size(), host.walls.size());
    for (std::size_t w = 0; w < host.walls.size(); ++w) {
        EXPECT_NEAR(r.walls[w], host.walls[w], 1e-4 * std::fabs(host.walls[w]) + 1e-2)
            << "wall sensor " << w;
    }
    EXPECT_NEAR(r.heights.back(), 0.55, 0.05);  // H4, in the reservoir
}

// That sort ahead of the first step changes nothing: the first step sorts again, the particles
// where they were, and the run goes on to the same bits as one not read at t = 0.
TEST_P(DeviceInstruments, ReadingBeforeTheFirstStepKeepsTheRunsBits) {
    const DamBreak problem;
    const auto run = [&](const DeviceSelection& devices, bool read_first) {
        RunOptions o = testing::small_run(0.05, 10.0, backend());
        o.devices = devices;
        o.threads = 1;
        Simulation sim(problem, o, 0);
        if (read_first) sim.measure();
        for (int i = 0; i < 60; ++i) sim.step();
        return testing::states_by_id(sim.particles());
    };
    for (bool split : {false, true}) {
        const DeviceSelection devices = split ? several() : one();
        const testing::ParticleStates unread = run(devices, false);
        EXPECT_EQ(testing::count_bitwise_differences(unread, run(devices, true)), 0)
            << (split ? "several devices" : "one device");
    }
}

TEST_P(DeviceInstruments, OneDeviceReadsWhatTheHostReads) {
    expect_device_equals_host(one());
}

TEST_P(DeviceInstruments, SeveralDevicesReadWhatTheHostReads) {
    expect_device_equals_host(several());
}

TEST_P(DeviceInstruments, GaugesReadingTheWettedLengthReadWhatTheHostReads) {
    expect_device_equals_host(one(), GaugeReading::kWetted);
    expect_device_equals_host(several(), GaugeReading::kWetted);
}

// A measurement finished some steps after it started reads the state it started from: on a GPU it
// runs on a stream of its own, and the steps after it wait for it before they write what it reads
// (mDBC's wall densities, the corrector's Euler; a rebuild's migration, second sort and lists,
// its first sort running beside it). On several devices, measured across rebuilds until one of
// them has moved particles between the devices. Balancing is off: its bounds follow measured
// times, and on a loaded machine they settled where no particle crossed for 20 rebuilds; with
// the bounds fixed, which rebuild moves particles follows from the flow alone.
TEST_P(DeviceInstruments, AMeasurementFinishedStepsLaterReadsTheStateItStartedFrom) {
    for (bool split : {false, true}) {
        for (BoundaryModel boundary : {BoundaryModel::kDbc, BoundaryModel::kMdbc}) {
            SCOPED_TRACE(std::string(boundary == BoundaryModel::kMdbc ? "mdbc" : "dbc") +
                         (split ? ", several devices" : ", one device"));
            const DamBreak problem;
            RunOptions o = testing::small_run(0.05, 10.0, backend());
            o.devices = split ? several() : one();
            o.threads = 1;
            o.boundary = boundary;
            o.balancing = RunOptions::Balancing::kOff;
            o.walls = {parse_wall_sensor("3.22,0.5,0.2,-x,0.3", "W1"),
                       parse_wall_sensor("2.8,0.4,0,+z,0.06", "W2")};
            Simulation sim(problem, o, 0);
            for (int i = 0; i < 149; ++i) sim.step();
            sim.measure();  // a GPU seeks the front behind this measurement's lead next
            // The measurements wait 20 ms on the GPU: the three steps after each are queued long
            // before it reads.
            for (int d = 0; d < sim.group().size(); ++d) {
                sim.group().device(d).hold_measurements_for_testing(20000);
            }
            const auto migrated = [&] {
                std::uint64_t n = 0;
                for (const WorkerStats& s : sim.group().stats()) n += s.particles_migrated_in;
                return n;
            };
            bool moved = false;
            for (int rebuilds = 0; rebuilds < 20 && !moved; ++rebuilds) {
                while (!sim.at_rebuild()) sim.step();
                sim.start_measuring();
                const HostParticles started = sim.particles();
                const std::uint64_t migrated_before = migrated();
                for (int i = 0; i < 3; ++i) sim.step();  // a rebuild, then two plain iterations
                const InstrumentReadings device = sim.finish_measuring();
                const Wet wet =
                    expect_readings_near(device, measure(sim.instruments(), started, sim.params()));
                EXPECT_EQ(wet.walls, 2);  // W1 and W2 under the column; F_obstacle still dry
                moved = !split || migrated() > migrated_before;
            }
            EXPECT_TRUE(moved) << "no rebuild moved particles between the devices";
        }
    }
}

// Each device returns its sums per plane of cells across the split axis, which one device holds
// whole: the group's sums are then the same bits on any split (instruments_body.h).
TEST_P(DeviceInstruments, SeveralDevicesReadTheSameBitsAsOneBalancedOrNot) {
    const std::vector<InstrumentReadings> alone = readings(one(), false);
    for (bool balancing : {false, true}) {
        const std::vector<InstrumentReadings> split = readings(several(), balancing);
        ASSERT_EQ(split.size(), alone.size());
        for (std::size_t n = 0; n < alone.size(); ++n) {
            const std::string what =
                "reading " + std::to_string(n) + ", balancing " + (balancing ? "on" : "off");
            EXPECT_EQ(split[n].heights, alone[n].heights) << what;
            EXPECT_EQ(split[n].pressures, alone[n].pressures) << what;
            EXPECT_EQ(split[n].walls, alone[n].walls) << what;
            EXPECT_EQ(split[n].front, alone[n].front) << what;
        }
    }
}

// Surface panels (mDBC): on the wall behind the column, the force of the load panel over the same
// rectangle (its patches lie whole inside it); on the floor under the column, across the slices,
// the column's weight there. The devices read what the host reads, and several devices, balanced
// or not, the same bits as one.
TEST_P(DeviceInstruments, SurfacePanelsReadWhatLoadPanelsAndTheHostRead) {
    const auto readings = [&](const DeviceSelection& devices, bool balancing) {
        const DamBreak problem;
        RunOptions o = testing::small_run(0.05, 10.0, backend());
        o.boundary = BoundaryModel::kMdbc;
        o.devices = devices;
        o.threads = 1;
        o.balancing = balancing ? RunOptions::Balancing::kOn : RunOptions::Balancing::kOff;
        o.lb_threshold = 0.0;
        o.problem_instruments = false;
        o.walls = {parse_wall_panel("3.22,0.2,0,3.22,0.8,0.4,-x", "F1"),
                   parse_wall_surface("3.1,0.2,0,3.3,0.8,0.4,+x", "FS1"),
                   parse_wall_surface("2.1,0.1,-0.1,2.9,0.9,0.02,-z", "FS2")};
        Simulation sim(problem, o, 0);
        std::vector<InstrumentReadings> all{sim.measure()};
        for (int i = 1; i <= 100; ++i) {
            sim.step();
            if (i % 20 == 0) all.push_back(sim.measure());
        }
        const InstrumentReadings host = measure(sim.instruments(), sim.particles(), sim.params());
        expect_readings_near(all.back(), host);
        return all;
    };
    const std::vector<InstrumentReadings> alone = readings(one(), false);
    for (const InstrumentReadings& r : alone) {
        ASSERT_EQ(r.walls.size(), 3u);
        EXPECT_NEAR(r.walls[1], r.walls[0], 1e-5 * std::fabs(r.walls[0]));
        EXPECT_GT(r.walls[0], 100.0);  // N: the column stands against it
        // The column (0.55 m deep at the start) over 0.8 x 0.8 m of floor: some 3.4 kN.
        EXPECT_GT(r.walls[2], 2000.0);
    }
    std::printf("F1 %.3f N, FS1 %.3f N, FS2 %.3f N at the last reading\n", alone.back().walls[0],
                alone.back().walls[1], alone.back().walls[2]);
    for (bool balancing : {false, true}) {
        const std::vector<InstrumentReadings> split = readings(several(), balancing);
        ASSERT_EQ(split.size(), alone.size());
        for (std::size_t n = 0; n < alone.size(); ++n) {
            EXPECT_EQ(split[n].walls, alone[n].walls)
                << "reading " << n << ", balancing " << (balancing ? "on" : "off");
        }
    }
}

// A block of water on a floor, and one droplet on the floor far ahead of it: the devices' front
// looks behind their leading banded particle (the droplet) first, finds nothing with neighbours
// there, and then looks everywhere (instruments_body.h).
class WaterAndADroplet : public Problem {
public:
    std::string name() const override { return "WaterAndADroplet"; }
    double default_dp() const override { return 0.04; }
    double default_t_end() const override { return 0.01; }
    int default_split_axis() const override { return 0; }
    double still_water_depth() const override { return 0.2; }
    Box domain(double) const override { return Box{{-0.2, -0.2, -0.2}, {2.2, 0.5, 0.6}}; }
    void check_resolution(double) const override {}
    void fill(double dp, const EmitParticle& emit) const override {
        for_each_lattice_point(Box{{0, 0, -3 * dp}, {2.0, 0.3, 0}}, dp,
                               [&](double x, double y, double z) {
                                   emit(SetupParticle{x, y, z, kBoundary, 0.0});
                               });
        for_each_lattice_point(Box{{0, 0, 0}, {0.5, 0.3, 0.2}}, dp,
                               [&](double x, double y, double z) {
                                   emit(SetupParticle{x, y, z, kFluid, 0.2 - z});
                               });
        emit(SetupParticle{1.5 + 0.5 * dp, 0.15 + 0.5 * dp, 0.5 * dp, kFluid, 0.0});
    }
    Instruments instruments() const override {
        Instruments in;
        in.front = FrontTracker{};
        return in;
    }
};

TEST_P(DeviceInstruments, TheFrontIsFoundBehindALoneDroplet) {
    const WaterAndADroplet problem;
    RunOptions o = testing::small_run(0.04, 0.01, backend());
    o.threads = 1;
    Simulation sim(problem, o, 0);
    // Measured again and again: each measurement looks behind the lead the one before found,
    // the droplet's, and finds nothing there either (a GPU's measurements take turns at the
    // minima they keep: instrument_launchers.h).
    for (int n = 0; n < 3; ++n) {
        for (int i = 0; i < 3; ++i) sim.step();
        const double device = sim.measure().front;
        const double host = surge_front(*sim.instruments().front, sim.particles(), sim.params());
        EXPECT_DOUBLE_EQ(device, host) << "measurement " << n;
        EXPECT_NEAR(device, 0.5, 0.1) << "measurement " << n;  // the block's edge, not the droplet
    }
}

SPH_ON_EVERY_BACKEND(DeviceInstruments);

}  // namespace
}  // namespace sph
