// A run's load_balance.csv (multi_device/load_balance_log.h writes it) read back for report.html:
// each device's slices, particles and Forces time at each balancing decision, to plot how the
// balancer moved the slices over the run.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sph {

struct BalanceHistory {
    int devices = 0;
    std::vector<double> times;  // each decision's simulated time [s]
    // [device][decision]: the slices it owns from the decision on, its particles when timed,
    // and its Forces seconds per iteration then (A_g).
    std::vector<std::vector<double>> slices, particles, forces_seconds;

    std::size_t decisions() const { return times.size(); }
};

// Nothing when there is no such file (one device, or --no-output). Throws std::runtime_error
// naming the file and line where it is not a load balance log (its header not LoadBalanceLog's,
// a field not a number, a decision's rows not of devices 0, 1, ... in turn), or the file where
// it cannot be read.
std::optional<BalanceHistory> read_balance_history(const std::string& path);

}  // namespace sph
