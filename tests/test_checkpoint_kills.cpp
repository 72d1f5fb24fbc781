// Real signals and SIGKILL to a running dambreak program: SIGTERM stops at the next rebuild with
// a checkpoint, a second signal at once, and a program killed at any moment, even while writing
// a checkpoint, leaves a newest checkpoint that verifies and goes on exactly.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "dam_break.h"
#include "restart_support.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace restart_testing;

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
    return {"--backend", "cpu",         "--threads",    "1", "--dp", "0.08", "--t-end",
            "100",       "--no-frames", "--output-dir", dir};
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
    EXPECT_EQ(read_checkpoint(left[0]).iteration % RunOptions::kDefaultRebuildEvery,
              0);  // a rebuild
    EXPECT_NE(testing::read_text(dir.path() + "/run_report.json").find("\"interrupted\""),
              std::string::npos);
}

// Branches side by side: a signal stops every running branch at its next rebuild, each with a
// checkpoint in its folder and its report saying so.
TEST(Signals, SigtermStopsEveryRunningBranchWithACheckpoint) {
    testing::TempDir dir("sigterm-branches");
    const std::string plan = dir.path() + "/plan.txt";
    std::ofstream(plan) << "at 0.02\nbranch a\nbranch b\n  alpha 0.1\n";
    std::vector<std::string> args = long_run(dir.path() + "/out");
    args.insert(args.end(), {"--branches", plan, "--devices", "2"});
    const pid_t pid = spawn_dambreak(args);
    ASSERT_GT(pid, 0);
    const auto start = std::chrono::steady_clock::now();  // until both branches have begun
    while (!(std::filesystem::exists(dir.path() + "/out/a/gauges.csv") &&
             std::filesystem::exists(dir.path() + "/out/b/gauges.csv")) &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(pid, SIGTERM);
    EXPECT_EQ(wait_for_exit(pid), 128 + SIGTERM);
    for (const char* branch : {"a", "b"}) {
        const std::string folder = dir.path() + "/out/" + branch;
        EXPECT_EQ(checkpoints_in(folder + "/checkpoints").size(), 1u) << branch;
        EXPECT_NE(testing::read_text(folder + "/run_report.json").find("\"interrupted\""),
                  std::string::npos)
            << branch;
    }
}

// An interrupted tree goes on with --restart latest: the branches that ended are kept, the
// others go on from their checkpoints, and every scenario ends bitwise as in a tree that never
// stopped.
TEST(Signals, AnInterruptedTreeGoesOnExactlyWithRestartLatest) {
    testing::TempDir dir("tree-goes-on");
    const std::string plan = dir.path() + "/plan.txt";
    std::ofstream(plan) << "at 0.02\nbranch a\n  add_box 1.6 0 0 1.84 1 0.16\n"
                           "branch b\n  alpha 0.1\nat 0.04\nbranch late\n  remove obstacle\n";
    auto args = [&](const std::string& out) {
        return std::vector<std::string>{
            "--backend", "cpu",         "--threads",    "1", "--dp",       "0.08", "--t-end",
            "0.2",       "--no-frames", "--output-dir", out, "--branches", plan};
    };
    std::vector<std::string> straight = args(dir.path() + "/straight");
    const pid_t reference = spawn_dambreak(straight);
    ASSERT_GT(reference, 0);
    ASSERT_EQ(wait_for_exit(reference), 0);
    const std::string out = dir.path() + "/out";
    const pid_t pid = spawn_dambreak(args(out));
    ASSERT_GT(pid, 0);
    const auto start = std::chrono::steady_clock::now();  // until the first branch has begun
    while (!std::filesystem::exists(out + "/a/gauges.csv") &&
           std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    kill(pid, SIGTERM);
    ASSERT_EQ(wait_for_exit(pid), 128 + SIGTERM);
    ASSERT_FALSE(checkpoints_in(out + "/a/checkpoints").empty());
    std::vector<std::string> again = args(out);
    again.insert(again.end(), {"--restart", "latest"});
    const pid_t resumed = spawn_dambreak(again);
    ASSERT_GT(resumed, 0);
    ASSERT_EQ(wait_for_exit(resumed), 0);
    for (const char* branch : {"a", "b", "late"}) {
        EXPECT_EQ(testing::read_text(out + "/" + branch + "/gauges.csv"),
                  testing::read_text(dir.path() + "/straight/" + branch + "/gauges.csv"))
            << branch;
    }
    EXPECT_NE(testing::read_text(out + "/branches.csv").find("a,base,0.020000,completed"),
              std::string::npos);
}

TEST(Signals, ASecondSignalStopsAtOnce) {
    testing::TempDir dir("second-signal");
    // A rebuild every 10^6 iterations, none sooner: after the first signal the run would go on
    // for hours.
    std::vector<std::string> args = long_run(dir.path());
    args.insert(args.end(), {"--rebuild-every", "1000000", "--early-rebuild", "off"});
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
