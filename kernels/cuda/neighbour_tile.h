// The shared-memory tile of the CUDA list build (included by cuda_launchers.cu only).
//
// Particles are sorted by cell, so the particles of one block usually lie in one row of cells (the
// cells that differ only along the grid's fastest axis). Their candidates then lie in nine rows of
// cells, one per step (d0, d1) along the two slower axes, and each row's stretch of cells is one
// contiguous stretch of the sorted particles. The block copies those nine stretches into shared
// memory once; each of its threads then tests its ~500 candidates there. Read straight from the
// particle array, every candidate was read by some twenty threads of different blocks through L1
// and L2, and the build was bound by L2 (83 % busy, L1 hitting 81 %).
//
// A block whose particles span more than one row, or whose stretches hold more particles than the
// tile, reads the particle array instead. The positions are the same values either way, so the
// lists are identical.
#pragma once

#include <cstdint>

#include "build_neibs_body.h"

namespace sph::cuda {

constexpr unsigned kListBlock = 128;  // particles per block: about six cells of a row
// Positions in the tile: 32 KB of shared memory, six blocks per SM. A block of 128 particles
// needs about 1,700 at the fluid's density. (2,800 and 1,536 ran 0.5-1 % slower on the H100.)
constexpr unsigned kTileCapacity = 2048;

struct NeighbourTile {
    Vec4 positions[kTileCapacity];
    std::int64_t shift[kRows];  // row r's particle j is positions[j + shift[r]]
    std::uint32_t start[kRows];
    std::uint32_t size[kRows];
    bool in_use;
};

struct TilePositions {
    const NeighbourTile* tile;
    __device__ const Vec4* cell(int row, std::uint32_t start) const {
        return tile->positions + (std::int64_t(start) + tile->shift[row]);
    }
};

// The particles of row r's stretch for the cells of particles [first, last], which lie in one row.
// Returns false when they span rows (or lie outside the grid): the block cannot use the tile.
__device__ bool find_row_stretch(const NeighbourArgs& a, std::uint32_t first, std::uint32_t last,
                                 int r, std::uint32_t* start, std::uint32_t* size) {
    const CellGrid& g = a.grid;
    const std::uint32_t cell_first = a.cell[first], cell_last = a.cell[last];
    if (cell_first >= g.outside_cell() || cell_last >= g.outside_cell()) return false;
    int c_first[3], c_last[3];
    g.coordinates(cell_first, c_first);
    g.coordinates(cell_last, c_last);
    const int slow0 = g.order[0], slow1 = g.order[1], fast = g.order[2];
    if (c_first[slow0] != c_last[slow0] || c_first[slow1] != c_last[slow1]) return false;
    *start = 0;
    *size = 0;
    const int n0 = c_first[slow0] + r / 3 - 1, n1 = c_first[slow1] + r % 3 - 1;
    if (n0 < 0 || n0 >= g.dims[slow0] || n1 < 0 || n1 >= g.dims[slow1]) return true;  // no row
    const int lo = max(c_first[fast] - 1, 0), hi = min(c_last[fast] + 1, g.dims[fast] - 1);
    const std::uint32_t row_base =
        std::uint32_t(n0) * g.stride[slow0] + std::uint32_t(n1) * g.stride[slow1];
    int f_lo = lo, f_hi = hi;
    while (f_lo <= hi &&
           a.cell_start[row_base + std::uint32_t(f_lo) * g.stride[fast]] == kEmptyCell) {
        ++f_lo;
    }
    if (f_lo > hi) return true;  // every cell of the stretch is empty
    while (a.cell_start[row_base + std::uint32_t(f_hi) * g.stride[fast]] == kEmptyCell) --f_hi;
    *start = a.cell_start[row_base + std::uint32_t(f_lo) * g.stride[fast]];
    *size = a.cell_end[row_base + std::uint32_t(f_hi) * g.stride[fast]] - *start;
    return true;
}

// Fills the block's tile for particles [first, last] (every thread calls it; it synchronises the
// block) and says whether the block may use it.
__device__ bool load_neighbour_tile(const NeighbourArgs& a, std::uint32_t first, std::uint32_t last,
                                    NeighbourTile& tile) {
    __shared__ bool fits[kRows];
    if (threadIdx.x < kRows) {
        const int r = int(threadIdx.x);
        fits[r] = find_row_stretch(a, first, last, r, &tile.start[r], &tile.size[r]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        bool usable = true;
        std::uint32_t offset = 0;
        for (int r = 0; r < kRows; ++r) {
            usable = usable && fits[r];
            tile.shift[r] = std::int64_t(offset) - std::int64_t(tile.start[r]);
            offset += tile.size[r];
        }
        tile.in_use = usable && offset <= kTileCapacity;
    }
    __syncthreads();
    if (tile.in_use) {
        for (int r = 0; r < kRows; ++r) {
            for (std::uint32_t t = threadIdx.x; t < tile.size[r]; t += blockDim.x) {
                const std::uint32_t j = tile.start[r] + t;
                tile.positions[j + tile.shift[r]] = a.pos[j];
            }
        }
    }
    __syncthreads();
    return tile.in_use;
}

}  // namespace sph::cuda
