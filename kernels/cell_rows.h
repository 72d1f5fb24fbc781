// The rows of cells around a cell that a walk takes (cell_walk.h says why rows): each row one
// stretch of the sorted particles, trimmed to a particle's slab (cell_grid.h) where its cell's
// splits are known. The list build (build_neibs_body.h) and the cells' walk for Forces
// (CellNeighbours) both take them in this order.
#pragma once

#include <cstdint>

#include "cell_grid.h"
#include "kernel_args.h"

namespace sph {

// A particle's rows trimmed to its slab (cell_grid.h): of a row's cell before the particle's
// along the fastest axis only the slabs from the particle's own on are kept, of the cell after it
// only those up to its own; the rest lie at least a cell width away. kNoSlab trims nothing: the
// rows around a ghost node (not a sorted particle), or around a particle whose cell's splits
// saturated, and wherever the splits are not given.
//
// A trim of_fluid() also passes over the cells that hold walls alone (kWetByte, cell_grid.h): for
// a walk of the fluid alone, whose candidates there would all be tested to be left out.
struct RowTrim {
    static constexpr int kNoSlab = -1;
    const std::uint8_t* cell_split = nullptr;
    int slab = kNoSlab;
    bool fluid_only = false;

    SPH_HD RowTrim of_fluid() const { return RowTrim{cell_split, slab, true}; }

    // Whether a walk with this trim passes over `cell`, which holds particles.
    SPH_HD bool passes_over(std::uint32_t cell) const {
        return fluid_only && cell_split != nullptr &&
               cell_split[std::size_t(cell) * kCellSplitBytes + kWetByte] == 0;
    }

    // The first particle kept of the cell before the middle one, whose particles begin at start.
    SPH_HD std::uint32_t first_kept_before(std::uint32_t cell, std::uint32_t start) const {
        if (slab <= 0) return start;
        const std::uint8_t below = cell_split[std::size_t(cell) * kCellSplitBytes + (slab - 1)];
        return below == kSplitUnknown ? start : start + below;
    }

    // The end of those kept of the cell after the middle one, whose particles are [start, end).
    SPH_HD std::uint32_t end_kept_after(std::uint32_t cell, std::uint32_t start,
                                        std::uint32_t end) const {
        if (slab == kNoSlab || slab == kSlabsPerCell - 1) return end;
        const std::uint8_t up_to = cell_split[std::size_t(cell) * kCellSplitBytes + slab];
        return up_to == kSplitUnknown ? end : start + up_to;
    }
};

// The trim of the rows around the sorted particle `self` of `cell`, from its place among the
// cell's particles (the slabs are sorted in order); none where cell_split is null, and no slab's
// where the cell's splits saturated.
SPH_HD RowTrim row_trim_for(std::uint32_t self, std::uint32_t cell, const std::uint32_t* cell_start,
                            const std::uint8_t* cell_split) {
    if (cell_split == nullptr) return RowTrim{};
    const std::uint8_t* split = cell_split + std::size_t(cell) * kCellSplitBytes;
    const std::uint32_t before_self = self - cell_start[cell];
    int slab = 0;
    for (int k = 0; k < kSplitsPerCell; ++k) {
        if (split[k] == kSplitUnknown) return RowTrim{cell_split};
        slab += before_self >= split[k] ? 1 : 0;
    }
    return RowTrim{cell_split, slab};
}

// Calls visit_row(row, begin, end, whole_begin) for each row of cells around `cell` that lies in
// the grid and holds particles here (once trimmed), in walk order: row = 3 (d0 + 1) + (d1 + 1)
// for the steps d0, d1 along the two slower axes, [begin, end) its stretch of the sorted
// particles, whole_begin the first particle of its cells untrimmed (where a list's steps count
// from: a list walk then finds each row's start from the cell starts alone, list_walk.h). Stops
// at, and returns true after, a call that returns true.
template <class VisitRow>
SPH_HD bool for_each_row_around(std::uint32_t cell, const CellGrid& grid,
                                const std::uint32_t* cell_start, const std::uint32_t* cell_end,
                                const RowTrim& trim, VisitRow&& visit_row) {
    const OrderedCell o = grid.ordered(cell);
    const int first_step = o.c2 > 0 ? -1 : 0, last_step = o.c2 + 1 < o.n2 ? 1 : 0;
    for (int d0 = -1; d0 <= 1; ++d0) {
        if (o.c0 + d0 < 0 || o.c0 + d0 >= o.n0) continue;
        for (int d1 = -1; d1 <= 1; ++d1) {
            if (o.c1 + d1 < 0 || o.c1 + d1 >= o.n1) continue;
            const std::uint32_t row = cell + std::uint32_t(d0 * int(o.s0) + d1 * int(o.s1));
            std::uint32_t begin = kEmptyCell, end = 0, whole_begin = kEmptyCell;
            for (int d2 = first_step; d2 <= last_step; ++d2) {
                const std::uint32_t c = row + std::uint32_t(d2);
                const std::uint32_t start = cell_start[c];
                if (start == kEmptyCell) continue;
                if (whole_begin == kEmptyCell) whole_begin = start;
                if (trim.passes_over(c)) continue;
                const std::uint32_t from = d2 < 0 ? trim.first_kept_before(c, start) : start;
                const std::uint32_t to =
                    d2 > 0 ? trim.end_kept_after(c, start, cell_end[c]) : cell_end[c];
                if (from == to) continue;  // trimmed away
                if (begin == kEmptyCell) begin = from;
                end = to;
            }
            if (begin != kEmptyCell &&
                visit_row(3 * (d0 + 1) + (d1 + 1), begin, end, whole_begin)) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace sph
