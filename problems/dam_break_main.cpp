// Compiles DamBreak into the `dambreak` executable.
#include <memory>

#include "dam_break.h"

namespace sph {
std::unique_ptr<Problem> make_problem(int, const char* const[]) {
    return std::make_unique<DamBreak>();
}
}  // namespace sph
