// Checkpoint files and folders: every byte is checked, a damaged, foreign or mismatched
// checkpoint is refused (naming the check) before anything runs, the newest two are kept.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "dam_break.h"
#include "restart_support.h"
#include "sectioned_file.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace restart_testing;

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
    StreamingLowPass::State filter;  // --gauge-average --gauge-filter: a row still to filter
    filter.cutoff_hz = 200.0;
    filter.times = {0.009, 0.01};
    filter.readings = {{0.25, 0.35}, {0.3, 0.4}};
    filter.pending = {0.01};
    filter.filtered = {{0.1, 0.2}};
    filter.last_row = 0.01;
    filter.peaks = FilteredPeaks{{0.3, 0.4}, {0.01, 0.01}, {0.1, 0.2}, {0.0, 0.0}};
    filter.peaks_to = 0.009;
    outputs.gauge_filter = filter;
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
    ASSERT_TRUE(s.outputs.gauge_filter.has_value());
    EXPECT_EQ(s.outputs.gauge_filter->readings[0][1], 0.35);
    EXPECT_EQ(s.outputs.gauge_filter->pending, std::vector<double>{0.01});
    EXPECT_EQ(s.outputs.gauge_filter->filtered[0][0], 0.1);
    EXPECT_EQ(s.outputs.gauge_filter->peaks.largest[1], 0.4);
    EXPECT_EQ(s.outputs.gauge_filter->peaks_to, 0.009);
    EXPECT_EQ(s.first_slices, std::vector<int>{0});
    EXPECT_FALSE(s.physics.empty());
    // Written again, the same bytes.
    const std::string again = dir.path() + "/again.chk";
    write_checkpoint(again, s);
    EXPECT_EQ(read_file_bytes(again), read_file_bytes(path));
}

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

TEST(CheckpointFile, AFilterThatIsNotTheRowsIsRefused) {
    testing::TempDir dir("filter");
    const RunState s = read_checkpoint(a_checkpoint(dir.path()));
    auto refusal = [&](const std::function<void(StreamingLowPass::State&)>& spoil) {
        RunState bad = s;
        spoil(*bad.outputs.gauge_filter);
        const std::string path = dir.path() + "/bad.chk";
        write_checkpoint(path, bad);  // well formed, checksums and all
        return message_of([&] { read_checkpoint(path); });
    };
    std::string err = refusal([](StreamingLowPass::State& f) { f.pending.clear(); });
    EXPECT_NE(err.find("section GFLT"), std::string::npos) << err;
    EXPECT_NE(err.find("not as many rows as gauges.csv"), std::string::npos) << err;
    err = refusal([](StreamingLowPass::State& f) { f.readings[1].pop_back(); });
    EXPECT_NE(err.find("does not match gauges.csv's columns"), std::string::npos) << err;
    err = refusal([](StreamingLowPass::State& f) { f.peaks.smallest_time.pop_back(); });
    EXPECT_NE(err.find("does not match gauges.csv's columns"), std::string::npos) << err;
}

TEST(CheckpointFile, FloatingBodiesRoundTripAndANonFiniteStateIsRefused) {
    testing::TempDir dir("floating");
    RunState s = read_checkpoint(a_checkpoint(dir.path()));
    s.floating = {1.0, 0.6, 0.25, -3.5};
    const std::string path = dir.path() + "/floating.chk";
    write_checkpoint(path, s);
    EXPECT_EQ(read_checkpoint(path).floating, s.floating);
    s.floating[2] = NAN;
    write_checkpoint(path, s);  // well formed, checksums and all
    const std::string err = message_of([&] { read_checkpoint(path); });
    EXPECT_NE(err.find("section FLOT"), std::string::npos) << err;
    EXPECT_NE(err.find("not finite"), std::string::npos) << err;
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

TEST(CheckpointFile, ForeignFilesAndVersionsAreNamed) {
    testing::TempDir dir("foreign");
    EXPECT_NE(message_of([] {
                  parse_checkpoint("<?xml version=\"1.0\"?>", "x.chk");
              }).find("not a checkpoint"),
              std::string::npos);
    SectionedFile other;
    other.kind = kCheckpointKind;
    other.version = kCheckpointVersion + 1;
    write_sectioned_file(dir.path() + "/v2.chk", other);
    EXPECT_NE(message_of([&] { read_checkpoint(dir.path() + "/v2.chk"); })
                  .find("format version " + std::to_string(kCheckpointVersion + 1) +
                        "; this build reads version " + std::to_string(kCheckpointVersion)),
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
    for (const auto& entry :
         std::filesystem::directory_iterator(SPH_FUZZ_CORPUS "/checkpoint_reader")) {
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
    std::vector<std::string> args = {"--backend",   "cpu",       "--dp",    "0.08",
                                     "--no-output", "--restart", checkpoint};
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
    // Switches a checkpoint does not record (off, or a build before them) read off.
    const std::string corrected = restart_error(path, {"--gradient-correction", "on"});
    EXPECT_NE(corrected.find("gradient-correction (checkpoint: off, now: on)"), std::string::npos)
        << corrected;
    const std::string contact =
        restart_error(path, {"--boundary", "mdbc", "--no-penetration", "on"});
    EXPECT_NE(contact.find("no-penetration (checkpoint: off, now: on)"), std::string::npos)
        << contact;
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

}  // namespace
}  // namespace sph
