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
// The list is read two groups of four entries ahead of the entry being visited: entries come
// from DRAM (the list is the largest array) and, read only when needed, waiting for them was the
// largest stall of Forces. Groups past the end marker may be read but are never decoded.
template <class Args, class Visit>
SPH_HD void for_each_listed_neighbour(std::uint32_t i, const Args& a, const std::int32_t* cell_step,
                                      Visit&& visit) {
    const std::uint32_t count = a.max_neighbours;
    const std::uint32_t cell_i = a.cell[i];
    // Two groups in flight: the one being visited and the next; a third is asked for as the
    // visits of the first begin.
    auto group_at = [&](std::uint32_t first) {
        return first < count ? load_group(a.list, entry_index(first, i, a.stride)) : 0u;
    };
    NeighbourGroup group = group_at(0);
    NeighbourGroup next_group = group_at(kEntriesPerGroup);
    for (std::uint32_t first = 0; first < count; first += kEntriesPerGroup) {
        const NeighbourGroup group_after = group_at(first + 2 * kEntriesPerGroup);
        for (std::uint32_t slot = 0; slot < kEntriesPerGroup; ++slot) {
            const NeighbourEntry e = entry_of(group, slot);
            if (e == kListEnd) return;
            // The cell's start is looked up for every entry, though entries are grouped by
            // cell: the load almost always hits the cache, and a branch on "same cell as
            // before" cost more.
            const std::uint32_t j =
                a.cell_start[cell_i + cell_step[neighbour_code(e)]] + neighbour_offset(e);
            if (visit(j)) return;
        }
        group = next_group;
        next_group = group_after;
    }
}

// Forces' neighbours from the list (--neighbours list, the default); CellNeighbours
// (cell_walk.h) is the other source, with the same for_each.
template <class Args>
struct ListedNeighbours {
    const Args& args;
    const std::int32_t* cell_step;

    template <class Visit>
    SPH_HD void for_each(std::uint32_t i, Vec3, Visit&& visit) const {
        for_each_listed_neighbour(i, args, cell_step, visit);
    }
};

}  // namespace sph
