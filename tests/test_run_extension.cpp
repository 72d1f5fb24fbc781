// A finished run can be extended: a run with periodic checkpoints that reaches --t-end leaves an
// end checkpoint (the state at its last rebuild before the end), and --restart latest with a
// later --t-end goes on from it bitwise as a run straight to that end, its gauges, frames and
// report continuing; with the same --t-end there is nothing left to run, and the restart says so.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "dam_break.h"
#include "restart_support.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace restart_testing;
using nlohmann::json;

// A quiet DamBreak run on `devices` CPU devices to `t_end`, its report into dir/out.
RunOptions run_to(double t_end, int devices, const std::string& dir) {
    RunOptions o = options_on(devices);
    o.t_end = t_end;
    o.output_dir = dir + "/out";
    o.checkpoint_dir = dir + "/checkpoints";
    return o;
}

Finish run_whole(const RunOptions& o) {
    const DamBreak problem;
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    sim.run(log);
    return finish(sim);
}

// To `first` with a checkpoint due every `every` s, then --restart latest to `second` on
// `devices_after` devices.
Finish extended(double first, double every, double second, int devices_before, int devices_after,
                const std::string& dir) {
    RunOptions before = run_to(first, devices_before, dir);
    before.checkpoint_every = every;
    run_whole(before);
    RunOptions after = run_to(second, devices_after, dir);
    after.checkpoint_every = every;
    after.restart_from = "latest";
    return run_whole(after);
}

// The end falls inside a rebuild interval: the end checkpoint holds the last rebuild before it,
// where the run straight to the later end also was.
TEST(RunExtension, TheEndCheckpointIsTheLastRebuildBeforeTheEnd) {
    testing::TempDir dir("end-checkpoint");
    RunOptions o = run_to(0.05, 1, dir.path());
    o.checkpoint_every = 0.05;  // the only one due falls on the end
    const DamBreak problem;
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    const RunReport report = sim.run(log);
    const std::vector<std::string> kept = checkpoints_in(o.checkpoint_dir);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(report.last_checkpoint, kept[0]);
    EXPECT_EQ(report.checkpoints_written, 1);
    EXPECT_NE(log.str().find("end checkpoint " + kept[0]), std::string::npos) << log.str();
    const RunState end = read_checkpoint(kept[0]);
    ASSERT_TRUE(end.end_reached.has_value());
    EXPECT_EQ(*end.end_reached, 0.05);
    EXPECT_LT(end.time, 0.05);
    EXPECT_LT(end.iteration, sim.iteration());
    EXPECT_GE(end.iteration + o.rebuild_every, sim.iteration());  // within the last interval
}

// Checkpoints by wall time, none of them due in so short a run, leave one at the end too; a
// folder for checkpoints alone (as a branch is given) asks for none.
TEST(RunExtension, OnlyPeriodicCheckpointsLeaveOneAtTheEnd) {
    testing::TempDir by_wall("by-wall"), folder_only("folder-only");
    RunOptions o = run_to(0.02, 1, by_wall.path());
    o.checkpoint_wall_seconds = 3600.0;
    run_whole(o);
    const std::vector<std::string> kept = checkpoints_in(o.checkpoint_dir);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_TRUE(read_checkpoint(kept[0]).end_reached.has_value());
    const RunOptions none = run_to(0.02, 1, folder_only.path());
    run_whole(none);
    EXPECT_TRUE(checkpoints_in(none.checkpoint_dir).empty());
}

TEST(RunExtension, OneDeviceGoesOnBitwiseAsTheRunStraightToTheLaterEnd) {
    testing::TempDir straight_dir("straight"), dir("extended");
    const Finish reference = run_whole(run_to(0.1, 1, straight_dir.path()));
    expect_bitwise(reference, extended(0.05, 0.05, 0.1, 1, 1, dir.path()));
}

TEST(RunExtension, GoesOnBitwiseOnOtherDeviceCountsAndOnceMore) {
    testing::TempDir straight_dir("straight"), dir("extended-twice");
    const Finish reference = run_whole(run_to(0.12, 1, straight_dir.path()));
    // 0.03, an end checkpoint, 0.07 on three devices, another, 0.12 on two.
    extended(0.03, 0.02, 0.07, 1, 3, dir.path());
    RunOptions last = run_to(0.12, 2, dir.path());
    last.checkpoint_every = 0.02;
    last.restart_from = "latest";
    expect_bitwise(reference, run_whole(last));
}

// Taken where the run stopped instead, at --t-end, the extension would differ: the comparison
// above can fail.
TEST(RunExtension, TheStateAtTheEndItselfWouldNotGoOnBitwise) {
    testing::TempDir straight_dir("straight"), dir("at-the-end");
    const Finish reference = run_whole(run_to(0.1, 1, straight_dir.path()));
    const DamBreak problem;
    Simulation first(problem, run_to(0.05, 1, dir.path()), 0);
    std::ostringstream log;
    first.run(log);
    RunState at_end = first.capture_state(OutputPositions{}, 0.0);
    const std::string path = dir.path() + "/at_end.chk";
    write_checkpoint(path, at_end);
    RunOptions after = run_to(0.1, 1, dir.path());
    after.restart_from = path;
    Simulation second(problem, after, 0);
    second.run(log);
    EXPECT_GT(testing::count_bitwise_differences(reference.state, finish(second).state), 0);
}

// Asked to run to the end it reached, or to an earlier one, the restart refuses: nothing is left.
TEST(RunExtension, TheSameEndAgainIsRefusedAsNothingLeftToRun) {
    testing::TempDir dir("same-end");
    RunOptions o = run_to(0.05, 1, dir.path());
    o.checkpoint_every = 0.05;
    run_whole(o);
    for (double t_end : {0.05, 0.049}) {
        RunOptions again = o;
        again.t_end = t_end;
        again.restart_from = "latest";
        const DamBreak problem;
        try {
            Simulation sim(problem, again, 0);
            ADD_FAILURE() << "a restart to " << t_end << " s was not refused";
        } catch (const OptionError& e) {
            EXPECT_NE(std::string(e.what()).find("nothing is left to run"), std::string::npos)
                << e.what();
            EXPECT_NE(std::string(e.what()).find("give a later --t-end"), std::string::npos);
        }
    }
}

// --- The program: gauges, frames and the report go on ---

std::vector<std::string> program_args(const std::string& out, const std::string& t_end) {
    return {"--backend",    "cpu", "--threads",      "1",    "--dp",          "0.08",
            "--t-end",      t_end, "--output-every", "0.05", "--gauge-every", "0.01",
            "--output-dir", out};
}

json report_of(const std::string& dir) {
    std::ifstream in(dir + "/run_report.json");
    return json::parse(in);
}

// The (time, file) entries of a .pvd.
std::vector<std::pair<std::string, std::string>> listed_frames(const std::string& pvd) {
    std::vector<std::pair<std::string, std::string>> frames;
    const std::string text = testing::read_text(pvd), key = "<DataSet timestep=\"";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        const std::size_t t = at + key.size(), f = text.find("file=\"", at) + 6;
        frames.emplace_back(text.substr(t, text.find('"', t) - t),
                            text.substr(f, text.find('"', f) - f));
    }
    return frames;
}

TEST(RunExtensionProgram, GaugesFramesAndTheReportGoOnAsTheStraightRuns) {
    testing::TempDir dir("extend-program");
    DamBreak problem;
    const std::string whole = dir.path() + "/whole", parts = dir.path() + "/parts";
    ASSERT_EQ(testing::run_program(problem, program_args(whole, "0.2"), 0).code, 0);
    std::vector<std::string> first = program_args(parts, "0.1");
    first.insert(first.end(), {"--checkpoint-every", "0.1"});  // due only at the end
    const testing::AppResult a = testing::run_program(problem, first, 0);
    ASSERT_EQ(a.code, 0) << a.err;
    EXPECT_NE(a.out.find("end checkpoint"), std::string::npos) << a.out;
    std::vector<std::string> second = program_args(parts, "0.2");
    second.insert(second.end(), {"--checkpoint-every", "0.1", "--restart", "latest"});
    const testing::AppResult b = testing::run_program(problem, second, 0);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_NE(b.out.find("restarting from"), std::string::npos) << b.out;
    EXPECT_EQ(testing::read_text(parts + "/gauges.csv"), testing::read_text(whole + "/gauges.csv"));
    // The frames at the straight run's times, each there; the first run's tail superseded.
    const auto frames = listed_frames(parts + "/DamBreak.pvd");
    const auto straight_frames = listed_frames(whole + "/DamBreak.pvd");
    ASSERT_EQ(frames.size(), straight_frames.size());
    for (std::size_t k = 0; k < frames.size(); ++k) {
        EXPECT_EQ(frames[k].first, straight_frames[k].first) << k;
        EXPECT_TRUE(std::filesystem::exists(parts + "/" + frames[k].second)) << frames[k].second;
    }
    EXPECT_NE(frames.back().second.find("DamBreak_restart1_"), std::string::npos);
    EXPECT_NE(testing::read_text(parts + "/DamBreak.pvd").find("superseded"), std::string::npos);
    // The report goes on from the first run's counts to the straight run's.
    const json extended = report_of(parts), straight = report_of(whole);
    EXPECT_EQ(extended["status"], "completed");
    EXPECT_EQ(extended["checkpoints"]["restarts"], 1);
    EXPECT_GT(extended["wall_time_s"]["time_loop_before_restart"].get<double>(), 0.0);
    for (const char* key :
         {"iterations", "particle_iterations", "simulated_time_s", "output_frames"}) {
        EXPECT_EQ(extended[key], straight[key]) << key;
    }
}

TEST(RunExtensionProgram, TheSameEndAgainSaysNothingIsLeftAndChangesNothing) {
    testing::TempDir dir("extend-same");
    DamBreak problem;
    const std::string parts = dir.path() + "/parts";
    std::vector<std::string> args = program_args(parts, "0.05");
    args.insert(args.end(), {"--checkpoint-every", "0.05"});
    ASSERT_EQ(testing::run_program(problem, args, 0).code, 0);
    const std::string gauges = testing::read_text(parts + "/gauges.csv");
    const std::string report = testing::read_text(parts + "/run_report.json");
    args.insert(args.end(), {"--restart", "latest"});
    const testing::AppResult again = testing::run_program(problem, args, 0);
    EXPECT_EQ(again.code, 2) << again.out << again.err;
    EXPECT_NE(again.err.find("already reached t = 0.05 s; nothing is left to run"),
              std::string::npos)
        << again.err;
    EXPECT_EQ(testing::read_text(parts + "/gauges.csv"), gauges);
    EXPECT_EQ(testing::read_text(parts + "/run_report.json"), report);
}

}  // namespace
}  // namespace sph
