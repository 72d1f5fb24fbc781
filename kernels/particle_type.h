// The kinds of particle the simulator knows.
#pragma once

#include <cstdint>

#include "vec.h"

namespace sph {

enum ParticleType : std::uint8_t {
    kFluid = 0,
    kBoundary = 1,  // dynamic boundary: takes part in continuity and the EOS, never moves
    // A dynamic boundary without artificial viscosity towards the fluid: a free-slip wall, e.g.
    // the side walls of a quasi-2-D slab, which would otherwise hold the flow back like the
    // plates of a Hele-Shaw cell (the viscous drag grows as the slab thins in units of dp).
    kFreeSlipBoundary = 2,
    // A wall particle of a moving body (body_motion.h): body b's particles have type
    // kFirstBody + b. Everything that takes walls as walls (type != kFluid) takes them too.
    kFirstBody = 8,
};

// Bodies a run may have: their types stay below 256 and, as floats in a position's w, exact.
constexpr int kMostBodies = 64;

SPH_HD bool is_body(std::uint8_t type) {
    return type >= kFirstBody;
}

}  // namespace sph
