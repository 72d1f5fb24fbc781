// Encoding of the interleaved neighbour list.
//
// Each entry is 16 bits: the neighbour's cell as one of the 27 cells around the particle's own
// (5 bits), and its offset from that cell's first particle (11 bits). That halves the memory of a
// 4-byte index list; Forces recovers the index with one cell-start load per neighbouring cell.
// Entry k of particle i is stored at k * stride + i, so a warp reading entry k reads one line.
#pragma once

#include <cstdint>

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
