// Restarts: a restarted run is bitwise the run that never stopped, on any number of devices
// before and after and on every back end; the output series go on where they stopped; a failed
// write leaves a last checkpoint; SIGTERM (in the process) stops a run with one to go on from.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <sstream>
#include <thread>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "common/interrupt.h"
#include "dam_break.h"
#include "restart_support.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace restart_testing;

// 300 iterations straight against 150, a checkpoint, a restart and 150 more, on every back end:
// the CPU with 1 and 3 devices, CUDA with --devices 0 and 0,0; and across device counts.
class Restart : public testing::EveryBackend {
protected:
    RunOptions one() const {
        return options_on(cuda() ? DeviceSelection::gpus({0}) : DeviceSelection::cpu(1), backend());
    }
    RunOptions several() const {
        return options_on(cuda() ? DeviceSelection::gpus({0, 0}) : DeviceSelection::cpu(3),
                          backend());
    }
    RunOptions others() const {  // a device count other than several()'s
        return options_on(cuda() ? DeviceSelection::gpus({0}) : DeviceSelection::cpu(2), backend());
    }
    bool cuda() const { return backend() == BackendChoice::kCuda; }
};

TEST_P(Restart, OneDeviceGoesOnBitwise) {
    testing::TempDir dir("restart1");
    expect_bitwise(straight(one(), 300), restarted(one(), one(), 150, 300, dir.path()));
}

TEST_P(Restart, SeveralDevicesGoOnBitwise) {
    testing::TempDir dir("restart3");
    expect_bitwise(straight(several(), 300), restarted(several(), several(), 150, 300, dir.path()));
}

TEST_P(Restart, ACheckpointGoesOnOnAnotherDeviceCountAsOneDeviceRuns) {
    testing::TempDir dir("restart32");
    const Finish reference = straight(one(), 300);
    expect_bitwise(reference, restarted(several(), others(), 150, 300, dir.path()));
    expect_bitwise(reference, restarted(one(), several(), 150, 300, dir.path()));
}

// Under mDBC the walls' ghost-node offsets travel in the checkpoint too.
TEST_P(Restart, UnderMdbcGoesOnBitwise) {
    testing::TempDir dir("restart-mdbc");
    RunOptions o = one();
    o.boundary = BoundaryModel::kMdbc;
    expect_bitwise(straight(o, 200), restarted(o, o, 100, 200, dir.path()));
}

SPH_ON_EVERY_BACKEND(Restart);

// Without the checkpoint's state the runs would differ: the comparison can fail.
TEST(RestartCheck, TheComparisonSeesADifferentState) {
    const Finish a = straight(options_on(1), 150), b = straight(options_on(1), 160);
    EXPECT_GT(testing::count_bitwise_differences(a.state, b.state), 0);
}

// --- Whole programs: the output series go on, SIGTERM stops cleanly ---

std::vector<std::string> program_args(const std::string& out, double t_end) {
    std::ostringstream end;
    end << t_end;
    return {"--backend",    "cpu",     "--threads",      "1",    "--dp",          "0.08",
            "--t-end",      end.str(), "--output-every", "0.05", "--gauge-every", "0.01",
            "--output-dir", out};
}

TEST(RestartProgram, GaugesAndFramesGoOnWhereTheyStopped) {
    testing::TempDir dir("program");
    DamBreak problem;
    const std::string whole = dir.path() + "/whole", parts = dir.path() + "/parts";
    ASSERT_EQ(testing::run_program(problem, program_args(whole, 0.3), 0).code, 0);
    std::vector<std::string> first = program_args(parts, 0.2);
    first.insert(first.end(), {"--checkpoint-every", "0.1"});
    const testing::AppResult a = testing::run_program(problem, first, 0);
    ASSERT_EQ(a.code, 0) << a.err;
    // The first run went on to 0.2 s after its checkpoint near 0.1 s: those rows and frames are
    // superseded when the second run goes on from the checkpoint.
    const std::vector<std::string> kept = checkpoints_in(parts + "/checkpoints");
    ASSERT_FALSE(kept.empty());
    std::vector<std::string> second = program_args(parts, 0.3);
    second.insert(second.end(), {"--restart", kept.front()});
    const testing::AppResult b = testing::run_program(problem, second, 0);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_NE(b.out.find("restarting from"), std::string::npos);
    EXPECT_EQ(testing::read_text(parts + "/gauges.csv"), testing::read_text(whole + "/gauges.csv"));
    EXPECT_TRUE(std::filesystem::exists(parts + "/gauges_before_restart1.csv"));
    const std::string pvd = testing::read_text(parts + "/DamBreak.pvd");
    EXPECT_NE(pvd.find("superseded"), std::string::npos) << pvd;
    EXPECT_NE(pvd.find("DamBreak_restart1_"), std::string::npos) << pvd;
    // As many frames listed as the straight run has, and each listed file exists.
    auto listed = [](const std::string& text) {
        std::vector<std::string> files;
        const std::string key = "<DataSet timestep=";
        for (std::size_t at = text.find(key); at != std::string::npos;
             at = text.find(key, at + 1)) {
            const std::size_t f = text.find("file=\"", at) + 6;
            files.push_back(text.substr(f, text.find('"', f) - f));
        }
        return files;
    };
    const std::vector<std::string> frames = listed(pvd);
    EXPECT_EQ(frames.size(), listed(testing::read_text(whole + "/DamBreak.pvd")).size());
    for (const std::string& f : frames) EXPECT_TRUE(std::filesystem::exists(parts + "/" + f)) << f;
}

// With --gauge-average a checkpoint falls inside a row's interval: the restart takes up the
// interval's sums, and the rows are the straight run's; with --gauge-filter it falls inside the
// window of a row still to filter, and the filtered rows are the straight run's too.
TEST(RestartProgram, AveragedGaugesGoOnFromInsideAnInterval) {
    testing::TempDir dir("averaged");
    DamBreak problem;
    auto args = [](const std::string& out, double t_end) {
        std::vector<std::string> a = program_args(out, t_end);
        const auto every = std::find(a.begin(), a.end(), "--gauge-every");
        *(every + 1) = "0.03";  // rows at 0.09 and 0.12 s around the checkpoint near 0.1 s
        // 20 Hz: the row at 0.09 s reaches 26 ms on, past the checkpoint
        a.insert(a.end(), {"--gauge-average", "--gauge-filter", "20"});
        return a;
    };
    const std::string whole = dir.path() + "/whole", parts = dir.path() + "/parts";
    ASSERT_EQ(testing::run_program(problem, args(whole, 0.3), 0).code, 0);
    std::vector<std::string> first = args(parts, 0.2);
    first.insert(first.end(), {"--checkpoint-every", "0.1"});
    ASSERT_EQ(testing::run_program(problem, first, 0).code, 0);
    const std::vector<std::string> kept = checkpoints_in(parts + "/checkpoints");
    ASSERT_FALSE(kept.empty());
    const IntervalAverage::State interval = read_checkpoint(kept.front()).outputs.gauge_average;
    ASSERT_FALSE(interval.spans.empty());
    EXPECT_GT(*std::max_element(interval.spans.begin(), interval.spans.end()), 0.0);
    const std::optional<StreamingLowPass::State> filter =
        read_checkpoint(kept.front()).outputs.gauge_filter;
    ASSERT_TRUE(filter.has_value());
    EXPECT_FALSE(filter->pending.empty());  // a row waits for readings past the checkpoint
    std::vector<std::string> second = args(parts, 0.3);
    second.insert(second.end(), {"--restart", kept.front()});
    const testing::AppResult b = testing::run_program(problem, second, 0);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(testing::read_text(parts + "/gauges.csv"), testing::read_text(whole + "/gauges.csv"));
    for (const char* file : {"/gauges_filtered.csv", "/gauges_peaks.csv"})
        EXPECT_EQ(testing::read_text(parts + file), testing::read_text(whole + file)) << file;
}

TEST(RestartProgram, IntoAnotherFolderTheSeriesListsOnlyFramesThatAreThere) {
    testing::TempDir dir("elsewhere");
    DamBreak problem;
    const std::string first = dir.path() + "/first", second = dir.path() + "/second";
    std::vector<std::string> args = program_args(first, 0.1);
    args.insert(args.end(), {"--checkpoint-every", "0.05"});
    ASSERT_EQ(testing::run_program(problem, args, 0).code, 0);
    const std::vector<std::string> kept = checkpoints_in(first + "/checkpoints");
    ASSERT_FALSE(kept.empty());
    std::vector<std::string> again = program_args(second, 0.15);
    again.insert(again.end(), {"--restart", kept.back()});
    ASSERT_EQ(testing::run_program(problem, again, 0).code, 0);
    const std::string pvd = testing::read_text(second + "/DamBreak.pvd");
    EXPECT_EQ(pvd.find("\"DamBreak_0000"), std::string::npos) << pvd;  // the first run's frames
    EXPECT_NE(pvd.find("DamBreak_restart1_"), std::string::npos) << pvd;
}

TEST(RestartProgram, SigtermWritesACheckpointAndTheRestartCompletesTheRun) {
    testing::TempDir dir("sigterm");
    DamBreak problem;
    const std::string whole = dir.path() + "/whole", parts = dir.path() + "/parts";
    ASSERT_EQ(testing::run_program(problem, program_args(whole, 0.15), 0).code, 0);
    install_interrupt_handlers();
    std::raise(SIGTERM);  // as if sent: the run goes on to its first rebuild after that
    ASSERT_EQ(interrupt_signal(), SIGTERM);
    const testing::AppResult a = testing::run_program(problem, program_args(parts, 0.15), 0);
    set_interrupt_signal(0);
    EXPECT_EQ(a.code, 128 + SIGTERM);
    EXPECT_NE(a.err.find("interrupted by SIGTERM"), std::string::npos) << a.err;
    EXPECT_NE(a.err.find("--restart"), std::string::npos) << a.err;
    EXPECT_NE(testing::read_text(parts + "/run_report.json").find("\"interrupted\""),
              std::string::npos);
    EXPECT_NE(testing::read_text(parts + "/DamBreak.pvd").find("</VTKFile>"), std::string::npos);
    std::vector<std::string> again = program_args(parts, 0.15);
    again.insert(again.end(), {"--restart", "latest"});
    const testing::AppResult b = testing::run_program(problem, again, 0);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(testing::read_text(parts + "/gauges.csv"), testing::read_text(whole + "/gauges.csv"));
}

// `timeout` signals the program and then its process group: the same SIGTERM twice at once. That
// is one request, and the run still stops with a checkpoint to go on from.
TEST(RestartProgram, ASignalDeliveredTwiceAtOnceStillWritesACheckpoint) {
    testing::TempDir dir("sigterm-twice");
    DamBreak problem;
    const std::string parts = dir.path() + "/parts";
    install_interrupt_handlers();
    std::raise(SIGTERM);
    std::raise(SIGTERM);  // without the second's grace, the process would end here
    ASSERT_EQ(interrupt_signal(), SIGTERM);
    const testing::AppResult a = testing::run_program(problem, program_args(parts, 0.15), 0);
    set_interrupt_signal(0);
    EXPECT_EQ(a.code, 128 + SIGTERM);
    EXPECT_NE(a.err.find("checkpoint written to"), std::string::npos) << a.err;
    EXPECT_FALSE(checkpoints_in(parts + "/checkpoints").empty());
}

// A second request 0.1 s or more after the first ends the process at once.
TEST(RestartProgramDeathTest, ASecondSignalLaterStopsAtOnce) {
    EXPECT_EXIT(
        {
            install_interrupt_handlers();
            set_interrupt_signal(0);
            std::raise(SIGTERM);
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            std::raise(SIGTERM);
            std::exit(0);
        },
        ::testing::ExitedWithCode(128 + SIGTERM), "second signal: stopping at once");
}

// --- Guarded output: a failed write stops the run with a last checkpoint, nothing truncated ---

// A run of `o` writing frames every `every` s into dir/out, the frame numbered `failing` failing.
RunOptions failing_output_run(const testing::TempDir& dir, double every, int failing) {
    RunOptions o = options_on(1);
    o.write_output = true;
    o.output_dir = dir.path() + "/out";
    o.output_every = every;
    o.t_end = 0.3;
    o.fault_output_frame = failing;
    return o;
}

// What the run stopped with (empty: it ended well).
std::string run_error(const Problem& problem, const RunOptions& o) {
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    try {
        sim.run(log);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(GuardedOutput, AFailedWriteLeavesALastCheckpointElsewhereThatGoesOnExactly) {
    testing::TempDir dir("guarded");
    const DamBreak problem;
    RunOptions o = failing_output_run(dir, 0.02, 2);  // the third frame cannot be written
    o.checkpoint_dir = dir.path() + "/elsewhere";
    const std::string what = run_error(problem, o);
    EXPECT_NE(what.find("injected output failure"), std::string::npos) << what;
    EXPECT_NE(what.find("a last checkpoint was written"), std::string::npos) << what;
    const std::vector<std::string> kept = checkpoints_in(o.checkpoint_dir);
    ASSERT_EQ(kept.size(), 1u);
    // Nothing half-written under a final name, and the series lists what was written.
    for (const auto& entry : std::filesystem::directory_iterator(o.output_dir)) {
        const std::string name = entry.path().filename().string();
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << name;
        EXPECT_EQ(name.find(".partial"), std::string::npos) << name;
    }
    const std::string pvd = testing::read_text(o.output_dir + "/DamBreak.pvd");
    EXPECT_NE(pvd.find("</VTKFile>"), std::string::npos);
    EXPECT_NE(pvd.find("DamBreak_000001.vtu"), std::string::npos);
    EXPECT_EQ(pvd.find("DamBreak_000002.vtu"), std::string::npos);
    EXPECT_NE(testing::read_text(o.output_dir + "/run_report.json").find("\"failed\""),
              std::string::npos);
    // The last checkpoint goes on to the straight run's state, and from the frame that failed:
    // written beside the steps, it failed after the run had gone past its time.
    const RunState state = read_checkpoint(kept.back());
    ASSERT_EQ(state.outputs.frames.size(), 2u);
    EXPECT_NEAR(state.outputs.next_frame, 2 * o.output_every, 1e-12);
    EXPECT_GT(state.time, 3 * o.output_every);
    RunOptions again = options_on(1);
    again.restart_from = kept.back();
    Simulation sim(problem, again, 0);
    for (int i = 0; i < 20; ++i) sim.step();
    expect_bitwise(straight(options_on(1), int(state.iteration) + 20), finish(sim));
}

// A frame that fails in the background while a checkpoint is due before the next frame: the
// checkpoint finds it, is written with that frame due again, and the run fails after it.
TEST(GuardedOutput, AFrameFailedInTheBackgroundIsFoundByTheNextCheckpoint) {
    testing::TempDir dir("guarded_background");
    const DamBreak problem;
    RunOptions o = failing_output_run(dir, 0.05, 1);  // the frame at t = 0.05
    o.checkpoint_every = 0.01;
    o.checkpoint_dir = dir.path() + "/checkpoints";
    const std::string what = run_error(problem, o);
    EXPECT_NE(what.find("injected output failure"), std::string::npos) << what;
    EXPECT_NE(what.find("a last checkpoint was written"), std::string::npos) << what;
    const std::vector<std::string> kept = checkpoints_in(o.checkpoint_dir);
    ASSERT_FALSE(kept.empty());
    const RunState state = read_checkpoint(kept.back());
    ASSERT_EQ(state.outputs.frames.size(), 1u);
    EXPECT_NEAR(state.outputs.next_frame, o.output_every, 1e-12);
    EXPECT_LT(state.time, 2 * o.output_every);  // found before the next frame was due
}

}  // namespace
}  // namespace sph
