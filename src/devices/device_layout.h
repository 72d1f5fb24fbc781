// How much memory a device needs for a run, known before anything is allocated.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cell_grid.h"
#include "instruments_body.h"
#include "neighbour_list.h"
#include "particle_record.h"
#include "vec.h"

namespace sph {

// One array (or group of arrays) of a device and its bytes.
struct MemoryPart {
    std::string name;
    std::size_t bytes;
};

// Bits needed to hold every id below `count`.
int bits_for(std::uint64_t count);

struct DeviceLayout {
    std::uint32_t capacity = 0;  // particles the arrays can hold
    // Neighbour list entries per particle (a byte each, after an 8-byte header: neighbour_list.h);
    // 0 when Forces walks the cells instead (--neighbours cells): no list is kept.
    std::uint32_t max_neighbours = 0;
    // Groups of the list kept per particle: the list warps' heights (neighbour_list.h) may take
    // this many on average. Set from the lattice's counts within the list radius and the share
    // of fluid (expected_list_height); a device raises it when a build needs more
    // (list_height_for).
    double list_height = 0.0;
    bool ghost_offsets = false;  // keeps to_ghost (particle_record.h): runs under mDBC
    CellGrid grid{};
    int id_bits = 0;                     // bits of the sort key that hold the particle id
    std::uint32_t instrument_sites = 0;  // probes, gauge samples, wall sensors' tiles

    // Per particle: the particle record twice (the current arrays and the incoming ones, which
    // also hold the predicted state between rebuilds), and the working arrays force, dt_max and
    // cell.
    static constexpr std::size_t kWorkingBytes =
        sizeof(Vec4) + sizeof(float) + sizeof(std::uint32_t);
    // The sort's scratch (two key buffers, two permutation buffers) lives in the working arrays,
    // which hold nothing at a rebuild: the keys in force, the permutations in dt_max and cell.
    static constexpr std::size_t kSortScratchBytes = 2 * 8 + 2 * 4;
    static_assert(sizeof(Vec4) == 2 * 8 && kSortScratchBytes == kWorkingBytes,
                  "the sort's keys fill force, its permutations dt_max and cell");

    bool uses_list() const { return max_neighbours > 0; }
    bool keeps(FieldKept kept) const { return kept == FieldKept::kAlways || ghost_offsets; }
    std::size_t record_bytes() const {
        return kParticleRecordBytes - (ghost_offsets ? 0 : kMdbcOnlyRecordBytes);
    }
    std::size_t particle_bytes() const { return 2 * record_bytes() + kWorkingBytes; }

    // Rows of kListWarp groups the warps' blocks may fill, and all the rows the list holds: a
    // walk reads up to two groups past a list's end marker (list_walk.h), so the last block is
    // followed by a particle's largest list of rows.
    std::uint64_t list_pool_rows() const {
        return uses_list() ? std::uint64_t(std::ceil(list_warps(capacity) * list_height)) : 0;
    }
    std::uint64_t list_rows() const {
        return uses_list() ? list_pool_rows() + list_groups(max_neighbours) : 0;
    }
    std::size_t list_bytes() const {
        return std::size_t(list_rows()) * kListWarp * sizeof(NeighbourGroup);
    }
    // Where each list warp's block begins.
    std::size_t list_index_bytes() const {
        return uses_list() ? std::size_t(list_warps(capacity)) * sizeof(std::uint32_t) : 0;
    }
    // Each cell's start, end and splits (cell_grid.h).
    std::size_t cell_bytes() const {
        return (2 * sizeof(std::uint32_t) + kCellSplitBytes) * std::size_t(grid.cell_count() + 1);
    }
    // The instruments' sites and their sums (a back end's own scratch for them is its own).
    std::size_t instrument_bytes() const {
        return std::size_t(instrument_sites) *
               (sizeof(InstrumentSite) + kCellPlanes * sizeof(SiteSums));
    }
    // Bits of the sort key (cell, slab, id; build_neibs_body.h), the outside cell's included.
    int sort_key_bits() const {
        return id_bits + bits_for(std::uint64_t(grid.cell_count()) * kSlabsPerCell + 1);
    }
    // Everything but the sort/reduce library's temporary storage.
    std::size_t bytes() const {
        return std::size_t(capacity) * particle_bytes() + list_bytes() + list_index_bytes() +
               cell_bytes() + instrument_bytes();
    }
    // bytes(), array by array (the run report lists them per particle).
    std::vector<MemoryPart> parts() const {
        const std::size_t n = capacity;
        return {{"particle records (current and incoming)", 2 * n * record_bytes()},
                {"force, dt_max, cell (and the sort's scratch)", n * kWorkingBytes},
                {"neighbour list", list_bytes() + list_index_bytes()},
                {"cell ranges", cell_bytes()},
                {"instruments", instrument_bytes()}};
    }
};

// Groups a particle's list is expected to take on average at set-up, with `fluid_share` of the
// particles fluid: a fluid particle's list holds the header, the entries and end marker of a
// lattice particle's list (the lattice points within `radius_in_dp`, the list radius over dp); a
// wall particle lists the fluid alone (build_neibs_body.h), at most that above the top layer of a
// wall under still water (the lattice points a layer or more above it), and a dry wall nothing.
// At most list_groups(max_neighbours) either. At the default radius (2.81 dp) a fluid particle
// takes 12 groups (80 neighbours), a wall 5 (30): DamBreak's lists 10.2 groups a particle where
// listing every neighbour took 12.
double expected_list_height(double radius_in_dp, std::uint32_t max_neighbours, double fluid_share);

// The height that holds `rows_needed` rows for `capacity` particles, with 5 % to spare, and at
// least 5 % more than `height`.
double list_height_for(std::uint64_t rows_needed, std::uint32_t capacity, double height);

}  // namespace sph
