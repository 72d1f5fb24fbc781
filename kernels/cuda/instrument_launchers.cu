#include "cuda/instrument_launchers.h"

#include <cub/block/block_reduce.cuh>

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

// Starts a measurement's minima: the lead found last time becomes the previous one.
__global__ void reset_minima_kernel(FrontMinima* minima, FrontPass pass) {
    if (pass == FrontPass::kPreviousSlab) {
        if (unordered(minima->lead) < INFINITY) minima->previous = minima->lead;
        minima->lead = ordered(INFINITY);
    }
    minima->key = ordered(INFINITY);
}

// Each block's smallest keys, then one atomicMin per block and key.
__global__ void minimum_kernel(InstrumentArgs args, FrontSpec front, FrontMinima* minima,
                               FrontPass pass, std::uint32_t begin, std::uint32_t end) {
    using Reduce = cub::BlockReduce<float, kBlock>;
    __shared__ typename Reduce::TempStorage temp;
    const std::uint32_t i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    const float limit = pass == FrontPass::kEverywhere ? INFINITY
                        : pass == FrontPass::kSlab     ? unordered(minima->lead) + front.slab
                                                       : unordered(minima->previous) + front.slab;
    float banded = INFINITY, key = INFINITY;
    if (i < end) {
        banded = banded_key(i, args, front);
        key = front_key_of(i, banded, args, front, limit);
    }
    if (pass == FrontPass::kPreviousSlab) {
        const float lead = Reduce(temp).Reduce(banded, FloatMin());
        if (threadIdx.x == 0 && lead < INFINITY) atomicMin(&minima->lead, ordered(lead));
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
    return FrontMinima{ordered(INFINITY), ordered(INFINITY), ordered(-INFINITY)};
}

void front_minima(const InstrumentArgs& args, const FrontSpec& front, FrontPass pass,
                  FrontMinima* minima, std::uint32_t begin, std::uint32_t end,
                  cudaStream_t stream) {
    reset_minima_kernel<<<1, 1, 0, stream>>>(minima, pass);
    SPH_CUDA_CHECK_LAUNCH("reset_minima_kernel");
    if (end <= begin) return;
    minimum_kernel<<<blocks_for(end - begin, kBlock), kBlock, 0, stream>>>(args, front, minima,
                                                                           pass, begin, end);
    SPH_CUDA_CHECK_LAUNCH("minimum_kernel");
}

}  // namespace sph::cuda
