// CUDA launcher of the loads on moving bodies (body_loads_body.h), for Device::body_loads.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "body_loads_body.h"

namespace sph::cuda {

// Adds the loads of the particles [args.owned_begin, args.owned_end) into `sums`
// (kBodyLoadSums per body, device memory) with integer atomics: any order, the same bits.
void body_loads(const InstrumentArgs& args, const FixedPos* moment_points, std::uint64_t floating,
                unsigned long long* sums, cudaStream_t stream);

}  // namespace sph::cuda
