// The particles of the cells around a point: the cell holding the point and its neighbours, at
// most 27, in cell index order, each cell's particles in their sorted order. Cells are at least
// the neighbour-list radius wide, so every particle within 2h of the point (and within the
// radius once it drifted since the rebuild) is among them. The order is the same on every device
// that holds those cells, which keeps sums over them bitwise reproducible.
//
// CellNeighbours walks them for Forces under --neighbours cells, in place of the list.
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

// Forces' neighbours found in the cells around a particle's own cell (--neighbours cells): no
// list is kept, and every particle of those cells is a candidate, its distance tested each time.
// The walk is the list build's (build_neibs_body.h): cells in index order, each cell's particles
// in sorted order, so Forces meets its non-zero terms in list order and both give the same bits.
// Only pairs whose every term is exactly zero are passed over: `cut_sq` lies a little beyond
// (2h)^2, where the kernel's gradient is zero even through the GPU's approximate square root.
//
// The three cells of a row (a step along each of the two slower axes) are consecutive in index
// (the fastest axis has stride 1), so their particles are one stretch of the sorted arrays: nine
// stretches instead of 27 cells, as DualSPHysics walks them.
struct CellNeighbours {
    const Vec4* pos;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    CellGrid grid;
    float cut_sq;

    template <class Visit>
    SPH_HD void for_each(std::uint32_t i, Vec3 pos_i, Visit&& visit) const {
        const std::uint32_t ci = cell[i];
        const OrderedCell o = grid.ordered(ci);
        const int first_step = o.c2 > 0 ? -1 : 0, last_step = o.c2 + 1 < o.n2 ? 1 : 0;
        for (int d0 = -1; d0 <= 1; ++d0) {
            if (o.c0 + d0 < 0 || o.c0 + d0 >= o.n0) continue;
            for (int d1 = -1; d1 <= 1; ++d1) {
                if (o.c1 + d1 < 0 || o.c1 + d1 >= o.n1) continue;
                const std::uint32_t row = ci + std::uint32_t(d0 * int(o.s0) + d1 * int(o.s1));
                std::uint32_t begin = kEmptyCell, end = 0;
                for (int d2 = first_step; d2 <= last_step; ++d2) {
                    const std::uint32_t c = row + std::uint32_t(d2);
                    const std::uint32_t start = cell_start[c];
                    if (start == kEmptyCell) continue;
                    if (begin == kEmptyCell) begin = start;
                    end = cell_end[c];
                }
                if (begin == kEmptyCell) continue;
                for (std::uint32_t j = begin; j < end; ++j) {
                    if (j == i || length_squared(pos_i - xyz(pos[j])) >= cut_sq) continue;
                    if (visit(j)) return;
                }
            }
        }
    }
};

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
