// Compiles DamBreak into the `dambreak` executable.
#include <memory>

#include "dam_break.h"

namespace sph {
std::unique_ptr<Problem> make_problem() {
    return std::make_unique<DamBreak>();
}
}  // namespace sph
