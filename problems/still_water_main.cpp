// Compiles StillWater into the `still_water` executable (the hydrostatic validation case).
#include <memory>

#include "still_water.h"

namespace sph {
std::unique_ptr<Problem> make_problem(int, const char* const[]) {
    return std::make_unique<StillWater>(1.0, 0.5, 0.5);
}
}  // namespace sph
