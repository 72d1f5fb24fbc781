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

// A warp per site and a lane per cell around it: a site's walk would otherwise be one thread's
// serial loop over some 700 particles, and a few hundred sites do not fill a GPU. The lanes that
// begin a plane (0, 9, 18) then add its cells' sums in cell order, as add_cell_sums does.
constexpr unsigned kSiteBlock = 128;
static_assert(kCellsAround <= 32 && kCellsAround % kCellPlanes == 0, "a warp holds a site's cells");

__global__ void site_sums_kernel(InstrumentArgs args, const InstrumentSite* sites, SiteSums* planes,
                                 std::uint32_t count) {
    const std::uint32_t site = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (site >= count) return;  // the whole warp: a warp is one site
    const int lane = int(threadIdx.x % 32);
    SiteSums cell{0.0f, 0.0f};
    if (lane < kCellsAround) cell = site_cell_sums(sites[site], lane, args);
    constexpr int kCellsPerPlane = kCellsAround / kCellPlanes;
    const int first = lane - lane % kCellsPerPlane;  // the first cell of this lane's plane
    SiteSums plane{0.0f, 0.0f};
    for (int k = 0; k < kCellsPerPlane; ++k) {
        // Lanes past the last plane read whatever wraps around; they write nothing.
        plane.weight += __shfl_sync(0xffffffffu, cell.weight, (first + k) % 32);
        plane.pressure += __shfl_sync(0xffffffffu, cell.pressure, (first + k) % 32);
    }
    if (lane < kCellsAround && lane == first) {
        planes[std::size_t(site) * kCellPlanes + std::size_t(lane / kCellsPerPlane)] = plane;
    }
}

struct FloatMin {
    __device__ float operator()(float a, float b) const { return b < a ? b : a; }
};

// How far behind which lead a pass examines particles' neighbours (instruments_body.h: any
// limit gives the exact front whenever a qualifying particle lies within it).
enum class FrontPass {
    kPreviousSlab,  // behind the previous measurement's lead, finding the lead as well
    kSlab,          // behind the lead the first pass found, if that found no key
    kEverywhere,    // if neither found one
};

constexpr unsigned kFrontBlock = 128;
constexpr unsigned kWarpsPerFrontBlock = kFrontBlock / 32;
constexpr std::uint32_t kNoKey = 0xff800000u;  // ordered(+infinity)

// Where a pass of the front's kernel examines particles' neighbours up to (limit), or false where
// the pass has nothing to do: a key was found by the passes before it, or no lead. The first pass
// also carries the lead it searches behind into this measurement's slot; the last clears the
// other slot for the next measurement. Every block decides alike (see front_runs_kernel).
__device__ __forceinline__ bool front_pass_limit(const FrontSpec& front, FrontState* state,
                                                 int slot, FrontPass pass, float& limit) {
    FrontMinima& now = state->slot[slot];
    const FrontMinima& before = state->slot[1 - slot];
    if (pass == FrontPass::kPreviousSlab) {
        const std::uint32_t previous =
            unordered(before.lead) < INFINITY ? before.lead : before.previous;
        if (blockIdx.x == 0 && threadIdx.x == 0) now.previous = previous;
        limit = unordered(previous) + front.slab;
    } else {
        if (pass == FrontPass::kEverywhere && blockIdx.x == 0 && threadIdx.x == 0) {
            // The last pass of this measurement: nothing reads the other slot any more, and
            // the next measurement fills it.
            FrontMinima& next = state->slot[1 - slot];
            next.lead = kNoKey;
            for (std::uint32_t& k : next.key) k = kNoKey;
        }
        const bool found =
            now.key[0] != kNoKey || (pass == FrontPass::kEverywhere && now.key[1] != kNoKey);
        if (found || !(unordered(now.lead) < INFINITY)) return false;
        if (pass == FrontPass::kSlab) limit = unordered(now.lead) + front.slab;
    }
    return true;
}

// The particles of the run of `length` cells from `first_cell` on, [begin, end) of the owned ones,
// found by the warp's lanes together: from its first occupied cell's start to its last one's end.
__device__ __forceinline__ void run_particles(const InstrumentArgs& args, std::uint32_t first_cell,
                                              std::uint32_t length, unsigned lane,
                                              std::uint32_t& begin, std::uint32_t& end) {
    begin = kEmptyCell;
    end = 0;
    for (std::uint32_t c = lane; c < length; c += 32) {
        const std::uint32_t start = args.cell_start[first_cell + c];
        if (start != kEmptyCell) {
            begin = min(begin, start);
            end = max(end, args.cell_end[first_cell + c]);
        }
    }
    begin = max(__reduce_min_sync(0xffffffffu, begin), args.owned_begin);
    end = min(__reduce_max_sync(0xffffffffu, end), args.owned_end);
}

// A warp per run of the band's cells along the grid's least significant axis (stride 1): the
// particles sorted into a run's cells are one contiguous range, whose ends the lanes find
// together, so that the warp then reads them side by side in one loop where a walk cell by cell
// waited on each cell's range in turn (DamBreak's first pass at 4.19 M particles on an H200:
// 60-70 us against 67-77 us). Each thread keeps its smallest keys; then one reduction and one
// atomicMin per block and key. Whether a pass runs is read from what the passes before it left,
// which no block of this pass changes: every block decides alike.
__global__ void front_runs_kernel(InstrumentArgs args, FrontSpec front, BandCells band,
                                  FrontState* state, int slot, FrontPass pass) {
    float limit = INFINITY;
    if (!front_pass_limit(front, state, slot, pass, limit)) return;
    FrontMinima& now = state->slot[slot];
    using Reduce = cub::BlockReduce<float, kFrontBlock>;
    __shared__ typename Reduce::TempStorage temp;
    const unsigned lane = threadIdx.x % 32;
    const std::uint32_t warps = gridDim.x * kWarpsPerFrontBlock;
    const int along = args.grid.order[2], outer = args.grid.order[0], inner = args.grid.order[1];
    const std::uint32_t length = std::uint32_t(band.count[along]);
    const std::uint32_t runs = band.total / length;
    float lead = INFINITY, key = INFINITY;
    for (std::uint32_t r = blockIdx.x * kWarpsPerFrontBlock + threadIdx.x / 32; r < runs;
         r += warps) {
        const std::uint32_t first_cell =
            std::uint32_t(band.lo[outer] + int(r / std::uint32_t(band.count[inner]))) *
                args.grid.stride[outer] +
            std::uint32_t(band.lo[inner] + int(r % std::uint32_t(band.count[inner]))) *
                args.grid.stride[inner] +
            std::uint32_t(band.lo[along]);
        std::uint32_t begin, end;
        run_particles(args, first_cell, length, lane, begin, end);
        for (std::uint32_t i = begin + lane; i < end; i += 32) {
            const float banded = banded_key(i, args, front);
            lead = fminf(lead, banded);
            key = fminf(key, front_key_of(i, banded, args, front, limit));
        }
    }
    if (pass == FrontPass::kPreviousSlab) {
        const float least_lead = Reduce(temp).Reduce(lead, FloatMin());
        if (threadIdx.x == 0 && least_lead < INFINITY) atomicMin(&now.lead, ordered(least_lead));
        __syncthreads();  // the temporary storage is used again
    }
    const float least = Reduce(temp).Reduce(key, FloatMin());
    if (threadIdx.x == 0 && least < INFINITY) {
        atomicMin(&now.key[static_cast<int>(pass)], ordered(least));
    }
}

}  // namespace

void site_sums(const InstrumentArgs& args, const InstrumentSite* sites, SiteSums* planes,
               std::uint32_t count, cudaStream_t stream) {
    if (count == 0) return;
    site_sums_kernel<<<blocks_for(count * 32u, kSiteBlock), kSiteBlock, 0, stream>>>(args, sites,
                                                                                     planes, count);
    SPH_CUDA_CHECK_LAUNCH("site_sums_kernel");
}

float found_front_key(const FrontMinima& minima) {
    // A pass runs only where those before it found no key: the smallest is the one found.
    return std::min({unordered(minima.key[0]), unordered(minima.key[1]), unordered(minima.key[2])});
}

FrontState initial_front_state() {
    const FrontMinima clear{kNoKey, ordered(-INFINITY), {kNoKey, kNoKey, kNoKey}};
    return FrontState{{clear, clear}};
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

void front_minima(const InstrumentArgs& args, const FrontSpec& front, FrontState* state, int slot,
                  cudaStream_t stream) {
    BandCells band = band_cells(args.grid, front);
    // A warp a run of cells, up to enough blocks to fill the GPU a few times over. An empty band
    // still runs the passes: the last one clears the other slot.
    const bool none = band.total == 0 || args.owned_end <= args.owned_begin;
    const std::uint32_t runs =
        none ? 0 : band.total / std::uint32_t(band.count[args.grid.order[2]]);
    const unsigned blocks = none ? 1u : std::min(blocks_for(runs, kWarpsPerFrontBlock), 2048u);
    if (none) band.total = 0;
    for (FrontPass pass : {FrontPass::kPreviousSlab, FrontPass::kSlab, FrontPass::kEverywhere}) {
        front_runs_kernel<<<blocks, kFrontBlock, 0, stream>>>(args, front, band, state, slot, pass);
        SPH_CUDA_CHECK_LAUNCH("front_runs_kernel");
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
