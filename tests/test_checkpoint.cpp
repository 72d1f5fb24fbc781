// Checkpoints and restarts: a restarted run is bitwise the run that never stopped, on any number
// of devices before and after; the output series go on where they stopped; a damaged, foreign
// or mismatched checkpoint is refused before anything runs; SIGTERM stops a run cleanly with a
// checkpoint to go on from.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <thread>

#include "app/run_app.h"
#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "common/interrupt.h"
#include "dam_break.h"
#include "driver/simulation.h"
#include "sectioned_file.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kDp = 0.08;     // DamBreak on the CPU, coarse: the suite's time
constexpr double kGpuDp = 0.03;  // on CUDA: enough particles for several thread blocks

struct Finish {
    testing::ParticleStates state;
    double time = 0.0;
    long iteration = 0;
};

Finish finish(Simulation& sim) {
    return Finish{testing::states_by_id(sim.particles()), sim.time(), sim.iteration()};
}

RunOptions options_on(const DeviceSelection& devices, BackendChoice backend = BackendChoice::kCpu) {
    RunOptions o = testing::small_run(backend == BackendChoice::kCuda ? kGpuDp : kDp, 10.0, backend);
    o.devices = devices;
    o.threads = 1;
    return o;
}

RunOptions options_on(int cpu_devices) {
    return options_on(DeviceSelection::cpu(cpu_devices));
}

Finish straight(const RunOptions& o, int iterations) {
    const DamBreak problem;
    Simulation sim(problem, o, 0);
    for (int i = 0; i < iterations; ++i) sim.step();
    return finish(sim);
}

// `first` iterations with `before`, a checkpoint, then a new run from it with `after` to `total`
// iterations.
Finish restarted(RunOptions before, RunOptions after, int first, int total,
                 const std::string& dir) {
    const DamBreak problem;
    before.checkpoint_dir = dir;
    std::string path;
    {
        Simulation sim(problem, before, 0);
        for (int i = 0; i < first; ++i) sim.step();
        EXPECT_TRUE(sim.at_rebuild());
        path = sim.write_checkpoint_now(OutputPositions{}, 0.0);
    }
    after.restart_from = path;
    Simulation sim(problem, after, 0);
    EXPECT_EQ(sim.iteration(), first);
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

TEST(CheckpointFolder, KeepsTheNewestTwo) {
    testing::TempDir dir("keep2");
    const DamBreak problem;
    RunOptions o = options_on(1);
    o.checkpoint_dir = dir.path();
    Simulation sim(problem, o, 0);
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < 10; ++i) sim.step();
        sim.write_checkpoint_now(OutputPositions{}, 0.0);
    }
    const std::vector<std::string> kept = checkpoints_in(dir.path());
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_NE(kept[0].find("checkpoint_0000000030.chk"), std::string::npos);
    EXPECT_NE(kept[1].find("checkpoint_0000000040.chk"), std::string::npos);
    std::ostringstream warnings;
    EXPECT_EQ(latest_checkpoint(dir.path(), warnings), kept[1]);
}

// --- Checkpoint files: every byte is checked ---

std::string a_checkpoint(const std::string& dir) {
    const DamBreak problem;
    RunOptions o = options_on(1);
    o.checkpoint_dir = dir;
    Simulation sim(problem, o, 0);
    for (int i = 0; i < 10; ++i) sim.step();
    OutputPositions outputs;
    outputs.frames = {{0.0, "DamBreak_000000.vtu"}};
    outputs.gauge_columns = {"H1", "H2"};
    outputs.gauge_times = {0.0, 0.01};
    outputs.gauge_rows = {{0.1, 0.2}, {0.3, 0.4}};
    return sim.write_checkpoint_now(outputs, 1.5);
}

TEST(CheckpointFile, RoundTripsEveryField) {
    testing::TempDir dir("roundtrip");
    const std::string path = a_checkpoint(dir.path());
    const RunState s = read_checkpoint(path);
    EXPECT_EQ(s.problem, "DamBreak");
    EXPECT_EQ(s.build_id, build_id());
    EXPECT_EQ(s.iteration, 10);
    EXPECT_GT(s.time, 0.0);
    EXPECT_EQ(s.loop_seconds, 1.5);
    EXPECT_GT(s.particles.size(), 1000u);
    EXPECT_EQ(s.particles.id.size(), s.particles.size());
    EXPECT_EQ(s.outputs.frames.size(), 1u);
    EXPECT_EQ(s.outputs.gauge_rows[1][1], 0.4);
    EXPECT_EQ(s.first_slices, std::vector<int>{0});
    EXPECT_FALSE(s.physics.empty());
    // Written again, the same bytes.
    const std::string again = dir.path() + "/again.chk";
    write_checkpoint(again, s);
    EXPECT_EQ(read_file_bytes(again), read_file_bytes(path));
}

TEST(CheckpointFile, EveryTruncationIsRefused) {
    testing::TempDir dir("truncated");
    const std::string bytes = read_file_bytes(a_checkpoint(dir.path()));
    // Every length up to 4 KiB, then a spread of lengths to the end.
    for (std::size_t n = 0; n < bytes.size(); n += n < 4096 ? 1 : 997) {
        EXPECT_THROW(parse_checkpoint(bytes.substr(0, n), "cut"), CorruptFile) << n << " bytes";
    }
    EXPECT_THROW(parse_checkpoint(bytes + "x", "longer"), CorruptFile);
}

TEST(CheckpointFile, AFlippedByteAnywhereIsRefused) {
    testing::TempDir dir("flipped");
    const std::string bytes = read_file_bytes(a_checkpoint(dir.path()));
    for (std::size_t at = 0; at < bytes.size(); at += at < 512 ? 1 : 4999) {
        std::string damaged = bytes;
        damaged[at] = char(damaged[at] ^ 0x10);
        EXPECT_THROW(parse_checkpoint(damaged, "flipped"), CorruptFile) << "byte " << at;
    }
}

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(CheckpointFile, ForeignFilesAndVersionsAreNamed) {
    testing::TempDir dir("foreign");
    EXPECT_NE(message_of([] { parse_checkpoint("<?xml version=\"1.0\"?>", "x.chk"); })
                  .find("not a checkpoint"),
              std::string::npos);
    SectionedFile other;
    other.kind = kCheckpointKind;
    other.version = kCheckpointVersion + 1;
    write_sectioned_file(dir.path() + "/v2.chk", other);
    EXPECT_NE(message_of([&] { read_checkpoint(dir.path() + "/v2.chk"); })
                  .find("format version 2; this build reads version 1"),
              std::string::npos);
    other.version = kCheckpointVersion;
    write_sectioned_file(dir.path() + "/empty.chk", other);
    EXPECT_NE(message_of([&] { read_checkpoint(dir.path() + "/empty.chk"); }).find("META"),
              std::string::npos);
}

TEST(CheckpointFile, LatestPassesOverADamagedNewestOne) {
    testing::TempDir dir("latest");
    const std::string good = a_checkpoint(dir.path());
    const std::string newer = dir.path() + "/checkpoint_0000000020.chk";
    std::string bytes = read_file_bytes(good);
    bytes.resize(bytes.size() / 2);
    std::ofstream(newer, std::ios::binary) << bytes;
    std::ostringstream warnings;
    EXPECT_EQ(latest_checkpoint(dir.path(), warnings), good);
    EXPECT_NE(warnings.str().find("checkpoint_0000000020.chk"), std::string::npos);
}

// The fuzz corpus (fuzz/corpus/checkpoint_reader) holds the seeds and every input a fuzzer
// found a fault with: each is read or refused, never anything else (regression tests for the
// findings). The seed is a whole, valid checkpoint.
TEST(CheckpointFile, EveryFuzzCorpusInputIsReadOrRefused) {
    int read = 0, refused = 0;
    for (const auto& entry : std::filesystem::directory_iterator(SPH_FUZZ_CORPUS "/checkpoint_reader")) {
        const std::string bytes = read_file_bytes(entry.path().string());
        try {
            parse_checkpoint(bytes, entry.path().filename().string());
            ++read;
        } catch (const CorruptFile&) {
            ++refused;
        }
    }
    EXPECT_GE(read, 1) << "the seed checkpoint no longer reads: regenerate it for this format";
    std::printf("fuzz corpus: %d read, %d refused\n", read, refused);
}

// --- A restart refuses what would not go on exactly, before anything runs ---

std::string restart_error(const std::string& checkpoint, const std::vector<std::string>& extra) {
    DamBreak problem;
    std::vector<std::string> args = {"--backend", "cpu", "--dp", "0.08", "--no-output",
                                     "--restart", checkpoint};
    args.insert(args.end(), extra.begin(), extra.end());
    const testing::AppResult r = testing::run_program(problem, args, 0);
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    return r.err;
}

TEST(RestartRefusal, PhysicsOptionsThatDifferAreNamed) {
    testing::TempDir dir("differ");
    const std::string path = a_checkpoint(dir.path());
    const std::string err = restart_error(path, {"--alpha", "0.1", "--cfl", "0.2"});
    EXPECT_NE(err.find("alpha (checkpoint: 0.050000000000000003, now: 0.10000000000000001)"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("cfl"), std::string::npos) << err;
    EXPECT_EQ(err.find("delta"), std::string::npos) << err;
}

TEST(RestartRefusal, ACorruptedCheckpointIsRefusedByItsCheck) {
    testing::TempDir dir("corrupt");
    const std::string path = a_checkpoint(dir.path());
    std::string bytes = read_file_bytes(path);
    bytes[bytes.size() / 2] ^= 1;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    const std::string err = restart_error(path, {});
    EXPECT_NE(err.find("checksum of section 'PART' does not match"), std::string::npos) << err;
}

TEST(RestartRefusal, AMissingFileOrAnEndAlreadyPassedIsNamed) {
    testing::TempDir dir("missing");
    EXPECT_NE(restart_error(dir.path() + "/none.chk", {}).find("none.chk"), std::string::npos);
    const std::string path = a_checkpoint(dir.path());
    EXPECT_NE(restart_error(path, {"--t-end", "0.001"}).find("give a later --t-end"),
              std::string::npos);
}

// --- Whole programs: the output series go on, SIGTERM stops cleanly ---

std::vector<std::string> program_args(const std::string& out, double t_end) {
    std::ostringstream end;
    end << t_end;
    return {"--backend", "cpu", "--threads", "1", "--dp", "0.08", "--t-end", end.str(),
            "--output-every", "0.05", "--gauge-every", "0.01", "--output-dir", out};
}

std::string text_of(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
    EXPECT_EQ(text_of(parts + "/gauges.csv"), text_of(whole + "/gauges.csv"));
    EXPECT_TRUE(std::filesystem::exists(parts + "/gauges_before_restart1.csv"));
    const std::string pvd = text_of(parts + "/DamBreak.pvd");
    EXPECT_NE(pvd.find("superseded"), std::string::npos) << pvd;
    EXPECT_NE(pvd.find("DamBreak_restart1_"), std::string::npos) << pvd;
    // As many frames listed as the straight run has, and each listed file exists.
    auto listed = [](const std::string& text) {
        std::vector<std::string> files;
        const std::string key = "<DataSet timestep=";
        for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
            const std::size_t f = text.find("file=\"", at) + 6;
            files.push_back(text.substr(f, text.find('"', f) - f));
        }
        return files;
    };
    const std::vector<std::string> frames = listed(pvd);
    EXPECT_EQ(frames.size(), listed(text_of(whole + "/DamBreak.pvd")).size());
    for (const std::string& f : frames) EXPECT_TRUE(std::filesystem::exists(parts + "/" + f)) << f;
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
    const std::string pvd = text_of(second + "/DamBreak.pvd");
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
    EXPECT_NE(text_of(parts + "/run_report.json").find("\"interrupted\""), std::string::npos);
    EXPECT_NE(text_of(parts + "/DamBreak.pvd").find("</VTKFile>"), std::string::npos);
    std::vector<std::string> again = program_args(parts, 0.15);
    again.insert(again.end(), {"--restart", "latest"});
    const testing::AppResult b = testing::run_program(problem, again, 0);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(text_of(parts + "/gauges.csv"), text_of(whole + "/gauges.csv"));
}

// --- Guarded output: a failed write stops the run with a last checkpoint, nothing truncated ---

TEST(GuardedOutput, AFailedWriteLeavesALastCheckpointElsewhereThatGoesOnExactly) {
    testing::TempDir dir("guarded");
    const DamBreak problem;
    RunOptions o = options_on(1);
    o.write_output = true;
    o.output_dir = dir.path() + "/out";
    o.output_every = 0.02;
    o.t_end = 0.3;
    o.checkpoint_dir = dir.path() + "/elsewhere";
    o.fault_output_frame = 2;  // the third frame cannot be written
    std::string what;
    {
        Simulation sim(problem, o, 0);
        std::ostringstream log;
        try {
            sim.run(log);
        } catch (const std::runtime_error& e) {
            what = e.what();
        }
    }
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
    const std::string pvd = text_of(o.output_dir + "/DamBreak.pvd");
    EXPECT_NE(pvd.find("</VTKFile>"), std::string::npos);
    EXPECT_NE(pvd.find("DamBreak_000001.vtu"), std::string::npos);
    EXPECT_EQ(pvd.find("DamBreak_000002.vtu"), std::string::npos);
    EXPECT_NE(text_of(o.output_dir + "/run_report.json").find("\"failed\""), std::string::npos);
    // The last checkpoint goes on to the straight run's state.
    const RunState state = read_checkpoint(kept.back());
    RunOptions again = options_on(1);
    again.restart_from = kept.back();
    Simulation sim(problem, again, 0);
    for (int i = 0; i < 20; ++i) sim.step();
    expect_bitwise(straight(options_on(1), int(state.iteration) + 20), finish(sim));
}

// --- Killed while writing: the newest checkpoint left always verifies and goes on exactly ---

// Starts the dambreak program with `args`, its output thrown away.
pid_t spawn_dambreak(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    // The build's program, or (carried to another machine) the one SPH_DAMBREAK_EXE names.
    const char* moved = std::getenv("SPH_DAMBREAK_EXE");
    std::string program = moved != nullptr ? moved : SPH_DAMBREAK_EXE;
    argv.push_back(program.data());
    std::vector<std::string> copies = args;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t quiet;
    posix_spawn_file_actions_init(&quiet);
    posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int error = posix_spawn(&pid, program.c_str(), &quiet, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&quiet);
    return error == 0 ? pid : -1;
}

// Returns once `folder` holds a checkpoint being written (a .partial file), or after a second.
void wait_for_a_partial_checkpoint(const std::string& folder) {
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
            if (entry.path().extension() == ".partial") return;
        }
    }
}

// --- Real signals to a running program ---

int wait_for_exit(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

std::vector<std::string> long_run(const std::string& dir) {
    return {"--backend", "cpu", "--threads", "1", "--dp", "0.08", "--t-end", "100",
            "--no-frames", "--output-dir", dir};
}

TEST(Signals, SigtermStopsAtTheNextRebuildWithACheckpoint) {
    testing::TempDir dir("sigterm-child");
    const pid_t pid = spawn_dambreak(long_run(dir.path()));
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    kill(pid, SIGTERM);
    EXPECT_EQ(wait_for_exit(pid), 128 + SIGTERM);
    const std::vector<std::string> left = checkpoints_in(dir.path() + "/checkpoints");
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(read_checkpoint(left[0]).iteration % 10, 0);  // at a rebuild
    EXPECT_NE(text_of(dir.path() + "/run_report.json").find("\"interrupted\""), std::string::npos);
}

TEST(Signals, ASecondSignalStopsAtOnce) {
    testing::TempDir dir("second-signal");
    // A rebuild every 10^6 iterations: after the first signal the run would go on for hours.
    std::vector<std::string> args = long_run(dir.path());
    args.insert(args.end(), {"--rebuild-every", "1000000"});
    const pid_t pid = spawn_dambreak(args);
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    kill(pid, SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto start = std::chrono::steady_clock::now();
    kill(pid, SIGINT);
    EXPECT_EQ(wait_for_exit(pid), 128 + SIGINT);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_TRUE(checkpoints_in(dir.path() + "/checkpoints").empty());
}

TEST(CheckpointKills, TheNewestLeftAfterSigkillVerifiesAndGoesOnExactly) {
    // A checkpoint at every iteration (a rebuild every iteration). Even trials kill at a random
    // moment; odd ones as soon as a checkpoint is being written (its .partial file exists).
    RunOptions o = options_on(1);
    o.rebuild_every = 1;
    constexpr int kTrials = 20, kReferenceIterations = 400, kAfter = 5;
    const DamBreak problem;
    std::map<long, Finish> reference;  // the straight run, at every iteration
    {
        Simulation sim(problem, o, 0);
        while (sim.iteration() < kReferenceIterations) {
            sim.step();
            reference[sim.iteration()] = finish(sim);
        }
    }
    std::mt19937 random(2026);
    std::uniform_int_distribution<int> delay_ms(150, 1500);
    int with_checkpoint = 0, mid_write = 0;
    for (int trial = 0; trial < kTrials; ++trial) {
        testing::TempDir dir("kill");
        const pid_t pid = spawn_dambreak({"--backend", "cpu", "--threads", "1", "--dp", "0.08",
                                          "--rebuild-every", "1", "--no-output", "--output-dir",
                                          dir.path(), "--checkpoint-every", "1e-9"});
        ASSERT_GT(pid, 0) << "cannot start the dambreak program";
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(random)));
        if (trial % 2 == 1) wait_for_a_partial_checkpoint(dir.path() + "/checkpoints");
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status)) << "trial " << trial << ": the run ended by itself";
        const std::string folder = dir.path() + "/checkpoints";
        for (const auto& entry : std::filesystem::directory_iterator(folder)) {
            mid_write += entry.path().extension() == ".partial";
        }
        const std::vector<std::string> left = checkpoints_in(folder);
        if (left.empty()) continue;  // killed before the first one
        ++with_checkpoint;
        // The newest must verify: never a damaged file under a final name.
        RunState state;
        ASSERT_NO_THROW(state = read_checkpoint(left.back())) << left.back();
        ASSERT_LT(state.iteration + kAfter, kReferenceIterations);
        RunOptions again = o;
        again.restart_from = left.back();
        Simulation sim(problem, again, 0);
        for (int i = 0; i < kAfter; ++i) sim.step();
        expect_bitwise(reference.at(sim.iteration()), finish(sim));
    }
    std::printf("%d kill trials: %d left a checkpoint, %d were killed while writing one\n", kTrials,
                with_checkpoint, mid_write);
    EXPECT_GE(with_checkpoint, kTrials * 3 / 4);
}

}  // namespace
}  // namespace sph
