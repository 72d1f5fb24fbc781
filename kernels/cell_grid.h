// The uniform cell grid that hashes particles for the neighbour search.
//
// Cells are linearised with the split axis most significant, so that one slice (all cells with the
// same coordinate along the split axis) is one contiguous range of cell indices, and therefore of
// the particle list sorted by cell. The multi-device decomposition hands out those slices.
#pragma once

#include <cstdint>

#include "fixed_position.h"
#include "particle_type.h"
#include "vec.h"

namespace sph {

// A cell's coordinates along the grid's axes from most to least significant (order[0], order[1],
// order[2]), with the grid's strides and extents along them: what the walks over the cells around
// a particle read, as plain values that kernels keep in registers.
struct OrderedCell {
    std::uint32_t s0, s1, s2;  // strides (s2 is 1: the least significant axis)
    int c0, c1, c2;            // coordinates
    int n0, n1, n2;            // extents
};

struct CellGrid {
    PositionFrame frame;      // how the particles' positions are held (fixed_position.h)
    std::int32_t origin[3];   // lower corner of the gridded domain [steps of the frame]
    std::int32_t side;        // a cell's side [steps], >= neighbour list radius
    float cell_side;          // the same [m]
    int dims[3];              // number of cells along x, y, z
    int order[3];             // physical axes from most to least significant; order[0] = split axis
    std::uint32_t stride[3];  // linear-index stride of a unit step along x, y, z
    // Where fluid may be [steps, inclusive]: fluid beyond counts as outside the grid, and leaves
    // the run as a particle leaving the domain does (Problem::fluid_reach; the whole frame unless
    // the problem narrows it).
    std::int32_t fluid_lo[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
    std::int32_t fluid_hi[3] = {INT32_MAX, INT32_MAX, INT32_MAX};

    SPH_HD std::uint32_t cell_count() const {
        return static_cast<std::uint32_t>(dims[0]) * dims[1] * dims[2];
    }
    SPH_HD int split_axis() const { return order[0]; }
    SPH_HD std::uint32_t cells_per_slice() const { return stride[order[0]]; }
    SPH_HD int slice_count() const { return dims[order[0]]; }

    // How many steps `steps` lies above the grid's origin along `axis`, if it lies inside the
    // grid ([0, dims side)); -1 outside. Integers: every hash of a position is exact, so the
    // cell, the slab and the cell walks all agree on it.
    SPH_HD std::int64_t inside_steps(std::int32_t steps, int axis) const {
        const std::int64_t rel = std::int64_t(steps) - origin[axis];
        return rel >= 0 && rel < std::int64_t(dims[axis]) * side ? rel : -1;
    }

    // Integer cell coordinate along `axis` (floor); out of range for positions outside the grid
    // (held within two cells of it, so that a walk around a far point finds no cell).
    SPH_HD int coordinate(std::int32_t steps, int axis) const {
        const std::int64_t rel = std::int64_t(steps) - origin[axis];
        const std::int64_t c = rel >= 0 ? rel / side : -((-rel + side - 1) / side);
        return c < -2 ? -2 : c > dims[axis] + 1 ? dims[axis] + 1 : int(c);
    }
    // The grid's lower corner along `axis` [m] (host code).
    double origin_metres(int axis) const {
        return frame.origin[axis] + double(origin[axis]) * double(frame.unit);
    }

    // Which of its cell's kSlabsPerCell slabs along the fastest axis (order[2]) a position inside
    // the grid lies in (0 outside the grid).
    SPH_HD int slab_of(const FixedPos& pos) const;

    // Particles outside the grid hash to this one-past-the-last cell, so they sort last.
    SPH_HD std::uint32_t outside_cell() const { return cell_count(); }

    // Linear cell index of a position, or outside_cell() when the position is outside the grid.
    SPH_HD std::uint32_t cell_of(const FixedPos& pos) const {
        const std::int32_t p[3] = {pos.x, pos.y, pos.z};
        std::uint32_t cell = 0;
        for (int a = 0; a < 3; ++a) {
            const std::int64_t rel = inside_steps(p[a], a);
            if (rel < 0) return outside_cell();
            cell += std::uint32_t(rel) / std::uint32_t(side) * stride[a];
        }
        return cell;
    }

    // The cell a particle sorts into: cell_of its position, or outside_cell() also where it is
    // fluid beyond the fluid's reach (its position's w is its type: particle_record.h).
    SPH_HD std::uint32_t particle_cell(const FixedPos& pos) const {
        const bool beyond = pos.w == float(kFluid) &&
                            (pos.x < fluid_lo[0] || pos.x > fluid_hi[0] || pos.y < fluid_lo[1] ||
                             pos.y > fluid_hi[1] || pos.z < fluid_lo[2] || pos.z > fluid_hi[2]);
        return beyond ? outside_cell() : cell_of(pos);
    }

    SPH_HD OrderedCell ordered(std::uint32_t cell) const {
        const std::uint32_t s0 = stride[order[0]], s1 = stride[order[1]];
        return OrderedCell{s0,
                           s1,
                           stride[order[2]],
                           int(cell / s0),
                           int((cell % s0) / s1),
                           int(cell % s1),
                           dims[order[0]],
                           dims[order[1]],
                           dims[order[2]]};
    }

    // Coordinates of a linear cell index, per physical axis.
    SPH_HD void coordinates(std::uint32_t cell, int c[3]) const {
        for (int k = 0; k < 3; ++k) {
            const int a = order[k];
            c[a] = static_cast<int>(cell / stride[a]);
            cell -= static_cast<std::uint32_t>(c[a]) * stride[a];
        }
    }
};

// Each cell is cut into kSlabsPerCell slabs along the fastest axis, and a cell's particles are
// sorted slab by slab. A particle in slab s of its cell lies at least a cell width from the slabs
// below s of the cell before it along that axis and from the slabs above s of the cell after it, so
// the row of three cells around it (cell_walk.h) can leave those out: 2 + 1 / kSlabsPerCell cell
// widths of candidates instead of 3, whichever slab the particle is in, so that every thread of a
// warp walks rows as long as the others' (a trim that varies from particle to particle saves a warp
// nothing: bench/NOTES.md entry 23). Cells are as wide as the list radius, so the same holds for
// anything within the radius, and within 2h once particles drifted by less than the list's margin
// since the sort. Eight slabs (2 1/8 cell widths a row) against four (2 1/4): the lean mode +4.5 %,
// the list +1 %, for 4 bytes more a cell (entry 23).
constexpr int kSlabsPerCell = 8;
static_assert((kSlabsPerCell & (kSlabsPerCell - 1)) == 0, "slab_of scales by a power of two");

// Where each cell's slabs end: for k < kSplitsPerCell, how many of the cell's particles lie in its
// slabs 0..k, a byte each, or kSplitUnknown where that passed 254 (the rows around such a cell,
// or through it, are then not trimmed on its account).
constexpr int kSplitsPerCell = kSlabsPerCell - 1;
constexpr std::uint8_t kSplitUnknown = 0xFFu;

// The bytes a cell keeps beside its range: its splits, then (byte kWetByte) whether it holds any
// fluid (1) or walls alone (0), which a walk of the fluid alone passes over (cell_walk.h): a dry
// wall then tests no candidate at all. Read only for cells that hold particles.
constexpr int kCellSplitBytes = kSplitsPerCell + 1;
constexpr int kWetByte = kSplitsPerCell;

SPH_HD int CellGrid::slab_of(const FixedPos& pos) const {
    const int a = order[2];
    const std::int64_t rel = inside_steps(fixed_component(pos, a), a);
    if (rel < 0) return 0;
    const std::uint32_t within = std::uint32_t(rel) % std::uint32_t(side);
    return int(std::uint64_t(within) * kSlabsPerCell / std::uint32_t(side));
}

// Builds a grid that covers [lo, hi] with cells wider than `min_side` (by a small margin that
// absorbs float rounding in the distance tests), `split_axis` most significant, over positions
// held in `frame`.
CellGrid make_cell_grid(const double lo[3], const double hi[3], double min_side, int split_axis,
                        const PositionFrame& frame);

}  // namespace sph
