// The balancing log: a CSV with one row per device per balancing decision, so that how the slices
// moved over a run can be plotted. Each decision's rows are flushed together, so a run that dies
// leaves only complete rows.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "multi_device/load_balancer.h"

namespace sph {

class LoadBalanceLog {
public:
    // Columns, in order: step (0, 1, ... per decision), iteration, time [s, simulated], device,
    // first_slice and end_slice (the slices [first, end) the device owned while it was timed),
    // particles (its particle count then), forces_seconds (A_g), mark, and new_first_slice and
    // new_end_slice (its slices from the next rebuild on).
    static constexpr const char* kHeader =
        "step,iteration,time,device,first_slice,end_slice,particles,forces_seconds,mark,"
        "new_first_slice,new_end_slice";

    // Creates (truncating) `path` and writes the header; with `go_on` (a restart) appends to a
    // log already there instead. Throws std::runtime_error naming `path` if it cannot.
    explicit LoadBalanceLog(const std::string& path, bool go_on = false);

    // Writes the rows of one decision taken at `iteration` and simulated `time`;
    // `particles[d]` is device d's particle count. Throws std::invalid_argument if the sizes
    // disagree and std::runtime_error naming the path if the write fails.
    void write(long iteration, double time, const BalanceDecision& decision,
               const std::vector<std::uint64_t>& particles);

    int steps() const { return steps_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::ofstream out_;
    int steps_ = 0;
};

}  // namespace sph
