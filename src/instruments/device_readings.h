// The instruments evaluated where the particles are (Device::measure, kernels/instruments_body.h):
// the points they read at, and their readings from the sums there. The readings are those of
// gauges.h on a host snapshot, to rounding: a probe is the Shepard-normalised pressure at its
// point; a gauge samples the colour up its line every dp/2 on the grid of multiples of dp/2
// and reads where, having reached 1/2, it falls below 1/2 again; a wall sensor is the coverage-
// weighted mean pressure of the wall's first layer over its disc, summed tile by tile (a panel
// the coverage-weighted sum, times dp^2: a force); the front
// is the leading banded particle with enough banded neighbours.
#pragma once

#include <optional>
#include <vector>

#include "devices/device.h"
#include "instruments.h"
#include "instruments/gauges.h"
#include "sph_params.h"

namespace sph {

struct InstrumentPlan {
    // The probes, then each gauge's samples from the bottom up, then each wall sensor's tiles.
    std::vector<InstrumentSite> sites;
    long first_sample = 0;  // gauge sample k is at z = (first_sample + k) * step
    long samples_per_gauge = 0;
    double step = 0.0;             // dp/2
    std::vector<long> wall_tiles;  // per wall sensor or panel, its number of tiles
    std::optional<FrontSpec> front;
};

// A wall sensor's disc or panel as one site that takes the whole face (no tiles): the host's
// evaluation. `frame`: the particles' positions' (kernels/fixed_position.h).
InstrumentSite whole_sensor(const WallSensor& sensor, double dp, const PositionFrame& frame);

// The sites of `instruments` in a domain from z_lo to z_hi, for positions held in `frame`.
InstrumentPlan plan_instruments(const Instruments& instruments, const SphParams& params,
                                double z_lo, double z_hi, const PositionFrame& frame);

// The readings from the sums of every device, added over the devices.
InstrumentReadings readings_from(const Instruments& instruments, const InstrumentPlan& plan,
                                 const InstrumentSums& sums);

// A gauge's reading from the colour at its samples z_k = (first + k) * step (gauges.h).
double gauge_from_colour(const std::vector<double>& colour, long first, double step,
                         GaugeReading reading);

}  // namespace sph
