// Walking a particle's interleaved neighbour list (neighbour_list.h): the one loop that Forces and
// mDBC share.
#pragma once

#include <cstdint>

#include "kernel_args.h"
#include "neighbour_list.h"

namespace sph {

// The first particle of a row's stretch: of the row's first cell that holds any (a row with
// entries holds some; its cells lie inside the grid from row_first_cell on).
SPH_HD std::uint32_t row_begin(std::uint32_t first_cell, const std::uint32_t* cell_start) {
    std::uint32_t start = cell_start[first_cell];
    for (std::uint32_t k = 1; k < 3 && start == kEmptyCell; ++k) start = cell_start[first_cell + k];
    return start;
}

// Whether `cell` is the first along the grid's fastest axis (whose extent is the stride of the
// middle one), where its rows begin at the cell itself.
SPH_HD bool first_along_fastest(std::uint32_t cell, const CellGrid& grid) {
    return cell % grid.stride[grid.order[1]] == 0;
}

// Where a list walk finds each row's first particle: in the cells around `cell`, the cell the
// list was built around (the particle's own; an mDBC wall's ghost node's, ghost_list.h).
struct RowStartsFromCells {
    const std::uint32_t* cell_start;
    const std::int32_t* cell_step;
    std::uint32_t cell;
    bool first_along_fastest;

    SPH_HD std::uint32_t operator()(int row) const {
        return row_begin(row_first_cell(cell, row, first_along_fastest, cell_step), cell_start);
    }
};

// Calls visit(j) for each neighbour listed for particle i, in list order, until visit returns
// true. `a` is a kernel's argument block with list, list_rows and max_neighbours; `rows` gives each
// row's first particle.
//
// The list is read two groups of eight entries ahead of the entry being visited: entries come
// from DRAM (the list is the largest array) and, read only when needed, waiting for them was the
// largest stall of Forces. Groups past the end marker may be read but are never decoded: they
// may lie in the next warp's block, or in the rows the list keeps past its last block for this.
template <class Args, class Visit>
SPH_HD void walk_listed_neighbours(std::uint32_t i, const Args& a, const RowStartsFromCells& rows,
                                   Visit&& visit) {
    const std::uint32_t groups = a.max_neighbours / kEntriesPerGroup;
    const NeighbourGroup* mine = list_of(i, a.list, a.list_rows);
    auto group_at = [&](std::uint32_t g) {
        return g < groups ? mine[std::size_t(1 + g) * kListWarp] : NeighbourGroup(0);
    };
    const NeighbourGroup header = mine[0];
    NeighbourGroup group = group_at(0);
    NeighbourGroup next_group = group_at(1);
    int row = -1;
    std::uint32_t left = 0;  // the walked row's entries still to come
    std::uint32_t j = 0;     // the neighbour the next step is counted from
    for (std::uint32_t g = 0; g < groups; ++g) {
        const NeighbourGroup group_after = group_at(g + 2);
        for (std::uint32_t slot = 0; slot < kEntriesPerGroup; ++slot) {
            const std::uint32_t step = entry_of(group, slot);
            if (step == kListEnd) return;
            if (left == 0) {  // on to the next row with entries; the last takes what is left
                do {
                    ++row;
                    left = row < kCountedRows ? row_count(header, row) : ~0u;
                } while (left == 0);
                j = rows(row) - 1;  // wraps at 0: the step brings it back
            }
            --left;
            j += step;
            if (visit(j)) return;
        }
        group = next_group;
        next_group = group_after;
    }
}

// The same for a list built around particle i's own cell (`a` also has cell, cell_start and
// grid); cell_step is neighbour_cell_steps(a.grid).by_code, wherever the launcher keeps it.
template <class Args, class Visit>
SPH_HD void for_each_listed_neighbour(std::uint32_t i, const Args& a, const std::int32_t* cell_step,
                                      Visit&& visit) {
    const std::uint32_t cell_i = a.cell[i];
    walk_listed_neighbours(
        i, a,
        RowStartsFromCells{a.cell_start, cell_step, cell_i, first_along_fastest(cell_i, a.grid)},
        visit);
}

// Forces' neighbours from the list (--neighbours list, the default); CellNeighbours
// (cell_walk.h) is the other source, with the same for_each.
template <class Args>
struct ListedNeighbours {
    const Args& args;
    const std::int32_t* cell_step;

    template <class Visit>
    SPH_HD void for_each(std::uint32_t i, const FixedPos&, Visit&& visit) const {
        for_each_listed_neighbour(i, args, cell_step, visit);
    }

    // A wall particle's list holds the fluid alone (build_neibs_body.h).
    template <class Visit>
    SPH_HD void for_each_fluid(std::uint32_t i, const FixedPos& pos_i, Visit&& visit) const {
        for_each(i, pos_i, visit);
    }
};

}  // namespace sph
