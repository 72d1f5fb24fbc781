// Still water whose fluid particles are jittered off the lattice (by up to 0.4 dp along each
// axis): it churns, so particles cross slices, and its lists hold more neighbours than a
// lattice's (about 90 within the default list radius, against 80).
#pragma once

#include <random>

#include "still_water.h"

namespace sph::testing {

class RandomBox : public StillWater {
public:
    RandomBox() : StillWater(0.4, 0.2, 0.2) {}
    void fill(double dp, const EmitParticle& emit) const override {
        std::mt19937 random(42);
        std::uniform_real_distribution<double> jitter(-0.4 * dp, 0.4 * dp);
        StillWater::fill(dp, [&](SetupParticle p) {
            if (p.type == kFluid) {
                p.x += jitter(random);
                p.y += jitter(random);
                p.z += jitter(random);
            }
            emit(p);
        });
    }
};

}  // namespace sph::testing
