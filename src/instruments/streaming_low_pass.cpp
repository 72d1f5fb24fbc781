#include "instruments/streaming_low_pass.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sph {

StreamingLowPass::StreamingLowPass(double cutoff_hz) : StreamingLowPass(cutoff_hz, State{}) {}

StreamingLowPass::StreamingLowPass(double cutoff_hz, State state)
    : window_(cutoff_hz), state_(std::move(state)) {
    state_.cutoff_hz = cutoff_hz;
}

std::vector<double> StreamingLowPass::filter_at(double time) const {
    const State& s = state_;
    const std::size_t columns = s.readings.empty() ? 0 : s.readings.front().size();
    std::vector<double> weighted(columns, 0.0), weight(columns, 0.0);
    for (std::size_t k = 0; k < s.times.size(); ++k) {
        if (!window_.covers(time, s.times[k])) continue;
        for (std::size_t c = 0; c < columns; ++c)
            window_.add(time, s.times[k], s.readings[k][c], weighted[c], weight[c]);
    }
    std::vector<double> row(columns);
    for (std::size_t c = 0; c < columns; ++c)
        row[c] = GaussianWindow::value(weighted[c], weight[c]);
    return row;
}

void StreamingLowPass::add(double time, const std::vector<double>& values) {
    State& s = state_;
    if (!s.times.empty()) {
        if (time == s.times.back()) return;  // the same state read again
        if (!(time > s.times.back()))
            throw std::invalid_argument("StreamingLowPass::add: a reading earlier than the last");
        if (values.size() != s.readings.back().size())
            throw std::invalid_argument("StreamingLowPass::add: not as many values as columns");
    }
    // Rows whose window this reading lies beyond have all their readings: filter them now.
    std::size_t done = 0;
    while (done < s.pending.size() && time > s.pending[done] + window_.reach) {
        s.filtered.push_back(filter_at(s.pending[done]));
        ++done;
    }
    s.pending.erase(s.pending.begin(), s.pending.begin() + std::ptrdiff_t(done));
    s.times.push_back(time);
    s.readings.push_back(values);
    // Keep what a pending row or a row to come (at this reading or later) can reach.
    const double from = s.pending.empty() ? time : std::min(s.pending.front(), time);
    std::size_t old = 0;
    while (old < s.times.size() && !window_.covers(from, s.times[old])) ++old;
    s.times.erase(s.times.begin(), s.times.begin() + std::ptrdiff_t(old));
    s.readings.erase(s.readings.begin(), s.readings.begin() + std::ptrdiff_t(old));
}

void StreamingLowPass::mark_row() {
    State& s = state_;
    if (s.times.empty()) throw std::logic_error("StreamingLowPass::mark_row: no reading yet");
    if (s.last_row == s.times.back()) return;
    s.pending.push_back(s.times.back());
    s.last_row = s.times.back();
}

std::vector<std::vector<double>> StreamingLowPass::rows() const {
    std::vector<std::vector<double>> all = state_.filtered;
    for (double time : state_.pending) all.push_back(filter_at(time));
    return all;
}

}  // namespace sph
