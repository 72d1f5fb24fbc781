#include "instruments/low_pass.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sph {

GaussianWindow::GaussianWindow(double cutoff_hz) {
    if (!(cutoff_hz > 0.0) || !std::isfinite(cutoff_hz)) {
        throw std::invalid_argument("gaussian_low_pass: the cut-off must be a positive frequency");
    }
    constexpr double kPi = 3.14159265358979323846;
    sigma = std::sqrt(std::log(2.0)) / (2.0 * kPi * cutoff_hz);
    reach = 4.0 * sigma;
}

void GaussianWindow::add(double at, double t, double v, double& weighted, double& weight) const {
    if (std::isnan(v)) return;
    const double d = (t - at) / sigma;
    const double w = std::exp(-0.5 * d * d);
    weighted += w * v;
    weight += w;
}

double GaussianWindow::value(double weighted, double weight) {
    return weight > 0.0 ? weighted / weight : std::numeric_limits<double>::quiet_NaN();
}

std::vector<double> gaussian_low_pass(const std::vector<double>& times,
                                      const std::vector<double>& values, double cutoff_hz) {
    if (times.size() != values.size()) {
        throw std::invalid_argument("gaussian_low_pass: as many times as values needed");
    }
    const GaussianWindow window(cutoff_hz);
    std::vector<double> out(values.size());
    std::size_t begin = 0, end = 0;  // the samples within reach of sample i
    for (std::size_t i = 0; i < values.size(); ++i) {
        while (begin < i && !window.covers(times[i], times[begin])) ++begin;
        if (end < i + 1) end = i + 1;
        while (end < values.size() && window.covers(times[i], times[end])) ++end;
        double weighted = 0.0, weight = 0.0;
        for (std::size_t k = begin; k < end; ++k)
            window.add(times[i], times[k], values[k], weighted, weight);
        out[i] = GaussianWindow::value(weighted, weight);
    }
    return out;
}

}  // namespace sph
