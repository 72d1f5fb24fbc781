// Block sizes and grid sizes of the CUDA launchers.
#pragma once

#include <cstdint>

namespace sph::cuda {

constexpr unsigned kBlock = 256;
constexpr unsigned kForcesBlock = 128;  // Forces holds many registers; smaller blocks fill the SMs
// The list build stages each thread's list in shared memory (136 bytes a thread at the default
// 128 entries): 17 KB a block of 128, twelve blocks an SM.
constexpr unsigned kListBlock = 128;

inline unsigned blocks_for(std::uint32_t count, unsigned block) {
    return (count + block - 1) / block;
}

}  // namespace sph::cuda
