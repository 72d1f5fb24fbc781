#include "instruments/low_pass.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sph {

std::vector<double> gaussian_low_pass(const std::vector<double>& times,
                                      const std::vector<double>& values, double cutoff_hz) {
    if (times.size() != values.size()) {
        throw std::invalid_argument("gaussian_low_pass: as many times as values needed");
    }
    if (!(cutoff_hz > 0.0) || !std::isfinite(cutoff_hz)) {
        throw std::invalid_argument("gaussian_low_pass: the cut-off must be a positive frequency");
    }
    constexpr double kPi = 3.14159265358979323846;
    const double sigma = std::sqrt(std::log(2.0)) / (2.0 * kPi * cutoff_hz);
    const double reach = 4.0 * sigma;
    std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
    std::size_t begin = 0, end = 0;  // the samples within reach of sample i
    for (std::size_t i = 0; i < values.size(); ++i) {
        while (begin < i && times[begin] < times[i] - reach) ++begin;
        if (end < i + 1) end = i + 1;
        while (end < values.size() && times[end] <= times[i] + reach) ++end;
        double weighted = 0.0, weight = 0.0;
        for (std::size_t k = begin; k < end; ++k) {
            if (std::isnan(values[k])) continue;
            const double d = (times[k] - times[i]) / sigma;
            const double w = std::exp(-0.5 * d * d);
            weighted += w * values[k];
            weight += w;
        }
        if (weight > 0.0) out[i] = weighted / weight;
    }
    return out;
}

}  // namespace sph
