// Argument blocks of the kernels: plain pointers and sizes, the same on host and device.
//
// A launcher fills one of these from the arrays of a device (CPU or CUDA) and hands it by value to
// the per-particle bodies in build_neibs_body.h, forces_body.h and euler_body.h.
#pragma once

#include <cstdint>

#include "body_motion.h"
#include "cell_grid.h"
#include "neighbour_list.h"
#include "particle_record.h"
#include "sph_params.h"
#include "step_dt.h"
#include "vec.h"

namespace sph {

constexpr std::uint32_t kEmptyCell = 0xFFFFFFFFu;     // cell_start of a cell that holds no particle
constexpr std::uint32_t kCellOverflow = 0xFFFFFFFFu;  // neighbour count when a cell is overfull

// Hash: reads pos, id; writes sort keys (cell << id_bits | id) and the identity permutation.
// id_bits is as small as the largest id allows, so the radix sort makes fewer passes.
struct HashArgs {
    const FixedPos* pos;
    const std::uint32_t* id;
    std::uint64_t* key;
    std::uint32_t* permutation;
    CellGrid grid;
    int id_bits;
};

// Gather: moves every field of the particle record into sorted order,
// to.field[i] = from.field[permutation[i]] (from.field[i] where permutation is null).
struct GatherArgs {
    const std::uint32_t* permutation;
    ConstParticlePointers from;
    ParticlePointers to;
};

// Cells: reads pos; writes each particle's cell (outside_cell() when it left the grid).
struct CellArgs {
    const FixedPos* pos;
    std::uint32_t* cell;
    CellGrid grid;
};

// Cell ranges: reads the cells of particles sorted by cell; writes each cell's [start, end).
struct CellRangeArgs {
    const std::uint32_t* cell;
    std::uint32_t* cell_start;  // must hold kEmptyCell everywhere before the launch
    std::uint32_t* cell_end;
    std::uint32_t count;
    std::uint32_t outside_cell;
};

// Cell splits: reads the positions and cells of particles sorted by (cell, slab, id) and the cell
// starts; writes each cell's splits (cell_grid.h).
struct CellSplitArgs {
    const FixedPos* pos;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    std::uint8_t* cell_split;  // kCellSplitBytes a cell
    std::uint32_t count;
    CellGrid grid;
};

// Neighbour list: reads pos, cell, cell ranges; writes the list warp by warp (neighbour_list.h).
struct NeighbourArgs {
    const FixedPos* pos;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    NeighbourGroup* list;
    std::uint32_t* list_rows;      // each list warp's first row (group_index)
    std::uint32_t max_neighbours;  // entries per particle, a multiple of kEntriesPerGroup (8)
    float list_radius_sq;
    CellGrid grid;
    // Under mDBC, the walls' ghost-node offsets: their lists are then of the fluid around their
    // ghost nodes (ghost_list.h). Null otherwise.
    const Vec3* to_ghost = nullptr;
    // The fluid particles [fluid_begin, fluid_end) list their neighbours (a device's own); past
    // them only walls are listed (mDBC's near externals, LocalRanges), the fluid's list is empty.
    std::uint32_t fluid_begin = 0, fluid_end = ~0u;
    // The cells' splits (cell_grid.h): a particle's rows are trimmed to its slab (its list still
    // counts each row from the whole cells, so walking it needs no splits). Null: whole rows.
    const std::uint8_t* cell_split = nullptr;
};

// What a list build found: the largest neighbour count (or kCellOverflow), and the rows its list
// warps' blocks take. Past the list's pool (DeviceLayout::list_pool_rows) the blocks beyond it
// were not written: the back end builds again into a larger list.
struct ListBuildCounts {
    std::uint32_t largest;
    unsigned long long rows;  // the CUDA build's atomicAdd counts in this type
};

// mDBC boundary densities: reads pos, type, to_ghost, the fluid's velrho, the cell ranges and the
// neighbour lists of particles [listed_begin, listed_end) (list null: there are none); writes the
// density (velrho.w) of boundary particles.
struct MdbcArgs {
    const FixedPos* pos;
    Vec4* velrho;
    const std::uint8_t* type;
    const Vec3* to_ghost;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    const NeighbourGroup* list;
    const std::uint32_t* list_rows;
    std::uint32_t max_neighbours;
    std::uint32_t listed_begin, listed_end;
    CellGrid grid;
    SphParams params;
};

// Instruments (instruments_body.h): reads pos, velrho, type and the cell ranges; sums over the
// particles [owned_begin, owned_end), the device's internal ones.
struct InstrumentArgs {
    const FixedPos* pos;
    const Vec4* velrho;
    const std::uint8_t* type;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    std::uint32_t owned_begin, owned_end;  // the device's internal particles
    CellGrid grid;
    SphParams params;
    const Vec3* to_ghost = nullptr;  // mDBC's ghost offsets (surface panels); null under DBC
};

// Forces: reads pos, velrho, type, the list (or, where list is null, the cell ranges); writes
// force (ax, ay, az, drho/dt) and dt_max.
struct ForcesArgs {
    const FixedPos* pos;
    const Vec4* velrho;
    const std::uint8_t* type;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    const NeighbourGroup* list;  // null under --neighbours cells
    Vec4* force;
    float* dt_max;
    const std::uint32_t* list_rows;
    std::uint32_t max_neighbours;
    CellGrid grid;
    SphParams params;
    // The cells' splits, for the walk under --neighbours cells: its rows trimmed as the list
    // build trims them, so that both meet the same pairs.
    const std::uint8_t* cell_split = nullptr;
    // Under --no-penetration (wall_contact.h): the walls' ghost offsets, and where the
    // corrector's Forces find the step's dt, as its Euler will (no predictor minima: the
    // predictor's Forces, before the dt is known, which correct nothing).
    const Vec3* to_ghost = nullptr;
    EulerDt step{nullptr, nullptr, 0, StepClock{}};
};

// Euler: predictor reads pos, velrho, force and writes pos_pred, velrho_pred; corrector reads
// pos, velrho and force (from the predicted state) and updates pos, velrho in place.
struct EulerArgs {
    FixedPos* pos;
    Vec4* velrho;
    FixedPos* pos_pred;
    Vec4* velrho_pred;
    const Vec4* force;
    const std::uint8_t* type;
    float dt;
    float rho0;
    PositionFrame frame;  // the positions' (fixed_position.h)
    // The moving bodies' laws (body_motion.h) and the time the step begins at, at which they are
    // evaluated (the launchers set it with dt).
    BodyLaws bodies = {};
    double time = 0.0;
    Vec3* to_ghost = nullptr;  // under mDBC: a turning body's ghost offsets turn with it
};

}  // namespace sph
