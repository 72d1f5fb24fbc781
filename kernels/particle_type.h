// The kinds of particle the simulator knows.
#pragma once

#include <cstdint>

namespace sph {

enum ParticleType : std::uint8_t {
    kFluid = 0,
    kBoundary = 1,  // dynamic boundary: takes part in continuity and the EOS, never moves
    // A dynamic boundary without artificial viscosity towards the fluid: a free-slip wall, e.g.
    // the side walls of a quasi-2-D slab, which would otherwise hold the flow back like the
    // plates of a Hele-Shaw cell (the viscous drag grows as the slab thins in units of dp).
    kFreeSlipBoundary = 2,
};

}  // namespace sph
