// Gauge rows that hold time averages instead of readings (--gauge-average).
//
// A row of gauges.csv every --gauge-every seconds that holds the instruments' readings at its time
// samples a signal that changes at every step: the pressure of a weakly compressible run rings at
// periods of h / c0, a fraction of a millisecond, so readings every 0.5 ms catch the ringing at
// random phases and fold it into the record (aliasing), where no later filter can tell it from the
// flow. A data-acquisition system filters before it samples; the same here: the instruments are
// read at every iteration and each row holds the mean of the readings over the interval since the
// row before, the integral by the trapezoidal rule between consecutive readings divided by the
// time they cover. Means are exact for what integrates over time (an impulse, a mean load); a
// peak read from filtered rows still needs rows finer than the filter (validation/README.md:
// Lobovsky). The first row, with no interval behind it, holds the reading at its time.
//
// A column whose reading is NaN (a front that has left, say) adds no interval while either end is
// NaN; a row whose interval has no finite part takes the last reading, NaN or not. A reading at the
// time of the last one adds nothing and is ignored: a run restarted from a checkpoint reads its
// first state again.
#pragma once

#include <limits>
#include <vector>

namespace sph {

class IntervalAverage {
public:
    // What a checkpoint keeps of it: the last reading and the interval's sums so far.
    struct State {
        double last_time = std::numeric_limits<double>::quiet_NaN();  // NaN: no reading yet
        std::vector<double> last;   // the last reading, a value per column
        std::vector<double> sums;   // the integral of each column over the interval so far
        std::vector<double> spans;  // the time each column's integral covers
    };

    IntervalAverage() = default;
    explicit IntervalAverage(State state) : state_(std::move(state)) {}

    // The readings `values` at simulated `time` (later than the last reading's).
    void add(double time, const std::vector<double>& values);
    // Each column's mean over the interval since the last row, which ends it: the next starts
    // at the last reading.
    std::vector<double> take_row();
    const State& state() const { return state_; }

private:
    State state_;
};

}  // namespace sph
