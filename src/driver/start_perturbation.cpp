#include "driver/start_perturbation.h"

#include <cmath>

namespace sph {
namespace {

// SplitMix64 (Steele, Lea & Flood 2014): a well-mixed 64-bit value from each input, so
// neighbouring indices and seeds give unrelated moves.
std::uint64_t split_mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A whole number of steps in [-reach, reach] (the modulo's bias is below 2^-32 for any reach a
// frame allows).
std::int32_t steps_from(std::uint64_t bits, std::int32_t reach) {
    const std::uint64_t choices = 2 * std::uint64_t(reach) + 1;
    return static_cast<std::int32_t>(std::int64_t(bits % choices) - reach);
}

}  // namespace

StartPerturbation start_perturbation(std::int64_t seed, double size_in_dp, double dp,
                                     const PositionFrame& frame) {
    StartPerturbation p;
    if (seed == 0) return p;
    p.seed = seed;
    p.reach = static_cast<std::int32_t>(std::floor(size_in_dp * dp / double(frame.unit)));
    return p;
}

FixedPos perturbed(const FixedPos& p, const StartPerturbation& perturbation, std::uint64_t index) {
    if (!perturbation.on()) return p;
    std::uint64_t state = split_mix(std::uint64_t(perturbation.seed) ^ split_mix(index));
    std::int32_t move[3];
    for (int a = 0; a < 3; ++a) {
        state = split_mix(state);
        move[a] = steps_from(state, perturbation.reach);
    }
    return FixedPos{p.x + move[0], p.y + move[1], p.z + move[2], p.w};
}

}  // namespace sph
