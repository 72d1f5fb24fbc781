// Running programs under mpirun from a test: the command, its exit code and its output.
#pragma once

#include <string>

namespace sph {

struct Job {
    int code = -1;
    std::string output;
    double seconds = 0.0;
};

// mpirun as CMake found it (SPH_MPIEXEC), oversubscribed and allowed as root (CI), starting
// `ranks` processes.
std::string mpirun(int ranks);

// Runs a shell command, stdout and stderr together.
Job run_command(const std::string& command);

}  // namespace sph
