#pragma once
// Ensemble members: the same problem started from a slightly different place. A dam break's
// first impact peak, or the waves an impact sends back, change from run to run with rounding
// alone (validation/README.md: SPHERIC's returning waves over 0.1 s, Lobovsky's second sensor's
// first peak by 20 %), as the experiments' own repetitions do. Runs that differ only in
// --perturb's seed sample that spread on purpose, so that a peak can be read as a median and a
// band rather than as one draw.
#include <cstdint>

#include "fixed_position.h"

namespace sph {

struct StartPerturbation {
    std::int64_t seed = 0;   // 0: none
    std::int32_t reach = 0;  // the largest move along each axis [position steps]
    bool on() const { return seed != 0 && reach > 0; }
};

// The perturbation of `seed` (0: none) moving fluid particles by at most `size_in_dp` dp along
// each axis, in the steps of `frame`.
StartPerturbation start_perturbation(std::int64_t seed, double size_in_dp, double dp,
                                     const PositionFrame& frame);

// Particle `index` of the set-up, moved by whole steps drawn from the seed and the index alone:
// integers, so the same on every machine, back end and device count.
FixedPos perturbed(const FixedPos& p, const StartPerturbation& perturbation, std::uint64_t index);

}  // namespace sph
