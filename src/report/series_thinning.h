// Long series made short enough to draw: a plot of a run's whole history would otherwise carry
// every row (a long run's gauges.csv holds hundreds of thousands), which a browser draws slowly
// and a report file need not hold, since a line cannot show more points than its plot has pixels.
#pragma once

#include <cstddef>
#include <vector>

namespace sph {

// The points of a series, as (x, y) pairs.
struct SeriesPoints {
    std::vector<double> x, y;
};

// At most about `max_points` of the series (x[i], y[i]), peaks kept: the first and the last point,
// and between them the rows in consecutive buckets of equal count, of each bucket its lowest and
// its highest y, in their order, so that no impact peak is thinned away as taking every k-th row
// would. A bucket that holds non-finite values keeps a break there (one NaN point) with the lowest
// and highest finite y on either side of its non-finite values, so that a gap stays a gap; it then
// keeps up to five points. A series of at most `max_points` (or fewer than three) is returned
// whole; x and y of different lengths are read to the shorter.
SeriesPoints min_max_thinned(const std::vector<double>& x, const std::vector<double>& y,
                             std::size_t max_points);

}  // namespace sph
