// MPI ranks (src/ranks/): under mpirun a plain run is one simulation across the ranks, every
// output file the same bytes as one process driving as many devices, with balancing on and off,
// and its checkpoints restart on another rank count; the ranks share out the branches of
// --branches FILE, every scenario bitwise as in one process; a rank that fails ends the job with
// its message, in seconds; what the ranks cannot share (--scenario, --trace) is refused, naming
// why. Runs the dambreak program under the mpirun CMake found, oversubscribed and allowed as root
// (CI).
#include <gtest/gtest.h>
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "mpi_support.h"
#include "test_support.h"

namespace sph {
namespace {

// Runs `ranks` dambreak processes under mpirun (0: the program alone).
Job run(int ranks, const std::vector<std::string>& args) {
    std::string command = ranks > 0 ? mpirun(ranks) : std::string();
    command += SPH_DAMBREAK_EXE;
    for (const std::string& a : args) command += " '" + a + "'";
    return run_command(command);
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

TEST(MpiRanks, AScenarioUnderMpirunIsRefusedNamingWhy) {
    testing::TempDir dir("mpi-refused");
    const std::string plan = dir.path() + "/tree.txt";
    std::ofstream(plan) << kTree;
    std::vector<std::string> args = small(dir.path() + "/out", plan);
    args.insert(args.end(), {"--scenario", "a"});
    const Job scenario = run(2, args);
    EXPECT_NE(scenario.code, 0);
    EXPECT_NE(scenario.output.find("--scenario runs in one process"), std::string::npos)
        << scenario.output;
}

// Ranks started with other options (mpirun's program:program form) would part ways at the first
// exchange: refused before the run, naming the setting.
TEST(MpiRanks, RanksWithOtherOptionsAreRefusedNamingTheSetting) {
    testing::TempDir dir("mpi-mismatch");
    const std::string program = std::string(SPH_DAMBREAK_EXE) +
                                " --backend cpu --t-end 0.1 --no-output --output-dir " +
                                dir.path() + " --dp ";
    const Job job = run_command(mpirun(1) + program + "0.08 : -np 1 " + program + "0.06");
    const std::string& output = job.output;
    EXPECT_NE(job.code, 0);
    EXPECT_NE(output.find("rank 1 runs with dp = 0.0599999"), std::string::npos) << output;
    EXPECT_NE(output.find("the same options but --devices and --threads"), std::string::npos)
        << output;
}

// One simulation: DamBreak at dp 0.08 over 0.15 s (about 40 iterations, rebuilt every 10),
// frames and gauges every 0.05 s.
std::vector<std::string> simulation(const std::string& out, const std::string& devices,
                                    const std::string& balancing) {
    return {"--backend",      "cpu",  "--threads",      "1",     "--dp",         "0.08",
            "--t-end",        "0.15", "--devices",      devices, "--lb",         balancing,
            "--output-every", "0.05", "--lb-threshold", "0",     "--output-dir", out};
}

// Every file of `out` but the run report (JSON and page) and the balancing log (timings), by
// name.
std::vector<std::string> outputs_of(const std::string& out) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(out)) {
        const std::string name = entry.path().filename().string();
        if (name != "run_report.json" && name != "report.html" && name != "load_balance.csv")
            names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

void expect_same_files(const std::string& got, const std::string& want, const std::string& what) {
    const std::vector<std::string> names = outputs_of(want);
    ASSERT_EQ(outputs_of(got), names) << what;
    for (const std::string& name : names) {
        EXPECT_EQ(testing::read_text(got + "/" + name), testing::read_text(want + "/" + name))
            << name << ": " << what;
    }
}

// Position, velocity and density of every particle in frame `frame` of `out` (all its pieces),
// by id: the same whichever device wrote it.
using FrameParticles = std::map<std::uint32_t, std::array<double, 7>>;
FrameParticles frame_particles(const std::string& out, int frame) {
    char prefix[64];
    std::snprintf(prefix, sizeof prefix, "DamBreak_%06d", frame);
    FrameParticles particles;
    for (const auto& entry : std::filesystem::directory_iterator(out)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".vtu") continue;
        auto reader = vtkSmartPointer<vtkXMLUnstructuredGridReader>::New();
        reader->SetFileName(entry.path().c_str());
        reader->Update();
        vtkUnstructuredGrid* grid = reader->GetOutput();
        vtkDataArray* id = grid->GetPointData()->GetArray("id");
        vtkDataArray* velocity = grid->GetPointData()->GetArray("velocity");
        vtkDataArray* density = grid->GetPointData()->GetArray("density");
        for (vtkIdType i = 0; i < grid->GetNumberOfPoints(); ++i) {
            std::array<double, 7>& p = particles[std::uint32_t(id->GetTuple1(i))];
            grid->GetPoint(i, p.data());
            const double* v = velocity->GetTuple3(i);
            std::copy(v, v + 3, p.begin() + 3);
            p[6] = density->GetTuple1(i);
        }
    }
    return particles;
}

void expect_same_frames(const std::string& got, const std::string& want, const std::string& what) {
    for (int frame = 0; frame <= 3; ++frame) {
        const FrameParticles expected = frame_particles(want, frame);
        ASSERT_FALSE(expected.empty()) << "frame " << frame << " of " << want;
        EXPECT_TRUE(frame_particles(got, frame) == expected) << "frame " << frame << ": " << what;
    }
}

TEST(MpiRanks, OneSimulationAcrossRanksIsBitwiseOneProcess) {
    testing::TempDir dir("mpi-simulation");
    const std::string alone = dir.path() + "/alone";
    const Job one_device = run(0, simulation(alone, "1", "off"));
    ASSERT_EQ(one_device.code, 0) << one_device.output;
    struct Case {
        int ranks;
        std::string devices_each, balancing;
        int devices;
        std::string buffers = "staged";  // --mpi-buffers
    };
    for (const Case& c :
         {Case{2, "1", "on", 2}, Case{2, "1", "off", 2}, Case{3, "1", "on", 3},
          Case{3, "1", "off", 3}, Case{2, "2", "on", 4}, Case{3, "1", "on", 3, "direct"}}) {
        const std::string name =
            std::to_string(c.ranks) + "x" + c.devices_each + c.balancing + c.buffers;
        const std::string what = std::to_string(c.ranks) + " ranks x " + c.devices_each +
                                 " device(s), balancing " + c.balancing + ", " + c.buffers +
                                 " messages";
        const std::string ranks = dir.path() + "/ranks" + name;
        std::vector<std::string> args = simulation(ranks, c.devices_each, c.balancing);
        args.insert(args.end(), {"--mpi-buffers", c.buffers});
        const Job job = run(c.ranks, args);
        ASSERT_EQ(job.code, 0) << job.output;
        // Every particle of every frame, and every gauge, as on one device, balanced or not.
        expect_same_frames(ranks, alone, what);
        EXPECT_EQ(testing::read_text(ranks + "/gauges.csv"),
                  testing::read_text(alone + "/gauges.csv"))
            << what;
        if (c.balancing == "off") {
            // Slices where one process with as many devices has them: every piece of every
            // frame, the .pvtu and .pvd files and gauges.csv are the same bytes.
            const std::string one = dir.path() + "/one" + name;
            const Job reference = run(0, simulation(one, std::to_string(c.devices), "off"));
            ASSERT_EQ(reference.code, 0) << reference.output;
            expect_same_files(ranks, one, what);
        }
        // Rank 0 speaks for the run, and its report lists every rank's devices.
        const std::string report = testing::read_text(ranks + "/run_report.json");
        EXPECT_NE(report.find("over " + std::to_string(c.ranks) + " MPI ranks"), std::string::npos)
            << report;
        std::size_t devices = 0;
        for (std::size_t at = report.find("\"slices\""); at != std::string::npos;
             at = report.find("\"slices\"", at + 1)) {
            ++devices;
        }
        EXPECT_EQ(devices, std::size_t(c.devices)) << report;
        std::size_t reports = 0;
        for (std::size_t at = job.output.find("report written to"); at != std::string::npos;
             at = job.output.find("report written to", at + 1)) {
            ++reports;
        }
        EXPECT_EQ(reports, 1u) << job.output;
        // The log names the MPI library and whether it takes GPU memory.
        EXPECT_NE(job.output.find("MPI: " + std::to_string(c.ranks) + " ranks, " +
                                  std::to_string(c.devices) + " devices; "),
                  std::string::npos)
            << job.output;
        EXPECT_NE(job.output.find("CUDA-aware: "), std::string::npos) << job.output;
    }
}

// Rank 0 writes one trace with every rank's devices and main threads.
// Under mDBC each device holds four slices of each neighbour and fits the walls of the one beside
// its own (LocalRanges::left_near, right_near), counted from its neighbours' slice counts, which
// ranks share at each rebuild: two and three ranks give one process's frames and gauges.
TEST(MpiRanks, UnderMdbcOneSimulationAcrossRanksIsBitwiseOneProcess) {
    testing::TempDir dir("mpi-mdbc");
    auto mdbc = [](std::vector<std::string> args) {
        args.insert(args.end(), {"--boundary", "mdbc"});
        return args;
    };
    const std::string alone = dir.path() + "/alone";
    const Job one_device = run(0, mdbc(simulation(alone, "1", "off")));
    ASSERT_EQ(one_device.code, 0) << one_device.output;
    for (const int ranks : {2, 3}) {
        const std::string out = dir.path() + "/ranks" + std::to_string(ranks);
        const Job job = run(ranks, mdbc(simulation(out, "1", "on")));
        ASSERT_EQ(job.code, 0) << job.output;
        const std::string what = std::to_string(ranks) + " ranks under mDBC";
        expect_same_frames(out, alone, what);
        EXPECT_EQ(testing::read_text(out + "/gauges.csv"),
                  testing::read_text(alone + "/gauges.csv"))
            << what;
    }
}

TEST(MpiRanks, ATraceAcrossRanksHoldsEveryRanksDevices) {
    testing::TempDir dir("mpi-trace");
    const std::string trace = dir.path() + "/trace.json";
    std::vector<std::string> args = simulation(dir.path() + "/out", "2", "on");
    args.insert(args.end(), {"--trace", trace, "--trace-iterations", "5:25"});
    const Job job = run(2, args);
    ASSERT_EQ(job.code, 0) << job.output;
    const std::string text = testing::read_text(trace);
    for (const char* process :
         {"device 0: ", "device 1: ", "device 2: ", "device 3: ", "run (rank 0)", "run (rank 1)"}) {
        EXPECT_NE(text.find(process), std::string::npos) << process << " is not in the trace";
    }
    for (const char* event : {"edge forces over MPI", "forces centre", "rebuild"}) {
        EXPECT_NE(text.find("\"" + std::string(event) + "\""), std::string::npos) << event;
    }
}

TEST(MpiRanks, ACheckpointAcrossRanksRestartsOnAnotherRankCount) {
    testing::TempDir dir("mpi-checkpoint");
    const Job whole = run(0, simulation(dir.path() + "/whole", "1", "on"));
    ASSERT_EQ(whole.code, 0) << whole.output;
    std::vector<std::string> first = simulation(dir.path() + "/first", "1", "on");
    first.insert(first.end(), {"--checkpoint-every", "0.06"});
    const Job written = run(2, first);  // 2 ranks x 1 device
    ASSERT_EQ(written.code, 0) << written.output;
    std::vector<std::string> checkpoints;  // rank 0 wrote them, named by iteration
    for (const auto& entry :
         std::filesystem::directory_iterator(dir.path() + "/first/checkpoints")) {
        checkpoints.push_back(entry.path().string());
    }
    std::sort(checkpoints.begin(), checkpoints.end());
    ASSERT_FALSE(checkpoints.empty());
    for (const auto& [ranks, devices] : {std::pair<int, std::string>{3, "1"}, {0, "2"}}) {
        const std::string out = dir.path() + "/again" + std::to_string(ranks);
        std::vector<std::string> again = simulation(out, devices, "on");
        again.insert(again.end(), {"--restart", checkpoints.front()});
        const Job resumed = run(ranks, again);
        ASSERT_EQ(resumed.code, 0) << resumed.output;
        EXPECT_EQ(testing::read_text(out + "/gauges.csv"),
                  testing::read_text(dir.path() + "/whole/gauges.csv"))
            << "restarted on " << ranks << " ranks x " << devices << " device(s)";
    }
}

// --gauge-average across ranks: every rank reads at every iteration (a collective), rank 0
// averages and filters; the rows are one process's, and a checkpoint inside an interval goes on
// exactly, filtered rows and all.
TEST(MpiRanks, AveragedGaugesAcrossRanksAreOneProcesssAndGoOnAfterARestart) {
    testing::TempDir dir("mpi-averaged");
    auto averaged = [&](const std::string& name, const std::string& devices) {
        std::vector<std::string> args = simulation(dir.path() + "/" + name, devices, "on");
        args.insert(args.end(),
                    {"--gauge-average", "--gauge-every", "0.04", "--gauge-filter", "20"});
        return args;
    };
    const Job whole = run(0, averaged("whole", "1"));
    ASSERT_EQ(whole.code, 0) << whole.output;
    std::vector<std::string> first = averaged("first", "1");
    first.insert(first.end(), {"--checkpoint-every", "0.06"});
    const Job written = run(2, first);
    ASSERT_EQ(written.code, 0) << written.output;
    const std::string rows = testing::read_text(dir.path() + "/whole/gauges.csv");
    EXPECT_EQ(testing::read_text(dir.path() + "/first/gauges.csv"), rows);
    std::vector<std::string> checkpoints;
    for (const auto& entry :
         std::filesystem::directory_iterator(dir.path() + "/first/checkpoints")) {
        checkpoints.push_back(entry.path().string());
    }
    std::sort(checkpoints.begin(), checkpoints.end());
    ASSERT_FALSE(checkpoints.empty());
    std::vector<std::string> again = averaged("again", "2");
    again.insert(again.end(), {"--restart", checkpoints.front()});
    const Job resumed = run(0, again);
    ASSERT_EQ(resumed.code, 0) << resumed.output;
    EXPECT_EQ(testing::read_text(dir.path() + "/again/gauges.csv"), rows);
    const std::string filtered = testing::read_text(dir.path() + "/whole/gauges_filtered.csv");
    EXPECT_FALSE(filtered.empty());
    EXPECT_EQ(testing::read_text(dir.path() + "/first/gauges_filtered.csv"), filtered);
    EXPECT_EQ(testing::read_text(dir.path() + "/again/gauges_filtered.csv"), filtered);
    const std::string peaks = testing::read_text(dir.path() + "/whole/gauges_peaks.csv");
    EXPECT_FALSE(peaks.empty());
    EXPECT_EQ(testing::read_text(dir.path() + "/first/gauges_peaks.csv"), peaks);
    EXPECT_EQ(testing::read_text(dir.path() + "/again/gauges_peaks.csv"), peaks);
}

TEST(MpiRanks, ADeviceThatFailsOnOneRankEndsTheSimulationWithItsMessage) {
    testing::TempDir dir("mpi-device-failure");
    std::vector<std::string> args = simulation(dir.path() + "/out", "1", "on");
    args.insert(args.end(), {"--inject-fault", "1:15"});  // device 1: rank 1's
    const Job job = run(3, args);
    EXPECT_NE(job.code, 0);
    EXPECT_NE(job.output.find("rank 1: error: device 1 failed"), std::string::npos) << job.output;
    EXPECT_NE(job.output.find("injected"), std::string::npos) << job.output;
    EXPECT_LT(job.seconds, 60.0) << "the other ranks waited";
}

TEST(MpiRanks, APieceOneRankCannotWriteFailsTheRunOnEveryRankNamingIt) {
    testing::TempDir dir("mpi-piece");
    const std::string out = dir.path() + "/out";
    // Rank 1 writes device 1's piece of the first frame; a folder in its place stops it.
    std::filesystem::create_directories(out + "/DamBreak_000000_d1.vtu");
    const Job job = run(2, simulation(out, "1", "off"));
    EXPECT_NE(job.code, 0);
    EXPECT_NE(job.output.find("rank 1: "), std::string::npos) << job.output;
    EXPECT_NE(job.output.find("DamBreak_000000_d1.vtu"), std::string::npos) << job.output;
    EXPECT_FALSE(std::filesystem::exists(out + "/DamBreak_000000.pvtu"))
        << "a frame was listed without its pieces";
}

// A rank killed mid-run (no message of its own): mpirun ends the others.
TEST(MpiRanks, ARankThatDiesEndsTheJob) {
    testing::TempDir dir("mpi-killed");
    const std::string out = dir.path() + "/out";
    std::string command = mpirun(3) + SPH_DAMBREAK_EXE;
    std::vector<std::string> args = simulation(out, "1", "on");
    *(std::find(args.begin(), args.end(), "--t-end") + 1) = "30";  // minutes: only a kill ends it
    for (const std::string& a : args) command += " '" + a + "'";
    // Start the job, wait for its first gauges, kill rank 1 (exit 2 if it is not there), wait for
    // the job to end (exit 1 if it does not within a minute).
    const std::string script = dir.path() + "/kill.sh";
    std::ofstream(script)
        << "(" << command << " > '" << dir.path() << "/log' 2>&1; echo $? > '" << dir.path()
        << "/code') &\n"
        << "for i in $(seq 300); do [ -s '" << out << "/gauges.csv' ] && break; sleep 0.1; done\n"
        << "killed=0\n"
        << "for p in $(pgrep -f -- '" << out << "'); do\n"
        << "  if tr '\\0' '\\n' < /proc/$p/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; "
        << "then kill -9 $p && killed=1; fi\n"
        << "done\n"
        << "[ $killed = 1 ] || exit 2\n"
        << "for i in $(seq 600); do [ -s '" << dir.path() << "/code' ] && exit 0; sleep 0.1; done\n"
        << "exit 1\n";
    const auto start = std::chrono::steady_clock::now();
    const int status = std::system(("bash '" + script + "'").c_str());
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_NE(WEXITSTATUS(status), 2) << "rank 1 was not found running:\n"
                                      << testing::read_text(dir.path() + "/log");
    EXPECT_EQ(status, 0) << "the job went on without rank 1:\n"
                         << testing::read_text(dir.path() + "/log");
    EXPECT_NE(testing::read_text(dir.path() + "/log").find("signal 9"), std::string::npos)
        << testing::read_text(dir.path() + "/log");
    EXPECT_LT(seconds, 90.0);
    EXPECT_NE(testing::read_text(dir.path() + "/code"), "0\n")
        << testing::read_text(dir.path() + "/log");
}

}  // namespace
}  // namespace sph
