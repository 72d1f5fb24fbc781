// CUDA launchers of the kernel bodies. Each launches on the given stream and returns at once;
// temporary storage for sorting and reduction is passed in, sized by the *_temp_bytes queries, so
// that a device's memory use is known before it allocates.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "damping_zone.h"
#include "kernel_args.h"
#include "step_dt.h"

namespace sph::cuda {

void hash(const HashArgs& args, std::uint32_t count, cudaStream_t stream);

std::size_t sort_temp_bytes(std::uint32_t capacity);
// Sorts (key, permutation) pairs held in double buffers [0] and [1], starting in buffer `current`;
// on return `current` names the buffer that holds the sorted pairs.
void sort_by_key(std::uint64_t* keys[2], std::uint32_t* permutation[2], int& current,
                 std::uint32_t count, int key_bits, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream);

void gather(const GatherArgs& args, std::uint32_t count, cudaStream_t stream);
void assign_cells(const CellArgs& args, std::uint32_t count, cudaStream_t stream);
void find_cell_ranges(const CellRangeArgs& args, cudaStream_t stream);
// After find_cell_ranges: where each cell's slabs end (cell_grid.h).
void find_cell_splits(const CellSplitArgs& args, cudaStream_t stream);
// For each of `bound_count` sorted cell bounds, the first of `count` particles (sorted by cell)
// whose cell is not below it.
void lower_bounds(const std::uint32_t* cell, std::uint32_t count, const std::uint32_t* bounds,
                  std::uint32_t bound_count, std::uint32_t* result, cudaStream_t stream);
// The lists of particles [begin, end), warp by warp, into a list whose blocks may fill
// `pool_rows` rows; what it found goes into *counts, which must start at zero.
void build_neighbour_lists(const NeighbourArgs& args, std::uint32_t begin, std::uint32_t end,
                           std::uint64_t pool_rows, ListBuildCounts* counts, cudaStream_t stream);
void forces(const ForcesArgs& args, std::uint32_t begin, std::uint32_t end, cudaStream_t stream);
// The mDBC density of the boundary particles among [begin, end).
void mdbc_densities(const MdbcArgs& args, std::uint32_t begin, std::uint32_t end,
                    cudaStream_t stream);
// The particles among [begin, end) with a ghost node (mDBC's fitted walls), in order, into
// walls[0, *count) (count in device memory); temp holds at least select_temp_bytes(end - begin).
std::size_t select_temp_bytes(std::uint32_t capacity);
void select_ghost_walls(const MdbcArgs& args, std::uint32_t begin, std::uint32_t end,
                        std::uint32_t* walls, std::uint32_t* count, void* temp,
                        std::size_t temp_bytes, cudaStream_t stream);
// The mDBC density of walls[0, count) (select_ghost_walls).
void mdbc_densities_of(const MdbcArgs& args, const std::uint32_t* walls, std::uint32_t count,
                       cudaStream_t stream);
std::size_t minimum_temp_bytes(std::uint32_t capacity);
// Writes min(dt_max[begin, end)) into *result, NaN if any element is NaN.
void minimum_dt(const float* dt_max, std::uint32_t begin, std::uint32_t end, float* result,
                void* temp, std::size_t temp_bytes, cudaStream_t stream);

// Where store_minimum writes a device's dt minimum: other devices' slots that this GPU's kernels
// can store into (its own memory, or a peer's with peer access on).
struct MinimumTargets {
    static constexpr int kMax = 16;
    float* to[kMax];
    int count;
};
// Copies *from into each target, with a kernel: a peer copy of four bytes takes the copy engine
// several microseconds longer, on the path from one device's Forces to every device's Euler.
void store_minimum(const float* from, const MinimumTargets& targets, cudaStream_t stream);

// Euler with the dt of `dt` (step_dt.h: euler_dt); nothing where that dt is unusable.
void euler_predictor(const EulerArgs& args, const EulerDt& dt, std::uint32_t begin,
                     std::uint32_t end, cudaStream_t stream);
void euler_corrector(const EulerArgs& args, const EulerDt& dt, const DampingZones& damping,
                     std::uint32_t begin, std::uint32_t end, cudaStream_t stream);

}  // namespace sph::cuda
