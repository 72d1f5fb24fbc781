// A walk's candidates tested for nearness (cell_walk.h says why in masks on the GPU): a stretch
// of the sorted particles tested 32 at a time into a bit mask (near_mask), or one by one on the
// CPU, and the masks of a whole walk held (NearCandidates) and their candidates visited once all
// are in. Both ways visit the same particles in the same order.
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

}  // namespace sph
