// Per-particle bodies of BuildNeibs: hash, cell ranges and the neighbour list.
//
// Sorting by (cell, slab, id) between hash and cell ranges is done by each back end's launcher.
// Because the key includes the id, the sorted order does not depend on the order particles arrive
// in, which is what makes results independent of how the domain is split among devices.
#pragma once

#include <cstdint>

#include "cell_walk.h"
#include "ghost_list.h"
#include "kernel_args.h"
#include "particle_type.h"

namespace sph {

// The key sorts by cell, then by slab within the cell (cell_grid.h), then by id.
SPH_HD void hash_particle(std::uint32_t i, const HashArgs& a) {
    const FixedPos pos = a.pos[i];
    const std::uint64_t cell = a.grid.particle_cell(pos);
    const std::uint64_t slab = cell * kSlabsPerCell + std::uint64_t(a.grid.slab_of(pos));
    a.key[i] = (slab << a.id_bits) | a.id[i];
    a.permutation[i] = i;
}

// A field the device does not keep (particle_record.h) has null arrays and is skipped. The
// position's w is set from the type (particle_record.h), whatever arrived with the particle. A null
// permutation copies in order.
SPH_HD void gather_particle(std::uint32_t i, const GatherArgs& a) {
    const std::uint32_t from = a.permutation != nullptr ? a.permutation[i] : i;
#define SPH_GATHER_FIELD(T, name, kept) \
    if (a.to.name != nullptr) a.to.name[i] = a.from.name[from];
    SPH_PARTICLE_FIELDS(SPH_GATHER_FIELD)
#undef SPH_GATHER_FIELD
    a.to.pos[i].w = static_cast<float>(a.from.type[from]);
}

SPH_HD void assign_cell(std::uint32_t i, const CellArgs& a) {
    a.cell[i] = a.grid.particle_cell(a.pos[i]);
}

SPH_HD void find_cell_range(std::uint32_t i, const CellRangeArgs& a) {
    const std::uint32_t cell = a.cell[i];
    if (cell == a.outside_cell) return;  // outside the grid: sorted last, reported by the driver
    if (i == 0 || a.cell[i - 1] != cell) a.cell_start[cell] = i;
    if (i + 1 == a.count || a.cell[i + 1] != cell) a.cell_end[cell] = i + 1;
}

// Writes cell splits (cell_grid.h) from the sorted particle i: those that end between i's slab
// and the slab of the particle before it in the same cell, and, for the last of its cell, those
// from its slab on; for the first of its cell, whether the cell holds fluid. Each is written by
// exactly one particle; none where the cell is empty.
SPH_HD void find_cell_split(std::uint32_t i, const CellSplitArgs& a) {
    const std::uint32_t cell = a.cell[i];
    if (cell == a.grid.outside_cell()) return;
    const int slab = a.grid.slab_of(a.pos[i]);
    const bool first = i == 0 || a.cell[i - 1] != cell;
    const bool last = i + 1 == a.count || a.cell[i + 1] != cell;
    const int slab_before = first ? 0 : a.grid.slab_of(a.pos[i - 1]);
    const std::uint32_t before_i = i - a.cell_start[cell];  // the cell's particles before i
    std::uint8_t* split = a.cell_split + std::size_t(cell) * kCellSplitBytes;
    const auto saturated = [](std::uint32_t n) {
        return n < kSplitUnknown ? std::uint8_t(n) : kSplitUnknown;
    };
    for (int k = slab_before; k < slab; ++k) split[k] = saturated(before_i);
    if (last) {
        for (int k = slab; k < kSplitsPerCell; ++k) split[k] = saturated(before_i + 1);
    }
    if (first) {  // whether the cell holds fluid, looked up by its first particle
        const std::uint32_t end = a.cell_end[cell];
        bool wet = false;
        for (std::uint32_t j = i; j < end && !wet; ++j) {
            wet = a.pos[j].w == float(kFluid);
        }
        split[kWetByte] = wet ? 1 : 0;
    }
}

// Where a build puts one particle's groups until its list warp's block in the list is placed
// (place_list_warp): group g at groups[g * step], a staging area of the back end's.
struct ListStage {
    NeighbourGroup* groups;
    std::uint32_t step;
    SPH_HD void store(std::uint32_t g, NeighbourGroup value) const {
        groups[std::size_t(g) * step] = value;
    }
    SPH_HD NeighbourGroup load(std::uint32_t g) const { return groups[std::size_t(g) * step]; }
};

// A list's entries as a build finds its neighbours: each the step from the neighbour before it
// in the same row (for the first, from the first particle of the row's whole cells less one,
// untrimmed: list_walk.h finds that from the cell starts alone), eight to a group.
struct ListEntries {
    const NeighbourArgs& a;
    const ListStage& stage;
    std::uint32_t count = 0;  // entries beyond max_neighbours are counted, not stored
    NeighbourGroup group = 0;
    std::uint32_t previous = 0;  // the particle the next step is counted from

    SPH_HD void begin_row(std::uint32_t begin) {
        previous = begin - 1;
    }  // wraps at 0: still adds up

    // Adds neighbour j; false where its step is too long to encode.
    SPH_HD bool add(std::uint32_t j) {
        const std::uint32_t step = j - previous;
        if (step > kLargestStep) return false;
        previous = j;
        if (count < a.max_neighbours) {
            const std::uint32_t slot = count % kEntriesPerGroup;
            group |= NeighbourGroup(step) << (8u * slot);
            if (slot + 1 == kEntriesPerGroup) {
                stage.store(1 + count / kEntriesPerGroup, group);
                group = 0;
            }
        }
        ++count;
        return true;
    }
};

// The list's header: how many neighbours each of the first kCountedRows rows holds.
struct RowCounts {
    NeighbourGroup header = 0;

    // false where the row is too crowded to count.
    SPH_HD bool add(int row, std::uint32_t in_row) {
        if (row >= kCountedRows) return true;
        if (in_row > kLargestRowCount) return false;
        header |= NeighbourGroup(in_row) << (8 * row);
        return true;
    }
};

// The end marker (the group's remaining bytes are zero), unless the list is full, and the header.
SPH_HD std::uint32_t finish_list(const ListEntries& entries, const RowCounts& rows,
                                 const ListStage& stage) {
    if (entries.count < entries.a.max_neighbours) {
        stage.store(1 + entries.count / kEntriesPerGroup, entries.group);
    }
    stage.store(0, rows.header);
    return entries.count;
}

// The candidates of the list of `point`: within the list radius and, where `fluid_only`, fluid.
// The kind filter is a multiply-add (kFluidOnlyPenalty, cell_walk.h), not a branch or a template
// argument: a wall and a fluid particle of one warp then run the same instructions (near_mask
// issues the loads of 32 candidates together).
struct ListCandidate {
    const FixedPos* pos;
    FixedPos point;
    float unit;  // [m] a step of the positions
    float list_radius_sq;
    float penalty;  // per unit of a candidate's type: 0, or kFluidOnlyPenalty for the fluid alone

    SPH_HD ListCandidate(const FixedPos* positions, FixedPos at, float step, float radius_sq,
                         bool fluid_only)
        : pos(positions),
          point(at),
          unit(step),
          list_radius_sq(radius_sq),
          penalty(fluid_only ? kFluidOnlyPenalty : 0.0f) {}

    // Negative where c belongs (a Near of near_mask, cell_walk.h).
    SPH_HD float margin(const FixedPos& c) const {
        return squared_length_less(displacement(point, c, unit), list_radius_sq - c.w * penalty);
    }
};

// list_around's work, kByMasks as the GPU lists (the candidates tested into masks, held over
// the whole walk, then written), or as a CPU core lists (each candidate written as it is found).
template <bool kByMasks>
SPH_HD std::uint32_t list_around_as(std::uint32_t i, const NeighbourArgs& a, FixedPos point,
                                    std::uint32_t cell, const RowTrim& trim,
                                    const ListStage& stage) {
    ListEntries entries{a, stage};
    RowCounts rows;
    const ListCandidate near{a.pos, point, a.grid.frame.unit, a.list_radius_sq, trim.fluid_only};
    bool crowded = false;
    if constexpr (kByMasks) {
        HeldMasks room;
        NearCandidates held{room};
        std::uint32_t row_starts = 0;  // bit e: held mask e is its row's first
        std::uint32_t row_begin[NearCandidates::kRoom] = {};  // its whole cells' first particle
        int entered = -1;                                     // the held mask the entries are in
        const auto write_held = [&] {  // true where a step is too long to encode
            const bool too_long = held.visit_all([&](std::uint32_t j, int e) {
                if (e != entered) {
                    entered = e;
                    if ((row_starts >> e) & 1u) entries.begin_row(row_begin[e]);
                }
                return !entries.add(j);
            });
            row_starts = 0;
            entered = -1;
            return too_long;
        };
        const auto hold_row = [&](int row, std::uint32_t begin, std::uint32_t end,
                                  std::uint32_t whole_begin) {
            std::uint32_t in_row = 0;
            bool row_held = false;
            const bool too_long = for_each_near_mask(
                begin, end, i, near, [&](std::uint32_t first, CandidateMask bits) {
                    if (held.full() && write_held()) return true;
                    if (!row_held) {
                        row_starts |= 1u << held.count;
                        row_begin[held.count] = whole_begin;
                        row_held = true;
                    }
                    held.hold(first, bits);
                    in_row += std::uint32_t(set_bit_count(bits));
                    return false;
                });
            return too_long || !rows.add(row, in_row);
        };
        crowded = for_each_row_around(cell, a.grid, a.cell_start, a.cell_end, trim, hold_row) ||
                  write_held();
    } else {
        const auto list_row = [&](int row, std::uint32_t begin, std::uint32_t end,
                                  std::uint32_t whole_begin) {
            entries.begin_row(whole_begin);
            std::uint32_t in_row = 0;
            const bool too_long =
                for_each_near_one_by_one(begin, end, i, near, [&](std::uint32_t j) {
                    ++in_row;
                    return !entries.add(j);
                });
            return too_long || !rows.add(row, in_row);
        };
        crowded = for_each_row_around(cell, a.grid, a.cell_start, a.cell_end, trim, list_row);
    }
    return crowded ? kCellOverflow : finish_list(entries, rows, stage);
}

// Lists for particle i the particles within the list radius of `point`, in the rows of cells
// around `cell` (neighbour_list.h) trimmed by `trim` (cell_walk.h), each row's cells in linear
// order and each cell's particles in sorted order: every one but i itself, or (a trim of_fluid)
// the fluid alone, into `stage`. Returns
// how many it found (entries beyond max_neighbours are dropped; the caller compares) or
// kCellOverflow if a row is too crowded to encode. A candidate's type is its position's w.
//
// The GPU tests the candidates 32 at a time into masks and holds the masks of the whole walk
// before it writes any entry (cell_walk.h), so that a warp's threads write their entries together
// (written row by row, the writing ran at 10 of 32 threads); a CPU core lists as it tests.
SPH_HD std::uint32_t list_around(std::uint32_t i, const NeighbourArgs& a, FixedPos point,
                                 std::uint32_t cell, const RowTrim& trim, const ListStage& stage) {
#if defined(__CUDA_ARCH__)
    return list_around_as<true>(i, a, point, cell, trim, stage);
#else
    return list_around_as<false>(i, a, point, cell, trim, stage);
#endif
}

// A list with no entries.
SPH_HD std::uint32_t store_empty_list(const NeighbourArgs& a, const ListStage& stage) {
    if (a.max_neighbours > 0) stage.store(1, 0);  // the end marker
    stage.store(0, 0);
    return 0;
}

// Whether any fluid particle lies within the list radius of particle i. The cells that hold walls
// alone are passed over (RowTrim::of_fluid): a dry wall, most of DamBreak's, had tested every
// particle of its 27 cells, walls all, at every rebuild.
SPH_HD bool fluid_near(std::uint32_t i, const NeighbourArgs& a) {
    const FixedPos pi = a.pos[i];
    const RowTrim fluid = RowTrim{a.cell_split}.of_fluid();
    bool found = false;
    for_each_particle_near(
        pi, a.grid, a.cell_start, a.cell_end,
        [&](std::uint32_t j) {
            const FixedPos c = a.pos[j];
            found = c.w == float(kFluid) &&
                    length_squared(a.grid.frame.between(pi, c)) < a.list_radius_sq;
            return found;
        },
        [&](std::uint32_t cell) { return !fluid.passes_over(cell); });
    return found;
}

// Lists particle i's neighbours within the list radius (list_around), in its rows trimmed to
// its slab: a fluid particle every one, a wall particle the fluid alone. Walls never move (their
// velocity is zero from set-up on, euler_body.h), so a pair of walls adds exact zeros to a DBC
// wall's continuity, the one sum a wall's list serves in Forces: left out, the sums keep their
// bits, and the walk, the list's bytes and its build lose the quarter of DamBreak's particles
// that lie in dry walls (the build passes over the cells that hold walls alone). Under mDBC
// (a.to_ghost set) a wall particle with a ghost node inside the grid lists the fluid around its
// ghost node instead (whole rows: the node is no sorted particle), or nothing where it is dry
// (ghost_list.h). Fluid outside [a.fluid_begin, a.fluid_end) lists nothing.
SPH_HD std::uint32_t list_particle(std::uint32_t i, const NeighbourArgs& a,
                                   const ListStage& stage) {
    const FixedPos pi = a.pos[i];
    const bool wall = pi.w != float(kFluid);
    if (!wall && (i < a.fluid_begin || i >= a.fluid_end)) return store_empty_list(a, stage);
    const Vec3 offset = a.to_ghost != nullptr && wall ? a.to_ghost[i] : Vec3{0.0f, 0.0f, 0.0f};
    const GhostNode node = ghost_node(pi, offset, a.grid);  // outside cell: no node
    FixedPos centre = pi;
    std::uint32_t cell = a.cell[i];
    RowTrim trim;
    if (node.cell != a.grid.outside_cell()) {
        if (!fluid_near(i, a)) return store_empty_list(a, stage);  // dry: rho0
        centre = node.at;
        cell = node.cell;
        trim = RowTrim{a.cell_split}.of_fluid();  // no slab: whole rows
    } else {
        trim = row_trim_for(i, cell, a.cell_start, a.cell_split);
        if (wall) trim = trim.of_fluid();
    }
    // One walk for every particle, around its place or its node: with a walk in each branch, a
    // warp holding fluid and walls with nodes ran the two one after the other (the build took
    // 15 % longer under mDBC on an H200; bench/NOTES.md entry 27).
    return list_around(i, a, centre, cell, trim, stage);
}

// list_particle, with a list too crowded to encode (kCellOverflow) left empty: the run stops at
// this rebuild once the driver reads the count, but the step's Forces runs first and must not
// walk the half-written list list_around left.
SPH_HD std::uint32_t build_neighbour_list(std::uint32_t i, const NeighbourArgs& a,
                                          const ListStage& stage) {
    const std::uint32_t count = list_particle(i, a, stage);
    if (count == kCellOverflow) store_empty_list(a, stage);
    return count;
}

// Places lane `lane` of list warp w, whose block begins at row `first` of the list (its height,
// the most groups any of its lanes used, taken from the back end's running total): the `used`
// groups staged at stage_of(lane), and nothing past them (the walk never decodes past an end
// marker). Lane 0 also records where the block begins. The back ends call this for every lane
// once all of the warp's lists are staged.
template <class StageOf>
SPH_HD void place_list_warp(const NeighbourArgs& a, std::uint32_t w, std::uint32_t first,
                            std::uint32_t lane, std::uint32_t used, const StageOf& stage_of) {
    if (lane == 0) a.list_rows[w] = first;
    const ListStage stage = stage_of(lane);
    NeighbourGroup* block = a.list + std::size_t(first) * kListWarp + lane;
    for (std::uint32_t g = 0; g < used; ++g) block[std::size_t(g) * kListWarp] = stage.load(g);
}

}  // namespace sph
