#include "mpi_support.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>

namespace sph {

std::string mpirun(int ranks) {
    return std::string(SPH_MPIEXEC) + " --oversubscribe --allow-run-as-root -np " +
           std::to_string(ranks) + " ";
}

Job run_command(const std::string& command) {
    const auto start = std::chrono::steady_clock::now();
    Job job;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return job;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) job.output += buffer;
    const int status = pclose(pipe);
    job.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    job.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return job;
}

}  // namespace sph
