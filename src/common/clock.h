// The one clock of host-side timing: wall seconds on the steady clock, for set-up and phase times,
// status lines and trace events.
#pragma once

#include <chrono>

namespace sph {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point start) {
    return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace sph
