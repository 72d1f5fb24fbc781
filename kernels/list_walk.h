// Walking a particle's interleaved neighbour list (neighbour_list.h): the one loop that Forces and
// mDBC share.
#pragma once

#include <cstdint>

#include "neighbour_list.h"

namespace sph {

// Calls visit(j) for each neighbour listed for particle i, in list order, until visit returns
// true. `a` is a kernel's argument block with list, stride, max_neighbours, cell and cell_start;
// cell_step is neighbour_cell_steps(a.grid).by_code, wherever the launcher keeps it.
//
// The list is read two entries ahead of the neighbour being visited: entries come from DRAM (the
// list is the largest array) and, read only when needed, waiting for them was the largest stall
// of Forces. Entries past the end marker may be read but are never decoded.
template <class Args, class Visit>
SPH_HD void for_each_listed_neighbour(std::uint32_t i, const Args& a, const std::int32_t* cell_step,
                                      Visit&& visit) {
    const std::uint32_t count = a.max_neighbours;
    const NeighbourEntry* entry = a.list + i;  // a pointer walk: k * stride overflows 32 bits
    NeighbourEntry e0 = count > 0 ? entry[0] : kListEnd;
    NeighbourEntry e1 = count > 1 ? entry[a.stride] : kListEnd;
    const std::uint32_t cell_i = a.cell[i];
    int cached_code = -1;
    std::uint32_t cell_start = 0;
    for (std::uint32_t k = 0; k < count && e0 != kListEnd; ++k) {
        entry += a.stride;
        const NeighbourEntry e2 = k + 2 < count ? entry[a.stride] : kListEnd;
        const int code = neighbour_code(e0);
        if (code != cached_code) {  // entries are grouped by cell: one start load per cell
            cached_code = code;
            cell_start = a.cell_start[cell_i + cell_step[code]];
        }
        const std::uint32_t j = cell_start + neighbour_offset(e0);
        e0 = e1;
        e1 = e2;
        if (visit(j)) return;
    }
}

}  // namespace sph
