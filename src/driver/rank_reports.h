// The run report of a simulation across MPI ranks lists every rank's devices: each rank's
// DeviceReports, gathered in rank order (which is device order).
#pragma once

#include <vector>

#include "ranks/ranks.h"
#include "report/run_report.h"

namespace sph {

// Collective: every rank's `mine`, one after the other, on every rank.
std::vector<DeviceReport> gather_device_reports(const std::vector<DeviceReport>& mine,
                                                const Ranks& ranks);

}  // namespace sph
