// The run report's JSON parses, follows its schema (docs/run-report.md) and its counters add up:
// throughput from particle-iterations and time, per-device times within the time loop, particle
// counts that sum to the run's, bytes one device sends that its neighbour receives; after a
// restart, the same of the run's own time loop.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "dam_break.h"
#include "test_support.h"

namespace sph {
namespace {

using nlohmann::json;

struct Reported {
    RunReport report;
    json doc;
    std::string printed;
};

RunOptions dam_break_options(int devices, const std::string& dir, double t_end = 0.02) {
    RunOptions o = testing::small_run(0.04, t_end);
    o.devices = DeviceSelection::cpu(devices);
    o.threads = 1;
    o.output_dir = dir;
    o.status_interval = 0.05;  // short windows, so that the instantaneous figures are measured
    return o;
}

Reported run_dam_break(const RunOptions& o) {
    testing::ReportedRun run = testing::run_reported(DamBreak(), o);
    Reported r;
    r.report = std::move(run.report);
    r.printed = std::move(run.log);
    std::ifstream in(o.output_dir + "/run_report.json");
    r.doc = json::parse(in);  // throws, failing the test, when it is not JSON
    return r;
}

double number(const json& j, const char* key) {
    EXPECT_TRUE(j.contains(key) && j[key].is_number()) << key << " in " << j.dump();
    return j.value(key, 0.0);
}

// The device's time-loop parts, each measured on its own worker thread one after another.
double device_parts(const json& d) {
    const json& k = d["kernel_time_s"];
    const json& w = d["wait_time_s"];
    return number(k, "build_neibs") + number(k, "forces") + number(k, "minimum_scan") +
           number(k, "euler") + number(w, "dt_reduction") + number(w, "neighbour_euler") +
           number(w, "mpi_edge_forces") + number(w, "rebuild") + number(d, "migration_s");
}

// `iterations_before`: those of the runs a restarted run went on from.
void expect_consistent(const json& r, int devices, long iterations_before = 0) {
    EXPECT_EQ(r["schema"], "sph-run-report/2");
    EXPECT_EQ(r["status"], "completed");
    const double whole_loop = number(r["wall_time_s"], "time_loop");
    // The devices' times are this run's own, after a restart too.
    const double loop = whole_loop - number(r["wall_time_s"], "time_loop_before_restart");
    const double main_thread =
        number(r["wall_time_s"], "output") + number(r["wall_time_s"], "load_balancing");
    const double pi = number(r, "particle_iterations");
    const auto particles = r["particles"]["total"].get<std::uint64_t>();
    const long iterations = r["iterations"].get<long>();
    ASSERT_GT(iterations, 0);
    ASSERT_GT(loop, 0.0);
    EXPECT_DOUBLE_EQ(pi, double(particles) * double(iterations));  // nothing left the domain
    EXPECT_NEAR(number(r, "kips"), pi / whole_loop / 1e3, 1e-9 * number(r, "kips"));
    EXPECT_NEAR(number(r, "mips"), number(r, "kips") / 1e3, 1e-12 * number(r, "kips"));
    const json& inst = r["instantaneous_kips"];
    EXPECT_GT(inst["windows"].get<int>(), 0);
    EXPECT_LE(number(inst, "min"), number(inst, "last"));
    EXPECT_LE(number(inst, "last"), number(inst, "max"));

    ASSERT_EQ(r["devices"].size(), std::size_t(devices));
    double particles_mean = 0.0, sent = 0.0, received = 0.0, memory = 0.0;
    int next_slice = 0;
    for (const json& d : r["devices"]) {
        const json& k = d["kernel_time_s"];
        // Sequential on one thread: the parts fit in the loop, and the stripes in Forces.
        EXPECT_LE(device_parts(d) + main_thread, loop);
        EXPECT_NEAR(number(d, "other_s"), loop - main_thread - device_parts(d), 1e-9);
        EXPECT_LE(number(k, "forces_edges") + number(k, "forces_centre"), number(k, "forces"));
        EXPECT_GT(number(k, "forces_centre"), 0.0);
        EXPECT_LE(number(k, "forces"), number(r["kernel_time_s"], "forces"));
        EXPECT_NEAR(number(d, "forces_s_per_iteration") * double(iterations - iterations_before),
                    number(k, "forces"), 1e-9 + 1e-6 * number(k, "forces"));
        const json& p = d["particles"];
        EXPECT_LE(number(p, "min"), number(p, "mean"));
        EXPECT_LE(number(p, "mean"), number(p, "max"));
        particles_mean += number(p, "mean");
        EXPECT_EQ(d["slices"]["first"].get<int>(), next_slice);
        next_slice = d["slices"]["end"].get<int>();
        EXPECT_LE(d["slices"]["min"].get<int>(), next_slice - d["slices"]["first"].get<int>());
        EXPECT_GE(d["slices"]["max"].get<int>(), next_slice - d["slices"]["first"].get<int>());
        sent += number(d, "bytes_sent");
        received += number(d, "bytes_received");
        memory += number(d, "memory_bytes");
        // The memory array by array: the layout's parts and the rest add up to what it took.
        double parts = 0.0;
        for (const auto& [name, bytes] : d["memory_parts_bytes"].items()) {
            EXPECT_GE(bytes.get<double>(), 0.0) << name;
            parts += bytes.get<double>();
        }
        EXPECT_EQ(parts, number(d, "memory_bytes"));
        EXPECT_GT(number(d["memory_parts_bytes"], "neighbour list"), 0.0);
    }
    EXPECT_NEAR(particles_mean, double(particles), 1e-6 * double(particles));
    EXPECT_EQ(sent, received);
    EXPECT_EQ(memory, number(r, "device_memory_bytes"));
    EXPECT_DOUBLE_EQ(number(r, "bytes_per_particle"), memory / double(particles));
}

TEST(RunReport, OneDeviceAddsUp) {
    testing::TempDir dir("report1");
    const Reported r = run_dam_break(dam_break_options(1, dir.path()));
    expect_consistent(r.doc, 1);
    const json& d = r.doc["devices"][0];
    EXPECT_EQ(number(d, "bytes_sent"), 0.0);  // nobody to talk to
    EXPECT_EQ(number(d["kernel_time_s"], "forces_edges"), 0.0);
    EXPECT_EQ(number(r.doc["exchange"], "edge_force_copy_s"), 0.0);
    EXPECT_EQ(d["edge_force_sends"], 0);
    EXPECT_EQ(d["particles_migrated_in"], 0);
    EXPECT_EQ(r.doc["load_balancing"]["enabled"], false);
    EXPECT_EQ(r.doc["load_balancing"]["decisions"], 0);
}

TEST(RunReport, ThreeDevicesAddUpAndNeighboursTradeBytes) {
    testing::TempDir dir("report3");
    const Reported r = run_dam_break(dam_break_options(3, dir.path()));
    expect_consistent(r.doc, 3);
    const json& dev = r.doc["devices"];
    // The middle device has two neighbours: it sends the most and computes both edge stripes.
    EXPECT_GT(number(dev[1], "bytes_sent"), number(dev[0], "bytes_sent"));
    EXPECT_GT(number(dev[1], "bytes_sent"), number(dev[2], "bytes_sent"));
    for (const json& d : dev) {
        EXPECT_GT(number(d, "bytes_received"), 0.0);
        EXPECT_GT(number(d["kernel_time_s"], "forces_edges"), 0.0);
    }
    // Forces of every edge slice, each iteration (two stages): at least 16 bytes per particle of
    // the edge slices, which are not empty.
    EXPECT_GT(number(r.doc["exchange"], "edge_force_copy_s"), 0.0);
    // Two sends per neighbour and iteration (predictor and corrector), none lost.
    const long iterations = r.doc["iterations"];
    EXPECT_EQ(dev[0]["edge_force_sends"], 2 * iterations);
    EXPECT_EQ(dev[1]["edge_force_sends"], 4 * iterations);
    EXPECT_EQ(dev[2]["edge_force_sends"], 2 * iterations);
    // Balancing (on by default with several devices) decided at every rebuild after the first
    // k iterations; each decision moves at most one slice per boundary.
    const json& lb = r.doc["load_balancing"];
    EXPECT_EQ(lb["enabled"], true);
    EXPECT_EQ(lb["decisions"].get<long>(), (iterations - 1) / RunOptions::kDefaultRebuildEvery);
    EXPECT_LE(lb["slice_moves"].get<long>(), 2 * lb["decisions"].get<long>());
    // The table shows one column per device and the parts of the time loop.
    for (const char* text : {"device 0", "device 2", "dt reduction wait", "migration",
                             "particles mean", "MB sent", "edge stripes"}) {
        EXPECT_NE(r.printed.find(text), std::string::npos) << text << "\n" << r.printed;
    }
    // What was printed is what was written.
    EXPECT_EQ(r.report.devices.size(), 3u);
    EXPECT_EQ(r.report.devices[1].worker.bytes_sent, dev[1]["bytes_sent"].get<std::uint64_t>());
    EXPECT_DOUBLE_EQ(r.report.kips(), number(r.doc, "kips"));
}

// A restarted run's report: its time loop goes on from the checkpoint's, and what it breaks down
// (the devices' times, other_s, the windows' throughput) is its own time loop since the restart,
// where the loop before it would otherwise land in other_s and in the first window.
TEST(RunReport, ARestartedRunBreaksDownItsOwnTimeLoop) {
    testing::TempDir dir("report-restart");
    RunOptions first = dam_break_options(1, dir.path(), 0.03);
    first.checkpoint_every = 0.02;  // one near 0.02 s, then on to 0.03
    testing::run_reported(DamBreak(), first);
    const std::vector<std::string> kept = checkpoints_in(dir.path() + "/checkpoints");
    ASSERT_EQ(kept.size(), 2u);  // and the end checkpoint, newer: the restart takes the first
    const RunState saved = read_checkpoint(kept.front());
    ASSERT_GT(saved.loop_seconds, 0.0);

    RunOptions again = dam_break_options(1, dir.path(), 0.04);
    again.restart_from = kept.front();
    const Reported r = run_dam_break(again);
    const json& wall = r.doc["wall_time_s"];
    EXPECT_EQ(number(wall, "time_loop_before_restart"), saved.loop_seconds);
    EXPECT_GT(number(wall, "time_loop"), saved.loop_seconds);
    expect_consistent(r.doc, 1, saved.iteration);
    // No window holds more particle-iterations than the run itself did (windows last at least
    // window_s).
    const json& inst = r.doc["instantaneous_kips"];
    const double own = number(r.doc, "particle_iterations") - saved.particle_iterations;
    ASSERT_GT(own, 0.0);
    EXPECT_LE(number(inst, "max") * 1e3 * number(inst, "window_s"), own * (1.0 + 1e-12));
    EXPECT_NE(r.printed.find("since its restart"), std::string::npos) << r.printed;
}

// The report says how its run was made: the settings that fix the physics, numbers as numbers
// (to the bit of the option given), the rest as text, and the same on the console.
TEST(RunReport, RecordsThePhysicsSettings) {
    testing::TempDir dir("report-physics");
    RunOptions o = dam_break_options(1, dir.path(), 0.01);
    o.boundary = BoundaryModel::kMdbc;
    o.slip = RunOptions::Slip::kFreeSlip;
    o.viscosity_alpha = 0.013;
    o.gradient_correction = true;
    o.no_penetration = true;
    o.perturb_seed = 7;
    const Reported r = run_dam_break(o);
    const json& p = r.doc["physics"];
    ASSERT_TRUE(p.is_object()) << r.doc.dump();
    EXPECT_EQ(number(p, "alpha"), 0.013);
    EXPECT_EQ(number(p, "delta"), o.diffusion_delta);
    EXPECT_EQ(number(p, "h-factor"), o.h_factor);
    EXPECT_EQ(number(p, "cfl"), o.cfl);
    EXPECT_EQ(number(p, "dp"), o.dp);
    EXPECT_EQ(p["boundary"], "mdbc");
    EXPECT_EQ(p["slip"], "free-slip");
    EXPECT_EQ(p["gradient-correction"], "on");
    EXPECT_EQ(p["no-penetration"], "on");
    EXPECT_EQ(p["perturb"], "7 size 0.001");
    EXPECT_EQ(p["problem"], "DamBreak");
    EXPECT_NE(r.printed.find("alpha 0.013, delta 0.1"), std::string::npos) << r.printed;
    EXPECT_NE(r.printed.find("boundary mdbc, slip free-slip"), std::string::npos) << r.printed;

    // Without the options that are written only when on.
    testing::TempDir plain_dir("report-physics-plain");
    const Reported plain = run_dam_break(dam_break_options(1, plain_dir.path(), 0.01));
    EXPECT_FALSE(plain.doc["physics"].contains("gradient-correction"));
    EXPECT_FALSE(plain.doc["physics"].contains("no-penetration"));
    EXPECT_FALSE(plain.doc["physics"].contains("perturb"));
    EXPECT_EQ(plain.doc["physics"]["boundary"], "dbc");
}

}  // namespace
}  // namespace sph
