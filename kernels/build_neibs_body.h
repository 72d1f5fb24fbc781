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

SPH_HD void gather_particle(std::uint32_t i, const GatherArgs& a) {
    const std::uint32_t from = a.permutation[i];
#define SPH_GATHER_FIELD(T, name) a.to.name[i] = a.from.name[from];
    SPH_PARTICLE_FIELDS(SPH_GATHER_FIELD)
#undef SPH_GATHER_FIELD
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

// Lists particle i's neighbours within the list radius, visiting the 27 cells in linear order and
// each cell's particles in sorted order. Returns how many it found (entries beyond max_neighbours
// are dropped; the caller compares) or kCellOverflow if a neighbouring cell is too full to encode.
SPH_HD std::uint32_t build_neighbour_list(std::uint32_t i, const NeighbourArgs& a) {
    const Vec3 pi = xyz(a.pos[i]);
    const std::uint32_t ci = a.cell[i];
    int c[3];
    a.grid.coordinates(ci, c);
    std::uint32_t count = 0;
    // A pointer walk: count * stride overflows 32 bits beyond ~33 million particles.
    NeighbourEntry* entry = a.list + i;
    for (int code = 0; code < 27; ++code) {
        const int step[3] = {code / 9 - 1, (code / 3) % 3 - 1, code % 3 - 1};
        bool inside = true;
        for (int k = 0; k < 3; ++k) {
            const int axis = a.grid.order[k];
            const int n = c[axis] + step[k];
            inside = inside && n >= 0 && n < a.grid.dims[axis];
        }
        if (!inside) continue;
        const std::uint32_t nc = ci + neighbour_cell_delta(a.grid, code);
        const std::uint32_t start = a.cell_start[nc];
        if (start == kEmptyCell) continue;
        const std::uint32_t end = a.cell_end[nc];
        if (end - start > kMaxCellOccupancy) return kCellOverflow;
        for (std::uint32_t j = start; j < end; ++j) {
            if (j == i) continue;
            const Vec3 r = pi - xyz(a.pos[j]);
            if (length_squared(r) >= a.list_radius_sq) continue;
            if (count < a.max_neighbours) {
                *entry = encode_neighbour(code, j - start);
                entry += a.stride;
            }
            ++count;
        }
    }
    if (count < a.max_neighbours) *entry = kListEnd;
    return count;
}

}  // namespace sph
