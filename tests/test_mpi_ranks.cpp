// MPI ranks (src/ranks/): under mpirun the ranks share out the branches of --branches FILE,
// every scenario bitwise as in one process; a rank that fails ends the job with its message, in
// seconds; what the ranks cannot share yet (one simulation) is refused, naming why. Runs the
// dambreak program under the mpirun CMake found, oversubscribed and allowed as root (CI).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace sph {
namespace {

struct Job {
    int code = -1;
    std::string output;
    double seconds = 0.0;
};

// Runs `ranks` dambreak processes under mpirun (0: the program alone), stdout and stderr
// together.
Job run(int ranks, const std::vector<std::string>& args) {
    std::string command;
    if (ranks > 0) {
        command = std::string(SPH_MPIEXEC) + " --oversubscribe --allow-run-as-root -np " +
                  std::to_string(ranks) + " ";
    }
    command += SPH_DAMBREAK_EXE;
    for (const std::string& a : args) command += " '" + a + "'";
    command += " 2>&1";
    const auto start = std::chrono::steady_clock::now();
    Job job;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return job;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) job.output += buffer;
    const int status = pclose(pipe);
    job.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    job.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return job;
}

std::vector<std::string> small(const std::string& out, const std::string& plan) {
    return {"--backend", "cpu",         "--threads",    "1", "--dp",       "0.08", "--t-end",
            "0.2",       "--no-frames", "--output-dir", out, "--branches", plan};
}

const char* kTree =
    "at 0.05\nbranch a\n  alpha 0.1\nbranch b\n  remove obstacle\n"
    "at 0.1 in a\nbranch a_same\nbranch a_box\n  add_box 1.6 0 0 1.84 1 0.16\n"
    "at 0.1\nbranch late\n  delta 0.2\n";
const std::vector<std::string> kBranches = {"a", "b", "a_same", "a_box", "late"};

TEST(MpiRanks, TwoAndThreeRanksShareTheBranchesBitwise) {
    testing::TempDir dir("mpi-branches");
    const std::string plan = dir.path() + "/tree.txt";
    std::ofstream(plan) << kTree;
    const Job one = run(0, small(dir.path() + "/one", plan));
    ASSERT_EQ(one.code, 0) << one.output;
    struct Case {
        int ranks;
        std::vector<std::string> more;
    };
    for (const Case& c : {Case{2, {}}, Case{3, {}}, Case{2, {"--devices", "2"}}}) {
        const std::string out =
            dir.path() + "/ranks" + std::to_string(c.ranks) + (c.more.empty() ? "" : "x2");
        std::vector<std::string> args = small(out, plan);
        args.insert(args.end(), c.more.begin(), c.more.end());
        const Job job = run(c.ranks, args);
        ASSERT_EQ(job.code, 0) << job.output;
        for (const std::string& b : kBranches) {
            EXPECT_EQ(testing::read_text(out + "/" + b + "/gauges.csv"),
                      testing::read_text(dir.path() + "/one/" + b + "/gauges.csv"))
                << b << " on " << c.ranks << " ranks";
        }
        const std::string summary = testing::read_text(out + "/branches.csv");
        for (int r = 0; r < c.ranks && r < 3; ++r) {  // every rank ran a branch
            EXPECT_NE(summary.find("," + std::to_string(r) + ",cpu"), std::string::npos)
                << "rank " << r << " ran nothing:\n"
                << summary;
        }
        EXPECT_NE(testing::read_text(out + "/tree_report.md").find("## H1"), std::string::npos);
    }
}

TEST(MpiRanks, AFailingRankEndsTheJobWithItsMessage) {
    testing::TempDir dir("mpi-failure");
    const std::string plan = dir.path() + "/tree.txt";
    std::ofstream(plan) << kTree;
    std::vector<std::string> args = small(dir.path() + "/out", plan);
    args.insert(args.end(), {"--inject-fault", "0:5"});  // the base, on rank 0, fails
    const Job job = run(3, args);
    EXPECT_NE(job.code, 0);
    EXPECT_NE(job.output.find("rank 0: error:"), std::string::npos) << job.output;
    EXPECT_NE(job.output.find("injected"), std::string::npos) << job.output;
    EXPECT_LT(job.seconds, 60.0) << "the other ranks waited";
}

TEST(MpiRanks, ASingleSimulationUnderMpirunIsRefusedNamingWhy) {
    testing::TempDir dir("mpi-plain");
    const Job job =
        run(2, {"--backend", "cpu", "--dp", "0.08", "--t-end", "0.1", "--output-dir", dir.path()});
    EXPECT_NE(job.code, 0);
    EXPECT_NE(job.output.find("one simulation across MPI ranks is not built yet"),
              std::string::npos)
        << job.output;
}

}  // namespace
}  // namespace sph
