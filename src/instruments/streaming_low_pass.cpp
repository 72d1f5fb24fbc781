#include "instruments/streaming_low_pass.h"

#include <algorithm>
#include <cmath>
#include <limits>
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

std::size_t StreamingLowPass::first_unpeaked() const {
    const State& s = state_;
    if (std::isnan(s.peaks_to)) return 0;
    return std::size_t(std::upper_bound(s.times.begin(), s.times.end(), s.peaks_to) -
                       s.times.begin());
}

void StreamingLowPass::take_into(FilteredPeaks& p, double time, const std::vector<double>& values) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (p.largest.size() != values.size()) {
        for (auto* v : {&p.largest, &p.largest_time, &p.smallest, &p.smallest_time})
            v->assign(values.size(), nan);
    }
    for (std::size_t c = 0; c < values.size(); ++c) {
        const double v = values[c];
        if (std::isnan(v)) continue;
        if (std::isnan(p.largest[c]) || v > p.largest[c]) {
            p.largest[c] = v;
            p.largest_time[c] = time;
        }
        if (std::isnan(p.smallest[c]) || v < p.smallest[c]) {
            p.smallest[c] = v;
            p.smallest_time[c] = time;
        }
    }
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
    // Readings whose window this one lies beyond have all theirs: filtered once, each goes into
    // the peaks and, where it is a row's (rows are readings, in order), into the rows.
    std::size_t done = 0;
    for (std::size_t k = first_unpeaked(); k < s.times.size() && time > s.times[k] + window_.reach;
         ++k) {
        const std::vector<double> filtered = filter_at(s.times[k]);
        if (done < s.pending.size() && s.pending[done] == s.times[k]) {
            s.filtered.push_back(filtered);
            ++done;
        }
        take_into(s.peaks, s.times[k], filtered);
        s.peaks_to = s.times[k];
    }
    s.pending.erase(s.pending.begin(), s.pending.begin() + std::ptrdiff_t(done));
    s.times.push_back(time);
    s.readings.push_back(values);
    // Keep what a reading still to filter (the pending rows among them), or a row to come, can
    // reach: this reading is the latest such.
    const double from = s.times[first_unpeaked()];
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

FilteredPeaks StreamingLowPass::peaks() const {
    FilteredPeaks p = state_.peaks;
    for (std::size_t k = first_unpeaked(); k < state_.times.size(); ++k)
        take_into(p, state_.times[k], filter_at(state_.times[k]));
    return p;
}

std::vector<std::vector<double>> StreamingLowPass::rows() const {
    std::vector<std::vector<double>> all = state_.filtered;
    for (double time : state_.pending) all.push_back(filter_at(time));
    return all;
}

}  // namespace sph
