// The particles of the cells around a point: the cell holding the point and its neighbours, at
// most 27, in cell index order, each cell's particles in their sorted order. Cells are at least
// the neighbour-list radius wide, so every particle within 2h of the point (and within the
// radius once it drifted since the rebuild) is among them. The order is the same on every device
// that holds those cells, which keeps sums over them bitwise reproducible.
#pragma once

#include <cstdint>

#include "cell_grid.h"
#include "kernel_args.h"
#include "vec.h"

namespace sph {

// Calls visit(j) for each particle j of the cells around `point`, until a call returns true;
// cells outside the grid, and cells this device holds no particle of, are skipped.
template <class Visit>
SPH_HD void for_each_particle_near(Vec3 point, const CellGrid& grid,
                                   const std::uint32_t* cell_start, const std::uint32_t* cell_end,
                                   Visit&& visit) {
    const float at[3] = {point.x, point.y, point.z};
    int lo[3], hi[3];
    for (int axis = 0; axis < 3; ++axis) {
        const int c = grid.coordinate(at[axis], axis);
        lo[axis] = c - 1 < 0 ? 0 : c - 1;
        hi[axis] = c + 1 >= grid.dims[axis] ? grid.dims[axis] - 1 : c + 1;
    }
    const int outer = grid.order[0], middle = grid.order[1], inner = grid.order[2];
    int c[3];
    for (c[outer] = lo[outer]; c[outer] <= hi[outer]; ++c[outer]) {
        for (c[middle] = lo[middle]; c[middle] <= hi[middle]; ++c[middle]) {
            for (c[inner] = lo[inner]; c[inner] <= hi[inner]; ++c[inner]) {
                const std::uint32_t cell =
                    c[0] * grid.stride[0] + c[1] * grid.stride[1] + c[2] * grid.stride[2];
                const std::uint32_t start = cell_start[cell];
                if (start == kEmptyCell) continue;
                const std::uint32_t end = cell_end[cell];
                for (std::uint32_t j = start; j < end; ++j) {
                    if (visit(j)) return;
                }
            }
        }
    }
}

// The number of cells around a point that for_each_particle_near walks, at most.
constexpr int kCellsAround = 27;

// Calls visit(j) for each particle j of the k-th cell around `point` (k in [0, 27), in the order
// for_each_particle_near walks them, so that adding up the cells' sums in k order adds what it
// would); nothing where that cell lies outside the grid or holds no particle here. Lets a
// device spread one point's walk over 27 threads.
template <class Visit>
SPH_HD void for_each_particle_in_cell_near(Vec3 point, int k, const CellGrid& grid,
                                           const std::uint32_t* cell_start,
                                           const std::uint32_t* cell_end, Visit&& visit) {
    const float at[3] = {point.x, point.y, point.z};
    const int offset_of[3] = {k / 9 - 1, (k / 3) % 3 - 1, k % 3 - 1};  // outer, middle, inner
    const int axis_of[3] = {grid.order[0], grid.order[1], grid.order[2]};
    std::uint32_t cell = 0;
    for (int n = 0; n < 3; ++n) {
        const int axis = axis_of[n];
        const int c = grid.coordinate(at[axis], axis) + offset_of[n];
        if (c < 0 || c >= grid.dims[axis]) return;
        cell += std::uint32_t(c) * grid.stride[axis];
    }
    const std::uint32_t start = cell_start[cell];
    if (start == kEmptyCell) return;
    const std::uint32_t end = cell_end[cell];
    for (std::uint32_t j = start; j < end; ++j) visit(j);
}

}  // namespace sph
