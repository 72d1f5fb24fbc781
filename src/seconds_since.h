// Wall-clock seconds on the host's steady clock, for the report's set-up and phase times.
#pragma once

#include <chrono>

namespace sph {

using SteadyClock = std::chrono::steady_clock;

inline double seconds_since(SteadyClock::time_point start) {
    return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace sph
