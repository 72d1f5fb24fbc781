// Zones that absorb waves: where the water's velocity is damped, so that waves running into the
// far end of a flume die there instead of reflecting back over the run (the damping zones of
// DualSPHysics, after Altomare et al. 2017, do the same with a quadratic ramp).
//
// A zone lies along one axis from `start` to `end` (either way round). In it the corrector's new
// velocity of each fluid particle is scaled by 1 - dt strength xi^2, xi = (x - start) / (end -
// start) in [0, 1] at the particle's place as the step begins (beyond `end`, 1), never below 0: a
// particle at the zone's start is not touched, one at its end loses strength x dt of its
// velocity a step. The factor depends on the particle's place and dt alone, so every device
// computes the same bits for it.
#pragma once

#include <cstdint>

#include "fixed_position.h"
#include "vec.h"

namespace sph {

struct DampingZone {
    std::int32_t axis = 0;  // 0 x, 1 y, 2 z
    float start = 0.0f;     // [m] where the damping begins
    float end = 0.0f;       // [m] where it is full
    float strength = 0.0f;  // [1/s] at the end
};

constexpr int kMostDampingZones = 4;

// The run's zones where the kernels read them (device memory on a GPU; none: count 0). Not a
// field of EulerArgs, which the Euler kernels copy and change: a larger copy made Euler take
// nearly twice as long on an H200 with no zone at all (bench/NOTES.md 44). The corrector takes
// them as an argument of its own, in a kernel of its own where there are zones.
struct DampingZones {
    const DampingZone* zone = nullptr;
    std::int32_t count = 0;
};

// The factor (above) for a particle at `pos`.
SPH_HD float damping_factor(const DampingZones& zones, const FixedPos& pos,
                            const PositionFrame& frame, float dt) {
    float factor = 1.0f;
    for (int k = 0; k < zones.count; ++k) {
        const DampingZone& z = zones.zone[k];
        const std::int32_t steps = z.axis == 0 ? pos.x : z.axis == 1 ? pos.y : pos.z;
        const float xi = (frame.metres(steps, z.axis) - z.start) / (z.end - z.start);
        if (xi <= 0.0f) continue;
        const float ramp = fminf(xi, 1.0f);
        factor *= fmaxf(1.0f - dt * z.strength * ramp * ramp, 0.0f);
    }
    return factor;
}

}  // namespace sph
