// The kinds of particle the simulator knows.
#pragma once

#include <cstdint>

namespace sph {

enum ParticleType : std::uint8_t {
    kFluid = 0,
    kBoundary = 1,  // dynamic boundary: takes part in continuity and the EOS, never moves
};

}  // namespace sph
