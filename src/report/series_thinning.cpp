// min_max_thinned (series_thinning.h): buckets of rows, each reduced to its lowest and highest
// finite value, breaks kept.
#include "report/series_thinning.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sph {

namespace {

// The rows of [begin, end) that hold its lowest and its highest finite y, in row order; one row
// where they are the same, none where no y is finite.
void add_extremes(const std::vector<double>& x, const std::vector<double>& y, std::size_t begin,
                  std::size_t end, SeriesPoints& out) {
    std::size_t lowest = end, highest = end;
    for (std::size_t i = begin; i < end; ++i) {
        if (!std::isfinite(y[i]) || !std::isfinite(x[i])) continue;
        if (lowest == end || y[i] < y[lowest]) lowest = i;
        if (highest == end || y[i] > y[highest]) highest = i;
    }
    if (lowest == end) return;
    const std::size_t first = std::min(lowest, highest), second = std::max(lowest, highest);
    out.x.push_back(x[first]);
    out.y.push_back(y[first]);
    if (second == first) return;
    out.x.push_back(x[second]);
    out.y.push_back(y[second]);
}

bool finite_point(const std::vector<double>& x, const std::vector<double>& y, std::size_t i) {
    return std::isfinite(x[i]) && std::isfinite(y[i]);
}

// One bucket, [begin, end): its extremes, split by a break where it holds a non-finite point.
void add_bucket(const std::vector<double>& x, const std::vector<double>& y, std::size_t begin,
                std::size_t end, SeriesPoints& out) {
    std::size_t first_gap = end, last_gap = end;
    for (std::size_t i = begin; i < end; ++i) {
        if (finite_point(x, y, i)) continue;
        if (first_gap == end) first_gap = i;
        last_gap = i;
    }
    if (first_gap == end) {
        add_extremes(x, y, begin, end, out);
        return;
    }
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    add_extremes(x, y, begin, first_gap, out);
    out.x.push_back(x[first_gap]);  // a non-finite point: where the line breaks
    out.y.push_back(kNaN);
    add_extremes(x, y, last_gap + 1, end, out);
}

}  // namespace

SeriesPoints min_max_thinned(const std::vector<double>& x, const std::vector<double>& y,
                             std::size_t max_points) {
    const std::size_t n = std::min(x.size(), y.size());
    SeriesPoints out;
    if (n <= std::max<std::size_t>(max_points, 2)) {
        out.x.assign(x.begin(), x.begin() + n);
        out.y.assign(y.begin(), y.begin() + n);
        return out;
    }
    // Two points a bucket, and the first and the last row besides.
    const std::size_t buckets = (std::max<std::size_t>(max_points, 4) - 2) / 2;
    const std::size_t inner = n - 2;
    out.x.push_back(x[0]);
    out.y.push_back(y[0]);
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::size_t begin = 1 + b * inner / buckets, end = 1 + (b + 1) * inner / buckets;
        add_bucket(x, y, begin, end, out);
    }
    out.x.push_back(x[n - 1]);
    out.y.push_back(y[n - 1]);
    return out;
}

}  // namespace sph
