#include "test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <iterator>
#include <random>
#include <sstream>

#include "app/command_line.h"
#include "app/run_app.h"
#include "devices/cuda/cuda_support.h"
#include "driver/simulation.h"

namespace sph::testing {

TempDir::TempDir(const std::string& tag) {
    std::random_device rd;
    path_ =
        (std::filesystem::temp_directory_path() / ("sph_test_" + tag + "_" + std::to_string(rd())))
            .string();
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

AppResult run_app_or_fail_on_hang(Problem& problem, const std::vector<std::string>& args,
                                  int split_axis, int bound_seconds) {
    auto result = std::async(std::launch::async, [&problem, args, split_axis] {
        return run_program(problem, args, split_axis);
    });
    if (result.wait_for(std::chrono::seconds(bound_seconds)) != std::future_status::ready) {
        ADD_FAILURE() << "the run hung: no result within " << bound_seconds << " s";
        std::fflush(nullptr);
        std::_Exit(1);
    }
    return result.get();
}

AppResult run_program(Problem& problem, const std::vector<std::string>& args, int split_axis) {
    std::vector<const char*> argv{"sph"};
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    AppResult r;
    r.code = run_app(int(argv.size()), argv.data(), problem, split_axis, out, err);
    r.out = out.str();
    r.err = err.str();
    return r;
}

void EveryBackend::SetUp() {
    if (GetParam() == BackendChoice::kCuda && visible_gpu_count() == 0) {
        GTEST_SKIP() << "no GPU visible here";
    }
}

std::string backend_test_name(const ::testing::TestParamInfo<BackendChoice>& info) {
    return info.param == BackendChoice::kCuda ? "Cuda" : "Cpu";
}

ParticleStates states_by_id(const HostParticles& particles) {
    ParticleStates states;
    for (std::size_t i = 0; i < particles.size(); ++i) {
        states[particles.id[i]] = {particles.pos[i], particles.velrho[i]};
    }
    return states;
}

int count_bitwise_differences(const ParticleStates& states, const ParticleStates& other) {
    int differing = 0;
    for (const auto& [id, s] : states) {
        const auto t = other.find(id);
        differing += t == other.end() ||
                     std::memcmp(&s.first, &t->second.first, sizeof(FixedPos)) != 0 ||
                     std::memcmp(&s.second, &t->second.second, sizeof(Vec4)) != 0;
    }
    return differing;
}

RunOptions small_run(double dp, double t_end, BackendChoice backend) {
    RunOptions o;
    o.backend = backend;
    o.dp = dp;
    o.t_end = t_end;
    o.write_output = false;
    return o;
}

ReportedRun run_reported(const Problem& problem, const RunOptions& o) {
    Simulation sim(problem, o, 0);
    std::ostringstream log;
    ReportedRun r;
    r.report = sim.run(log);
    print_report(r.report, log);
    r.log = log.str();
    return r;
}

std::optional<RunOptions> parse_options(Problem& problem, const std::vector<std::string>& args) {
    std::vector<const char*> argv = {"program"};
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream help;
    return parse_command_line(int(argv.size()), argv.data(), problem, help);
}

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<double> csv_column(const std::string& path, const std::string& name) {
    const std::vector<std::string> lines = read_lines(path);
    std::vector<double> out;
    std::size_t at = std::string::npos;
    for (std::size_t row = 0; row < lines.size(); ++row) {
        std::stringstream fields(lines[row]);
        std::string field;
        for (std::size_t k = 0; std::getline(fields, field, ','); ++k) {
            if (row == 0 && field == name) at = k;
            if (row > 0 && k == at) out.push_back(std::stod(field));
        }
    }
    return out;
}

}  // namespace sph::testing
