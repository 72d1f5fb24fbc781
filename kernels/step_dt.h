// A step's dt from the devices' dt minima: one rule for the host and for the GPUs' Euler kernels,
// so that every device computes the dt it steps with from the minima in its own memory (no host
// round trip between Forces and Euler) and the host, reading the same minima later, gets the same
// bits for its clock.
#pragma once

#include <cstdint>

#include "vec.h"

namespace sph {

// What a step's dt depends on besides the minima of its predictor stage.
struct StepClock {
    float dt_limit = 0.0f;  // the bound the last corrector set
    double time = 0.0, t_end = 0.0;
};

// min() that lets a NaN through, so that one blown-up particle cannot hide behind the others.
SPH_HD float min_keep_nan(float a, float b) {
    return (a != a || b != b) ? NAN : fminf(a, b);
}

// The smallest of `count` devices' minima; NaN if any is NaN.
SPH_HD float global_minimum(const float* minima, std::uint32_t count) {
    float smallest = minima[0];
    for (std::uint32_t d = 1; d < count; ++d) smallest = min_keep_nan(smallest, minima[d]);
    return smallest;
}

struct StepDt {
    float dt = 0.0f;
    bool usable = false;  // false: not finite or not positive, and the state must stay as it is
};

// The predictor's global minimum bounded by the last corrector's, then cut to end at t_end.
SPH_HD StepDt step_dt(const float* predictor_minima, std::uint32_t count, const StepClock& clock) {
    StepDt s;
    s.dt = min_keep_nan(global_minimum(predictor_minima, count), clock.dt_limit);
    s.usable = s.dt > 0.0f && s.dt - s.dt == 0.0f;  // positive and finite
    if (s.usable && clock.time + double(s.dt) > clock.t_end) {
        s.dt = static_cast<float>(clock.t_end - clock.time);
    }
    return s;
}

// Where Euler finds its dt: the stages' minima as the device holds them, one per device.
struct EulerDt {
    const float* predictor_minima;
    // The corrector's minima, for the corrector (null for the predictor): a NaN among them
    // leaves the state as it is, as an unusable dt does.
    const float* corrector_minima;
    std::uint32_t devices;
    StepClock clock;
};

SPH_HD StepDt euler_dt(const EulerDt& e) {
    StepDt s = step_dt(e.predictor_minima, e.devices, e.clock);
    if (e.corrector_minima != nullptr) {
        const float next = global_minimum(e.corrector_minima, e.devices);
        if (next != next) s.usable = false;
    }
    return s;
}

}  // namespace sph
