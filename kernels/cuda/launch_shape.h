// Block sizes and grid sizes of the CUDA launchers.
#pragma once

#include <cstdint>

namespace sph::cuda {

constexpr unsigned kBlock = 256;
constexpr unsigned kForcesBlock = 128;  // Forces holds many registers; smaller blocks fill the SMs

inline unsigned blocks_for(std::uint32_t count, unsigned block) {
    return (count + block - 1) / block;
}

}  // namespace sph::cuda
