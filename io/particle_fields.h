// What an output writer needs of one piece of the particle system: borrowed host arrays.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vec.h"

namespace sph {

// A read-only view of `count` particles held on the host. The writer copies what it needs.
struct ParticleFields {
    std::size_t count = 0;
    const Vec3* position = nullptr;          // x, y, z [m]
    const Vec4* velocity_density = nullptr;  // vx, vy, vz [m/s]; w = density [kg/m^3]
    const float* pressure = nullptr;         // [Pa]
    const std::uint32_t* id = nullptr;
    const std::uint8_t* type = nullptr;  // ParticleType: 0 fluid, 1 boundary, 2 free-slip boundary
    const std::int32_t* device = nullptr;  // owning device; may be null (then not written)
};

}  // namespace sph
