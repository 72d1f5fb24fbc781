// Encoding of the interleaved neighbour list.
//
// Each entry is 16 bits: the neighbour's cell as one of the 27 cells around the particle's own
// (5 bits), and its offset from that cell's first particle (11 bits). That halves the memory of a
// 4-byte index list; Forces recovers the index with a cell-start load (almost always cached).
//
// Entries are stored in groups of four, interleaved by particle: group g of particle i is the
// 8 bytes at (g * stride + i) * 4 entries from the list's start (entry_index). One 8-byte access
// reads or writes four entries, and a warp reading group g of its 32 particles reads 256
// contiguous bytes. Stored one by one, the list build's scattered 2-byte writes kept L2 busy.
#pragma once

#include <cstdint>
#include <cstring>

#include "cell_grid.h"
#include "vec.h"

namespace sph {

using NeighbourEntry = std::uint16_t;

constexpr NeighbourEntry kListEnd = 0xFFFFu;  // terminates a particle's list when it is not full
constexpr int kOffsetBits = 11;
constexpr std::uint32_t kMaxCellOccupancy = 1u << kOffsetBits;  // particles one cell may hold
constexpr std::uint32_t kOffsetMask = kMaxCellOccupancy - 1;

// The 27 neighbouring cells, numbered 0..26 in increasing linear-index order:
// code = (d0 + 1) * 9 + (d1 + 1) * 3 + (d2 + 1), with d0 the step along the most significant axis.
SPH_HD int neighbour_cell_delta(const CellGrid& g, int code) {
    const int d0 = code / 9 - 1, d1 = (code / 3) % 3 - 1, d2 = code % 3 - 1;
    return d0 * static_cast<int>(g.stride[g.order[0]]) +
           d1 * static_cast<int>(g.stride[g.order[1]]) +
           d2 * static_cast<int>(g.stride[g.order[2]]);
}

// The 27 steps of neighbour_cell_delta, by code: Forces looks a step up once per neighbouring cell
// instead of dividing the code by 9 and 3 (the CUDA kernel keeps the table in shared memory).
constexpr int kNeighbourCells = 27;
struct NeighbourCellSteps {
    std::int32_t by_code[kNeighbourCells];
};

SPH_HD NeighbourCellSteps neighbour_cell_steps(const CellGrid& g) {
    NeighbourCellSteps steps{};
    for (int code = 0; code < kNeighbourCells; ++code) {
        steps.by_code[code] = neighbour_cell_delta(g, code);
    }
    return steps;
}

constexpr std::uint32_t kEntriesPerGroup = 4;
using NeighbourGroup = std::uint64_t;  // four entries, entry k % 4 in bits 16 (k % 4) and up

// Where entry k of particle i lies in a list whose consecutive groups are `stride` groups apart.
SPH_HD std::size_t entry_index(std::uint32_t k, std::uint32_t i, std::uint32_t stride) {
    return (std::size_t(k / kEntriesPerGroup) * stride + i) * kEntriesPerGroup +
           k % kEntriesPerGroup;
}

SPH_HD NeighbourGroup load_group(const NeighbourEntry* list, std::size_t first_entry) {
#if defined(__CUDA_ARCH__)
    return *reinterpret_cast<const NeighbourGroup*>(list + first_entry);
#else
    NeighbourGroup group;  // memcpy: the host compiler's aliasing rules; one 8-byte load
    std::memcpy(&group, list + first_entry, sizeof group);
    return group;
#endif
}

SPH_HD void store_group(NeighbourEntry* list, std::size_t first_entry, NeighbourGroup group) {
#if defined(__CUDA_ARCH__)
    *reinterpret_cast<NeighbourGroup*>(list + first_entry) = group;
#else
    std::memcpy(list + first_entry, &group, sizeof group);
#endif
}

SPH_HD NeighbourEntry entry_of(NeighbourGroup group, std::uint32_t slot) {
    return static_cast<NeighbourEntry>(group >> (16u * slot));
}

SPH_HD NeighbourEntry encode_neighbour(int code, std::uint32_t offset) {
    return static_cast<NeighbourEntry>((code << kOffsetBits) | offset);
}
SPH_HD int neighbour_code(NeighbourEntry e) {
    return e >> kOffsetBits;
}
SPH_HD std::uint32_t neighbour_offset(NeighbourEntry e) {
    return e & kOffsetMask;
}

}  // namespace sph
