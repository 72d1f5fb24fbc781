#include "cuda/body_launchers.h"

#include "cuda/cuda_check.h"
#include "cuda/launch_shape.h"

namespace sph::cuda {

namespace {

__global__ void body_loads_kernel(InstrumentArgs args, const FixedPos* moment_points,
                                  std::uint64_t floating, unsigned long long* sums) {
    const std::uint32_t i = args.owned_begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= args.owned_end) return;
    const ParticleLoad load = body_particle_load(i, args, moment_points, floating);
    if (load.body < 0) return;
    for (int k = 0; k < kBodyLoadSums; ++k) {
        atomicAdd(&sums[load.body * kBodyLoadSums + k],
                  static_cast<unsigned long long>(load.sums[k]));
    }
}

constexpr unsigned kBodyBlock = 128;

}  // namespace

void body_loads(const InstrumentArgs& args, const FixedPos* moment_points, std::uint64_t floating,
                unsigned long long* sums, cudaStream_t stream) {
    if (args.owned_end <= args.owned_begin) return;
    body_loads_kernel<<<blocks_for(args.owned_end - args.owned_begin, kBodyBlock), kBodyBlock, 0,
                        stream>>>(args, moment_points, floating, sums);
    SPH_CUDA_CHECK_LAUNCH("body_loads_kernel");
}

}  // namespace sph::cuda
