// Encoding of the interleaved neighbour list.
//
// The 27 cells around a particle's own cell form nine rows: three cells that differ only along
// the grid's fastest axis, whose particles are one contiguous stretch of the sorted arrays. A
// particle's neighbours are listed row by row, in sorted order within a row (the order the cells
// walk visits them, cell_walk.h), and each entry is one byte: how far the neighbour lies past the
// one listed before it in the same row, or, for a row's first neighbour, past the particle just
// before the row's stretch (of its whole cells: the build walks the stretch trimmed to the
// particle's slab, cell_walk.h, but counts from where the cell starts say the row begins). Forces
// then finds each neighbour with one addition, and one cell-start lookup per row instead of per
// entry.
//
// A particle's list is a header group, then its entries eight to a group:
// - the header holds the entry counts of rows 0 to 7, a byte each (row r = (d0 + 1) * 3 + (d1 + 1)
//   for steps d0, d1 along the two slower axes); row 8 takes the entries left;
// - an entry of 0 ends the list (a step is never 0: a row's particles are distinct), unless the
//   list is full.
// The list is kept warp by warp: the 32 particles [32 w, 32 w + 32) (a list warp) share a block
// of rows, as many as the most groups any of them uses (its height), and row g holds group g of
// each of the 32, interleaved: group g of particle i is the 8 bytes at
// (rows[i / 32] + g) * 32 + i % 32 groups from the list's start (group_index), where rows[w] is
// where warp w's block begins. A warp of threads reading group g of its 32 particles reads 256
// contiguous bytes, one 8-byte access reads or writes eight entries, and the list takes about
// the mean count's bytes a particle, not the largest count's: a build writes each warp's block
// where a running total of the heights says (the order of the blocks is the back end's; what a
// particle's list holds is not).
//
// A row's stretch may hold many particles (its cells are the list radius wide), but neighbours
// within one lie close together in it: steps above 255, or a row of more than 255 neighbours, are
// reported as an overflow by the build (kCellOverflow), never met at the default h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cell_grid.h"
#include "vec.h"

namespace sph {

using NeighbourEntry = std::uint8_t;   // a step from the entry before, in the same row
using NeighbourGroup = std::uint64_t;  // eight entries (entry k % 8 in bits 8 (k % 8) and up),
                                       // or a particle's header of row counts

constexpr NeighbourEntry kListEnd = 0;         // ends a list that is not full
constexpr std::uint32_t kLargestStep = 0xFFu;  // the largest step an entry holds
constexpr std::uint32_t kLargestRowCount = 0xFFu;
constexpr int kRows = 9;         // rows of cells around a particle's cell
constexpr int kCountedRows = 8;  // rows whose count the header holds (row 8 takes the rest)
constexpr std::uint32_t kEntriesPerGroup = 8;

// Groups a particle's list takes at most: the header and its entries.
SPH_HD constexpr std::uint32_t list_groups(std::uint32_t max_neighbours) {
    return 1 + max_neighbours / kEntriesPerGroup;
}

// Groups a list of `count` entries takes: the header, its entries and the end marker, unless the
// list is full (a count past max_neighbours, or kCellOverflow, fills it).
SPH_HD constexpr std::uint32_t groups_used(std::uint32_t count, std::uint32_t max_neighbours) {
    return count < max_neighbours ? 2 + count / kEntriesPerGroup : list_groups(max_neighbours);
}

constexpr std::uint32_t kListWarp = 32;  // particles that share a block of rows
SPH_HD constexpr std::uint32_t list_warps(std::uint32_t particles) {
    return (particles + kListWarp - 1) / kListWarp;
}

// The 27 neighbouring cells, numbered 0..26 in increasing linear-index order:
// code = (d0 + 1) * 9 + (d1 + 1) * 3 + (d2 + 1), with d0 the step along the most significant axis;
// row = code / 3.
SPH_HD int neighbour_cell_delta(const CellGrid& g, int code) {
    const int d0 = code / 9 - 1, d1 = (code / 3) % 3 - 1, d2 = code % 3 - 1;
    return d0 * static_cast<int>(g.stride[g.order[0]]) +
           d1 * static_cast<int>(g.stride[g.order[1]]) +
           d2 * static_cast<int>(g.stride[g.order[2]]);
}

// The 27 steps of neighbour_cell_delta, by code: the list walk finds a row's first cell as a
// step from the particle's own (the CUDA kernels keep the table in shared memory).
constexpr int kNeighbourCells = 27;
struct NeighbourCellSteps {
    std::int32_t by_code[kNeighbourCells];
};

SPH_HD NeighbourCellSteps neighbour_cell_steps(const CellGrid& g) {
    NeighbourCellSteps steps{};
    for (int code = 0; code < kNeighbourCells; ++code) {
        steps.by_code[code] = neighbour_cell_delta(g, code);
    }
    return steps;
}

// Where group g of particle i lies (group 0 is the header, entry k is in group 1 + k / 8), with
// warp_rows[w] the first row of list warp w's block.
SPH_HD std::size_t group_index(std::uint32_t g, std::uint32_t i, const std::uint32_t* warp_rows) {
    return (std::size_t(warp_rows[i / kListWarp]) + g) * kListWarp + i % kListWarp;
}

// Particle i's group 0; its group g is g * kListWarp groups further.
SPH_HD const NeighbourGroup* list_of(std::uint32_t i, const NeighbourGroup* list,
                                     const std::uint32_t* warp_rows) {
    return list + group_index(0, i, warp_rows);
}

SPH_HD NeighbourEntry entry_of(NeighbourGroup group, std::uint32_t slot) {
    return static_cast<NeighbourEntry>(group >> (8u * slot));
}

SPH_HD std::uint32_t row_count(NeighbourGroup header, int row) {
    return static_cast<std::uint32_t>(header >> (8 * row)) & 0xFFu;
}

// The first cell of a row's stretch for a particle in cell `cell`: step -1 along the fastest
// axis, unless the cell is the first along it. cell_step: neighbour_cell_steps(grid).by_code.
SPH_HD std::uint32_t row_first_cell(std::uint32_t cell, int row, bool first_along_fastest,
                                    const std::int32_t* cell_step) {
    return cell + std::uint32_t(cell_step[row * 3 + (first_along_fastest ? 1 : 0)]);
}

}  // namespace sph
