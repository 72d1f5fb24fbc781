// Helpers shared by the system tests: temporary folders, running a program quietly, one test
// body on every back end, and bit-for-bit comparisons of particle states.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "devices/cuda/cuda_support.h"
#include "devices/host_particles.h"

#include "driver/run_options.h"
#include "problem.h"
#include "report/run_report.h"

namespace sph {

// gtest prints a test's parameter (in failures and in --gtest_list_tests) as "cpu" or "cuda",
// not as the enum's raw bytes.
inline void PrintTo(BackendChoice backend, std::ostream* os) {
    *os << to_string(backend);
}

}  // namespace sph

namespace sph::testing {

// A fresh folder under the system temp directory, removed when the object goes.
class TempDir {
public:
    explicit TempDir(const std::string& tag);
    ~TempDir();
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// What a problem program printed and returned.
struct AppResult {
    int code = -1;
    std::string out, err;
};

// Runs the program of `problem` (argv[0] is added) in a thread. A run that does not end within
// `bound_seconds` is a hang: the test fails and the process ends (its threads cannot be taken
// back).
AppResult run_app_or_fail_on_hang(Problem& problem, const std::vector<std::string>& args,
                                  int split_axis, int bound_seconds);
// The same on this thread, for runs that cannot hang (option checks, quick refusals).
AppResult run_program(Problem& problem, const std::vector<std::string>& args, int split_axis);

// The options `args` give `problem`'s program (argv[0] is added); nothing for --help.
std::optional<RunOptions> parse_options(Problem& problem, const std::vector<std::string>& args);

// The lines of a text file.
std::vector<std::string> read_lines(const std::string& path);
// The whole text of a file ("" when it cannot be read).
std::string read_text(const std::string& path);
// Column `name` of a CSV file's rows, as numbers (none where no column has that name).
std::vector<double> csv_column(const std::string& path, const std::string& name);

// Options for a small, quiet run on the given back end.
RunOptions small_run(double dp, double t_end, BackendChoice backend = BackendChoice::kCpu);

// A run of `problem` with `o` in this process: its report, and its log with the report printed
// after it, as the program prints it.
struct ReportedRun {
    RunReport report;
    std::string log;
};
ReportedRun run_reported(const Problem& problem, const RunOptions& o);

// --- One test body, every back end (as OpenMM and Cabana write their tests) ---
// A test of this fixture runs once per back end: on the CPU everywhere, on CUDA where a GPU is
// visible, and is skipped (and listed as skipped) where its back end is missing. Instantiate
// with SPH_ON_EVERY_BACKEND(Suite).
class EveryBackend : public ::testing::TestWithParam<BackendChoice> {
protected:
    void SetUp() override;
    BackendChoice backend() const { return GetParam(); }
};
std::string backend_test_name(const ::testing::TestParamInfo<BackendChoice>& info);
#define SPH_ON_EVERY_BACKEND(Suite)                                                        \
    INSTANTIATE_TEST_SUITE_P(Backends, Suite,                                              \
                             ::testing::Values(BackendChoice::kCpu, BackendChoice::kCuda), \
                             ::sph::testing::backend_test_name)
// Skips the test (listed as skipped) unless `gpus` GPUs are visible.
#define SPH_REQUIRE_GPUS(gpus)                                                      \
    if (::sph::visible_gpu_count() < (gpus))                                        \
    GTEST_SKIP() << "needs " << (gpus) << " GPU(s); " << ::sph::visible_gpu_count() \
                 << " visible here"

// --- Particle states compared bit for bit ---
// Position and velocity-density of each particle, by id.
using ParticleStates = std::unordered_map<std::uint32_t, std::pair<FixedPos, Vec4>>;
ParticleStates states_by_id(const HostParticles& particles);
// Particles whose state differs in any bit, or that are missing from `other`.
int count_bitwise_differences(const ParticleStates& states, const ParticleStates& other);

}  // namespace sph::testing
