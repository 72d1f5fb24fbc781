#include <cmath>
#include <stdexcept>

#include "cell_grid.h"

namespace sph {

CellGrid make_cell_grid(const double lo[3], const double hi[3], double min_side, int split_axis) {
    if (split_axis < 0 || split_axis > 2)
        throw std::invalid_argument("split axis must be 0, 1 or 2");
    CellGrid g{};
    // Hashing divides float coordinates, which can misplace a point near a cell face by a few ulps
    // of the cell count. Cells a little wider than asked keep two points closer than min_side
    // from ever landing two cells apart, which the 27-cell search would miss.
    constexpr double kSideMargin = 1e-3;
    g.cell_side = static_cast<float>(min_side * (1.0 + kSideMargin));
    double cells = 1.0;
    for (int a = 0; a < 3; ++a) {
        g.origin[a] = static_cast<float>(lo[a]);
        // One cell more than [lo, hi] needs, so that float rounding of a point just below hi
        // never hashes it past the last cell.
        g.dims[a] = static_cast<int>(std::floor((hi[a] - lo[a]) / g.cell_side)) + 1;
        cells *= g.dims[a];
    }
    if (cells >= 4.0e9) {
        throw std::invalid_argument("the domain needs more than 4e9 cells; use a larger --dp");
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
