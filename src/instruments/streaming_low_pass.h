// The low-pass filter of the readings at every iteration, at the rows' times (--gauge-average
// with --gauge-filter).
//
// Filtering the rows of gauges.csv afterwards (instruments/low_pass.h) sees only what the rows
// hold: a spike shorter than the rows' spacing is cut, missed or smeared by the rows' own means.
// When the instruments are read at every iteration anyway (--gauge-average) the filter takes
// those readings instead, as they come: a row's filtered value is the Gaussian average of the
// readings within 4 sigma of its time (the same weights, in the same order, as gaussian_low_pass
// over a row at every iteration, so the same numbers), computed once the run has gone past its
// window. What the rows still decide is where the filtered curve is sampled: a peak between two
// rows reads lower (DamBreak's obstacle probes, 220 Hz, rows every 0.5 ms: peaks 0-13 % below
// the every-iteration filter's, against 0.3-17 % filtered from the rows of means;
// validation/results/h100-streamed-filter/). So the filter also keeps each column's peaks: the
// largest and smallest filtered value over the run, taken at every reading (each once the run is
// past its window), with their times: the peak loads an engineer takes from a run, whatever the
// rows. Only the readings within reach of a row or reading still to filter are kept, a few
// hundred at most, however long the run.
#pragma once

#include <limits>
#include <vector>

#include "instruments/low_pass.h"

namespace sph {

// Each column's largest and smallest filtered value and the (first) time of each; NaN where the
// column has had no finite value.
struct FilteredPeaks {
    std::vector<double> largest, largest_time, smallest, smallest_time;
};

class StreamingLowPass {
public:
    // What a checkpoint keeps of it.
    struct State {
        double cutoff_hz = 0.0;                     // the filter's (set by the constructor)
        std::vector<double> times;                  // the readings kept, rising
        std::vector<std::vector<double>> readings;  // a value per column each
        std::vector<double> pending;                // rows' times still within the readings' reach
        std::vector<std::vector<double>> filtered;  // the rows before them, filtered
        double last_row = std::numeric_limits<double>::quiet_NaN();
        FilteredPeaks peaks;  // over the readings up to peaks_to
        double peaks_to = std::numeric_limits<double>::quiet_NaN();  // NaN: none yet
    };

    explicit StreamingLowPass(double cutoff_hz);
    StreamingLowPass(double cutoff_hz, State state);  // goes on from a checkpoint's state

    // The readings `values` at simulated `time`: later than the last one, or the last one's
    // again (a restart's first reading), which adds nothing.
    void add(double time, const std::vector<double>& values);
    // The last reading's time is a row's (once; again at the same time adds nothing).
    void mark_row();
    // Every row's filtered values so far, those still pending from the readings there are (at the
    // end of a run their windows are one-sided, as gaussian_low_pass's are).
    std::vector<std::vector<double>> rows() const;
    // The peaks over every reading so far, the last ones' from the readings there are.
    FilteredPeaks peaks() const;
    const State& state() const { return state_; }

private:
    std::vector<double> filter_at(double time) const;
    // The first kept reading not yet taken into the peaks.
    std::size_t first_unpeaked() const;
    static void take_into(FilteredPeaks& peaks, double time, const std::vector<double>& values);
    GaussianWindow window_;
    State state_;
};

}  // namespace sph
