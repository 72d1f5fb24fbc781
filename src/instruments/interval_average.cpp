#include "instruments/interval_average.h"

#include <cmath>
#include <stdexcept>

namespace sph {

void IntervalAverage::add(double time, const std::vector<double>& values) {
    State& s = state_;
    if (std::isnan(s.last_time)) {
        s.last_time = time;
        s.last = values;
        s.sums.assign(values.size(), 0.0);
        s.spans.assign(values.size(), 0.0);
        return;
    }
    if (values.size() != s.last.size())
        throw std::invalid_argument("IntervalAverage::add: not as many values as columns");
    if (time == s.last_time) return;  // the same state read again (a restart's first reading)
    if (!(time > s.last_time))
        throw std::invalid_argument("IntervalAverage::add: a reading earlier than the last one");
    const double span = time - s.last_time;
    for (std::size_t c = 0; c < values.size(); ++c) {
        if (std::isnan(values[c]) || std::isnan(s.last[c])) continue;
        s.sums[c] += 0.5 * (s.last[c] + values[c]) * span;
        s.spans[c] += span;
    }
    s.last_time = time;
    s.last = values;
}

std::vector<double> IntervalAverage::take_row() {
    State& s = state_;
    std::vector<double> row(s.last.size());
    for (std::size_t c = 0; c < row.size(); ++c) {
        row[c] = s.spans[c] > 0.0 ? s.sums[c] / s.spans[c] : s.last[c];
        s.sums[c] = 0.0;
        s.spans[c] = 0.0;
    }
    return row;
}

}  // namespace sph
