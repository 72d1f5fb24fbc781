// bodies.csv: each moving body's state and loads over time, beside gauges.csv. A row at t = 0,
// at the first step at or after each multiple of --gauge-every, and at the end; per body its
// displacement from where it was laid out (dx, dy, dz [m]), its angle about its hinge [rad], their
// rates (vx, vy, vz [m/s], omega [rad/s]) as its law gives them, and the force and moment the water
// exerts on it (Fx, Fy, Fz [N], Mx, My, Mz [N m] about its moment point:
// kernels/body_loads_body.h). A restart keeps the rows up to its checkpoint's time (the file as it
// was is kept as bodies.before-restart.csv) and goes on: rows come at the same times as in a run
// that never stopped, and with the same values. Only the process that writes files keeps one; every
// rank takes part in summing the loads when a row is due (BodyLog::due).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bodies/floating_bodies.h"
#include "devices/device.h"
#include "gauge_csv.h"

namespace sph {

class BodyLog {
public:
    // Rows every `every` seconds of simulated time into `file_dir`/bodies.csv (empty: none, as on
    // ranks other than 0); `resumed_at` >= 0: a restart from that time.
    // `floating` (kept by the caller): the floating bodies' states, which their rows take.
    BodyLog(const BodyTable& table, const FloatingBodies* floating, double every,
            const std::string& file_dir, double resumed_at);

    // Whether a row is due at `time`, the step before having ended at `previous`: a multiple of
    // `every` was passed, or it is the run's end (`last`). The same on every rank and restart.
    bool due(double time, double previous, bool last) const;
    // The points the moments are taken about at `time`, in the frame's steps.
    std::vector<FixedPos> moment_points(double time, const PositionFrame& frame) const;
    // Writes the row at `time` from the bodies' load sums (Device::body_loads, over every device).
    void write(double time, const std::vector<unsigned long long>& sums);

    // The columns of one body: NAME_dx, ... NAME_Mz.
    static std::vector<std::string> columns(const std::string& name);

private:
    // Body b's state at `time`: by its law, or as it floats.
    BodyState state(std::size_t b, double time) const;

    BodyTable table_;
    const FloatingBodies* floating_;
    double every_;
    std::unique_ptr<GaugeCsv> csv_;
};

}  // namespace sph
