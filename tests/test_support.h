// Helpers shared by the system tests: temporary folders and running a Simulation quietly.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "problem.h"
#include "run_options.h"

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

// Options for a small, quiet run on the given back end.
RunOptions small_run(double dp, double t_end, BackendChoice backend = BackendChoice::kCpu);

}  // namespace sph::testing
