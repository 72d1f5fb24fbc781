// The particles of the cells around a point: the cell holding the point and its neighbours, at
// most 27, in cell index order, each cell's particles in their sorted order. Cells are at least
// the neighbour-list radius wide, so every particle within 2h of the point (and within the
// radius once it drifted since the rebuild) is among them. The order is the same on every device
// that holds those cells, which keeps sums over them bitwise reproducible.
//
// The three cells of a row (a step along each of the two slower axes) are consecutive in index
// (the fastest axis has stride 1), so their particles are one stretch of the sorted arrays: the
// walks below take nine stretches instead of 27 cells, as DualSPHysics walks them. The list
// build (build_neibs_body.h) lists the particles near a point row by row this way, and
// CellNeighbours walks them for Forces under --neighbours cells, in place of the list.
//
// On the GPU a stretch's candidates are tested 32 at a time into a bit mask before any is
// visited (near_mask). The threads of a warp hold different candidates near: tested and visited
// in one loop, each candidate's position is loaded only once the one before was judged, and the
// warp runs the visit at every step at which any of its threads has a near candidate. From a
// mask, the 32 loads are issued together and the visits run one set bit after the other. A CPU
// core has no warp to keep together and visits as it tests. Both visit the same particles in the
// same order (bench/NOTES.md entry 17).
#pragma once

#include <cstdint>
#include <cstring>

#include "cell_grid.h"
#include "kernel_args.h"
#include "vec.h"

namespace sph {

// The index of the lowest set bit of a non-zero mask.
SPH_HD int lowest_set_bit(std::uint32_t mask) {
#if defined(__CUDA_ARCH__)
    return __ffs(static_cast<int>(mask)) - 1;
#else
    return __builtin_ctz(mask);
#endif
}

// The number of set bits of a mask.
SPH_HD int set_bit_count(std::uint32_t mask) {
#if defined(__CUDA_ARCH__)
    return __popc(mask);
#else
    return __builtin_popcount(mask);
#endif
}

// A particle's rows trimmed to its slab (cell_grid.h): of a row's cell before the particle's
// along the fastest axis only the slabs from the particle's own on are kept, of the cell after it
// only those up to its own; the rest lie at least a cell width away. kNoSlab trims nothing: the
// rows around a ghost node (not a sorted particle), or around a particle whose cell's splits
// saturated, and wherever the splits are not given.
//
// A trim of_fluid() also passes over the cells that hold walls alone (kWetByte, cell_grid.h): for
// a walk of the fluid alone, whose candidates there would all be tested to be left out.
struct RowTrim {
    static constexpr int kNoSlab = -1;
    const std::uint8_t* cell_split = nullptr;
    int slab = kNoSlab;
    bool fluid_only = false;

    SPH_HD RowTrim of_fluid() const { return RowTrim{cell_split, slab, true}; }

    // Whether a walk with this trim passes over `cell`, which holds particles.
    SPH_HD bool passes_over(std::uint32_t cell) const {
        return fluid_only && cell_split != nullptr &&
               cell_split[std::size_t(cell) * kCellSplitBytes + kWetByte] == 0;
    }

    // The first particle kept of the cell before the middle one, whose particles begin at start.
    SPH_HD std::uint32_t first_kept_before(std::uint32_t cell, std::uint32_t start) const {
        if (slab <= 0) return start;
        const std::uint8_t below = cell_split[std::size_t(cell) * kCellSplitBytes + (slab - 1)];
        return below == kSplitUnknown ? start : start + below;
    }

    // The end of those kept of the cell after the middle one, whose particles are [start, end).
    SPH_HD std::uint32_t end_kept_after(std::uint32_t cell, std::uint32_t start,
                                        std::uint32_t end) const {
        if (slab == kNoSlab || slab == kSlabsPerCell - 1) return end;
        const std::uint8_t up_to = cell_split[std::size_t(cell) * kCellSplitBytes + slab];
        return up_to == kSplitUnknown ? end : start + up_to;
    }
};

// The trim of the rows around the sorted particle `self` of `cell`, from its place among the
// cell's particles (the slabs are sorted in order); none where cell_split is null, and no slab's
// where the cell's splits saturated.
SPH_HD RowTrim row_trim_for(std::uint32_t self, std::uint32_t cell, const std::uint32_t* cell_start,
                            const std::uint8_t* cell_split) {
    if (cell_split == nullptr) return RowTrim{};
    const std::uint8_t* split = cell_split + std::size_t(cell) * kCellSplitBytes;
    const std::uint32_t before_self = self - cell_start[cell];
    int slab = 0;
    for (int k = 0; k < kSplitsPerCell; ++k) {
        if (split[k] == kSplitUnknown) return RowTrim{cell_split};
        slab += before_self >= split[k] ? 1 : 0;
    }
    return RowTrim{cell_split, slab};
}

// Calls visit_row(row, begin, end, whole_begin) for each row of cells around `cell` that lies in
// the grid and holds particles here (once trimmed), in walk order: row = 3 (d0 + 1) + (d1 + 1)
// for the steps d0, d1 along the two slower axes, [begin, end) its stretch of the sorted
// particles, whole_begin the first particle of its cells untrimmed (where a list's steps count
// from: a list walk then finds each row's start from the cell starts alone, list_walk.h). Stops
// at, and returns true after, a call that returns true.
template <class VisitRow>
SPH_HD bool for_each_row_around(std::uint32_t cell, const CellGrid& grid,
                                const std::uint32_t* cell_start, const std::uint32_t* cell_end,
                                const RowTrim& trim, VisitRow&& visit_row) {
    const OrderedCell o = grid.ordered(cell);
    const int first_step = o.c2 > 0 ? -1 : 0, last_step = o.c2 + 1 < o.n2 ? 1 : 0;
    for (int d0 = -1; d0 <= 1; ++d0) {
        if (o.c0 + d0 < 0 || o.c0 + d0 >= o.n0) continue;
        for (int d1 = -1; d1 <= 1; ++d1) {
            if (o.c1 + d1 < 0 || o.c1 + d1 >= o.n1) continue;
            const std::uint32_t row = cell + std::uint32_t(d0 * int(o.s0) + d1 * int(o.s1));
            std::uint32_t begin = kEmptyCell, end = 0, whole_begin = kEmptyCell;
            for (int d2 = first_step; d2 <= last_step; ++d2) {
                const std::uint32_t c = row + std::uint32_t(d2);
                const std::uint32_t start = cell_start[c];
                if (start == kEmptyCell) continue;
                if (whole_begin == kEmptyCell) whole_begin = start;
                if (trim.passes_over(c)) continue;
                const std::uint32_t from = d2 < 0 ? trim.first_kept_before(c, start) : start;
                const std::uint32_t to =
                    d2 > 0 ? trim.end_kept_after(c, start, cell_end[c]) : cell_end[c];
                if (from == to) continue;  // trimmed away
                if (begin == kEmptyCell) begin = from;
                end = to;
            }
            if (begin != kEmptyCell &&
                visit_row(3 * (d0 + 1) + (d1 + 1), begin, end, whole_begin)) {
                return true;
            }
        }
    }
    return false;
}

using CandidateMask = std::uint32_t;
constexpr std::uint32_t kMaskBits = 32;

// Taken off the squared cut per unit of a candidate's type (particle_type.h: the fluid's is 0),
// so added to its margin, where a walk takes the fluid alone: a wall's margin is then positive
// whatever its distance (margins are squared distances within a domain, far below it), and the
// fluid's unchanged (0 times it takes off an exact zero). One multiply-add a candidate and no
// branch.
constexpr float kFluidOnlyPenalty = 1e30f;

// |d|^2 - less, the sum taken from z to x so that nvcc makes it three fused multiply-adds (the
// squares' sum first, then the subtraction, took a multiply, two multiply-adds and an add). A
// margin (below): negative exactly where |d|^2 < less, up to the last bit's rounding, which a cut
// set a little beyond where the terms vanish absorbs.
SPH_HD float squared_length_less(Vec3 d, float less) {
    return d.x * d.x + (d.y * d.y + (d.z * d.z - less));
}

// A walk's test of its candidates (`Near`): near.pos, the sorted positions (w the type), and
// near.margin(c), a float that is negative exactly where the candidate at c belongs (a squared
// distance less the squared cut, say). Whether candidate j is near:
template <class Near>
SPH_HD bool is_near(const Near& near, std::uint32_t j) {
    return near.margin(near.pos[j]) < 0.0f;
}

// `mask` shifted up by one, with the sign bit of `margin` brought in at bit 0: one funnel shift
// on the GPU.
SPH_HD CandidateMask shift_in_sign(CandidateMask mask, float margin) {
#if defined(__CUDA_ARCH__)
    return __funnelshift_l(__float_as_uint(margin), mask, 1);
#else
    std::uint32_t bits;
    std::memcpy(&bits, &margin, sizeof bits);
    return (mask << 1) | (bits >> 31);
#endif
}

// Bit k set where is_near(near, first + k), for k < count (<= kMaskBits), the particle `self`
// left out. The candidates are taken from the last to the first, each margin's sign shifted in
// below the others' (a finite margin's sign bit is set exactly where it is negative; r2 - cut is
// never -0), with no branch between them, so that their loads are issued together and a
// candidate costs its distance and one shift. One pointer steps back over them: indexed by an
// unsigned count instead, each candidate's 64-bit address was worked out anew (five integer
// instructions of the fourteen a candidate took; bench/NOTES.md entry 25), where a pointer's
// unrolled steps are fixed offsets from it.
template <class Near>
SPH_HD CandidateMask near_mask(std::uint32_t first, std::uint32_t count, std::uint32_t self,
                               const Near& near) {
    const FixedPos* candidate = near.pos + first + count;
    CandidateMask bits = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll 8  // eight loads in flight: +1.6 % lean mips against the compiler's four
#endif
    for (int k = int(count); k > 0; --k) {
        --candidate;
        bits = shift_in_sign(bits, near.margin(*candidate));
    }
    if (self - first < count) bits &= ~(CandidateMask(1) << (self - first));
    return bits;
}

// Calls visit(j) for each particle j of [begin, end) but `self` that is near, in order, until a
// call returns true (true then): the CPU's way, visiting as it tests.
template <class Near, class Visit>
SPH_HD bool for_each_near_one_by_one(std::uint32_t begin, std::uint32_t end, std::uint32_t self,
                                     const Near& near, Visit&& visit) {
    for (std::uint32_t j = begin; j < end; ++j) {
        if (j != self && is_near(near, j) && visit(j)) return true;
    }
    return false;
}

// The GPU's way: [begin, end) taken kMaskBits candidates at a time, each chunk's candidates
// tested into a mask (near_mask); on_mask(first, bits) for each chunk with a bit set, in order,
// until a call returns true (true then).
template <class Near, class OnMask>
SPH_HD bool for_each_near_mask(std::uint32_t begin, std::uint32_t end, std::uint32_t self,
                               const Near& near, OnMask&& on_mask) {
    for (std::uint32_t first = begin; first < end; first += kMaskBits) {
        const std::uint32_t count = end - first < kMaskBits ? end - first : kMaskBits;
        const CandidateMask bits = near_mask(first, count, self, near);
        if (bits != 0 && on_mask(first, bits)) return true;
    }
    return false;
}

// Every cell is walked (for_each_particle_near's default).
struct EveryCell {
    SPH_HD bool operator()(std::uint32_t) const { return true; }
};

// Calls visit(j) for each particle j of the cells around `point`, until a call returns true;
// cells outside the grid, cells this device holds no particle of, and cells for which
// walk(cell) is false are skipped.
template <class Visit, class WalkCell = EveryCell>
SPH_HD void for_each_particle_near(const FixedPos& point, const CellGrid& grid,
                                   const std::uint32_t* cell_start, const std::uint32_t* cell_end,
                                   Visit&& visit, WalkCell walk = {}) {
    const std::int32_t at[3] = {point.x, point.y, point.z};
    int lo[3], hi[3];
    for (int axis = 0; axis < 3; ++axis) {
        const int c = grid.coordinate(at[axis], axis);
        lo[axis] = c - 1 < 0 ? 0 : c - 1;
        hi[axis] = c + 1 >= grid.dims[axis] ? grid.dims[axis] - 1 : c + 1;
    }
    const int outer = grid.order[0], middle = grid.order[1], inner = grid.order[2];
    int c[3];
    for (c[outer] = lo[outer]; c[outer] <= hi[outer]; ++c[outer]) {
        for (c[middle] = lo[middle]; c[middle] <= hi[middle]; ++c[middle]) {
            for (c[inner] = lo[inner]; c[inner] <= hi[inner]; ++c[inner]) {
                const std::uint32_t cell =
                    c[0] * grid.stride[0] + c[1] * grid.stride[1] + c[2] * grid.stride[2];
                const std::uint32_t start = cell_start[cell];
                if (start == kEmptyCell || !walk(cell)) continue;
                const std::uint32_t end = cell_end[cell];
                for (std::uint32_t j = start; j < end; ++j) {
                    if (visit(j)) return;
                }
            }
        }
    }
}

// Masks of near candidates held over a whole walk, their candidates visited once all are in (or
// the room is full): visited chunk by chunk, a warp waits at the end of each chunk for its
// busiest thread, and ran Forces' pair body at 13 of 32 threads; from all nine rows' masks at
// once, it runs it as often as its busiest thread has neighbours, at 30 of 32.
//
// The masks lie in a room of their own (HeldMasks, the caller's): in one object with the arrays,
// which are indexed at run time and so live in local memory, the count and the bits went there
// too, read and written back at every mask held (bench/NOTES.md entry 25); apart, they stay in
// registers.
struct HeldMasks {
    static constexpr int kRoom = 32;  // masks held before their candidates are visited
    std::uint32_t first[kRoom];
    CandidateMask mask[kRoom];
};

struct NearCandidates {
    static constexpr int kRoom = HeldMasks::kRoom;

    std::uint32_t* first;
    CandidateMask* mask;
    int count = 0;  // masks held, none of them empty
    int bits = 0;   // the set bits of all of them

    SPH_HD explicit NearCandidates(HeldMasks& room) : first(room.first), mask(room.mask) {}

    SPH_HD void hold(std::uint32_t first_of_chunk, CandidateMask mask_of_chunk) {
        first[count] = first_of_chunk;
        mask[count] = mask_of_chunk;
        ++count;
        bits += set_bit_count(mask_of_chunk);
    }

    SPH_HD bool full() const { return count == kRoom; }

    // Calls visit(j, e) for each held candidate j in order, e the index of its mask, and empties
    // the room; true where visit said stop. One loop, counted, with a single way back: a nested
    // loop (masks, then bits) would make a warp's threads wait for each other at each mask's end.
    template <class Visit>
    SPH_HD bool visit_all(Visit&& visit) {
        const int total = bits, held = count;
        count = 0;
        bits = 0;
        if (held == 0) return false;
        int e = 0;
        std::uint32_t base = first[0];
        CandidateMask left = mask[0];
        // The next mask is read a mask ahead: read when needed, its load held up the visit.
        int ahead = held > 1 ? 1 : 0;
        std::uint32_t next_base = first[ahead];
        CandidateMask next_left = mask[ahead];
        for (int k = 0; k < total; ++k) {
            if (left == 0) {  // this mask is done: the next (none is empty)
                ++e;
                base = next_base;
                left = next_left;
                ahead = e + 1 < held ? e + 1 : e;
                next_base = first[ahead];
                next_left = mask[ahead];
            }
            if (visit(base + lowest_set_bit(left), e)) return true;
            left &= left - 1;
        }
        return false;
    }
};

// Forces' neighbours found in the cells around a particle's own cell (--neighbours cells): no
// list is kept, and every particle of those cells is a candidate, its distance tested each time.
// The walk is the list build's (build_neibs_body.h): rows in walk order, each row's particles in
// sorted order, so Forces meets its non-zero terms in list order and both give the same bits.
// Only pairs whose every term is exactly zero are passed over: `cut_sq` lies a little beyond
// (2h)^2, where the kernel's gradient is zero even through the GPU's approximate square root,
// and a wall particle's walls (for_each_fluid) close at exactly zero speed.
// On the GPU (walk_in_chunks) the masks of every row are held (NearCandidates) and visited once
// all are in.
struct CellNeighbours {
    // Candidates within the cut of the point `at`, and kFluidOnly, fluid (a Near of near_mask).
    template <bool kFluidOnly>
    struct WithinCut {
        const FixedPos* pos;
        FixedPos at;
        float unit;  // [m] a step of the positions
        float cut_sq;
        static constexpr bool kFluidOnlyWalk = kFluidOnly;
        SPH_HD float margin(const FixedPos& c) const {
            const float less = kFluidOnly ? cut_sq - c.w * kFluidOnlyPenalty : cut_sq;
            return squared_length_less(displacement(at, c, unit), less);
        }
    };

    const FixedPos* pos;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    const std::uint32_t* cell_end;
    const std::uint8_t* cell_split;  // the rows trimmed as the list's are (null: not trimmed)
    CellGrid grid;
    float cut_sq;

    // Calls visit(j) for each particle j within the cut of particle i (at pos_i), in walk order,
    // until a call returns true.
    template <class Visit>
    SPH_HD void for_each(std::uint32_t i, const FixedPos& pos_i, Visit&& visit) const {
        walk(WithinCut<false>{pos, pos_i, grid.frame.unit, cut_sq}, i, visit);
    }

    // The same for the fluid particles alone (what a wall particle's list holds,
    // build_neibs_body.h).
    template <class Visit>
    SPH_HD void for_each_fluid(std::uint32_t i, const FixedPos& pos_i, Visit&& visit) const {
        walk(WithinCut<true>{pos, pos_i, grid.frame.unit, cut_sq}, i, visit);
    }

    template <class Near, class Visit>
    SPH_HD void walk(const Near& near, std::uint32_t i, Visit&& visit) const {
#if defined(__CUDA_ARCH__)
        walk_in_chunks(near, i, visit);
#else
        walk_one_by_one(near, i, visit);
#endif
    }

    // Particle i's rows trimmed to its slab, and for a walk of the fluid alone to wet cells.
    template <class Near>
    SPH_HD RowTrim trim_for(std::uint32_t i) const {
        const RowTrim trim = row_trim_for(i, cell[i], cell_start, cell_split);
        return Near::kFluidOnlyWalk ? trim.of_fluid() : trim;
    }

    template <class Near, class Visit>
    SPH_HD void walk_one_by_one(const Near& near, std::uint32_t i, Visit&& visit) const {
        for_each_row_around(cell[i], grid, cell_start, cell_end, trim_for<Near>(i),
                            [&](int, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                                return for_each_near_one_by_one(begin, end, i, near, visit);
                            });
    }

    template <class Near, class Visit>
    SPH_HD void walk_in_chunks(const Near& near, std::uint32_t i, Visit&& visit) const {
        const auto each = [&](std::uint32_t j, int) { return visit(j); };
        HeldMasks room;
        NearCandidates held{room};
        const auto hold = [&](std::uint32_t first, CandidateMask bits) {
            if (held.full() && held.visit_all(each)) return true;
            held.hold(first, bits);
            return false;
        };
        const bool stopped =
            for_each_row_around(cell[i], grid, cell_start, cell_end, trim_for<Near>(i),
                                [&](int, std::uint32_t begin, std::uint32_t end, std::uint32_t) {
                                    return for_each_near_mask(begin, end, i, near, hold);
                                });
        if (!stopped) held.visit_all(each);
    }
};

// The number of cells around a point that for_each_particle_near walks, at most.
constexpr int kCellsAround = 27;

// How many particles' positions and types for_each_particle_in_cell_near reads ahead of visiting
// them: one thread walks a whole cell, and reading each particle only when its turn came made
// the walk wait on memory once or twice a particle.
constexpr std::uint32_t kCellWalkBatch = 4;

// Calls visit(j, pos[j], type[j]) for each particle j in [first, last) of the k-th cell around
// `point` (k in [0, 27), in the order for_each_particle_near walks them, so that adding up the
// cells' sums in k order adds what it would); nothing where that cell lies outside the grid or
// holds no particle here. Lets a device spread one point's walk over 27 threads. [first, last)
// keeps a device to its own particles: a cell of an external slice is skipped whole, not walked
// and rejected particle by particle.
template <class Visit>
SPH_HD void for_each_particle_in_cell_near(const FixedPos& point, int k, const CellGrid& grid,
                                           const std::uint32_t* cell_start,
                                           const std::uint32_t* cell_end, std::uint32_t first,
                                           std::uint32_t last, const FixedPos* pos,
                                           const std::uint8_t* type, Visit&& visit) {
    const std::int32_t at[3] = {point.x, point.y, point.z};
    const int offset_of[3] = {k / 9 - 1, (k / 3) % 3 - 1, k % 3 - 1};  // outer, middle, inner
    const int axis_of[3] = {grid.order[0], grid.order[1], grid.order[2]};
    std::uint32_t cell = 0;
    for (int n = 0; n < 3; ++n) {
        const int axis = axis_of[n];
        const int c = grid.coordinate(at[axis], axis) + offset_of[n];
        if (c < 0 || c >= grid.dims[axis]) return;
        cell += std::uint32_t(c) * grid.stride[axis];
    }
    const std::uint32_t start = cell_start[cell];
    if (start == kEmptyCell) return;
    const std::uint32_t begin = start > first ? start : first;
    const std::uint32_t end = cell_end[cell] < last ? cell_end[cell] : last;
    for (std::uint32_t j0 = begin; j0 < end; j0 += kCellWalkBatch) {
        FixedPos p[kCellWalkBatch];
        std::uint8_t t[kCellWalkBatch];
        for (std::uint32_t b = 0; b < kCellWalkBatch; ++b) {
            if (j0 + b < end) {
                p[b] = pos[j0 + b];
                t[b] = type[j0 + b];
            }
        }
        for (std::uint32_t b = 0; b < kCellWalkBatch && j0 + b < end; ++b) {
            visit(j0 + b, p[b], t[b]);
        }
    }
}

}  // namespace sph
