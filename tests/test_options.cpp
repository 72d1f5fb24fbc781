// Bad input is refused with a message naming the option, and a non-zero exit.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/run_app.h"
#include "dam_break.h"
#include "devices/cuda/cuda_support.h"
#include "driver/run_setup.h"
#include "test_support.h"

namespace sph {
namespace {

using Outcome = testing::AppResult;

Outcome run(const std::vector<std::string>& args) {
    DamBreak problem;
    return testing::run_program(problem, args, 0);
}

struct BadOption {
    std::vector<std::string> args;
    std::string named;  // what the message must contain
};

class RejectsBadOption : public ::testing::TestWithParam<BadOption> {};

TEST_P(RejectsBadOption, NamesTheOption) {
    const Outcome o = run(GetParam().args);
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find(GetParam().named), std::string::npos) << o.err;
}

INSTANTIATE_TEST_SUITE_P(
    Options, RejectsBadOption,
    ::testing::Values(
        BadOption{{"--bogus"}, "--bogus"}, BadOption{{"--dp", "-0.01"}, "--dp"},
        BadOption{{"--dp", "0"}, "--dp"}, BadOption{{"--dp", "0.5"}, "--dp"},
        BadOption{{"--dp", "abc"}, "dp"}, BadOption{{"--t-end", "0"}, "--t-end"},
        BadOption{{"--t-end", "-1"}, "--t-end"},
        BadOption{{"--output-every", "0"}, "--output-every"},
        BadOption{{"--backend", "gpu"}, "--backend"}, BadOption{{"--cfl", "2"}, "--cfl"},
        BadOption{{"--rebuild-every", "0"}, "--rebuild-every"},
        BadOption{{"--max-neighbours", "4"}, "--max-neighbours"},
        BadOption{{"--max-neighbours", "132"}, "multiple of 8"},
        BadOption{{"--config", "/nonexistent/run.cfg"}, "--config"},
        BadOption{{"--boundary", "ghost"}, "--boundary"}, BadOption{{"--slip", "some"}, "--slip"},
        BadOption{{"--gauge-reading", "top"}, "--gauge-reading"},
        BadOption{{"--neighbours", "grid"}, "--neighbours"},
        BadOption{{"--gradient-correction", "yes"}, "--gradient-correction"},
        BadOption{{"--no-penetration", "yes"}, "--no-penetration"},
        BadOption{{"--no-penetration", "on"}, "needs --boundary mdbc"},
        BadOption{{"--perturb", "-3"}, "--perturb"}, BadOption{{"--perturb", "1.5"}, "perturb"},
        BadOption{{"--perturb-size", "0"}, "--perturb-size"},
        BadOption{{"--perturb-size", "0.5"}, "--perturb-size"},
        BadOption{{"--gravity", "-9.81"}, "--gravity"},
        BadOption{{"--gravity", "nan"}, "--gravity"}, BadOption{{"--alpha", "nan"}, "--alpha"},
        BadOption{{"--c0-factor", "inf"}, "must be finite"},
        BadOption{{"--checkpoint-every", "0"}, "--checkpoint-every"},
        BadOption{{"--checkpoint-every", "10days"}, "--checkpoint-every"},
        BadOption{{"--checkpoint-every", "-1min"}, "--checkpoint-every"}));

// The config-file fuzzer's finding: Boost.Program_options looped for ever writing the message
// for a value that held its own placeholder. Refused now, on the command line and in a file.
TEST(Options, PlaceholderTextIsRefusedInsteadOfHangingTheParser) {
    DamBreak problem;
    const Outcome o = testing::run_app_or_fail_on_hang(problem, {"--delta", "x%value%"}, 0, 20);
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("%value%"), std::string::npos) << o.err;
    testing::TempDir dir("placeholder");
    const std::string config = dir.path() + "/run.cfg";
    std::ofstream(config) << "wall-sensor = 0 0.1\ndelta = na%value%'test\n";
    const Outcome c = testing::run_app_or_fail_on_hang(problem, {"--config", config}, 0, 20);
    EXPECT_EQ(c.code, 2);
    EXPECT_NE(c.err.find("--config"), std::string::npos) << c.err;
}

TEST(Options, CheckpointEveryTakesSimulatedOrWallTime) {
    DamBreak problem;
    const auto simulated = testing::parse_options(problem, {"--checkpoint-every", "0.5"});
    ASSERT_TRUE(simulated);
    EXPECT_EQ(simulated->checkpoint_every, 0.5);
    EXPECT_EQ(simulated->checkpoint_wall_seconds, 0.0);
    const auto wall = testing::parse_options(problem, {"--checkpoint-every", "30min"});
    ASSERT_TRUE(wall);
    EXPECT_EQ(wall->checkpoint_every, 0.0);
    EXPECT_EQ(wall->checkpoint_wall_seconds, 1800.0);
    EXPECT_EQ(
        testing::parse_options(problem, {"--checkpoint-every", "2h"})->checkpoint_wall_seconds,
        7200.0);
    EXPECT_EQ(
        testing::parse_options(problem, {"--checkpoint-every", "90s"})->checkpoint_wall_seconds,
        90.0);
    EXPECT_EQ(testing::parse_options(problem, {"--output-dir", "o"})->checkpoint_folder(),
              "o/checkpoints");
}

TEST(Options, NeighboursChoosesHowForcesFindsThem) {
    DamBreak problem;
    EXPECT_EQ(testing::parse_options(problem, {})->neighbours, RunOptions::NeighbourSearch::kList);
    EXPECT_EQ(testing::parse_options(problem, {"--neighbours", "cells"})->neighbours,
              RunOptions::NeighbourSearch::kCells);
}

TEST(Options, GradientCorrectionReachesTheKernels) {
    DamBreak problem;
    const std::optional<RunOptions> off = testing::parse_options(problem, {});
    const std::optional<RunOptions> on =
        testing::parse_options(problem, {"--gradient-correction", "on"});
    ASSERT_TRUE(off.has_value() && on.has_value());
    EXPECT_FALSE(make_sph_params(*off, 0.55).gradient_correction);
    EXPECT_TRUE(make_sph_params(*on, 0.55).gradient_correction);
}

TEST(Options, NoPenetrationReachesTheKernelsUnderMdbc) {
    DamBreak problem;
    const std::optional<RunOptions> off =
        testing::parse_options(problem, {"--boundary", "mdbc", "--no-penetration", "off"});
    const std::optional<RunOptions> on = testing::parse_options(
        problem, {"--boundary", "mdbc", "--no-penetration", "on", "--dp", "0.04"});
    ASSERT_TRUE(off.has_value() && on.has_value());
    EXPECT_FALSE(make_sph_params(*off, 0.55).no_penetration);
    const SphParams p = make_sph_params(*on, 0.55);
    EXPECT_TRUE(p.no_penetration);
    EXPECT_EQ(p.dp, 0.04f);
}

// Left to its default (auto), --no-penetration is on under mDBC, whose walls let spray in, and
// off under DBC, whose walls keep it out by themselves; auto given outright is the same.
TEST(Options, NoPenetrationFollowsTheWallsByDefault) {
    DamBreak problem;
    const std::optional<RunOptions> mdbc = testing::parse_options(problem, {"--boundary", "mdbc"});
    const std::optional<RunOptions> dbc = testing::parse_options(problem, {});
    const std::optional<RunOptions> dbc_auto =
        testing::parse_options(problem, {"--no-penetration", "auto"});
    ASSERT_TRUE(mdbc.has_value() && dbc.has_value() && dbc_auto.has_value());
    EXPECT_TRUE(mdbc->no_penetration);
    EXPECT_FALSE(dbc->no_penetration);
    EXPECT_FALSE(dbc_auto->no_penetration);
}

// --boundary and --slip reach the settings, and --slip the walls' kinds as they are laid out.
TEST(Options, BoundaryAndSlipReachTheWalls) {
    const char* argv[] = {"dambreak", "--boundary", "mdbc", "--slip", "free-slip", "--dp", "0.08"};
    DamBreak problem;
    std::ostringstream help;
    const std::optional<RunOptions> o = parse_command_line(7, argv, problem, help);
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(o->boundary, BoundaryModel::kMdbc);
    EXPECT_EQ(o->slip, RunOptions::Slip::kFreeSlip);
    const HostParticles free = make_particles(problem, *o, make_sph_params(*o, 0.55));
    RunOptions as_set = *o;
    as_set.slip = RunOptions::Slip::kProblem;
    const HostParticles problems = make_particles(problem, as_set, make_sph_params(as_set, 0.55));
    ASSERT_EQ(free.size(), problems.size());
    EXPECT_GT(problems.count(kBoundary), 0u);
    EXPECT_EQ(free.count(kBoundary), 0u);
    EXPECT_EQ(free.count(kFreeSlipBoundary), problems.count(kBoundary));
    EXPECT_EQ(free.count(kFluid), problems.count(kFluid));
}

// --gauge-reading reaches the run's instruments, the problem's gauges and those added alike.
TEST(Options, GaugeReadingReachesEveryGauge) {
    DamBreak problem;
    const std::optional<RunOptions> o =
        testing::parse_options(problem, {"--gauge-reading", "wetted", "--gauge", "1,0.5"});
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(o->gauge_reading, GaugeReading::kWetted);
    const Instruments in = run_instruments(problem.instruments(), *o);
    EXPECT_GT(in.gauges.size(), 1u);
    EXPECT_EQ(in.gauge_reading, GaugeReading::kWetted);
    EXPECT_EQ(testing::parse_options(problem, {})->gauge_reading, GaugeReading::kSurface);
}

TEST(Options, HelpListsEveryOptionWithUnits) {
    const Outcome o = run({"--help"});
    EXPECT_EQ(o.code, 0);
    for (const char* name : {"--dp", "--t-end", "--output-dir", "--output-every", "--no-output",
                             "--backend", "--rebuild-every", "--cfl", "--alpha", "--delta"}) {
        EXPECT_NE(o.out.find(name), std::string::npos) << name;
    }
    EXPECT_NE(o.out.find("[m]"), std::string::npos);
    EXPECT_NE(o.out.find("[s]"), std::string::npos);
}

TEST(Options, ConfigFileIsReadAndCommandLineWins) {
    testing::TempDir dir("config");
    const std::string cfg = dir.path() + "/run.cfg";
    { std::ofstream(cfg) << "dp = -1\nt-end = 0.5\n"; }
    // The file's bad dp is overridden by the command line; its t-end = 0.5 is taken.
    DamBreak problem;
    const char* argv[] = {"dambreak", "--config", cfg.c_str(), "--dp", "0.05"};
    std::ostringstream help;
    const auto options = parse_command_line(5, argv, problem, help);
    ASSERT_TRUE(options.has_value());
    EXPECT_DOUBLE_EQ(options->dp, 0.05);
    EXPECT_DOUBLE_EQ(options->t_end, 0.5);
}

TEST(Options, UnwritableOutputFolderIsRefused) {
    // A folder below a regular file can never be created, whoever runs the test.
    testing::TempDir dir("unwritable");
    const std::string file = dir.path() + "/plain_file";
    std::ofstream(file) << "x";
    const Outcome o = run(
        {"--backend", "cpu", "--dp", "0.08", "--t-end", "0.001", "--output-dir", file + "/out"});
    EXPECT_EQ(o.code, 1);
    EXPECT_NE(o.err.find("output folder"), std::string::npos) << o.err;
}

TEST(Options, CudaWithoutGpuIsRefused) {
    if (visible_gpu_count() > 0) GTEST_SKIP() << "a GPU is visible here";
    const Outcome o = run({"--backend", "cuda", "--dp", "0.08", "--no-output"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("--backend cuda"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace sph
