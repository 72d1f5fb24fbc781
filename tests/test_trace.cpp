// --trace: a Chrome trace-event file of the iteration window, one process per device with a track
// per stream or thread, whose events nest properly on each track.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "dam_break.h"
#include "test_support.h"

namespace sph {
namespace {

using nlohmann::json;

struct Span {
    double start, end;
    std::string name;
};

struct ParsedTrace {
    json doc;
    std::map<int, std::string> process;                      // pid -> name
    std::map<std::pair<int, int>, std::string> track;        // (pid, tid) -> name
    std::map<std::pair<int, int>, std::vector<Span>> spans;  // complete events per track
    std::map<std::string, int> count;                        // events per "pid/name"
};

ParsedTrace read_trace(const std::string& path) {
    std::ifstream in(path);
    ParsedTrace t;
    t.doc = json::parse(in);
    for (const json& e : t.doc.at("traceEvents")) {
        const int pid = e.at("pid"), tid = e.at("tid");
        if (e.at("ph") == "M" && e.at("name") == "process_name") {
            t.process[pid] = e.at("args").at("name");
        } else if (e.at("ph") == "M" && e.at("name") == "thread_name") {
            t.track[{pid, tid}] = e.at("args").at("name");
        } else if (e.at("ph") == "X") {
            const double ts = e.at("ts"), dur = e.at("dur");
            EXPECT_GE(ts, 0.0);
            EXPECT_GE(dur, 0.0);
            t.spans[{pid, tid}].push_back(Span{ts, ts + dur, e.at("name")});
            ++t.count[std::to_string(pid) + "/" + e.at("name").get<std::string>()];
        }
    }
    return t;
}

// On one track, two events are either disjoint or one holds the other (the viewers' rule).
void expect_nested(std::vector<Span> spans, const std::string& track) {
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        return a.start < b.start || (a.start == b.start && a.end > b.end);
    });
    std::vector<Span> open;
    const double slack = 1e-3;  // microseconds: rounding of the printed times
    for (const Span& s : spans) {
        while (!open.empty() && open.back().end <= s.start + slack) open.pop_back();
        if (!open.empty()) {
            EXPECT_LE(s.end, open.back().end + slack)
                << track << ": '" << s.name << "' overlaps '" << open.back().name << "'";
        }
        open.push_back(s);
    }
}

TEST(Trace, TwoCpuDevicesGiveNestedTracksForTheWindow) {
    testing::TempDir dir("trace");
    const std::string file = dir.path() + "/timeline/trace.json";  // the folder is made
    DamBreak problem;
    const testing::AppResult r = testing::run_app_or_fail_on_hang(
        problem,
        {"--backend", "cpu", "--devices", "2", "--threads", "1", "--dp", "0.04", "--t-end", "0.01",
         "--no-output", "--output-dir", dir.path(), "--trace", file, "--trace-iterations", "5:25",
         "--rebuild-every", "10"},
        0, 300);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("trace of iterations [5, 25) written to " + file), std::string::npos)
        << r.out;
    const ParsedTrace t = read_trace(file);
    EXPECT_EQ(t.doc["otherData"]["first_iteration"], 5);
    EXPECT_EQ(t.doc["otherData"]["end_iteration"], 25);
    ASSERT_EQ(t.process.size(), 3u);
    EXPECT_EQ(t.process.at(0), "run");
    EXPECT_EQ(t.process.at(1).rfind("device 0: CPU", 0), 0u) << t.process.at(1);
    EXPECT_EQ(t.process.at(2).rfind("device 1: CPU", 0), 0u) << t.process.at(2);
    std::set<std::string> names;
    for (const auto& [key, name] : t.track) names.insert(std::to_string(key.first) + "/" + name);
    EXPECT_EQ(names, (std::set<std::string>{"0/main thread", "1/host thread", "1/kernels",
                                            "2/host thread", "2/kernels"}));
    for (const auto& [key, spans] : t.spans) expect_nested(spans, t.track.at(key));

    // 20 iterations of two stages, rebuilds at 10 and 20.
    EXPECT_EQ(t.count.at("0/iteration"), 20);
    EXPECT_EQ(t.count.at("0/load balancing"), 2);
    for (int pid : {1, 2}) {
        const std::string p = std::to_string(pid) + "/";
        EXPECT_EQ(t.count.at(p + "forces centre"), 40);
        EXPECT_EQ(t.count.at(p + "minimum dt"), 40);
        EXPECT_EQ(t.count.at(p + "dt minima wait"), 40);
        EXPECT_EQ(t.count.at(p + "dt read-back"), 20);
        EXPECT_EQ(t.count.at(p + "euler predictor"), 20);
        EXPECT_EQ(t.count.at(p + "rebuild"), 2);
        EXPECT_EQ(t.count.at(p + "neighbour lists"), 2);
    }
    // Device 0 sends its last slice right, device 1 its first slice left, every stage.
    EXPECT_EQ(t.count.at("1/edge-force copy right"), 40);
    EXPECT_EQ(t.count.at("2/edge-force copy left"), 40);
    EXPECT_EQ(t.count.count("1/edge-force copy left"), 0u);
    // The report names the trace.
    std::ifstream in(dir.path() + "/run_report.json");
    EXPECT_EQ(json::parse(in).at("trace_file"), file);
}

// A DamBreak run on the CPU to t = 0.002 s (a few dozen iterations) tracing `window`.
testing::AppResult short_traced_run(const testing::TempDir& dir, const std::string& file,
                                    const std::string& window) {
    DamBreak problem;
    return testing::run_app_or_fail_on_hang(
        problem,
        {"--backend", "cpu", "--dp", "0.04", "--t-end", "0.002", "--no-output", "--output-dir",
         dir.path(), "--trace", file, "--trace-iterations", window},
        0, 300);
}

TEST(Trace, RunEndingInsideTheWindowWritesWhatItHas) {
    testing::TempDir dir("trace-short");
    const std::string file = dir.path() + "/trace.json";
    const testing::AppResult r = short_traced_run(dir, file, "0:100000");
    ASSERT_EQ(r.code, 0) << r.err;
    const ParsedTrace t = read_trace(file);
    const long end = t.doc["otherData"]["end_iteration"];
    EXPECT_GT(end, 0);
    EXPECT_LT(end, 100000);
    EXPECT_EQ(t.count.at("0/iteration"), end);
}

TEST(Trace, WindowAfterTheRunWarnsAndWritesNothing) {
    testing::TempDir dir("trace-late");
    const std::string file = dir.path() + "/trace.json";
    const testing::AppResult r = short_traced_run(dir, file, "100000:100010");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("warning: no trace written"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists(file));
    EXPECT_FALSE(std::filesystem::exists(file + ".tmp"));
}

TEST(Trace, BadWindowOrUnwritablePathIsRefusedBeforeRunning) {
    testing::TempDir dir("trace-bad");
    DamBreak problem;
    for (const char* window : {"10", "5:5", "9:3", "a:b", "-1:4"}) {
        const testing::AppResult r = testing::run_app_or_fail_on_hang(
            problem, {"--backend", "cpu", "--dp", "0.04", "--trace-iterations", window}, 0, 60);
        EXPECT_EQ(r.code, 2) << window;
        EXPECT_NE(r.err.find("--trace-iterations"), std::string::npos) << r.err;
    }
    // A path below a regular file cannot be made.
    std::ofstream(dir.path() + "/file") << "x";
    const testing::AppResult r = testing::run_app_or_fail_on_hang(
        problem,
        {"--backend", "cpu", "--dp", "0.04", "--output-dir", dir.path() + "/out", "--trace",
         dir.path() + "/file/trace.json"},
        0, 60);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--trace: cannot write"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/out/run_report.json"));
}

}  // namespace
}  // namespace sph
