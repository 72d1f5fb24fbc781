// CUDA kernels: one thread per particle, each calling the shared per-particle body.
#include "cuda/cuda_launchers.h"

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include <cmath>
#include <limits>

#include "build_neibs_body.h"
#include "cuda/cuda_check.h"
#include "cuda/launch_shape.h"
#include "euler_body.h"
#include "forces_body.h"
#include "mdbc_body.h"
#include "step_dt.h"

namespace sph::cuda {

namespace {

__global__ void hash_kernel(HashArgs args, std::uint32_t count) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) hash_particle(i, args);
}

__global__ void gather_kernel(GatherArgs args, std::uint32_t count) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) gather_particle(i, args);
}

__global__ void cell_kernel(CellArgs args, std::uint32_t count) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) assign_cell(i, args);
}

__global__ void lower_bound_kernel(const std::uint32_t* cell, std::uint32_t count,
                                   const std::uint32_t* bounds, std::uint32_t bound_count,
                                   std::uint32_t* result) {
    const std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= bound_count) return;
    std::uint32_t lo = 0, hi = count;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (cell[mid] < bounds[b])
            lo = mid + 1;
        else
            hi = mid;
    }
    result[b] = lo;
}

__global__ void cell_range_kernel(CellRangeArgs args) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < args.count) find_cell_range(i, args);
}

__global__ void cell_split_kernel(CellSplitArgs args) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < args.count) find_cell_split(i, args);
}

// Each thread stages its particle's list in shared memory (`stage`: list_groups(max_neighbours)
// groups a thread, group g of thread t at g * kListBlock + t); once the block's lists are done,
// one atomic addition takes the rows of its list warps, and each warp copies its lists there.
// Blocks start at a multiple of kListWarp, so that a list warp is one warp of one block.
//
// Candidates are read from the particle array, through L1. (Until the list was kept warp by warp,
// a block copied the rows of cells it needed into a 32 KB shared-memory tile first; with the
// stage beside it a block took 49 KB, four an SM, and the build ran 23 % slower than without the
// tile at twelve: bench/NOTES.md, entry 14.)
__global__ void __launch_bounds__(kListBlock)
    neighbour_list_kernel(NeighbourArgs args, std::uint32_t begin, std::uint32_t end,
                          std::uint64_t pool_rows, ListBuildCounts* counts) {
    __shared__ std::uint32_t warp_height[kListBlock / kListWarp];
    __shared__ unsigned long long block_row;
    extern __shared__ NeighbourGroup stage[];
    const std::uint32_t base = begin / kListWarp * kListWarp + blockIdx.x * blockDim.x;
    const std::uint32_t i = base + threadIdx.x;
    const ListStage mine{stage + threadIdx.x, kListBlock};
    std::uint32_t count = 0, used = 0;
    if (i >= begin && i < end) {
        count = build_neighbour_list(i, args, mine);
        used = groups_used(count, args.max_neighbours);
    }
    const std::uint32_t warp = threadIdx.x / kListWarp, lane = threadIdx.x % kListWarp;
    const std::uint32_t warp_max = __reduce_max_sync(0xFFFFFFFFu, count);
    if (lane == 0 && warp_max > 0) atomicMax(&counts->largest, warp_max);
    const std::uint32_t height = __reduce_max_sync(0xFFFFFFFFu, used);
    if (lane == 0) warp_height[warp] = height;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long rows = 0;
        for (std::uint32_t w = 0; w < blockDim.x / kListWarp; ++w) rows += warp_height[w];
        block_row = atomicAdd(&counts->rows, rows);
    }
    __syncthreads();
    unsigned long long row = block_row;
    for (std::uint32_t w = 0; w < warp; ++w) row += warp_height[w];
    // A warp wholly past the end has no lists; past the pool, the host builds again.
    if (base + warp * kListWarp >= end || row + height > pool_rows) return;
    place_list_warp(args, i / kListWarp, std::uint32_t(row), lane, used,
                    [&](std::uint32_t) { return mine; });
}

// The kernels that walk neighbour lists keep the cell steps in shared memory: threads of a warp
// look up different codes at once, which the constant cache would serve one address at a time.
// Every thread of the block must call this (it synchronises the block).
__device__ void load_cell_steps(const CellGrid& grid, std::int32_t* cell_step) {
    if (threadIdx.x < kNeighbourCells) {
        cell_step[threadIdx.x] = neighbour_cell_delta(grid, int(threadIdx.x));
    }
    __syncthreads();
}

__global__ void forces_kernel(ForcesArgs args, std::uint32_t begin, std::uint32_t end) {
    __shared__ std::int32_t cell_step[kNeighbourCells];
    load_cell_steps(args.grid, cell_step);
    const std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < end) compute_forces(i, args, ListedNeighbours<ForcesArgs>{args, cell_step});
}

// --neighbours cells: no list; each thread walks the cells around its particle. Seven blocks an
// SM: left to itself the compiler takes 75 registers, six blocks, and runs 3 % slower
// (bench/NOTES.md entry 19).
__global__ void __launch_bounds__(kForcesBlock, 7)
    forces_from_cells_kernel(ForcesArgs args, std::uint32_t begin, std::uint32_t end) {
    const std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < end) compute_forces(i, args, cell_neighbours(args));
}

__global__ void mdbc_kernel(MdbcArgs args, std::uint32_t begin, std::uint32_t end) {
    __shared__ std::int32_t cell_step[kNeighbourCells];
    load_cell_steps(args.grid, cell_step);
    const std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < end) mdbc_density(i, args, cell_step);
}

// A thread per fitted wall (select_ghost_walls): with a thread per particle, three lanes in four
// of a warp held fluid and idled while the fourth fitted its wall.
__global__ void mdbc_walls_kernel(MdbcArgs args, const std::uint32_t* walls, std::uint32_t count) {
    __shared__ std::int32_t cell_step[kNeighbourCells];
    load_cell_steps(args.grid, cell_step);
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) mdbc_density(walls[k], args, cell_step);
}

struct HasGhostNode {
    MdbcArgs args;
    __device__ bool operator()(std::uint32_t i) const { return has_ghost_node(i, args); }
};

__global__ void store_minimum_kernel(const float* from, MinimumTargets targets) {
    if (int(threadIdx.x) < targets.count) targets.to[threadIdx.x][0] = *from;
    __threadfence_system();  // visible to the other GPUs once they have waited for this stream
}

// Each thread takes the step's dt from the minima in the GPU's memory (step_dt.h), so that the
// host need not learn it before Euler is launched.
__global__ void predictor_kernel(EulerArgs args, EulerDt dt, std::uint32_t begin,
                                 std::uint32_t end) {
    const std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    const StepDt step = euler_dt(dt);
    if (i >= end || !step.usable) return;
    args.dt = step.dt;
    args.time = dt.clock.time;
    euler_predictor(i, args);
}

// Damped: with the damping zones (damping_zone.h); else without them, as if none were there.
template <bool kDamped>
__global__ void corrector_kernel(EulerArgs args, EulerDt dt, DampingZones damping,
                                 std::uint32_t begin, std::uint32_t end) {
    const std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    const StepDt step = euler_dt(dt);
    if (i >= end || !step.usable) return;
    args.dt = step.dt;
    args.time = dt.clock.time;
    if (kDamped) {
        euler_corrector(i, args, damping);
    } else {
        euler_corrector(i, args);
    }
}

// min() that lets a NaN through, so one blown-up particle cannot hide behind the others.
struct NanPropagatingMin {
    __host__ __device__ float operator()(float a, float b) const { return min_keep_nan(a, b); }
};

}  // namespace

void throw_cuda_error(cudaError_t status, const char* expression, const char* file, int line) {
    throw CudaError(std::string("CUDA error in ") + expression + ": " + cudaGetErrorString(status) +
                    " (" + file + ":" + std::to_string(line) + ")");
}

void hash(const HashArgs& args, std::uint32_t count, cudaStream_t stream) {
    if (count == 0) return;
    hash_kernel<<<blocks_for(count, kBlock), kBlock, 0, stream>>>(args, count);
    SPH_CUDA_CHECK_LAUNCH("hash_kernel");
}

std::size_t sort_temp_bytes(std::uint32_t capacity) {
    std::size_t bytes = 0;
    cub::DoubleBuffer<std::uint64_t> keys(nullptr, nullptr);
    cub::DoubleBuffer<std::uint32_t> values(nullptr, nullptr);
    SPH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, capacity));
    return bytes;
}

void sort_by_key(std::uint64_t* keys[2], std::uint32_t* permutation[2], int& current,
                 std::uint32_t count, int key_bits, void* temp, std::size_t temp_bytes,
                 cudaStream_t stream) {
    cub::DoubleBuffer<std::uint64_t> key_buffer(keys[current], keys[1 - current]);
    cub::DoubleBuffer<std::uint32_t> value_buffer(permutation[current], permutation[1 - current]);
    SPH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, key_buffer, value_buffer,
                                                   count, 0, key_bits, stream));
    current = key_buffer.Current() == keys[0] ? 0 : 1;
}

void gather(const GatherArgs& args, std::uint32_t count, cudaStream_t stream) {
    if (count == 0) return;
    gather_kernel<<<blocks_for(count, kBlock), kBlock, 0, stream>>>(args, count);
    SPH_CUDA_CHECK_LAUNCH("gather_kernel");
}

void assign_cells(const CellArgs& args, std::uint32_t count, cudaStream_t stream) {
    if (count == 0) return;
    cell_kernel<<<blocks_for(count, kBlock), kBlock, 0, stream>>>(args, count);
    SPH_CUDA_CHECK_LAUNCH("cell_kernel");
}

void lower_bounds(const std::uint32_t* cell, std::uint32_t count, const std::uint32_t* bounds,
                  std::uint32_t bound_count, std::uint32_t* result, cudaStream_t stream) {
    if (bound_count == 0) return;
    lower_bound_kernel<<<blocks_for(bound_count, kBlock), kBlock, 0, stream>>>(cell, count, bounds,
                                                                               bound_count, result);
    SPH_CUDA_CHECK_LAUNCH("lower_bound_kernel");
}

void find_cell_ranges(const CellRangeArgs& args, cudaStream_t stream) {
    if (args.count == 0) return;
    cell_range_kernel<<<blocks_for(args.count, kBlock), kBlock, 0, stream>>>(args);
    SPH_CUDA_CHECK_LAUNCH("cell_range_kernel");
}

void find_cell_splits(const CellSplitArgs& args, cudaStream_t stream) {
    if (args.count == 0) return;
    cell_split_kernel<<<blocks_for(args.count, kBlock), kBlock, 0, stream>>>(args);
    SPH_CUDA_CHECK_LAUNCH("cell_split_kernel");
}

void build_neighbour_lists(const NeighbourArgs& args, std::uint32_t begin, std::uint32_t end,
                           std::uint64_t pool_rows, ListBuildCounts* counts, cudaStream_t stream) {
    if (end <= begin) return;
    const std::size_t stage_bytes =
        std::size_t(kListBlock) * list_groups(args.max_neighbours) * sizeof(NeighbourGroup);
    // Past 48 KB of shared memory a block needs the kernel's consent (from --max-neighbours 376).
    SPH_CUDA_CHECK(cudaFuncSetAttribute(
        neighbour_list_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(stage_bytes)));
    const std::uint32_t first = begin / kListWarp * kListWarp;
    neighbour_list_kernel<<<blocks_for(end - first, kListBlock), kListBlock, stage_bytes, stream>>>(
        args, begin, end, pool_rows, counts);
    SPH_CUDA_CHECK_LAUNCH("neighbour_list_kernel");
}

void forces(const ForcesArgs& args, std::uint32_t begin, std::uint32_t end, cudaStream_t stream) {
    if (end <= begin) return;
    const unsigned blocks = blocks_for(end - begin, kForcesBlock);
    if (args.list == nullptr) {
        forces_from_cells_kernel<<<blocks, kForcesBlock, 0, stream>>>(args, begin, end);
        SPH_CUDA_CHECK_LAUNCH("forces_from_cells_kernel");
        return;
    }
    forces_kernel<<<blocks, kForcesBlock, 0, stream>>>(args, begin, end);
    SPH_CUDA_CHECK_LAUNCH("forces_kernel");
}

void mdbc_densities(const MdbcArgs& args, std::uint32_t begin, std::uint32_t end,
                    cudaStream_t stream) {
    if (end <= begin) return;
    mdbc_kernel<<<blocks_for(end - begin, kForcesBlock), kForcesBlock, 0, stream>>>(args, begin,
                                                                                    end);
    SPH_CUDA_CHECK_LAUNCH("mdbc_kernel");
}

std::size_t select_temp_bytes(std::uint32_t capacity) {
    std::size_t bytes = 0;
    SPH_CUDA_CHECK(
        cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<std::uint32_t>(0),
                              static_cast<std::uint32_t*>(nullptr),
                              static_cast<std::uint32_t*>(nullptr), capacity, HasGhostNode{}));
    return bytes;
}

void select_ghost_walls(const MdbcArgs& args, std::uint32_t begin, std::uint32_t end,
                        std::uint32_t* walls, std::uint32_t* count, void* temp,
                        std::size_t temp_bytes, cudaStream_t stream) {
    SPH_CUDA_CHECK(cub::DeviceSelect::If(temp, temp_bytes,
                                         thrust::counting_iterator<std::uint32_t>(begin), walls,
                                         count, end - begin, HasGhostNode{args}, stream));
}

void mdbc_densities_of(const MdbcArgs& args, const std::uint32_t* walls, std::uint32_t count,
                       cudaStream_t stream) {
    if (count == 0) return;
    mdbc_walls_kernel<<<blocks_for(count, kForcesBlock), kForcesBlock, 0, stream>>>(args, walls,
                                                                                    count);
    SPH_CUDA_CHECK_LAUNCH("mdbc_walls_kernel");
}

std::size_t minimum_temp_bytes(std::uint32_t capacity) {
    std::size_t bytes = 0;
    SPH_CUDA_CHECK(cub::DeviceReduce::Reduce(
        nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr), capacity,
        NanPropagatingMin(), std::numeric_limits<float>::infinity()));
    return bytes;
}

void minimum_dt(const float* dt_max, std::uint32_t begin, std::uint32_t end, float* result,
                void* temp, std::size_t temp_bytes, cudaStream_t stream) {
    SPH_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, temp_bytes, dt_max + begin, result, end - begin,
                                             NanPropagatingMin(),
                                             std::numeric_limits<float>::infinity(), stream));
}

void store_minimum(const float* from, const MinimumTargets& targets, cudaStream_t stream) {
    if (targets.count <= 0) return;
    store_minimum_kernel<<<1, 32, 0, stream>>>(from, targets);
    SPH_CUDA_CHECK_LAUNCH("store_minimum_kernel");
}

void euler_predictor(const EulerArgs& args, const EulerDt& dt, std::uint32_t begin,
                     std::uint32_t end, cudaStream_t stream) {
    if (end <= begin) return;
    predictor_kernel<<<blocks_for(end - begin, kBlock), kBlock, 0, stream>>>(args, dt, begin, end);
    SPH_CUDA_CHECK_LAUNCH("predictor_kernel");
}

void euler_corrector(const EulerArgs& args, const EulerDt& dt, const DampingZones& damping,
                     std::uint32_t begin, std::uint32_t end, cudaStream_t stream) {
    if (end <= begin) return;
    const unsigned blocks = blocks_for(end - begin, kBlock);
    if (damping.count > 0) {
        corrector_kernel<true><<<blocks, kBlock, 0, stream>>>(args, dt, damping, begin, end);
    } else {
        corrector_kernel<false><<<blocks, kBlock, 0, stream>>>(args, dt, damping, begin, end);
    }
    SPH_CUDA_CHECK_LAUNCH("corrector_kernel");
}

}  // namespace sph::cuda
