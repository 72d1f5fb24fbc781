// The particles of the cells around a point: the cell holding the point and its neighbours, at
// most 27, in cell index order, each cell's particles in their sorted order. Cells are at least
// the neighbour-list radius wide, so every particle within 2h of the point (and within the
// radius once it drifted since the rebuild) is among them. The order is the same on every device
// that holds those cells, which keeps sums over them bitwise reproducible.
//
// The three cells of a row (a step along each of the two slower axes) are consecutive in index
// (the fastest axis has stride 1), so their particles are one stretch of the sorted arrays: the
// walks take nine stretches instead of 27 cells (cell_rows.h), as DualSPHysics walks them. The list
// build (build_neibs_body.h) lists the particles near a point row by row this way, and
// CellNeighbours walks them for Forces under --neighbours cells, in place of the list.
//
// On the GPU a stretch's candidates are tested 32 at a time into a bit mask before any is
// visited (near_mask, near_candidates.h). The threads of a warp hold different candidates near:
// tested and visited in one loop, each candidate's position is loaded only once the one before was
// judged, and the warp runs the visit at every step at which any of its threads has a near
// candidate. From a mask, the 32 loads are issued together and the visits run one set bit after the
// other. A CPU core has no warp to keep together and visits as it tests. Both visit the same
// particles in the same order (bench/NOTES.md entry 17).
#pragma once

#include <cstdint>

#include "cell_grid.h"
#include "cell_rows.h"
#include "kernel_args.h"
#include "near_candidates.h"
#include "vec.h"

namespace sph {

// Every cell is walked (for_each_particle_near's default).
struct EveryCell {
    SPH_HD bool operator()(std::uint32_t) const { return true; }
};

// Calls visit(j) for each particle j of the cells around `point`, until a call returns true;
// cells outside the grid, cells this device holds no particle of, and cells for which
// walk(cell) is false are skipped.
template <class Visit, class WalkCell = EveryCell>
SPH_HD void for_each_particle_near(const FixedPos& point, const CellGrid& grid,
                                   const std::uint32_t* cell_start, const std::uint32_t* cell_end,
                                   Visit&& visit, WalkCell walk = {}) {
    const std::int32_t at[3] = {point.x, point.y, point.z};
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
                if (start == kEmptyCell || !walk(cell)) continue;
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
// The walk is the list build's (build_neibs_body.h): rows in walk order, each row's particles in
// sorted order, so Forces meets its non-zero terms in list order and both give the same bits.
// Only pairs whose every term is exactly zero are passed over: `cut_sq` lies a little beyond
// (2h)^2, where the kernel's gradient is zero even through the GPU's approximate square root,
// and a wall particle's walls (for_each_fluid) close at exactly zero speed.
// On the GPU (walk_in_chunks) the masks of every row are held (NearCandidates) and visited once
// all are in.
struct CellNeighbours {
    // Candidates within the cut of the point `at`, and kFluidOnly, fluid (a Near of near_mask).
    template <bool kFluidOnly>
    struct WithinCut {
        const FixedPos* pos;
        FixedPos at;
        float unit;  // [m] a step of the positions
        float cut_sq;
        static constexpr bool kFluidOnlyWalk = kFluidOnly;
        SPH_HD float margin(const FixedPos& c) const {
            const float less = kFluidOnly ? cut_sq - c.w * kFluidOnlyPenalty : cut_sq;
            return squared_length_less(displacement(at, c, unit), less);
        }
    };

    const FixedPos* pos;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    const std::uint8_t* cell_split;  // the rows trimmed as the list's are (null: not trimmed)
    CellGrid grid;
    float cut_sq;

    // Calls visit(j) for each particle j within the cut of particle i (at pos_i), in walk order,
    // until a call returns true.
    template <class Visit>
    SPH_HD void for_each(std::uint32_t i, const FixedPos& pos_i, Visit&& visit) const {
        walk(WithinCut<false>{pos, pos_i, grid.frame.unit, cut_sq}, i, visit);
    }

    // The same for the fluid particles alone (what a wall particle's list holds,
    // build_neibs_body.h).
    template <class Visit>
    SPH_HD void for_each_fluid(std::uint32_t i, const FixedPos& pos_i, Visit&& visit) const {
        walk(WithinCut<true>{pos, pos_i, grid.frame.unit, cut_sq}, i, visit);
    }

    template <class Near, class Visit>
    SPH_HD void walk(const Near& near, std::uint32_t i, Visit&& visit) const {
#if defined(__CUDA_ARCH__)
        walk_in_chunks(near, i, visit);
#else
        walk_one_by_one(near, i, visit);
#endif
    }

    // Particle i's rows trimmed to its slab, and for a walk of the fluid alone to wet cells.
    template <class Near>
    SPH_HD RowTrim trim_for(std::uint32_t i) const {
        const RowTrim trim = row_trim_for(i, cell[i], cell_start, cell_split);
        return Near::kFluidOnlyWalk ? trim.of_fluid() : trim;
    }

    template <class Near, class Visit>
    SPH_HD void walk_one_by_one(const Near& near, std::uint32_t i, Visit&& visit) const {
        for_each_row_around(cell[i], grid, cell_start, cell_end, trim_for<Near>(i),
                            [&](int, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                                return for_each_near_one_by_one(begin, end, i, near, visit);
                            });
    }

    template <class Near, class Visit>
    SPH_HD void walk_in_chunks(const Near& near, std::uint32_t i, Visit&& visit) const {
        const auto each = [&](std::uint32_t j, int) { return visit(j); };
        HeldMasks room;
        NearCandidates held{room};
        const auto hold = [&](std::uint32_t first, CandidateMask bits) {
            if (held.full() && held.visit_all(each)) return true;
            held.hold(first, bits);
            return false;
        };
        const bool stopped =
            for_each_row_around(cell[i], grid, cell_start, cell_end, trim_for<Near>(i),
                                [&](int, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                                    return for_each_near_mask(begin, end, i, near, hold);
                                });
        if (!stopped) held.visit_all(each);
    }
};

// The number of cells around a point that for_each_particle_near walks, at most.
constexpr int kCellsAround = 27;

// How many particles' positions and types for_each_particle_in_cell_near reads ahead of visiting
// them: one thread walks a whole cell, and reading each particle only when its turn came made
// the walk wait on memory once or twice a particle.
constexpr std::uint32_t kCellWalkBatch = 4;

// Calls visit(j, pos[j], type[j]) for each particle j in [first, last) of the k-th cell around
// `point` (k in [0, 27), in the order for_each_particle_near walks them, so that adding up the
// cells' sums in k order adds what it would); nothing where that cell lies outside the grid or
// holds no particle here. Lets a device spread one point's walk over 27 threads. [first, last)
// keeps a device to its own particles: a cell of an external slice is skipped whole, not walked
// and rejected particle by particle.
template <class Visit>
SPH_HD void for_each_particle_in_cell_near(const FixedPos& point, int k, const CellGrid& grid,
                                           const std::uint32_t* cell_start,
                                           const std::uint32_t* cell_end, std::uint32_t first,
                                           std::uint32_t last, const FixedPos* pos,
                                           const std::uint8_t* type, Visit&& visit) {
    const std::int32_t at[3] = {point.x, point.y, point.z};
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
    const std::uint32_t begin = start > first ? start : first;
    const std::uint32_t end = cell_end[cell] < last ? cell_end[cell] : last;
    for (std::uint32_t j0 = begin; j0 < end; j0 += kCellWalkBatch) {
        FixedPos p[kCellWalkBatch];
        std::uint8_t t[kCellWalkBatch];
        for (std::uint32_t b = 0; b < kCellWalkBatch; ++b) {
            if (j0 + b < end) {
                p[b] = pos[j0 + b];
                t[b] = type[j0 + b];
            }
        }
        for (std::uint32_t b = 0; b < kCellWalkBatch && j0 + b < end; ++b) {
            visit(j0 + b, p[b], t[b]);
        }
    }
}

}  // namespace sph
