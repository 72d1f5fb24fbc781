// Block sizes and grid sizes of the CUDA launchers.
#pragma once

#include <cstdint>

namespace sph::cuda {

constexpr unsigned kBlock = 256;
constexpr unsigned kForcesBlock = 128;  // Forces holds many registers; smaller blocks fill the SMs
// Forces' blocks that must fit on one multiprocessor at once: caps its registers per thread.
#ifndef SPH_FORCES_BLOCKS_PER_SM
#define SPH_FORCES_BLOCKS_PER_SM 1
#endif
constexpr unsigned kForcesBlocksPerSm = SPH_FORCES_BLOCKS_PER_SM;

inline unsigned blocks_for(std::uint32_t count, unsigned block) {
    return (count + block - 1) / block;
}

}  // namespace sph::cuda
