// Per-particle bodies of BuildNeibs: hash, cell ranges and the neighbour list.
//
// Sorting by (cell, id) between hash and cell ranges is done by each back end's launcher. Because
// the key includes the id, the sorted order does not depend on the order particles arrive in, which
// is what makes results independent of how the domain is split among devices.
#pragma once

#include <cstdint>

#include "kernel_args.h"

namespace sph {

SPH_HD void hash_particle(std::uint32_t i, const HashArgs& a) {
    const std::uint32_t cell = a.grid.cell_of(a.pos[i]);
    a.key[i] = (static_cast<std::uint64_t>(cell) << a.id_bits) | a.id[i];
    a.permutation[i] = i;
}

// A field the device does not keep (particle_record.h) has null arrays and is skipped. The
// position's w is set from the type (particle_record.h), whatever arrived with the particle.
SPH_HD void gather_particle(std::uint32_t i, const GatherArgs& a) {
    const std::uint32_t from = a.permutation[i];
#define SPH_GATHER_FIELD(T, name, kept) \
    if (a.to.name != nullptr) a.to.name[i] = a.from.name[from];
    SPH_PARTICLE_FIELDS(SPH_GATHER_FIELD)
#undef SPH_GATHER_FIELD
    a.to.pos[i].w = static_cast<float>(a.from.type[from]);
}

SPH_HD void assign_cell(std::uint32_t i, const CellArgs& a) {
    a.cell[i] = a.grid.cell_of(a.pos[i]);
}

SPH_HD void find_cell_range(std::uint32_t i, const CellRangeArgs& a) {
    const std::uint32_t cell = a.cell[i];
    if (cell == a.outside_cell) return;  // outside the grid: sorted last, reported by the driver
    if (i == 0 || a.cell[i - 1] != cell) a.cell_start[cell] = i;
    if (i + 1 == a.count || a.cell[i + 1] != cell) a.cell_end[cell] = i + 1;
}

// Where the list build reads candidates' positions: the particle array itself, or (the CUDA
// launcher's tiled kernel) a copy of the rows of cells a block needs, in shared memory. Either
// way cell(r, start) points at particle `start`'s position, for a cell of neighbouring row
// r = code / 3 (three cells that differ only along the grid's fastest axis, contiguous in the
// sorted array), and the cell's particles follow it.
struct ParticlePositions {
    const Vec4* pos;
    SPH_HD const Vec4* cell(int, std::uint32_t start) const { return pos + start; }
};

// Lists particle i's neighbours within the list radius, row by row (neighbour_list.h), each row's
// cells in linear order and each cell's particles in sorted order. Returns how many it found
// (entries beyond max_neighbours are dropped; the caller compares) or kCellOverflow if a row is
// too crowded to encode. `positions` (ParticlePositions or a tile of the same values) supplies the
// candidates' positions; the list does not depend on which.
template <class Positions>
SPH_HD std::uint32_t build_neighbour_list(std::uint32_t i, const NeighbourArgs& a,
                                          const Positions& positions) {
    const Vec3 pi = xyz(a.pos[i]);
    const std::uint32_t ci = a.cell[i];
    const OrderedCell o = a.grid.ordered(ci);
    std::uint32_t count = 0;
    NeighbourGroup header = 0, group = 0;  // entries are stored eight at a time
    auto store = [&](std::uint32_t g, NeighbourGroup value) {
        a.list[group_index(g, i, a.stride)] = value;
    };
    for (int d0 = -1; d0 <= 1; ++d0) {
        if (o.c0 + d0 < 0 || o.c0 + d0 >= o.n0) continue;
        for (int d1 = -1; d1 <= 1; ++d1) {
            if (o.c1 + d1 < 0 || o.c1 + d1 >= o.n1) continue;
            const int row = (d0 + 1) * 3 + (d1 + 1);
            std::uint32_t in_row = 0;
            bool row_begun = false;
            std::uint32_t previous = 0;  // the particle the next step is counted from
            for (int d2 = -1; d2 <= 1; ++d2) {
                if (o.c2 + d2 < 0 || o.c2 + d2 >= o.n2) continue;
                const std::uint32_t nc =
                    ci + std::uint32_t(d0 * int(o.s0) + d1 * int(o.s1) + d2 * int(o.s2));
                const std::uint32_t start = a.cell_start[nc];
                if (start == kEmptyCell) continue;
                if (!row_begun) previous = start - 1;  // wraps at 0: the steps still add up
                row_begun = true;
                const std::uint32_t size = a.cell_end[nc] - start;
                const Vec4* candidate = positions.cell(row, start);
                for (std::uint32_t offset = 0; offset < size; ++offset) {
                    const Vec3 r = pi - xyz(candidate[offset]);
                    if (length_squared(r) >= a.list_radius_sq || start + offset == i) continue;
                    const std::uint32_t step = start + offset - previous;
                    if (step > kLargestStep) return kCellOverflow;
                    previous = start + offset;
                    if (count < a.max_neighbours) {
                        const std::uint32_t slot = count % kEntriesPerGroup;
                        group |= NeighbourGroup(step) << (8u * slot);
                        if (slot + 1 == kEntriesPerGroup) {
                            store(1 + count / kEntriesPerGroup, group);
                            group = 0;
                        }
                    }
                    ++count;
                    ++in_row;
                }
            }
            if (row < kCountedRows) {
                if (in_row > kLargestRowCount) return kCellOverflow;
                header |= NeighbourGroup(in_row) << (8 * row);
            }
        }
    }
    // The end marker (the group's remaining bytes are zero), unless the list is full.
    if (count < a.max_neighbours) store(1 + count / kEntriesPerGroup, group);
    store(0, header);
    return count;
}

SPH_HD std::uint32_t build_neighbour_list(std::uint32_t i, const NeighbourArgs& a) {
    return build_neighbour_list(i, a, ParticlePositions{a.pos});
}

}  // namespace sph
