// Helpers shared by the system tests: temporary folders and running a Simulation quietly.
#pragma once

#include <filesystem>
#include <string>

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

// Options for a small, quiet run on the given back end.
RunOptions small_run(double dp, double t_end, BackendChoice backend = BackendChoice::kCpu);

}  // namespace sph::testing
