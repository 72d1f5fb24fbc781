// Low-pass filtering of the instruments' time series (gauges.csv -> gauges_filtered.csv).
//
// Impact pressures in a weakly compressible run carry acoustic noise at periods of about h / c0
// (a fraction of a millisecond) that no pressure sensor would record; engineers compare filtered
// series. The filter is a Gaussian-weighted average over time, zero phase (peaks stay where they
// are), which also takes unevenly spaced samples (a reading every iteration):
//
//   y(t_i) = sum_k w_ik v_k / sum_k w_ik,   w_ik = exp(-(t_k - t_i)^2 / (2 sigma^2)),
//
// over the samples within 4 sigma. On evenly spaced samples its gain exp(-2 pi^2 sigma^2 f^2) is
// 1/sqrt(2) (-3 dB) at the cut-off f_c for sigma = sqrt(ln 2) / (2 pi f_c) = 0.1325 / f_c: the gain
// is 2^(-(f / f_c)^2 / 2), 0.5 at 1.41 f_c, 0.25 at 2 f_c, 0.044 at 3 f_c (a gentle roll-off, but
// no ringing: a filtered impact never overshoots). At either end of a series the window is
// one-sided. NaN samples (a front that has left, say) are skipped; a sample with no finite value in
// its window stays NaN.
#pragma once

#include <vector>

namespace sph {

// The filter's window for a cut-off [Hz]: its sigma and its reach (4 sigma) [s].
struct GaussianWindow {
    explicit GaussianWindow(double cutoff_hz);  // throws std::invalid_argument unless > 0
    double sigma, reach;
    // Whether a sample at time `t` lies in the window of the value at `at`.
    bool covers(double at, double t) const { return t >= at - reach && t <= at + reach; }
    // Adds the sample (t, v) to the weighted sums of the value at `at`; a NaN adds nothing.
    void add(double at, double t, double v, double& weighted, double& weight) const;
    // The value the sums make: NaN where nothing finite was added.
    static double value(double weighted, double weight);
};

// The series `values` sampled at rising `times` [s], filtered with cut-off `cutoff_hz` > 0.
std::vector<double> gaussian_low_pass(const std::vector<double>& times,
                                      const std::vector<double>& values, double cutoff_hz);

}  // namespace sph
