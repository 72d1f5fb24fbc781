#include "test_support.h"

#include <random>

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

RunOptions small_run(double dp, double t_end, BackendChoice backend) {
    RunOptions o;
    o.backend = backend;
    o.dp = dp;
    o.t_end = t_end;
    o.write_output = false;
    return o;
}

}  // namespace sph::testing
