#include "cell_grid.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sph {

CellGrid make_cell_grid(const double lo[3], const double hi[3], double min_side, int split_axis,
                        const PositionFrame& frame) {
    if (split_axis < 0 || split_axis > 2)
        throw std::invalid_argument("split axis must be 0, 1 or 2");
    CellGrid g{};
    g.frame = frame;
    // Hashing is exact (integers), but a pair's distance is tested in float: cells a little
    // wider than asked keep two points a rounding closer than min_side from ever landing two
    // cells apart, which the 27-cell search would miss.
    constexpr double kSideMargin = 1e-3;
    const double steps_side = std::ceil(min_side * (1.0 + kSideMargin) / double(frame.unit));
    if (!(steps_side >= 1.0 && steps_side < 1.0e9)) {
        throw std::invalid_argument("the cell side does not fit the domain's position frame");
    }
    g.side = static_cast<std::int32_t>(steps_side);
    g.cell_side = static_cast<float>(steps_side * double(frame.unit));
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) {
        const double origin = std::floor((lo[a] - frame.origin[a]) / double(frame.unit));
        const double top = std::ceil((hi[a] - frame.origin[a]) / double(frame.unit));
        if (!(origin > double(INT32_MIN) && top < double(INT32_MAX))) {
            throw std::invalid_argument("the domain does not fit its position frame");
        }
        g.origin[a] = static_cast<std::int32_t>(origin);
        // One cell more than [lo, hi] needs, so that a point at hi still hashes into the grid.
        g.dims[a] = static_cast<int>(std::floor((top - origin) / steps_side)) + 1;
        cells *= g.dims[a];
    }
    if (cells >= 4.0e9) {
        throw std::invalid_argument("the domain needs more than 4e9 cells; use a larger --dp");
    }
    for (int a = 0; a < 3; ++a) {
        if (double(g.dims[a]) * steps_side + g.origin[a] >= double(INT32_MAX)) {
            throw std::invalid_argument("the domain does not fit its position frame");
        }
    }
    // Most significant first: the split axis, then the other two in x, y, z order.
    int k = 0;
    g.order[k++] = split_axis;
    for (int a = 0; a < 3; ++a) {
        if (a != split_axis) g.order[k++] = a;
    }
    std::uint32_t stride = 1;
    for (int k2 = 2; k2 >= 0; --k2) {
        g.stride[g.order[k2]] = stride;
        stride *= static_cast<std::uint32_t>(g.dims[g.order[k2]]);
    }
    return g;
}

}  // namespace sph
