#include "cuda/instrument_launchers.h"

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cuda/cuda_check.h"
#include "cuda/launch_shape.h"

namespace sph::cuda {

namespace {

// Floats as unsigned integers in the same order (every float but NaN; keys are never NaN).
__host__ __device__ std::uint32_t ordered(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) != 0 ? ~u : (u | 0x80000000u);
}

__host__ __device__ float unordered(std::uint32_t bits) {
    const std::uint32_t u = (bits & 0x80000000u) != 0 ? (bits & 0x7fffffffu) : ~bits;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// One thread per (site, cell around it): a site's walk would otherwise be one thread's serial
// loop over some 700 particles, and a few hundred sites do not fill a GPU.
__global__ void site_cell_sums_kernel(InstrumentArgs args, const InstrumentSite* sites,
                                      SiteSums* cell_sums, std::uint32_t count) {
    const std::uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n < count * kCellsAround) {
        cell_sums[n] = site_cell_sums(sites[n / kCellsAround], int(n % kCellsAround), args);
    }
}

__global__ void add_cell_sums_kernel(const SiteSums* cell_sums, SiteSums* planes,
                                     std::uint32_t count) {
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < count) {
        add_cell_sums(cell_sums + std::size_t(k) * kCellsAround,
                      planes + std::size_t(k) * kCellPlanes);
    }
}

struct FloatMin {
    __device__ float operator()(float a, float b) const { return b < a ? b : a; }
};

// How far behind which lead a pass examines particles' neighbours (instruments_body.h: any
// limit gives the exact front whenever a qualifying particle lies within it).
enum class FrontPass {
    kPreviousSlab,  // behind the previous measurement's lead, finding the lead as well
    kSlab,          // behind the lead the first pass found
    kEverywhere,
};

// Starts a measurement's minima: the lead found last time becomes the previous one.
__global__ void reset_minima_kernel(FrontMinima* minima) {
    if (unordered(minima->lead) < INFINITY) minima->previous = minima->lead;
    minima->lead = ordered(INFINITY);
    minima->key = ordered(INFINITY);
    minima->search = 1;
}

// Whether the next, wider pass runs: a lead but no key yet. Read by every block of that pass,
// which could not decide it itself (its blocks lower the key as they go).
__global__ void decide_search_kernel(FrontMinima* minima) {
    minima->search = unordered(minima->key) == INFINITY && unordered(minima->lead) < INFINITY;
}

constexpr unsigned kFrontBlock = 128;
constexpr unsigned kWarpsPerFrontBlock = kFrontBlock / 32;

// A warp per band cell (a cell holds some 10 to 40 particles: the warp reads them side by side),
// each thread keeping its smallest keys; then one reduction and one atomicMin per block and key.
__global__ void front_cells_kernel(InstrumentArgs args, FrontSpec front, BandCells band,
                                   FrontMinima* minima, FrontPass pass) {
    if (minima->search == 0) return;  // the same for every thread of the grid
    using Reduce = cub::BlockReduce<float, kFrontBlock>;
    __shared__ typename Reduce::TempStorage temp;
    const float limit = pass == FrontPass::kEverywhere ? INFINITY
                        : pass == FrontPass::kSlab     ? unordered(minima->lead) + front.slab
                                                       : unordered(minima->previous) + front.slab;
    const unsigned lane = threadIdx.x % 32;
    const std::uint32_t warps = gridDim.x * kWarpsPerFrontBlock;
    float lead = INFINITY, key = INFINITY;
    for (std::uint32_t b = blockIdx.x * kWarpsPerFrontBlock + threadIdx.x / 32; b < band.total;
         b += warps) {
        const std::uint32_t rest = b / std::uint32_t(band.count[0]);
        const std::uint32_t cell =
            std::uint32_t(band.lo[0] + int(b % std::uint32_t(band.count[0]))) *
                args.grid.stride[0] +
            std::uint32_t(band.lo[1] + int(rest % std::uint32_t(band.count[1]))) *
                args.grid.stride[1] +
            std::uint32_t(band.lo[2] + int(rest / std::uint32_t(band.count[1]))) *
                args.grid.stride[2];
        const std::uint32_t start = args.cell_start[cell];
        if (start == kEmptyCell) continue;
        const std::uint32_t first = max(start, args.owned_begin);
        const std::uint32_t end = min(args.cell_end[cell], args.owned_end);
        for (std::uint32_t i = first + lane; i < end; i += 32) {
            const float banded = banded_key(i, args, front);
            lead = fminf(lead, banded);
            key = fminf(key, front_key_of(i, banded, args, front, limit));
        }
    }
    if (pass == FrontPass::kPreviousSlab) {
        const float least_lead = Reduce(temp).Reduce(lead, FloatMin());
        if (threadIdx.x == 0 && least_lead < INFINITY) {
            atomicMin(&minima->lead, ordered(least_lead));
        }
        __syncthreads();  // the temporary storage is used again
    }
    const float least = Reduce(temp).Reduce(key, FloatMin());
    if (threadIdx.x == 0 && least < INFINITY) atomicMin(&minima->key, ordered(least));
}

}  // namespace

void site_sums(const InstrumentArgs& args, const InstrumentSite* sites, SiteSums* cell_sums,
               SiteSums* planes, std::uint32_t count, cudaStream_t stream) {
    if (count == 0) return;
    const std::uint32_t cells = count * kCellsAround;
    site_cell_sums_kernel<<<blocks_for(cells, kBlock), kBlock, 0, stream>>>(args, sites, cell_sums,
                                                                            count);
    SPH_CUDA_CHECK_LAUNCH("site_cell_sums_kernel");
    add_cell_sums_kernel<<<blocks_for(count, kBlock), kBlock, 0, stream>>>(cell_sums, planes,
                                                                           count);
    SPH_CUDA_CHECK_LAUNCH("add_cell_sums_kernel");
}

float from_ordered(std::uint32_t bits) {
    return unordered(bits);
}

FrontMinima initial_front_minima() {
    return FrontMinima{ordered(INFINITY), ordered(INFINITY), ordered(-INFINITY), 0};
}

BandCells band_cells(const CellGrid& grid, const FrontSpec& front) {
    BandCells band{};
    for (int axis = 0; axis < 2; ++axis) band.count[axis] = grid.dims[axis];
    const int top = grid.dims[2] - 1;
    band.lo[2] = std::clamp(grid.coordinate(front.floor, 2) - 1, 0, top);
    const int hi = std::clamp(grid.coordinate(front.top, 2) + 1, 0, top);
    band.count[2] = hi >= band.lo[2] ? hi - band.lo[2] + 1 : 0;
    band.total =
        std::uint32_t(band.count[0]) * std::uint32_t(band.count[1]) * std::uint32_t(band.count[2]);
    return band;
}

void front_minima(const InstrumentArgs& args, const FrontSpec& front, FrontMinima* minima,
                  cudaStream_t stream) {
    reset_minima_kernel<<<1, 1, 0, stream>>>(minima);
    SPH_CUDA_CHECK_LAUNCH("reset_minima_kernel");
    const BandCells band = band_cells(args.grid, front);
    if (band.total == 0 || args.owned_end <= args.owned_begin) return;
    // Enough blocks to fill the GPU a few times over; each warp then takes several cells.
    const unsigned blocks = std::min(blocks_for(band.total, kWarpsPerFrontBlock), 2048u);
    for (FrontPass pass : {FrontPass::kPreviousSlab, FrontPass::kSlab, FrontPass::kEverywhere}) {
        if (pass != FrontPass::kPreviousSlab) {
            decide_search_kernel<<<1, 1, 0, stream>>>(minima);
            SPH_CUDA_CHECK_LAUNCH("decide_search_kernel");
        }
        front_cells_kernel<<<blocks, kFrontBlock, 0, stream>>>(args, front, band, minima, pass);
        SPH_CUDA_CHECK_LAUNCH("front_cells_kernel");
    }
}

namespace {

__global__ void hold_kernel(std::uint32_t microseconds) {
    for (std::uint32_t t = 0; t < microseconds; ++t) __nanosleep(1000);
}

}  // namespace

void hold(std::uint32_t microseconds, cudaStream_t stream) {
    hold_kernel<<<1, 1, 0, stream>>>(microseconds);
    SPH_CUDA_CHECK_LAUNCH("hold_kernel");
}

}  // namespace sph::cuda
